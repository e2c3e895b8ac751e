"""Every parameter shape a kernel can take reaches it intact on the simulated
device: a generated program (abi_shapes.py) built with ``gpusym build`` at -O0
and -O2 echoes each argument back, and the host compares bytes and values."""

from __future__ import annotations

import re

import abi_shapes
import pytest
from conftest import BUILD_TIMEOUT, describe, run, run_gpusym

pytestmark = [pytest.mark.toolchain, pytest.mark.slow]


@pytest.fixture(scope="module")
def abi_source(tmp_path_factory):
    text, cases = abi_shapes.source()
    path = tmp_path_factory.mktemp("abi") / "abi_shapes.hip"
    path.write_text(text)
    return path, cases


@pytest.mark.parametrize("level", ["-O0", "-O2"])
def test_every_parameter_shape_reaches_the_kernel_intact(abi_source, level):
    source, cases = abi_source
    program = source.with_name(f"abi_shapes{level}")
    built = run_gpusym("build", level, source, "-o", program, timeout=BUILD_TIMEOUT)  # 382 kernels: a minute
    assert built.returncode == 0, describe(built)
    result = run([program])
    failures = [line for line in result.stdout.splitlines() if line.startswith("FAIL")]
    assert not failures, "\n".join(failures[:40])
    assert re.fullmatch(rf"abi: {cases} cases, 0 failed", result.stdout.strip().splitlines()[-1]), describe(result)
    assert result.returncode == 0, describe(result)
