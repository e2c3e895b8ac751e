"""The pairs benchmark's programs (bench/programs/pairs): built as
``bench/run.py pairs`` builds them, at small sizes (not multiples of the
kernels' blocks), the HIP kernels agree with the OpenMP loops (and the scan
with a serial one) in both forms, on as many OpenMP threads as the device
has workers.  Nothing is timed: ``pairs small check`` runs each side once."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import BUILD_TIMEOUT, describe, run, run_gpusym

pytestmark = [pytest.mark.toolchain]

PAIRS = Path(__file__).resolve().parents[2] / "bench" / "programs" / "pairs"


@pytest.fixture(scope="module")
def pairs(tmp_path_factory) -> Path:
    program = tmp_path_factory.mktemp("pairs") / "pairs"
    sources = [PAIRS / "pairs.hip", PAIRS / "pairs_openmp.cpp"]
    built = run_gpusym("build", "-O2", "-fopenmp", *sources, "-o", program, timeout=BUILD_TIMEOUT)
    assert built.returncode == 0, describe(built)
    return program


@pytest.mark.parametrize("form", ["fast", "debug"])
@pytest.mark.parametrize("workers", ["1", "2"])
def test_each_pair_agrees_with_its_openmp_version(pairs, form, workers):
    result = run([pairs, "small", "check"], env={"GPUSYM_FORM": form, "GPUSYM_WORKERS": workers})
    assert result.returncode == 0, describe(result)
    assert result.stdout.splitlines() == [
        f"workers {workers}",
        f"openmp_threads {workers}",
        "check stencil ok",
        "check reduction ok",
        "check nbody ok",
        "check scan ok",
    ], describe(result)
