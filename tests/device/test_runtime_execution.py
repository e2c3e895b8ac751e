"""The simulated runtime under load and with device math: real programs from
tests/programs, their results checked exactly."""

from __future__ import annotations

import pytest
from conftest import describe, run

pytestmark = [pytest.mark.toolchain]


@pytest.mark.parametrize("workers", ["1", "2", "4"])
def test_every_block_of_thousands_of_async_launches_runs_once(build_program, workers):
    # Regression: a worker that took no block of a dispatch used to touch it
    # after another worker had completed and freed it.
    program = build_program("launch_storm.hip", flags=("-O2",))
    for _ in range(3):
        result = run([program], env={"GPUSYM_WORKERS": workers})
        assert result.returncode == 0, describe(result)
        assert result.stdout.strip() == "blocks 6000 6000 expected 6000", describe(result)


def test_device_math_matches_the_host_libm(build_program):
    result = run([build_program("device_math.hip")])
    assert result.returncode == 0, describe(result)
    lines = [line.split() for line in result.stdout.splitlines()]
    assert [name for name, *_ in lines] == [
        "sqrtf",
        "expf",
        "sinf",
        "powf",
        "rsqrtf",
        "tanh",
        "exp",
        "log",
        "atan2",
    ]
    for name, device, host in lines:
        assert device == host, f"{name}: device {device}, host {host}"


@pytest.mark.parametrize("blocking", ["0", "1"])
def test_syncthreads_orders_a_block_of_1024_lanes(build_program, blocking):
    result = run([build_program("barrier_1024.hip")], env={"GPUSYM_LAUNCH_BLOCKING": blocking})
    assert result.returncode == 0, describe(result)
    assert result.stdout.strip() == "barrier_1024: 0 wrong", describe(result)


@pytest.mark.parametrize("blocking", ["0", "1"])
def test_kernels_receive_arguments_of_every_abi_shape(build_program, blocking):
    # Each kernel writes back what it received: narrow signed integers,
    # registers running out, structs split across integer and SSE registers
    # or passed in memory, long double and __int128 on the stack.
    result = run([build_program("signatures.hip", flags=("-O2",))], env={"GPUSYM_LAUNCH_BLOCKING": blocking})
    assert result.returncode == 0, describe(result)
    assert result.stdout.strip() == "signatures: 0 wrong", describe(result)


@pytest.mark.parametrize("blocking", ["0", "1"])
def test_barriers_in_nested_places_give_exact_results(build_program, blocking):
    # Barriers in loops within loops, in both arms of a branch, in a device
    # function, and among the lanes left after the others returned; blocks
    # of 1, 33 and 1024 threads, and 3D blocks.
    program = build_program("barriers.hip", flags=("-O2",))
    result = run([program, "1", "33", "1024", "16x8x8", "7x3x2"], env={"GPUSYM_LAUNCH_BLOCKING": blocking})
    assert result.returncode == 0, describe(result)
    assert result.stdout.strip() == "barriers: 0 wrong", describe(result)


@pytest.mark.parametrize("level", ["-O0", "-O2"])
def test_empty_class_arguments_do_not_shift_the_others(build_program, level):
    result = run([build_program("empty_arguments.hip", flags=(level,), output=f"empty_arguments{level}")])
    assert result.returncode == 0, describe(result)
    assert result.stdout.strip() == "functor 742 lambda 7042 deduced 3004", describe(result)
