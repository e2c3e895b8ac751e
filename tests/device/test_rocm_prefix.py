"""``gpusym rocm-prefix``: a directory laid out as ROCm, so that builds that
look for ROCm (Makefiles linking ``-lamdhip64`` with g++, CMake projects with
``enable_language(HIP)`` or ``find_package(hip)``) build for the simulated
device unchanged; and its CUDA toolkit (``cuda/``), for CMake projects with
``enable_language(CUDA)`` and ``find_package(CUDAToolkit)``."""

from __future__ import annotations

import pytest
from cmake_projects import cmake_build, rocm_prefix
from conftest import TEST_PROGRAMS, describe, run, run_gpusym
from elftools.elf.elffile import ELFFile

from device import runtime_library

pytestmark = [pytest.mark.toolchain]

PROGRAMS = TEST_PROGRAMS / "rocm_prefix"
SCALED_SUM = f"scaled sum {3 * 999 * 1000 // 2}"


@pytest.fixture(scope="module")
def prefix(tmp_path_factory):
    return rocm_prefix(tmp_path_factory.mktemp("rocm") / "rocm")


def test_hipconfig_answers_as_rocms_does(prefix):
    hipconfig = prefix / "bin" / "hipconfig"
    assert run([hipconfig, "--rocmpath"]).stdout == str(prefix)
    assert run([hipconfig, "--platform"]).stdout == "amd"
    assert run([hipconfig, "--hipclangpath"]).stdout == str(prefix / "llvm" / "bin")
    assert run([hipconfig, "--version"]).stdout.startswith(runtime_library.HIP_VERSION)
    assert run([prefix / "bin" / "rocm_agent_enumerator", "-t", "GPU"]).stdout.split() == ["gfx90a"]
    wrong = run([hipconfig, "--no-such-option"])
    assert wrong.returncode == 2 and "unknown option --no-such-option" in wrong.stderr, describe(wrong)


def test_clang_in_the_prefix_names_the_hip_installation_as_cmake_expects(prefix):
    # CMake's HIP language finds ROCm from this line of `clang++ -v`.
    result = run([prefix / "llvm" / "bin" / "clang++", "-v", "-print-targets"])
    assert result.returncode == 0, describe(result)
    assert f"Found HIP installation: {prefix}, version {runtime_library.HIP_VERSION}" in result.stderr


def test_gpp_links_a_hip_static_library_with_lamdhip64_and_runs_without_a_library_path(prefix, tmp_path):
    # As a Makefile does with ROCM_INSTALL_DIR pointing at the prefix.
    hipcc = prefix / "bin" / "hipcc"
    library = run([hipcc, "--emit-static-lib", "-fPIC", PROGRAMS / "scaling.hip", "-o", "libscaling.a"], cwd=tmp_path)
    assert library.returncode == 0, describe(library)
    link = [
        "g++",
        f"-I{PROGRAMS}",
        PROGRAMS / "host_main.cpp",
        "-L.",
        "-lscaling",
        f"-L{prefix / 'lib'}",
        "-lamdhip64",
        "-o",
        "host_main",
    ]
    linked = run(link, cwd=tmp_path)
    assert linked.returncode == 0, describe(linked)
    result = run([tmp_path / "host_main"], env={"LD_LIBRARY_PATH": ""})
    assert result.returncode == 0 and result.stdout.strip() == SCALED_SUM, describe(result)


def test_amdgpu_target_compiles_are_clangs_own(prefix, tmp_path):
    # ROCm's examples assemble device code with `clang -target amdgcn-amd-amdhsa`.
    ir = run(
        [prefix / "bin" / "hipcc", "--cuda-device-only", "-emit-llvm", "-c", PROGRAMS / "scaling.hip", "-o", "k.bc"],
        cwd=tmp_path,
    )
    assert ir.returncode == 0, describe(ir)
    clang = prefix / "llvm" / "bin" / "clang"
    result = run([clang, "-target", "amdgcn-amd-amdhsa", "-mcpu=gfx90a", "-c", "k.bc", "-o", "k.o"], cwd=tmp_path)
    assert result.returncode == 0, describe(result)
    with open(tmp_path / "k.o", "rb") as stream:
        assert ELFFile(stream).header.e_machine == "EM_AMDGPU"


def test_cmake_project_with_the_hip_language_and_find_package_hip(prefix, tmp_path):
    configured = cmake_build(PROGRAMS / "cmake", tmp_path, prefix)
    assert "The HIP compiler identification is Clang 19" in configured.stdout, describe(configured)
    hip_main = run([tmp_path / "hip_main"])
    major, minor, patch = runtime_library.HIP_VERSION.split(".")
    assert hip_main.returncode == 0, describe(hip_main)
    assert hip_main.stdout.split()[:3] == ["squares", "9", "961"], describe(hip_main)
    runtime, headers = hip_main.stdout.split()[4::2]
    assert int(runtime) == int(major) * 10_000_000 + int(minor) * 100_000 + int(patch), describe(hip_main)
    assert headers == f"{major}.{minor}", describe(hip_main)
    host_main = run([tmp_path / "host_main"])
    assert host_main.returncode == 0 and host_main.stdout.strip() == SCALED_SUM, describe(host_main)
    query = run([tmp_path / "query"])
    assert query.returncode == 0 and query.stdout.split()[-1] == "gfx90a", describe(query)


def test_cmake_project_with_the_cuda_language_and_find_package_cudatoolkit(prefix, tmp_path):
    configured = cmake_build(PROGRAMS / "cuda_cmake", tmp_path, prefix)
    assert "The CUDA compiler identification is NVIDIA 12.4.0" in configured.stdout, describe(configured)
    assert "Detecting CUDA compiler ABI info - done" in configured.stdout, describe(configured)
    assert "Found CUDAToolkit: " in configured.stdout and '(found version "12.4.0")' in configured.stdout
    result = run([tmp_path / "cuda_main"])
    assert result.returncode == 0, describe(result)
    assert result.stdout.strip() == "squares 9 961 status 0 devices 2 runtime 12040", describe(result)


def test_the_toolkit_keeps_libcudacxx_where_cuda_13_keeps_cccl(prefix):
    """Projects copy ``include/cccl/nv`` and ``cccl/cuda`` for run-time compiles."""
    cccl = prefix / "cuda" / "include" / "cccl"
    assert (cccl / "nv" / "target").is_file() and (cccl / "cuda" / "std").is_dir()
    assert (cccl / "nv").resolve() == (prefix / "cuda" / "include" / "nv").resolve()


def test_a_prefix_that_cannot_be_written_is_one_line_naming_it(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    result = run_gpusym("rocm-prefix", blocker / "rocm")
    assert result.returncode == 1, describe(result)
    assert result.stderr == f"gpusym rocm-prefix: cannot write {blocker / 'rocm' / 'bin'}: Not a directory\n"
