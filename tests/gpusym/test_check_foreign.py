"""``gpusym check`` on a program whose device code is NVIDIA's alone (built
by nvcc): one line naming its kernels and what to do, and nothing run."""

from __future__ import annotations

import shutil

import pytest
from conftest import TEST_PROGRAMS, describe, run, run_gpusym

from gpusym.check import EXIT_NOT_SIMULATED

pytestmark = [pytest.mark.toolchain]


def test_an_nvcc_program_is_refused_with_one_line_naming_its_kernels(tmp_path):
    if shutil.which("nvcc") is None:
        pytest.skip("nvcc is not installed")
    program = tmp_path / "handles"
    built = run(["nvcc", "-arch=sm_90", TEST_PROGRAMS / "cuda_query" / "handles.cu", "-o", program])
    assert built.returncode == 0, describe(built)
    result = run_gpusym("check", "--tool", "memcheck", program)
    assert result.returncode == EXIT_NOT_SIMULATED, describe(result)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"gpusym check: {program}: its kernels "), describe(result)
    assert lines[0].endswith(
        "NVIDIA GPU code only (compute_90, sm_90), which the simulated device cannot run: rebuild it with gpusym-nvcc"
    ), describe(result)
    assert result.stdout == ""  # the program did not run
