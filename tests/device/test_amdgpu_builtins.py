"""clang's AMDGPU builtins that mean something on a wavefront, on the
simulated device (hip/gpusym_detail/amdgpu_builtins.h): lane counts,
cross-lane reads (readfirstlane, readlane, ds_bpermute, ds_permute,
ds_swizzle, update_dpp and mov_dpp), timers, sleep, barriers and fences, and
the work-item queries, checked lane by lane against the ISA's semantics
computed on the host (tests/programs/amdgpu_builtins.hip), uniform and
divergent, in full and partial wavefronts of 64 and of 32 lanes, at -O0 and
-O2; any other __builtin_amdgcn_* is still refused by name."""

from __future__ import annotations

import pytest
from conftest import describe, run, run_gpusym

pytestmark = [pytest.mark.toolchain]


@pytest.fixture(
    scope="module",
    params=[(("-g",), 64), (("-O2",), 64), (("-g", "-mno-wavefrontsize64"), 32), (("-O2", "-mno-wavefrontsize64"), 32)],
    ids=["O0-64", "O2-64", "O0-32", "O2-32"],
)
def program(build_program, request):
    flags, wave = request.param
    return build_program("amdgpu_builtins.hip", flags=flags), wave


def test_each_builtin_gives_each_lane_what_the_isa_says(program):
    path, wave = program
    result = run([path])
    lines = result.stdout.splitlines()
    assert lines[:1] == [f"amdgpu_builtins: wave {wave}"], describe(result)
    assert result.returncode == 0 and lines[1:] == ["ok"], describe(result)


@pytest.mark.parametrize("builtin", ["__builtin_amdgcn_s_sendmsg(1, 0)", "__builtin_amdgcn_s_setprio(1)"])
def test_any_other_amdgpu_builtin_is_refused_by_name(tmp_path, builtin):
    source = tmp_path / "other.hip"
    source.write_text(f"#include <hip/hip_runtime.h>\n__global__ void k(int *out) {{ {builtin}; out[0] = 1; }}\n")
    result = run_gpusym("build", "-c", source, "-o", tmp_path / "other.o")
    name = builtin.split("(")[0]
    assert result.returncode != 0, describe(result)
    reason = "AMDGPU builtin with no meaning on the simulated device (x86-64)"
    assert result.stderr.splitlines()[-1] == f"{source}: {name}: {reason}", describe(result)
