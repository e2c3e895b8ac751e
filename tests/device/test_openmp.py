"""Host OpenMP (-fopenmp), as hipcc gives it: `gpusym build` and
`gpusym-hipcc` compile the host side with OpenMP and link LLVM's libomp; the
program runs with no library path; device code is compiled without OpenMP;
a missing libomp is one line naming Debian's package."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from conftest import TEST_PROGRAMS, describe, run, run_gpusym

from device.compiler import openmp
from device.compiler.driver import build
from native import toolchain

pytestmark = [pytest.mark.toolchain]

HIPCC = Path(sys.executable).parent / "gpusym-hipcc"
PROGRAM = TEST_PROGRAMS / "openmp_host.hip"
C_PROGRAM = TEST_PROGRAMS / "openmp_host.c"
#: Two OpenMP threads, and no library path: the program finds libomp itself.
ENVIRONMENT = {"OMP_NUM_THREADS": "2", "LD_LIBRARY_PATH": ""}
#: What openmp_host prints with two threads: sum of i % 101 and of its
#: squares over 4096 elements; device code without _OPENMP.
EXPECTED = [
    "max threads 2",
    "team 2",
    "input sum 203540",
    "square sum 13590980",
    "device _OPENMP no",
]


def compiler(driver: str, *args, cwd: Path):
    """`gpusym build ARGS` or `gpusym-hipcc ARGS` in `cwd`; fails the test unless it succeeds."""
    command = [HIPCC] if driver == "hipcc" else [Path(sys.executable).parent / "gpusym", "build"]
    result = run([*command, *args], cwd=cwd)
    assert result.returncode == 0, describe(result)
    return result


def run_program(program: Path) -> list[str]:
    result = run([program], env=ENVIRONMENT)
    assert result.returncode == 0, describe(result)
    return result.stdout.splitlines()


def needed_libraries(program: Path) -> str:
    return run([toolchain.tool("llvm-readelf"), "-d", program]).stdout


@pytest.mark.parametrize("level", ["-O0", "-O2"])
@pytest.mark.parametrize("driver", ["build", "hipcc"])
def test_host_openmp_program_builds_and_runs_with_two_threads(driver, level, tmp_path):
    compiler(driver, "-fopenmp", level, PROGRAM, "-o", "openmp_host", cwd=tmp_path)
    program = tmp_path / "openmp_host"
    assert run_program(program) == EXPECTED
    assert "libomp.so" in needed_libraries(program)


@pytest.fixture(scope="module")
def openmp_object(tmp_path_factory) -> Path:
    """openmp_host.hip compiled alone (-c) with -fopenmp=libomp at -O2."""
    out = tmp_path_factory.mktemp("openmp-object")
    compiler("hipcc", "-O2", "-fopenmp=libomp", "-c", PROGRAM, "-o", "openmp_host.o", cwd=out)
    return out / "openmp_host.o"


def test_separate_compile_and_link_steps(openmp_object, tmp_path):
    compiler("hipcc", "-fopenmp", openmp_object, "-o", "openmp_host", cwd=tmp_path)
    assert run_program(tmp_path / "openmp_host") == EXPECTED


def test_device_code_is_the_same_as_without_openmp(openmp_object, tmp_path):
    """The fat binary a -fopenmp compile embeds is the bundle of the same
    source and flags without it (--genco): no device compile saw -fopenmp."""
    compiler("hipcc", "-O2", "--genco", PROGRAM, "-o", "openmp_host.co", cwd=tmp_path)
    embedded = tmp_path / "embedded.hipfb"
    dump = [
        toolchain.tool("llvm-objcopy"),
        f"--dump-section=.hip_fatbin={embedded}",
        openmp_object,
        tmp_path / "copy.o",
    ]
    result = run(dump)
    assert result.returncode == 0, describe(result)
    assert embedded.read_bytes() == (tmp_path / "openmp_host.co").read_bytes()


@pytest.mark.parametrize(("driver", "language"), [("build", []), ("hipcc", ["-x", "c++"])])
def test_plain_c_and_cxx_sources_with_openmp(driver, language, tmp_path):
    compiler(driver, "-fopenmp", *language, C_PROGRAM, "-o", "openmp_c", cwd=tmp_path)
    assert run_program(tmp_path / "openmp_c") == ["max threads 2", "team 2", "sum 50005000"]


def test_a_missing_libomp_is_one_line_naming_the_package(openmp_object, tmp_path, monkeypatch, capfd):
    monkeypatch.setattr(openmp, "_library", lambda search: None)
    assert build(["-fopenmp", str(openmp_object), "-o", str(tmp_path / "program")]) == 1
    stderr = capfd.readouterr().err
    assert stderr.splitlines() == [
        "gpusym build: -fopenmp: LLVM's OpenMP runtime (libomp.so) not found: "
        "install Debian's libomp-19-dev (make setup does it)"
    ]
    assert not (tmp_path / "program").exists()


def test_a_missing_omp_header_names_the_package(tmp_path):
    source = tmp_path / "uses_omp.c"
    source.write_text("#include <omp.h>\nint main(void) { return omp_get_max_threads() < 1; }\n")
    # -nostdinc: no include directory at all, so no omp.h, as without libomp-19-dev.
    result = run_gpusym("build", "-fopenmp", "-nostdinc", "-c", source, "-o", tmp_path / "uses_omp.o")
    assert result.returncode != 0, describe(result)
    assert "'omp.h' file not found" in result.stderr, describe(result)
    assert result.stderr.splitlines()[-1] == f"{source}: omp.h (OpenMP) not found: {openmp.INSTALL_HINT}"


def test_the_link_finds_libomp_with_no_rpath_where_the_loader_does():
    """Debian's libomp5-19 puts libomp.so.5 on the loader's path: no rpath."""
    assert openmp.link_flags("libomp", []) == []


def test_a_libomp_the_loader_does_not_find_gets_an_rpath(tmp_path):
    library = openmp._library(())
    assert library is not None
    own = tmp_path / "lib"
    own.mkdir()
    shutil.copy(library.resolve(), own / "libomp.so")
    assert openmp.link_flags("libomp", [f"-L{own}"]) == [f"-Wl,-rpath,{own}"]


def test_other_openmp_runtimes_are_clangs_business():
    assert openmp.link_flags("libgomp", []) == openmp.link_flags(None, []) == []
