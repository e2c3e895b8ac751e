"""``gpusym-hipcc``, the hipcc-compatible driver that existing Makefiles
call: relocatable device code across sources and static libraries, host-only
and device-only compiles, device code no CPU can run, and hipcc's habits
(.cpp as HIP, dependency files, HIPCC_VERBOSE)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from conftest import TEST_PROGRAMS, describe, run

from native import toolchain
from symbols import offload_bundle

pytestmark = [pytest.mark.toolchain, pytest.mark.gdb]

HIPCC = Path(sys.executable).parent / "gpusym-hipcc"
RDC = TEST_PROGRAMS / "rdc"
HIPCC_PROGRAMS = TEST_PROGRAMS / "hipcc"
#: apply writes 3*i + offset (5), mark sets element 0 to -offset, bump adds 100.
RDC_EXPECTED = "95 108 111 114 117 120 123 126"


def hipcc(*args, cwd: Path, env: dict[str, str] | None = None):
    result = run([HIPCC, *args], cwd=cwd, env=env)
    assert result.returncode == 0, describe(result)
    return result


@pytest.fixture(scope="module")
def rdc_objects(tmp_path_factory) -> Path:
    """counters.hip in a static device library, launch.hip and main.cpp as
    objects, all compiled with -fgpu-rdc."""
    out = tmp_path_factory.mktemp("rdc")
    hipcc("-fgpu-rdc", "-O2", "-c", RDC / "counters.hip", "-o", "counters.o", cwd=out)
    hipcc("--emit-static-lib", "-fgpu-rdc", "counters.o", "-o", "libcounters.a", cwd=out)
    hipcc("-fgpu-rdc", "-g", "-c", RDC / "launch.hip", RDC / "main.cpp", cwd=out)
    return out


def test_relocatable_device_code_links_across_sources_and_a_static_library(rdc_objects):
    hipcc("-fgpu-rdc", "main.o", "launch.o", "-L.", "-lcounters", "-o", "rdc", cwd=rdc_objects)
    result = run([rdc_objects / "rdc"])
    assert result.returncode == 0, describe(result)
    assert result.stdout.split() == RDC_EXPECTED.split(), describe(result)


def test_relocatable_objects_link_without_repeating_the_flag(rdc_objects):
    # As with clang, the objects say they hold relocatable device code.
    hipcc("main.o", "launch.o", "libcounters.a", "-o", "rdc-plain", cwd=rdc_objects)
    result = run([rdc_objects / "rdc-plain"])
    assert result.stdout.split() == RDC_EXPECTED.split(), describe(result)


def test_static_device_variables_host_code_copies_link_as_relocatable_device_code(tmp_path):
    # Each source's kernel uses its statics before the host code names them,
    # and both sources have statics of the same names.
    hipcc("-fgpu-rdc", "-c", RDC / "statics_a.hip", RDC / "statics_b.hip", cwd=tmp_path)
    hipcc("-fgpu-rdc", "statics_a.o", "statics_b.o", "-o", "statics", cwd=tmp_path)
    result = run([tmp_path / "statics"])
    assert result.stdout.split() == "0 3 6 9 10 11 12 13".split(), describe(result)


def test_relocatable_objects_keep_clangs_bundle_sections_and_add_the_simulated_device(rdc_objects):
    sections = run([toolchain.tool("llvm-readelf"), "-S", "-W", rdc_objects / "launch.o"]).stdout
    assert offload_bundle.SECTION_PREFIX + offload_bundle.AMDGPU_RDC_PREFIX + "gfx90a" in sections
    assert offload_bundle.SECTION_PREFIX + offload_bundle.SIM_RDC_ID in sections


def test_device_code_no_input_defines_fails_the_link_naming_it(rdc_objects):
    # Without the library, `offset` and `scaled` are defined nowhere: the
    # link fails, rather than the program when it loads its device code.
    result = run([HIPCC, "-fgpu-rdc", "main.o", "launch.o", "-o", "incomplete"], cwd=rdc_objects)
    assert result.returncode == 1, describe(result)
    assert result.stderr.startswith("gpusym-hipcc: relocatable device code refers to "), describe(result)
    assert "which no input defines" in result.stderr and "offset" in result.stderr, describe(result)
    assert not (rdc_objects / "incomplete").exists()


def test_hipstdpar_leaves_the_parallel_algorithms_to_the_host(tmp_path):
    source = HIPCC_PROGRAMS / "standard_parallelism.hip"
    hipcc(
        "--hipstdpar",
        "--hipstdpar-path=/opt/rocm/include/thrust/system/hip/hipstdpar",
        source,
        "-o",
        "stdpar",
        cwd=tmp_path,
    )
    result = run([tmp_path / "stdpar"])
    assert result.returncode == 0 and result.stdout == "sum 3003000\n", describe(result)


def test_host_only_object_with_a_hand_made_bundle_fails_launches_by_name(tmp_path):
    source = HIPCC_PROGRAMS / "host_only.hip"
    hipcc("-c", "--cuda-host-only", source, "-o", "host.o", cwd=tmp_path)
    # The device side made by clang alone: AMDGPU code, nothing for the simulated device.
    bundle = [
        toolchain.tool("clang++"),
        "-x",
        "hip",
        "--cuda-device-only",
        "-nogpuinc",
        "-nogpulib",
        "-I",
        Path(__file__).resolve().parents[2] / "device/include",
        "--offload-arch=gfx90a",
        "-c",
        source,
        "-o",
        "device.hipfb",
    ]
    assert run(bundle, cwd=tmp_path).returncode == 0
    (tmp_path / "fatbin.s").write_text((HIPCC_PROGRAMS / "hand_bundle.s").read_text().replace("BUNDLE", "device.hipfb"))
    assert run([toolchain.tool("clang"), "-c", "fatbin.s", "-o", "fatbin.o"], cwd=tmp_path).returncode == 0
    hipcc("host.o", "fatbin.o", "-o", "host_only", cwd=tmp_path)
    result = run([tmp_path / "host_only"])
    assert result.returncode == 0, describe(result)
    assert result.stdout.split() == ["hipErrorNoBinaryForGpu"] * 2, describe(result)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, describe(result)  # once per kernel, not per launch
    assert lines[0].startswith("gpusym: cannot launch square(int*): no code for the simulated device"), describe(result)


def test_device_only_compile_writes_the_device_bundle(tmp_path):
    hipcc("--cuda-device-only", "-c", RDC / "counters.hip", cwd=tmp_path)
    ids = [entry.id for entry in offload_bundle.read_entries((tmp_path / "counters.o").read_bytes())]
    assert ids == [offload_bundle.HOST_ID, offload_bundle.amdgpu_id("gfx90a"), offload_bundle.SIM_ID]


@pytest.mark.parametrize(
    "source, construct",
    [
        ("inline_asm.hip", "inline assembly in device code (v_mov_b32_e32)"),
        ("amdgcn_builtin.hip", "__builtin_amdgcn_s_sendmsg"),
    ],
)
def test_amdgpu_only_device_code_is_refused_naming_the_construct(tmp_path, source, construct):
    result = run([HIPCC, "-c", HIPCC_PROGRAMS / source, "-o", "x.o"], cwd=tmp_path)
    assert result.returncode == 1, describe(result)
    last = result.stderr.splitlines()[-1]
    assert last.startswith(f"{HIPCC_PROGRAMS / source}: {construct}"), describe(result)
    assert "simulated device (x86-64)" in last


def test_dependency_file_names_the_headers(tmp_path):
    hipcc("-c", "-MD", "-MF", "deps.d", "-MT", "target.o", RDC / "counters.hip", "-o", "counters.o", cwd=tmp_path)
    deps = (tmp_path / "deps.d").read_text()
    assert deps.startswith("target.o:"), deps
    assert "hip/hip_runtime.h" in deps and "counters.hip" in deps, deps
    assert (tmp_path / "counters.o").is_file()


def test_hipcc_verbose_prints_each_command(tmp_path):
    result = hipcc("-c", RDC / "counters.hip", cwd=tmp_path, env={"HIPCC_VERBOSE": "1"})
    commands = [line for line in result.stderr.splitlines() if "clang++" in line]
    assert any("--cuda-host-only" in line for line in commands), describe(result)
    quiet = hipcc("-c", RDC / "counters.hip", cwd=tmp_path, env={"HIPCC_VERBOSE": "0"})
    assert "clang++" not in quiet.stderr, describe(quiet)


def test_kernel_of_relocatable_device_code_stops_at_its_source_line_in_gdb(rdc_objects):
    hipcc("main.o", "launch.o", "-L.", "-lcounters", "-o", "rdc-gdb", cwd=rdc_objects)
    gdb = [
        Path(sys.executable).parent / "gpusym",
        "gdb",
        "-batch",
        "-ex",
        "kbreak apply",
        "-ex",
        "run",
        "-ex",
        "bt",
        "--",
        "./rdc-gdb",
    ]
    result = run(gdb, cwd=rdc_objects)
    frame = next((line for line in result.stdout.splitlines() if line.startswith("#0")), "")
    assert "apply" in frame and "(out=0x" in frame, describe(result)
    assert frame.endswith("launch.hip:8"), describe(result)


def test_device_only_ir_is_clangs_amdgpu_bitcode(tmp_path):
    # For pipelines that make their own code objects (no simulated device).
    hipcc(
        "--cuda-device-only",
        "-c",
        "-emit-llvm",
        "--offload-arch=gfx90a",
        RDC / "counters.hip",
        "-o",
        "c.bc",
        cwd=tmp_path,
    )
    assert (tmp_path / "c.bc").read_bytes()[:4] == b"BC\xc0\xde"


def test_rocms_runtime_library_on_the_link_line_is_the_simulated_runtime(tmp_path):
    hipcc("-L/opt/rocm/lib", HIPCC_PROGRAMS / "host_only.hip", "-lamdhip64", "-o", "linked", cwd=tmp_path)
    result = run([tmp_path / "linked"])
    assert result.stdout.split() == ["hipSuccess", "hipSuccess"], describe(result)
