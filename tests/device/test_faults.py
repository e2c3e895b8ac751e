"""Faults in kernels end the program with one report naming the kernel, block,
thread, address and allocation; under gdb they are ordinary stops that the
extension and ``gpusym capture`` explain in the same words.

tests/programs/fault.hip fails in block 1 thread 17 only, in one way per mode,
and prints the base of the allocation its kernel gets first."""

from __future__ import annotations

import re
import signal
import subprocess
from pathlib import Path

import pytest
from conftest import GPUSYM, REPO, TEST_PROGRAMS, describe, run
from fault_runs import base_of, capture, crash_of, report
from gdb_batch import gdb

pytestmark = [pytest.mark.toolchain, pytest.mark.gdb]

SOURCE = TEST_PROGRAMS / "fault.hip"
EXTENSION = REPO / "gdbext" / "gpusym_gdb.py"
POKE = "void fault::poke<float>(float*, long)"
GIB = 1 << 30


def source_line(text: str) -> int:
    (line,) = [n for n, content in enumerate(SOURCE.read_text().splitlines(), 1) if text in content]
    return line


@pytest.fixture(scope="module")
def program(build_program) -> Path:
    return build_program("fault.hip")


@pytest.fixture(scope="module", params=["-O0", "-O2"])
def either_form(request, build_program) -> Path:
    """fault.hip at -O0 (kernels in their debuggable form only) and at -O2
    (in their fast form, where a failed assert or abort runs the block again
    in the debuggable form, whose lane reports it)."""
    return build_program("fault.hip", flags=("-g", request.param))


def run_mode(program: Path, mode: str, blocking: str = "0") -> subprocess.CompletedProcess:
    return run([program, mode], env={"GPUSYM_LAUNCH_BLOCKING": blocking})


@pytest.mark.parametrize("blocking", ["0", "1"])
def test_a_write_just_past_the_end_of_an_allocation(program, blocking):
    result = run_mode(program, "past-end", blocking)
    assert result.returncode == -signal.SIGSEGV, describe(result)
    base = base_of(result.stdout)
    assert report(result) == (
        POKE,
        "1",
        "1,0,0",
        "17,0,0",
        f"invalid write at {base + 256:#x}: 0 bytes past the end of a 256-byte allocation at {base:#x} (hipMalloc)",
    )
    assert "not reached" not in result.stdout


def test_just_past_the_end_the_report_says_a_gpu_may_not_notice_and_how_to_pad(program):
    result = run_mode(program, "past-end")
    assert result.returncode == -signal.SIGSEGV, describe(result)
    following = result.stderr.split("(hipMalloc)\n", 1)[1]
    assert following.startswith("  (a GPU may not notice this access") and "GPUSYM_ALLOCATION_PADDING=4096" in following


def test_with_padding_an_access_just_past_the_end_goes_on_as_on_a_gpu(program):
    result = run([program, "past-end"], env={"GPUSYM_ALLOCATION_PADDING": "4096"})
    assert result.returncode == 0 and "not reached" in result.stdout, describe(result)
    assert "gpusym:" not in result.stderr, describe(result)


def test_with_padding_a_far_access_still_faults_and_only_a_near_one_gets_the_hint(program):
    result = run([program, "far"], env={"GPUSYM_ALLOCATION_PADDING": "4096"})
    assert result.returncode == -signal.SIGSEGV, describe(result)
    assert "may not notice" not in result.stderr, describe(result)


def test_a_write_far_from_any_allocation(program):
    result = run_mode(program, "far")
    assert result.returncode == -signal.SIGSEGV, describe(result)
    base = base_of(result.stdout)
    assert report(result) == (
        POKE,
        "1",
        "1,0,0",
        "17,0,0",
        f"invalid write at {base + GIB:#x}: far from any allocation: {GIB - 256} bytes past the "
        f"end of the nearest, a 256-byte allocation at {base:#x}",
    )


def test_a_read_from_a_freed_allocation(program):
    result = run_mode(program, "freed")
    assert result.returncode == -signal.SIGSEGV, describe(result)
    base = base_of(result.stdout)
    assert report(result) == (
        "fault::peek(float const*, float*)",
        "1",
        "1,0,0",
        "17,0,0",
        f"invalid read at {base + 20:#x}: 20 bytes into a freed 256-byte allocation at "
        f"{base:#x} (hipMalloc, then hipFree)",
    )


@pytest.mark.parametrize("blocking", ["0", "1"])
def test_a_failed_device_assert(either_form, blocking):
    result = run_mode(either_form, "assert", blocking)
    assert result.returncode == -signal.SIGABRT, describe(result)
    line = source_line("assert(data[i] == 0)")
    assert report(result) == (
        "fault::check(int const*)",
        "1",
        "1,0,0",
        "17,0,0",
        f"{SOURCE}:{line}: void fault::check(const int *): Device-side assertion `data[i] == 0' failed.",
    )


def test_device_abort(either_form):
    result = run_mode(either_form, "abort")
    assert result.returncode == -signal.SIGABRT, describe(result)
    assert report(result) == ("fault::stop()", "1", "1,0,0", "17,0,0", "abort() called in device code")


def test_a_lane_stack_overflow(program):
    result = run_mode(program, "stack")
    assert result.returncode == -signal.SIGSEGV, describe(result)
    *lane, what = report(result)
    assert lane == ["fault::recurse(int*, int)", "1", "1,0,0", "17,0,0"]
    assert re.fullmatch(
        r"stack overflow at 0x[0-9a-f]+: the lane's stack of 262144 bytes is exhausted "
        r"\(GPUSYM_STACK_SIZE\)",
        what,
    ), what


def test_a_fault_in_host_code_is_not_the_runtimes(program):
    result = run_mode(program, "host")
    assert result.returncode == -signal.SIGSEGV, describe(result)
    assert "gpusym:" not in result.stderr, describe(result)


def test_the_programs_own_handler_still_gets_host_faults(program):
    result = run_mode(program, "chained")
    assert (result.returncode, result.stderr) == (3, "fault: own handler\n"), describe(result)


def test_invalid_copies_and_frees_fail_as_before_and_freed_addresses_wait(program):
    result = run_mode(program, "copies")
    assert (result.returncode, result.stdout) == (0, "copies: 0 wrong\n"), describe(result)


# -- under gdb --------------------------------------------------------------------


def test_capture_explains_a_write_past_the_end(program):
    result, events = capture(program, "past-end")
    assert result.returncode == 128 + signal.SIGSEGV, describe(result)
    crash = crash_of(result, events)
    base = base_of(events[-1]["stdout"])
    assert crash["lane"]["kernel"]["demangled"] == POKE
    assert (crash["lane"]["block"], crash["lane"]["thread_index"]) == ([1, 0, 0], [17, 0, 0])
    assert crash["fault"] == {
        "kind": "memory",
        "address": base + 256,
        "access": "write",
        "allocation": {"base": base, "size": 256, "state": "live"},
        "offset": 256,
        "description": f"invalid write at {base + 256:#x}: 0 bytes past the end of a 256-byte allocation at "
        f"{base:#x} (hipMalloc)",
    }
    assert crash["address"] == base + 256
    assert crash["backtrace"][0]["function"] == "fault::poke<float>"


def test_capture_explains_a_read_after_free_and_a_far_write(program):
    result, events = capture(program, "freed")
    fault = crash_of(result, events)["fault"]
    base = base_of(events[-1]["stdout"])
    assert (fault["access"], fault["allocation"], fault["offset"]) == (
        "read",
        {"base": base, "size": 256, "state": "freed"},
        20,
    )
    result, events = capture(program, "far")
    fault = crash_of(result, events)["fault"]
    base = base_of(events[-1]["stdout"])
    assert (fault["address"], fault["access"], fault["allocation"], fault["offset"]) == (
        base + GIB,
        "write",
        None,
        None,
    )
    assert fault["description"].startswith(f"invalid write at {base + GIB:#x}: far from any allocation: ")


def test_capture_explains_a_failed_assert(program):
    result, events = capture(program, "assert")
    assert result.returncode == 128 + signal.SIGABRT, describe(result)
    crash = crash_of(result, events)
    assert (crash["signal"], crash["lane"]["block"], crash["lane"]["thread_index"]) == (
        "SIGABRT",
        [1, 0, 0],
        [17, 0, 0],
    )
    line = source_line("assert(data[i] == 0)")
    assert crash["fault"] == {
        "kind": "assertion",
        "assertion": "data[i] == 0",
        "file": str(SOURCE),
        "line": line,
        "function": "void fault::check(const int *)",
        "description": f"{SOURCE}:{line}: void fault::check(const int *): Device-side assertion `data[i] == 0' failed.",
    }
    assert "fault::check" in [frame["function"] for frame in crash["backtrace"]]


def test_capture_records_a_host_fault_once_though_the_runtime_passes_it_on(program):
    result, events = capture(program, "host")
    assert result.returncode == 128 + signal.SIGSEGV, describe(result)
    crash = crash_of(result, events)
    assert "lane" not in crash and "fault" not in crash
    assert crash["backtrace"][0]["function"] == "main"


def test_capture_report_prints_the_explanation(program):
    result = run([GPUSYM, "capture", "--", program, "past-end"], env={"COLUMNS": "300"})
    assert result.returncode == 128 + signal.SIGSEGV, describe(result)
    base = base_of(result.stdout)
    assert (
        f"invalid write at {base + 256:#x}: 0 bytes past the end of a 256-byte allocation at {base:#x} (hipMalloc)"
    ) in result.stdout


def test_gdb_stops_at_the_fault_explains_it_and_the_runtime_reports_it_on_continue(program):
    argv = [
        "gdb",
        "-nx",
        "-batch",
        "-ex",
        f"source {EXTENSION}",
        "-ex",
        "run",
        "-ex",
        "continue",
        "-ex",
        "kill",
        "--args",
        str(program),
        "past-end",
    ]
    output = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120).stdout
    assert "Traceback" not in output and "Python Exception" not in output, output
    base = base_of(output)
    explanation = (
        f"invalid write at {base + 256:#x}: 0 bytes past the end of a 256-byte allocation at {base:#x} (hipMalloc)"
    )
    first = output.index("received signal SIGSEGV")
    assert output.index("[gpusym: block (1,0,0) thread (17,0,0) of dispatch 1, wavefront 0]", first) < output.index(
        f"[gpusym: {explanation}]", first
    )
    # Continued, the runtime's handler reports it and returns to the faulting
    # instruction with the default action: the same stop, which ends the program.
    runtime_report = output.index(f"gpusym: kernel '{POKE}' (dispatch 1) block (1,0,0) thread (17,0,0): {explanation}")
    assert output.index("received signal SIGSEGV", runtime_report) > runtime_report


# The program faults on the guard page and on freed memory; a debugger reads
# through page protections, and must not show zeros that are not there.
# (gdb's errors come on stderr, after what it printed on stdout.)


def test_gdb_cannot_read_the_guard_page_past_the_end_of_an_allocation(program):
    output = gdb(program, "run past-end", "print data[63]", "print data[64]", "x/4x &data[64]")
    end = base_of(output) + 256
    assert "$1 = 0\n" in output and "$2" not in output, output  # the last element reads, set by hipMemset
    assert f"{end:#x}:\t0x" not in output, output
    assert output.count(f"Cannot access memory at address {end:#x}\n") == 2, output


def test_gdb_cannot_read_a_freed_allocation(program):
    output = gdb(program, "run freed", "print data[5]", "x/4x data")
    base = base_of(output)
    assert "$1" not in output and f"{base:#x}:\t0x" not in output, output
    assert f"Cannot access memory at address {base + 20:#x}\n" in output, output
    assert f"Cannot access memory at address {base:#x}\n" in output, output
