"""ROCm's header-only libraries, unmodified, on the simulated device: rocPRIM
(Debian's librocprim-dev, or GPUSYM_ROCPRIM_INCLUDE), hipCUB and rocThrust
(GPUSYM_HIPCUB_INCLUDE, GPUSYM_ROCTHRUST_INCLUDE, or where ROCm installs
them), each program checking its results against the host
(tests/programs/rocm_libraries/); and rocPRIM's CMake package through the
prefix's toolchain file."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from cmake_projects import cmake_build, rocm_prefix
from conftest import GPUSYM, TEST_PROGRAMS, describe, run
from gdb_batch import gdb

from device import runtime_library

pytestmark = [pytest.mark.toolchain]

PROGRAMS = TEST_PROGRAMS / "rocm_libraries"
#: Where ROCm's packages put the headers, after a directory named by the variable.
STANDARD_PLACES = (Path("/opt/rocm/include"), Path("/usr/include"))
FLAGS = ("-O1", "-g")  # the quickest build and run of rocPRIM's templates; gdb reads them


def library_include(variable: str, header: str) -> Path | None:
    """The include directory holding `header`: $`variable`, then the standard places."""
    candidates = [Path(os.environ[variable])] if os.environ.get(variable) else []
    return next((place for place in [*candidates, *STANDARD_PLACES] if (place / header).is_file()), None)


ROCPRIM = library_include("GPUSYM_ROCPRIM_INCLUDE", "rocprim/rocprim.hpp")
needs_rocprim = pytest.mark.skipif(ROCPRIM is None, reason="rocPRIM not found (apt-get install librocprim-dev)")


def build(source: str, directory: Path, *includes: Path, flags: tuple[str, ...] = ()) -> Path:
    """`source` built with gpusym build, the libraries' directories searched as system headers."""
    program = directory / Path(source).stem
    search = [f"-isystem{include}" for include in includes if include not in STANDARD_PLACES[1:]]
    # rocPRIM's templates take a while to compile, and the runtime may be built first.
    built = run([GPUSYM, "build", *FLAGS, *search, *flags, PROGRAMS / source, "-o", program], timeout=600)
    assert built.returncode == 0, describe(built)
    return program


def passes(result, check_line: str) -> None:
    assert result.returncode == 0 and check_line in result.stdout.splitlines(), describe(result)


@pytest.fixture(scope="module")
def rocprim_programs(tmp_path_factory) -> tuple[Path, Path]:
    directory = tmp_path_factory.mktemp("rocprim")
    dependencies = ("-MD", "-MF", str(directory / "blocks.d"))
    return build("rocprim_blocks.hip", directory, ROCPRIM, flags=dependencies), build(
        "rocprim_device.hip", directory, ROCPRIM
    )


@needs_rocprim
def test_rocprim_block_and_warp_primitives_match_the_host(rocprim_programs):
    result = run([rocprim_programs[0]])
    passes(result, "rocprim block primitives: all match the host")
    for primitive in ("block_reduce", "block_scan inclusive", "warp_reduce", "warp_scan", "block_radix_sort"):
        assert f"{primitive}: ok" in result.stdout, describe(result)


@needs_rocprim
def test_rocprim_compiles_with_gpusyms_hip_headers_alone(rocprim_programs):
    # Debian's libamdhip64-dev (ROCm 5.2's headers in /usr/include/hip)
    # comes with librocprim-dev: none of its headers may be used.
    dependencies = (rocprim_programs[0].parent / "blocks.d").read_text().split()
    hip_headers = [path for path in dependencies if "/hip/" in path and path.endswith(".h")]
    assert hip_headers and all(
        Path(path).resolve().is_relative_to(runtime_library.INCLUDE_DIR) for path in hip_headers
    ), hip_headers


@needs_rocprim
@pytest.mark.parametrize("workers", ["1", "2"])
def test_rocprim_device_algorithms_and_the_look_back_scan_match_the_host(rocprim_programs, workers):
    result = run([rocprim_programs[1]], env={"GPUSYM_WORKERS": workers})
    passes(result, "rocprim device algorithms: all match the host")
    assert "device gfx90a gcnArch 910" in result.stdout, describe(result)


@needs_rocprim
def test_hipcub_over_rocprim(tmp_path):
    hipcub = library_include("GPUSYM_HIPCUB_INCLUDE", "hipcub/hipcub.hpp")
    if hipcub is None:
        pytest.skip("hipCUB not found: set GPUSYM_HIPCUB_INCLUDE to the directory holding hipcub/hipcub.hpp")
    # Without GNU extensions, as hipCUB's own build: hipCUB 3.x fails on __int128 with them.
    program = build("hipcub_algorithms.hip", tmp_path, hipcub, ROCPRIM, flags=("-std=c++17",))
    passes(run([program]), "hipcub: all match the host")


@needs_rocprim
def test_rocthrust_over_rocprim(tmp_path):
    # thrust/rocthrust_version.hpp tells rocThrust from NVIDIA's Thrust.
    rocthrust = library_include("GPUSYM_ROCTHRUST_INCLUDE", "thrust/rocthrust_version.hpp")
    if rocthrust is None:
        pytest.skip("rocThrust not found: set GPUSYM_ROCTHRUST_INCLUDE to the directory holding thrust/")
    passes(run([build("rocthrust_algorithms.hip", tmp_path, rocthrust, ROCPRIM)]), "rocthrust: all match the host")


@needs_rocprim
def test_rocprim_hipcub_rocthrust_and_hiprand_in_one_program(tmp_path):
    hipcub = library_include("GPUSYM_HIPCUB_INCLUDE", "hipcub/hipcub.hpp")
    rocthrust = library_include("GPUSYM_ROCTHRUST_INCLUDE", "thrust/rocthrust_version.hpp")
    hiprand = library_include("GPUSYM_HIPRAND_INCLUDE", "hiprand/hiprand_kernel.h")
    if None in (hipcub, rocthrust, hiprand):
        pytest.skip("hipCUB, rocThrust or hipRAND not found (GPUSYM_HIPCUB_INCLUDE, GPUSYM_ROCTHRUST_INCLUDE)")
    program = build("four_libraries.hip", tmp_path, hipcub, rocthrust, hiprand, ROCPRIM)
    result = run([program])
    passes(result, "four libraries: all match the host")
    assert len(re.findall(r": ok$", result.stdout, re.M)) == 5, describe(result)


@pytest.mark.skipif(
    not Path("/usr/lib/cmake/rocprim/rocprim-config.cmake").is_file(), reason="Debian's librocprim-dev not installed"
)
def test_find_package_rocprim_through_the_toolchain_file_uses_the_prefixs_hip(tmp_path):
    prefix = rocm_prefix(tmp_path / "rocm")
    configured = cmake_build(PROGRAMS / "cmake", tmp_path / "build", prefix)
    cache = (tmp_path / "build" / "CMakeCache.txt").read_text().splitlines()
    assert f"hip_DIR:PATH={prefix / 'lib' / 'cmake' / 'hip'}" in cache, describe(configured)
    passes(run([tmp_path / "build" / "rocprim_blocks"]), "rocprim block primitives: all match the host")


def installed_from_source(variable: str, build: Path, prefix: Path) -> Path:
    """The source tree $`variable` configured with the prefix's toolchain file
    and hipcc, as the library's README says, and installed; returns where."""
    source = os.environ.get(variable)
    if not source:
        pytest.skip(f"set {variable} to a source tree to try its CMake install")
    if not Path("/usr/share/rocm/cmake/ROCMConfig.cmake").is_file():
        pytest.skip("rocm-cmake not installed (apt-get install rocm-cmake)")
    installed = build.with_name(build.name + "-installed")
    compiler, destination = f"-DCMAKE_CXX_COMPILER={prefix / 'bin' / 'hipcc'}", f"-DCMAKE_INSTALL_PREFIX={installed}"
    cmake_build(Path(source), build, prefix, compiler, destination, "-DBUILD_TEST=OFF", target="install")
    return installed


def test_find_package_hipcub_and_rocthrust_after_their_own_cmake_install(tmp_path):
    prefix = rocm_prefix(tmp_path / "rocm")
    hipcub = installed_from_source("GPUSYM_HIPCUB_SOURCE", tmp_path / "hipcub", prefix)
    rocthrust = installed_from_source("GPUSYM_ROCTHRUST_SOURCE", tmp_path / "rocthrust", prefix)
    project, built = PROGRAMS / "cmake_hipcub_rocthrust", tmp_path / "build"
    cmake_build(project, built, prefix, f"-DCMAKE_PREFIX_PATH={hipcub};{rocthrust}")
    passes(run([built / "hipcub_algorithms"]), "hipcub: all match the host")
    passes(run([built / "rocthrust_algorithms"]), "rocthrust: all match the host")


@needs_rocprim
@pytest.mark.gdb
def test_kbreak_stops_in_rocprims_scan_and_bt_reaches_the_users_call(rocprim_programs):
    output = gdb(rocprim_programs[1], "kbreak lookback_scan_kernel", "run", "bt")
    frames = re.findall(r"^#(\d+)\s+(?:0x[0-9a-f]+ in )?(\S+)(.*)$", output, re.M)
    assert frames and frames[0][1].startswith("rocprim::detail::lookback_scan_kernel<"), output
    assert [int(number) for number, _, _ in frames] == list(range(len(frames))), output
    assert "[kernel void rocprim::detail::lookback_scan_kernel<" in frames[1][2], output
    assert any(name.startswith("rocprim::inclusive_scan<") for _, name, _ in frames), output
    assert re.search(r"^#\d+\s+(0x[0-9a-f]+ in )?main \(\) at \S+rocprim_device\.hip:\d+$", output, re.M), output
