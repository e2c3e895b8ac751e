"""HIP's macro layer as real programs use it: tests/programs/hip_macros.hip
checks the qualifiers and their include guard (ROCm's, which rocThrust
tests), __forceinline__ and __noinline__, __align__, __launch_bounds__, the
headers by ROCm's paths, <stdint.h> types at global scope,
hipStreamPerThread and hipGetStreamDeviceId, placement new in device code,
and the target macros against gcnArchName, one line each; plus the C++
library included after HIP's headers (libstdc++'s __attribute__((__noinline__))
must survive them) and the target macros against clang's own."""

from __future__ import annotations

import re
import subprocess

import pytest
from conftest import describe, run, run_gpusym

from device.compiler.hip_source import target_macros
from native import toolchain

pytestmark = [pytest.mark.toolchain]

#: The program's checks, in the order it prints them.
CHECKS = [
    "qualifiers",
    "stdint",
    "align",
    "launch_bounds",
    "math_constants",
    "device_functions",
    "headers",
    "placement_new",
    "stream_per_thread",
    "stream_device_id",
    "target",
]


def checked_lines(result: subprocess.CompletedProcess) -> dict[str, str]:
    """check name -> its line, once the program passed every check."""
    assert result.returncode == 0, describe(result)
    lines = result.stdout.splitlines()
    assert lines[-1] == "0 failed", describe(result)
    by_name = {line.split(":", 1)[0]: line for line in lines[:-1]}
    assert list(by_name) == CHECKS, describe(result)
    assert all(line.startswith(f"{name}: ok") for name, line in by_name.items()), describe(result)
    return by_name


@pytest.mark.parametrize("level", ["-O0", "-O2"])
def test_every_check_holds(build_program, level):
    program = build_program("hip_macros.hip", flags=(level,), output=f"hip_macros{level}")
    lines = checked_lines(run([program]))
    # gpusym build's default target, as device code and gcnArchName see it.
    assert lines["target"] == (
        "target: ok (gcnArchName gfx90a, __amdgcn_processor__ gfx90a, __amdgcn_target_id__ gfx90a, __GFX9__, "
        "__gfx90a__)"
    )


def test_the_target_follows_the_first_offload_arch(build_program):
    # A target id with a feature: __amdgcn_processor__ is the processor,
    # gcnArchName and __amdgcn_target_id__ the whole id, as in HIP.
    program = build_program(
        "hip_macros.hip", flags=("-O2", "--offload-arch=gfx942:xnack+", "--offload-arch=gfx90a"), output="hip_macros942"
    )
    lines = checked_lines(run([program]))
    assert lines["target"] == (
        "target: ok (gcnArchName gfx942:xnack+, __amdgcn_processor__ gfx942, __amdgcn_target_id__ gfx942:xnack+, "
        "__GFX9__, __gfx942__)"
    )


#: Translation units that include libstdc++'s headers using
#: __attribute__((__noinline__)) (<memory>'s shared_ptr) after HIP's.
AFTER_HIP = {
    "runtime.hip": "#include <hip/hip_runtime.h>\n",
    "runtime_api.hip": "#include <hip/hip_runtime_api.h>\n",
    "host_defines.hip": "#include <hip/amd_detail/host_defines.h>\n",
    "plain.cpp": "#include <hip/hip_runtime_api.h>\n",
}
LIBRARY_AFTER = """#include <memory>
#include <string>
#include <vector>

__noinline__ int keep(const std::vector<std::string> &v) { return static_cast<int>(v.size()); }
__attribute__((__noinline__)) int spelled_as_gnu(int x) { return x; }

int use() {
  std::shared_ptr<std::string> p = std::make_shared<std::string>("gpusym");
  std::unique_ptr<int> q(new int(3));
  return keep({*p}) + spelled_as_gnu(*q);
}
"""


@pytest.mark.parametrize("name", sorted(AFTER_HIP))
def test_the_cxx_library_compiles_after_hip_headers(tmp_path, name):
    source = tmp_path / name
    source.write_text(AFTER_HIP[name] + LIBRARY_AFTER)
    result = run_gpusym("build", "-c", "-Werror", source, "-o", tmp_path / f"{name}.o")
    assert result.returncode == 0, describe(result)


#: A header of device helpers, included by a HIP source before (or without)
#: any HIP header: hipcc's clang gives every HIP source the qualifiers and
#: device math (clang's HIP wrapper); gpusym's compiles give its prelude.
NO_HIP_INCLUDE = """
#include <cstdio>
struct Point { float x, y; };
__host__ __device__ __forceinline__ float length(Point p) { return sqrtf(p.x * p.x + p.y * p.y); }
__device__ __constant__ float scale = 2.0f;
int main() { std::printf("%g\\n", length(Point{3.0f, 4.0f})); return 0; }
"""


def test_a_hip_source_has_the_qualifiers_before_any_hip_header(tmp_path):
    source = tmp_path / "helpers.hip"
    source.write_text(NO_HIP_INCLUDE)
    result = run_gpusym("build", "-Werror", source, "-o", tmp_path / "helpers")
    assert result.returncode == 0, describe(result)
    assert run([tmp_path / "helpers"]).stdout == "5\n"


@pytest.mark.parametrize(
    "target", ["gfx90a", "gfx90a:sramecc+:xnack-", "gfx942:xnack+", "gfx1030", "gfx1100", "gfx10-3-generic"]
)
def test_target_macros_are_those_clang_defines_for_the_target(target):
    # The simulated device's compile is for x86-64: the driver defines the
    # macros clang's own compile for `target` defines.
    probe = [
        toolchain.tool("clang++"),
        "-x",
        "hip",
        "-nogpuinc",
        "-nogpulib",
        "--cuda-device-only",
        f"--offload-arch={target}",
        "-E",
        "-dM",
        "-",
    ]
    result = subprocess.run(probe, input="", capture_output=True, text=True, check=True)
    pattern = r"^#define (__amdgcn_processor__|__amdgcn_target_id__|__amdgcn_feature_\w+__|__gfx\w+__|__GFX\d+__) (.*)$"
    clangs = dict(re.findall(pattern, result.stdout, re.MULTILINE))
    ours = dict(flag.removeprefix("-D").split("=", 1) for flag in target_macros(target))
    assert ours == clangs
