"""Shared fixtures: programs built once per session with the real toolchain.

Every sample is built once with ``-g`` (vector_add also without it and with
``-O2``) into a ``tmp_path_factory`` directory; small extra programs come from
``tests/programs`` and are built on demand by ``build_program``, each distinct
(sources, flags) combination once per session.
"""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import pytest

from sample_apps.samples import SAMPLES, build_sample

REPO = Path(__file__).resolve().parent.parent
TEST_PROGRAMS = Path(__file__).resolve().parent / "programs"
GPUSYM = Path(sys.executable).parent / "gpusym"  # the console script of the venv
GPUSYM_NVCC = GPUSYM.with_name("gpusym-nvcc")

#: Generous per-process limit: a hung program or debugger fails its test
#: instead of stalling the suite.
RUN_TIMEOUT = 120
#: A build's limit: a program over a header library (rocPRIM, cuRAND) takes
#: a minute of CPU, more on a loaded machine, and a first build compiles
#: the runtime and libraries too.
BUILD_TIMEOUT = 600

SAMPLES_BY_NAME = {sample.name: sample for sample in SAMPLES}


def run(command: list[str | Path], *, env: dict[str, str] | None = None, timeout: float = RUN_TIMEOUT, cwd=None):
    """Runs `command` capturing text output; extra `env` entries are added to ours."""
    full_env = dict(os.environ, **(env or {}))
    return subprocess.run(
        [str(part) for part in command],
        capture_output=True,
        text=True,
        env=full_env,
        timeout=timeout,
        cwd=cwd,
    )


def run_gpusym(*args: str | Path, cwd=None, timeout: float = RUN_TIMEOUT) -> subprocess.CompletedProcess:
    """``gpusym ARGS`` through the installed console script, as a user runs it."""
    return run([GPUSYM, *args], cwd=cwd, timeout=timeout)


def on_terminal(*args: str | Path, columns: int = 120) -> subprocess.CompletedProcess:
    """``gpusym ARGS`` with its standard output on a terminal (a pty) of
    `columns` columns, as a person runs it; stderr is a pipe."""
    leader, follower = pty.openpty()
    command = [str(GPUSYM), *map(str, args)]
    environment = dict(os.environ, COLUMNS=str(columns))
    with subprocess.Popen(command, stdout=follower, stderr=subprocess.PIPE, env=environment) as process:
        os.close(follower)
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 1 << 16)
            except OSError:  # EIO: the terminal's other side is closed
                break
            if not chunk:
                break
            chunks.append(chunk)
        os.close(leader)
        stderr = process.stderr.read().decode()
        process.wait(timeout=RUN_TIMEOUT)
    stdout = b"".join(chunks).decode().replace("\r\n", "\n")
    return subprocess.CompletedProcess(command, process.returncode, stdout, stderr)


def describe(result: subprocess.CompletedProcess) -> str:
    """A failed process's command, status and output, for assertion messages."""
    command = result.args if isinstance(result.args, str) else " ".join(map(str, result.args))
    return f"$ {command}\nexit status {result.returncode}\n--- stdout\n{result.stdout}--- stderr\n{result.stderr}"


def assert_checks_pass(result: subprocess.CompletedProcess, count: int) -> None:
    """`result` printed `count` lines "NAME: ok" (none "NAME: FAIL ...") and exited 0."""
    lines = re.findall(r"^(.+): (ok|FAIL.*)$", result.stdout, re.M)
    failing = [name for name, verdict in lines if verdict != "ok"]
    assert len(lines) == count and not failing, (failing, describe(result))
    assert result.returncode == 0, describe(result)


class SampleBuilds:
    """Builds samples on first request, each (name, flags) once per session."""

    def __init__(self, root: Path):
        self.root = root
        self._built: dict[tuple[str, tuple[str, ...]], Path] = {}

    def get(self, name: str, flags: tuple[str, ...] = ("-g",)) -> Path:
        key = (name, flags)
        if key not in self._built:
            label = "_".join(flag.lstrip("-").replace("=", "") for flag in flags) or "plain"
            out_dir = self.root / f"{name}-{label}"
            self._built[key] = build_sample(SAMPLES_BY_NAME[name], out_dir, flags=flags)
        return self._built[key]


@pytest.fixture(scope="session")
def sample_builds(tmp_path_factory) -> SampleBuilds:
    return SampleBuilds(tmp_path_factory.mktemp("samples"))


@pytest.fixture(scope="session")
def samples(sample_builds) -> dict[str, Path]:
    """Every sample of the catalog, built with ``-g``: name -> program."""
    return {sample.name: sample_builds.get(sample.name) for sample in SAMPLES}


@pytest.fixture(scope="session")
def vector_add(samples) -> Path:
    return samples["vector_add"]


@pytest.fixture(scope="session")
def vector_add_nodebug(sample_builds) -> Path:
    """vector_add built without ``-g``."""
    return sample_builds.get("vector_add", ())


@pytest.fixture(scope="session")
def templates(samples) -> Path:
    return samples["templates"]


class ProgramBuilds:
    """Builds programs from ``tests/programs`` with ``gpusym build`` (CUDA
    ones, ``.cu`` under ``tests/programs/cuda``, with ``gpusym-nvcc``)."""

    def __init__(self, root: Path):
        self.root = root
        self._built: dict[tuple[tuple[str, ...], tuple[str, ...], str], Path] = {}

    def __call__(self, *sources: str, flags: tuple[str, ...] = ("-g",), output: str | None = None) -> Path:
        """Builds `sources` (names in tests/programs) with `flags`; returns the output.

        `output` names the result (a program, or a library with ``-shared``);
        it defaults to the first source's stem."""
        output = output or Path(sources[0]).stem
        key = (sources, flags, output)
        if key not in self._built:
            out_dir = self.root / f"build-{len(self._built)}"
            out_dir.mkdir(parents=True)
            target = out_dir / output
            inputs = [TEST_PROGRAMS / source for source in sources]
            if sources[0].startswith("cuda/"):
                result = run([GPUSYM_NVCC, *flags, *inputs, "-o", target], timeout=BUILD_TIMEOUT)
            else:
                result = run_gpusym("build", *flags, *inputs, "-o", target, timeout=BUILD_TIMEOUT)
            assert result.returncode == 0, f"building {sources} failed\n{describe(result)}"
            assert target.is_file(), f"gpusym build exited 0 but wrote no {target}"
            self._built[key] = target
        return self._built[key]


@pytest.fixture(scope="session")
def build_program(tmp_path_factory) -> ProgramBuilds:
    """Callable: ``build_program("api_errors.hip", flags=("-g",))`` -> Path."""
    return ProgramBuilds(tmp_path_factory.mktemp("programs"))
