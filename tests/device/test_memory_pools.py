"""Stream-ordered allocation and memory pools, graphs' memory nodes, clones,
child graphs and event nodes, and virtual memory management, on the
simulated device: tests/programs/cuda/memory_pools.cu (CUDA's runtime and
driver API) and tests/programs/memory_pools.hip (HIP's names), each printing
one "NAME: ok" line per check; and memory given back by cudaFreeAsync,
hipFreeAsync, hipDeviceReset or hipMemUnmap faults when a kernel reads it,
the report naming the calls that made and freed it (the debugger's words
for each kind: tests/device/test_fault_description.py)."""

from __future__ import annotations

import signal
import subprocess
from pathlib import Path

import pytest
from conftest import describe, run
from fault_runs import base_of, capture, crash_of, report

pytestmark = [pytest.mark.toolchain]


#: The checks of memory_pools.cu, in order.
CUDA_CHECKS = (
    "malloc_async pointer_attributes two_streams legacy_streams zero_bytes release_threshold used_and_reserved "
    "kept_below_threshold reuse reset_high trim released_at_sync reuse_flags default_pool pools_supported "
    "pool_create malloc_from_pool max_size set_mem_pool pool_access own_access_kept pool_destroy outlives_pool "
    "free_twice free_freed destroyed_pool default_pool_stays bad_props export_not_supported free_async_of_malloc "
    "capture_alloc captured_nodes capture_launched_twice graph_mem_freed clone_refused alloc_node alloc_node_params "
    "alloc_outlives_launch one_instantiation free_node graph_mem_attribute graph_mem_trim free_async_after_launch "
    "reserved_at_launch free_node_refused child_graph_node event_record_node event_wait_node child_and_events_run "
    "clone find_in_clone clone_runs add_node_kinds vmm_supported granularity mem_create address_reserve mem_map "
    "set_access retain_handle kernel_writes_mapping mapping_is_device_memory vmm_export_not_supported misuse "
    "unmap_release no_error"
).split()
#: The checks of memory_pools.hip, in order.
HIP_CHECKS = (
    "malloc_async pool free_twice alloc_node free_node node_type launch clone_refused graph_mem mem_map unmap no_error"
).split()


def assert_all_ok(result: subprocess.CompletedProcess, expected: list[str]) -> None:
    assert result.returncode == 0, describe(result)
    lines = [line.partition(": ") for line in result.stdout.splitlines()]
    assert [name for name, _, _ in lines] == expected, describe(result)
    assert all(verdict == "ok" for _, _, verdict in lines), describe(result)


@pytest.fixture(scope="module", params=["-G", "-O2"])
def cuda_program(request, build_program) -> Path:
    return build_program("cuda/memory_pools.cu", flags=("-g", request.param), output=f"memory_pools{request.param}")


@pytest.fixture(scope="module")
def hip_program(build_program) -> Path:
    return build_program("memory_pools.hip", flags=("-g", "-O2"))


def test_cuda_pools_graph_memory_and_virtual_memory_work(cuda_program):
    assert_all_ok(run([cuda_program]), CUDA_CHECKS)


def test_memcheck_finds_nothing_wrong_in_the_checks(cuda_program):
    result = run([cuda_program], env={"GPUSYM_CHECK": "memcheck"})
    assert_all_ok(result, CUDA_CHECKS)
    assert "gpusym:" not in result.stderr, describe(result)


def test_hip_names_work(hip_program):
    assert_all_ok(run([hip_program]), HIP_CHECKS)


def freed_read(result: subprocess.CompletedProcess, offset: int, size: int, origin: str) -> str:
    """The report of a read `offset` bytes into the freed allocation whose base the program printed."""
    base = base_of(result.stdout)
    return (
        f"invalid read at {base + offset:#x}: {offset} bytes into a freed {size}-byte allocation at {base:#x} "
        f"({origin})"
    )


def test_a_kernel_reading_memory_freed_by_cuda_free_async_faults(cuda_program):
    result = run([cuda_program, "fault"])
    assert result.returncode == -signal.SIGSEGV, describe(result)
    assert report(result) == (
        "copy(int const*, int*)",
        "2",
        "0,0,0",
        "0,0,0",
        freed_read(result, 0, 1024, "cudaMallocAsync, then cudaFreeAsync"),
    )


def test_memcheck_reports_the_read_after_cuda_free_async(cuda_program):
    result = run([cuda_program, "fault"], env={"GPUSYM_CHECK": "memcheck"})
    assert "(cudaMallocAsync, then cudaFreeAsync), at " in result.stderr, describe(result)
    assert "memory_pools.cu:" in result.stderr and "(memcheck)" in result.stderr, describe(result)


@pytest.mark.gdb
def test_capture_explains_the_read_after_cuda_free_async(cuda_program):
    result, events = capture(cuda_program, "fault")
    fault = crash_of(result, events)["fault"]
    assert fault["allocation"]["state"] == "freed", describe(result)
    assert fault["description"].endswith("(cudaMallocAsync, then cudaFreeAsync)"), describe(result)


@pytest.mark.parametrize(
    ("mode", "offset", "size", "origin"),
    [
        ("freed", 16, 256, "hipMallocAsync, then hipFreeAsync"),
        ("reset", 16, 256, "hipMallocAsync, then hipDeviceReset"),
        ("unmapped", 16, 2 << 20, "hipMemMap, then hipMemUnmap"),
    ],
)
def test_a_kernel_reading_memory_given_back_by_hip_faults(hip_program, mode, offset, size, origin):
    result = run([hip_program, mode])
    assert result.returncode == -signal.SIGSEGV, describe(result)
    assert report(result)[4] == freed_read(result, offset, size, origin)
