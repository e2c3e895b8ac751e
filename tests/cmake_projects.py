"""CMake projects built for the simulated device through a ROCm prefix
(``gpusym rocm-prefix``) and its toolchain file, as a user builds them."""

from __future__ import annotations

import subprocess
from pathlib import Path

from conftest import BUILD_TIMEOUT, describe, run, run_gpusym


def rocm_prefix(directory: Path) -> Path:
    """``gpusym rocm-prefix DIRECTORY``, which succeeds and names it."""
    result = run_gpusym("rocm-prefix", directory, timeout=BUILD_TIMEOUT)
    assert result.returncode == 0, describe(result)
    assert result.stdout.strip() == str(directory), describe(result)
    return directory


def cmake_build(
    project: Path, build: Path, prefix: Path, *options: str, target: str = "all"
) -> subprocess.CompletedProcess:
    """Configures `project` in `build` with `prefix`'s toolchain file and
    `options`, and builds `target`, both succeeding; returns the
    configuration (its output)."""
    toolchain = f"-DCMAKE_TOOLCHAIN_FILE={prefix / 'gpusym-toolchain.cmake'}"
    configured = run(["cmake", "-S", project, "-B", build, toolchain, *options], timeout=300)
    assert configured.returncode == 0, describe(configured)
    built = run(["cmake", "--build", build, "--target", target], timeout=BUILD_TIMEOUT)
    assert built.returncode == 0, describe(built)
    return configured
