"""libcu++ on the simulated device (device/include/cuda/cuda/): cuda::barrier,
cuda::memcpy_async with barriers and pipelines (a thread's own, a block's
unified and partitioned), cooperative_groups::memcpy_async and wait, tiles
wider than a warp, cuda::atomic and cuda::std's families in device code,
each checked by tests/programs/cuda/libcudacxx.cu itself (a wait by
reading what a later thread of the block wrote before it), with -G and at -O2
and in both kernel forms; and ``__shared__ alignas(N)``, which nvcc takes
and clang-19 does not, moved to the start of its declaration
(device/compiler/shared_alignment.py; the program declares one); and
racecheck, which takes atomic loads and stores for atomics."""

from __future__ import annotations

import pytest
from conftest import assert_checks_pass, describe, run, run_gpusym

from device.compiler import shared_alignment

pytestmark = []  # the program's tests are marked toolchain one by one

CHECKS = 23


@pytest.fixture(scope="module", params=[("-G",), ("-O2",)], ids=["G", "O2"])
def program(build_program, request):
    return build_program("cuda/libcudacxx.cu", flags=request.param)


@pytest.mark.toolchain
@pytest.mark.parametrize("form", ["fast", "debug"])
def test_every_check_of_the_program_passes(program, form):
    result = run([program], env={"GPUSYM_FORM": form})
    assert_checks_pass(result, CHECKS)


@pytest.mark.toolchain
def test_racecheck_takes_atomic_loads_and_stores_for_atomics(program):
    """An atomic wait's loads and the store it waits for never race, nor do
    a barrier's own accesses."""
    result = run_gpusym("check", "--tool", "racecheck", program)
    reports = result.stdout + result.stderr
    assert "atomic wait for a later thread's store: ok" in result.stdout, describe(result)
    for kernel in ("atomic_wait", "barrier_phases", "barrier_copies", "partitioned_pipeline"):
        assert f"kernel '{kernel}(" not in reports, describe(result)


def test_alignas_after_shared_moves_to_the_start_of_its_declaration():
    source = (
        "__attribute__((shared)) thread_local alignas(alignof(float4)) float a[4][16];\n"
        "{ static __attribute__((shared)) alignas(16) alignas(8) int b[3], c; }\n"
        "extern __attribute__((shared)) thread_local int plain[];\n"
    )
    assert shared_alignment.portable(source) == (
        "alignas(alignof(float4)) __attribute__((shared)) thread_local float a[4][16];\n"
        "{ alignas(16) alignas(8) static __attribute__((shared)) int b[3], c; }\n"
        "extern __attribute__((shared)) thread_local int plain[];\n"
    )
    assert shared_alignment.failed_on_shared_alignment("x.cu:3:14: error: an attribute list cannot appear here")
