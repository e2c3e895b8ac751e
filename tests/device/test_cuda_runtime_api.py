"""CUDA's host API on the simulated device: programs of tests/programs/cuda
built with gpusym-nvcc, each printing one line per check ("NAME: ok" or
"NAME: FAILED"): the runtime API's memory, streams, events, launches,
devices and errors, arrays, texture and surface objects, stream capture and
graphs built by capture and node by node, conditional graph nodes, the driver API over a module built
with ``gpusym-nvcc -cubin``, and NVRTC."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from conftest import GPUSYM_NVCC, TEST_PROGRAMS, describe, run

pytestmark = [pytest.mark.toolchain]

#: Each program and the checks it must report, in order.
CHECKS = {
    "runtime_memory.cu": (
        "malloc malloc_const memcpy memset malloc_host host_alloc host_device_pointer host_register malloc_managed "
        "managed_after_sync managed_advise_prefetch malloc_pitch memcpy_2d memset_2d malloc_3d memset_3d memcpy_3d "
        "memcpy_to_symbol memcpy_from_symbol symbol_address memcpy_async memcpy_peer mem_get_info "
        "pointer_device pointer_host pointer_managed pointer_unregistered free last_error"
    ).split(),
    "runtime_streams.cu": (
        "stream_create stream_flags event_create stream_sync host_functions_in_order wait_event_order "
        "event_elapsed event_query per_thread_and_legacy destroy launch_kernel launch_kernel_void "
        "launch_kernel_ex launch_kernel_exc launch_cooperative launch_results func_attributes "
        "func_set_attribute occupancy device_count get_device properties attributes peer p2p_attributes "
        "stream_attributes event_create_overload ipc_not_supported limits versions "
        "failing_malloc peek_keeps get_resets invalid_device launch_error sync_leaves_no_error "
        "error_names every_error_named reset"
    ).split(),
    "graphs_capture.cu": (
        "not_capturing begin capturing end nothing_ran nodes instantiate launch replayed_in_order replay_again "
        "begin_again sync_refused invalidated end_invalidated not_run legacy_refused destroy destroy_twice"
    ).split(),
    "graphs_nodes.cu": (
        "create memset_node memcpy_node kernel_node add_node empty_node memcpy_node_1d host_node dependencies "
        "nodes node_types instantiate launch results_in_order launch_again exec_kernel_set_params set_params_used "
        "exec_update updated_from_graph update_refused update_refused_cuda11 unsupported_nodes destroy no_error"
    ).split(),
    "graphs_conditional.cu": (
        "if if_else while_default switch captured_while launch_in_capture_refused refused no_error"
    ).split(),
    "runtime_textures.cu": (
        "channel_desc create_linear fetch_1d linear_past_its_memory object_descs malloc_array_1d memcpy_to_array "
        "tex1d_point "
        "tex1d_linear tex1d_clamp malloc_array_2d memcpy_2d_to_array memcpy_2d_from_array array_info "
        "tex2d_point tex2d_linear create_pitch2d normalized_coords address_wrap read_normalized_float "
        "malloc_3d_array memcpy_3d_array create_surface surface_write_read surface_boundary surface_in_array "
        "cubemap_faces cubemap_refused mipmapped_refused destroy no_error destroyed_while_queued"
    ).split(),
    "nvrtc_compile.cu": (
        "version create name_expression compile code lowered_name load launch results static_variables "
        "error_string "
        "compile_error destroy"
    ).split(),
    "driver_module.cu": (
        "init device device_queries device_attributes context context_cuda13 module_load get_function get_global "
        "mem_alloc memset stream launch results copies error_names missing_function cleanup"
    ).split(),
    "driver_more.cu": (
        "context_stack device_uuid_peer module_load_data_ex ptx_refused events host_memory host_register memsets "
        "cooperative_launch event_timing memcpy_unified memcpy_2d array_memcpy_3d tex_object arrays "
        "func_attributes occupancy profiler not_supported get_proc_address cleanup"
    ).split(),
}

#: The programs that take the module image as their argument.
DRIVER_PROGRAMS = ("driver_module.cu", "driver_more.cu")


def checks(result: subprocess.CompletedProcess) -> dict[str, str]:
    """The program's "NAME: verdict" lines."""
    lines = (line.partition(": ") for line in result.stdout.splitlines() if ": " in line)
    return {name: verdict for name, _, verdict in lines}


def assert_all_ok(result: subprocess.CompletedProcess, expected: list[str]) -> None:
    assert result.returncode == 0, describe(result)
    reported = checks(result)
    assert list(reported) == expected, describe(result)
    assert all(verdict == "ok" for verdict in reported.values()), describe(result)


@pytest.fixture(scope="module")
def module_image(tmp_path_factory) -> Path:
    """driver_module_kernels.cu as the module the driver API loads, built as
    nvcc builds one (-cubin, written to STEM.cubin)."""
    directory = tmp_path_factory.mktemp("driver")
    image = directory / "driver_module_kernels.cubin"
    source = TEST_PROGRAMS / "cuda" / "driver_module_kernels.cu"
    result = run([GPUSYM_NVCC, "-cubin", "-arch=sm_86", source], cwd=directory)
    assert result.returncode == 0 and image.is_file(), describe(result)
    return image


@pytest.mark.parametrize("program", [name for name in CHECKS if name not in DRIVER_PROGRAMS])
def test_program_checks_pass(build_program, program):
    assert_all_ok(run([build_program(f"cuda/{program}", flags=("-O2",))]), CHECKS[program])


def test_driver_api_launches_a_loaded_module(build_program, module_image):
    result = run([build_program("cuda/driver_module.cu", flags=("-O2", "-arch=sm_86")), module_image])
    assert_all_ok(result, CHECKS["driver_module.cu"])
    assert "compute capability 8.6" in result.stdout


def test_driver_api_beyond_modules(build_program, module_image):
    """Contexts, events, host memory, copies, arrays and texture objects,
    function attributes, occupancy, and the calls not supported."""
    result = run([build_program("cuda/driver_more.cu", flags=("-O2", "-arch=sm_86")), module_image])
    assert_all_ok(result, CHECKS["driver_more.cu"])


@pytest.mark.parametrize(("flags", "capability"), [(("-O2",), "8.0"), (("-O2", "-arch=sm_75"), "7.5")])
def test_compute_capability_follows_the_architecture(build_program, flags, capability):
    result = run([build_program("cuda/runtime_streams.cu", flags=flags)])
    assert f"compute capability {capability}\n" in result.stdout, describe(result)


def test_failing_calls_return_cuda_codes(build_program):
    result = run([build_program("cuda/runtime_api_errors.cu", flags=("-g",))])
    assert result.stdout == "cudaErrorMemoryAllocation cudaErrorInvalidValue\n", describe(result)
