"""Builds NVIDIA's CUDA samples (a checkout of the cuda-samples repository)
for the simulated device, each sample through its own CMakeLists.txt with
the prefix's toolchain file, runs what it builds, and prints one line per
sample: passed, failed (exit status and last output line) or not built (the
first error).  The docs' table of samples is made from its output:

    .venv/bin/python scripts/try_cuda_samples.py CHECKOUT [SAMPLE_DIR...]

CHECKOUT is the repository's root; SAMPLE_DIRs (default: every sample) are
paths under it, such as Samples/0_Introduction/vectorAdd.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PREFIX = ROOT / ".venv" / "rocm"
#: What a sample's CMakeLists.txt uses that the simulated device does not
#: have: a CUDA library gpusym does not provide (it has cuBLAS, cuFFT,
#: cuRAND and cuSPARSE), graphics, or another platform's API.
_OUTSIDE = {
    r"CUDA::(cusolver|npp\w*|nvjpeg)": "a CUDA library ({})",
    r"find_package\((OpenGL|GLUT|Vulkan|EGL|FreeImage|NVSCI|MPI)": "{}",
}
#: Seconds a sample may take to configure, build, and run.
_LIMITS = {"configure": 300, "build": 900, "run": 300}
_ERROR = re.compile(r"(error:.*|Error: .*|undefined reference to .*|CMake Error.*)")


def _run(command: list[str], cwd: Path, limit: int) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(command, cwd=cwd, capture_output=True, text=True, errors="replace", timeout=limit)
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(command, 124, "", f"timed out after {limit} s")


def _first_error(result: subprocess.CompletedProcess) -> str:
    text = result.stdout + result.stderr
    found = _ERROR.search(text)
    return (found[1] if found else text.strip().splitlines()[-1] if text.strip() else "no output")[:160]


def _programs(build: Path) -> list[Path]:
    """The executables a sample's build wrote (not CMake's own)."""
    return sorted(
        path
        for path in build.iterdir()
        if path.is_file() and path.stat().st_mode & 0o111 and not path.name.startswith("cmake")
    )


def _outside(sample: Path) -> str | None:
    """What the sample needs that is outside the simulated device, if anything."""
    text = (sample / "CMakeLists.txt").read_text(errors="replace")
    needs = sorted(
        {template.format(found[1]) for pattern, template in _OUTSIDE.items() for found in re.finditer(pattern, text)}
    )
    return ", ".join(needs) or None


def try_sample(sample: Path, compilers: Path | None) -> str:
    """One sample, built and run: its line of the report.  `compilers` is a
    CMakeFiles/<version> folder of an earlier configure, whose compiler
    detection this one reuses."""
    needs = _outside(sample)
    if needs:
        return f"not tried: needs {needs}"
    build = sample / "build-gpusym"
    shutil.rmtree(build, ignore_errors=True)  # a cache of an earlier try would decide for this one
    if compilers:
        shutil.copytree(compilers, build / "CMakeFiles" / compilers.name)
    toolchain = PREFIX / "gpusym-toolchain.cmake"
    configure = ["cmake", "-S", ".", "-B", build.name, f"-DCMAKE_TOOLCHAIN_FILE={toolchain}"]
    configured = _run(configure, sample, _LIMITS["configure"])
    if configured.returncode != 0:
        return f"not configured: {_first_error(configured)}"
    built = _run(["cmake", "--build", build.name, "-j", "2"], sample, _LIMITS["build"])
    if built.returncode != 0:
        return f"not built: {_first_error(built)}"
    programs = _programs(build)
    if not programs:
        return "not built: no program"
    for program in programs:
        ran = _run([str(program)], program.parent, _LIMITS["run"])
        if ran.returncode != 0 or "FAIL" in ran.stdout:
            last = (ran.stdout + ran.stderr).strip().splitlines()[-1:] or ["no output"]
            return f"failed: {program.name} exit {ran.returncode}: {last[0][:160]}"
    return "passed"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkout", type=Path)
    parser.add_argument("samples", nargs="*", type=Path)
    args = parser.parse_args()
    samples = [args.checkout / sample for sample in args.samples] or sorted(
        path.parent for path in args.checkout.glob("Samples/*/*/CMakeLists.txt")
    )
    compilers = None
    for sample in samples:
        print(f"{sample.relative_to(args.checkout)}: {try_sample(sample, compilers)}", flush=True)
        detected = sorted((sample / "build-gpusym" / "CMakeFiles").glob("[0-9]*/CMakeCUDACompiler.cmake"))
        if compilers is None and detected:
            compilers = detected[0].parent
    return 0


if __name__ == "__main__":
    sys.exit(main())
