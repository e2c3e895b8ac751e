"""HIP's device and language surface from the headers: programs in
tests/programs compute on the simulated device, compare with the host, and
print one FAIL line per mismatch and a summary ``CHECKS n failed m``.  Each is
built at -O0 and -O2 (every build also compiles it for AMDGPU)."""

from __future__ import annotations

import re

import pytest
from conftest import describe, run

pytestmark = [pytest.mark.toolchain, pytest.mark.gdb]

#: Programs and the number of checks each makes: a check skipped by mistake
#: changes the count.
CHECKED_PROGRAMS = {
    "vector_types.hip": 886,
    "device_intrinsics.hip": 963,
    "half_precision.hip": 119,
    "complex.hip": 64,
}


@pytest.mark.parametrize("optimization", ["-O0", "-O2"])
@pytest.mark.parametrize("source", sorted(CHECKED_PROGRAMS))
def test_device_results_match_the_host(build_program, source, optimization):
    result = run([build_program(source, flags=(optimization,))])
    assert result.returncode == 0, describe(result)
    summary = re.search(r"^CHECKS (\d+) failed (\d+)$", result.stdout, re.MULTILINE)
    assert summary, describe(result)
    assert (int(summary[1]), int(summary[2])) == (CHECKED_PROGRAMS[source], 0), describe(result)


def test_plain_cxx_passes_float4_to_a_hip_translation_unit(build_program):
    program = build_program("vector_host.cpp", "vector_kernels.hip", flags=("-O2",))
    result = run([program])
    assert result.returncode == 0, describe(result)
    assert result.stdout.strip() == "vector_host: hipSuccess, 0 wrong", describe(result)


def test_hip_launch_kernel_ggl_goes_through_the_device_stub(build_program):
    # A debugger stops in the kernel's __device_stub__, called where the
    # hipLaunchKernelGGL macro launched the template kernel it was given.
    program = build_program("vector_types.hip", flags=("-g", "-O0"))
    stub = "_Z20__device_stub__scaleIiLi3EEvPT_S0_"  # __device_stub__scale<int, 3>(int*, int)
    result = run(["gdb", "-nx", "-batch", "-ex", f"break {stub}", "-ex", "run", "-ex", "bt 2", "-ex", "kill", program])
    assert "hit Breakpoint 1" in result.stdout, describe(result)
    assert re.search(r"#1 .* in test_language \(\) at .*vector_types.hip:\d+", result.stdout), describe(result)


@pytest.mark.parametrize("level", ["-O0", "-O2"])
def test_vector_types_pass_by_value_to_kernels(build_program, level):
    # 4321 from the double4, then 5 + 6 + 7 + 8 + 9 + 10 + 11.
    program = build_program("vector_arguments.hip", flags=(level,), output=f"vector_arguments{level}")
    result = run([program])
    assert result.returncode == 0, describe(result)
    assert result.stdout.split() == ["4377", "hipSuccess"], describe(result)


@pytest.mark.parametrize("standard", ["-std=c++11", "-std=c++14"])
def test_code_for_older_compilers_and_older_hip_builds_warning_free(build_program, standard):
    # -Werror: the headers may use nothing newer than the program's standard,
    # not even as an extension.
    program = build_program("older_code.hip", flags=(standard, "-Werror", "-O2"), output=f"older_code{standard[5:]}")
    result = run([program])
    assert result.returncode == 0, describe(result)
    assert result.stdout.splitlines() == [
        "device name: gpusym simulated device 0",
        "library: 42 7x 5",
        "float4: 3 5 7 9 (host 3 5 7 9)",
        "int3: -8 -6 -4",  # (~(0, 1, 2) ^ 3) << 1
        "directed: 16777216.0 16777218.0",  # 2^24 + 1 rounded down and up to float
        "bfloat16: 0x3eab",  # 1/3 (0x3eaaaaab) rounded to nearest even
        "features: device 11, host 0, clang 1",  # doubles and reducing barriers, no shuffles yet
        "hipSuccess",
    ], describe(result)


@pytest.mark.parametrize("level", ["-O0", "-O2"])
def test_device_heap_reducing_barriers_sleep_and_packed_atomics(build_program, level):
    program = build_program("device_library.hip", flags=(level,), output=f"device_library{level}")
    result = run([program])
    assert result.returncode == 0, describe(result)
    assert result.stdout.splitlines() == [
        "heap roundtrip wrong: 0",
        "heap size: 8388608",  # HIP's default hipLimitMallocHeapSize, 8 MiB
        # 3000 of a 4096-byte heap, freed by a later kernel; 3000 again, then 2000 more do not fit.
        "heap limit: allocated 1, kept 7, again 1, over the limit 0",
        # Threads below 10 * round + block, for rounds 0..4; then and/or and the multiples of 3 below 100.
        "block 0: 0 10 20 30 40 1 0 1 0 34",
        "block 1: 1 11 21 31 41 1 0 1 0 34",
        # Threads 1-99, then the odd ones, in each of two launches.
        "without thread 0: 99 50",
        "without thread 0: 99 50",
        "slept at least 300 us: 1",
        "half2 sum: 200 100",  # 200 threads add (1, 0.5)
        "bfloat162 sum: 200 400",  # and (1, 2): exact in bfloat16
        "float max: 36",
        "hipSuccess",
    ], describe(result)


def test_device_free_of_foreign_memory_is_reported_and_ignored(build_program):
    result = run([build_program("device_library.hip", flags=("-O2",), output="device_library-O2"), "free-foreign"])
    assert result.returncode == 0, describe(result)
    assert result.stdout == "hipSuccess\n", describe(result)
    assert re.fullmatch(
        r"gpusym: free\(0x[0-9a-f]+\) in kernel free_foreign\(int\*\): "
        r"not an allocation of device malloc; ignored\n",
        result.stderr,
    ), describe(result)
