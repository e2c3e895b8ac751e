"""Checks of device code on the simulated device (``gpusym check``,
GPUSYM_CHECK, ``set gpusym check``): each planted bug of
tests/programs/memcheck.hip and tests/programs/racecheck.hip is reported
(to the byte, with its lanes and source lines), and its clean twin runs
without a report; under gdb the program stops at the lane's access, and
capture records memcheck's report."""

from __future__ import annotations

import json
import re
import signal
import subprocess
from pathlib import Path

import pytest
from conftest import GPUSYM, REPO, TEST_PROGRAMS, describe, run
from fault_runs import base_of, crash_of, report
from gdb_batch import gdb

pytestmark = [pytest.mark.toolchain, pytest.mark.gdb]

SOURCE = TEST_PROGRAMS / "memcheck.hip"
MEMCHECK = {"GPUSYM_CHECK": "memcheck"}


def line_of(source: Path, text: str) -> str:
    """FILE:LINE of `text` in `source`, the file as the compiler was given it."""
    (line,) = [n for n, content in enumerate(source.read_text().splitlines(), 1) if text in content]
    return f"{source.relative_to(REPO)}:{line}"


def source_line(text: str) -> str:
    return line_of(SOURCE, text)


@pytest.fixture(scope="module")
def program(build_program) -> Path:
    return build_program("memcheck.hip", flags=("-g",))


def checked(program: Path, mode: str) -> subprocess.CompletedProcess:
    return run([program, mode], env=MEMCHECK)


def test_a_read_one_byte_past_a_4000_byte_allocation_is_reported_to_the_byte(program):
    unchecked = run([program, "past-end"])
    assert unchecked.returncode == 0 and "gpusym:" not in unchecked.stderr, describe(unchecked)  # the pages hide it
    result = checked(program, "past-end")
    assert result.returncode == -signal.SIGSEGV, describe(result)
    base = base_of(result.stdout)
    assert report(result) == (
        "scale(float*, float, int)",
        "1",
        "3,0,0",
        "232,0,0",
        f"invalid read of 4 bytes at {base + 4000:#x}: 0 bytes past the end of a 4000-byte "
        f"allocation at {base:#x} (hipMalloc), at {source_line('scale: the access')}"
        " (memcheck)",
    )
    assert "done" not in result.stdout


def test_a_misaligned_store_is_reported(program):
    result = checked(program, "misaligned")
    assert result.returncode == -signal.SIGBUS, describe(result)
    base = base_of(result.stdout)
    assert report(result) == (
        "store_at(char*, int)",
        "1",
        "0,0,0",
        "0,0,0",
        f"misaligned write of 4 bytes at {base + 2:#x}: not aligned to the 4 bytes the code "
        f"assumes, at {source_line('store_at: the access')} (memcheck)",
    )


def test_a_read_of_a_freed_allocation_is_reported(program):
    result = checked(program, "after-free")
    assert result.returncode == -signal.SIGSEGV, describe(result)
    base = base_of(result.stdout)
    assert report(result)[4] == (
        f"invalid read of 4 bytes at {base:#x}: 0 bytes into a freed 4000-byte allocation "
        f"at {base:#x} (hipMalloc, then hipFree), at {source_line('scale: the access')}"
        " (memcheck)"
    )


def test_allocations_never_freed_are_listed_at_exit(program):
    result = checked(program, "leak")
    assert result.returncode == 0, describe(result)
    base = base_of(result.stdout)
    assert result.stderr.splitlines() == [
        "gpusym: memcheck: 1 allocation of device memory (4000 bytes) never freed:",
        f"gpusym:   4000 bytes at {base:#x} (hipMalloc)",
    ]


@pytest.mark.parametrize("mode", ["in-bounds", "aligned", "freed"])
def test_clean_twins_run_without_a_report(program, mode):
    result = checked(program, mode)
    assert result.returncode == 0 and result.stderr == "", describe(result)
    assert result.stdout.endswith("done\n")


def test_gpusym_check_runs_the_program_and_says_what_it_found(program):
    found = run([GPUSYM, "check", "--tool", "memcheck", "--", program, "past-end"])
    assert found.returncode == 128 + signal.SIGSEGV, describe(found)
    assert (
        found.stderr.splitlines()[-1]
        == f"gpusym check: memcheck: {program}: ended at an invalid access (reported above)"
    )
    clean = run([GPUSYM, "check", "--", program, "in-bounds"])
    assert clean.returncode == 0 and clean.stdout.endswith("done\n"), describe(clean)
    assert clean.stderr == f"gpusym check: memcheck: {program}: nothing to report\n"
    missing = run([GPUSYM, "check", "--", str(program) + "-missing"])
    assert missing.returncode == 127 and missing.stderr == f"gpusym check: {program}-missing: no such program\n"
    not_a_program = run([GPUSYM, "check", "--", SOURCE])
    assert not_a_program.returncode == 126 and not_a_program.stderr.startswith(f"gpusym check: {SOURCE}: "), describe(
        not_a_program
    )
    assert "Traceback" not in not_a_program.stderr


def test_gdb_stops_at_the_lane_s_access_with_the_report(program):
    out = gdb(program, "set gpusym check memcheck", "run past-end", "print i")
    assert "[gpusym: invalid read of 4 bytes at" in out and "0 bytes past the end of a 4000-byte allocation" in out
    assert "in scale (data=" in out and f"at {source_line('scale: the access')}" in out, out
    assert "$1 = 1000" in out, out


def test_capture_records_the_report_as_the_crash_s_fault(program):
    result, events = capture_checked(program)
    crash = crash_of(result, events)
    fault = crash["fault"]
    assert crash["address"] == fault["address"] == fault["allocation"]["base"] + 4000
    assert fault["access"] == "read" and fault["allocation"]["size"] == 4000
    assert fault["description"].endswith(f"at {source_line('scale: the access')} (memcheck)")
    assert crash["lane"]["block"] == [3, 0, 0] and crash["lane"]["thread_index"] == [232, 0, 0]
    assert crash["backtrace"][0]["function"] == "scale", crash["backtrace"][:3]  # from the lane's access


def capture_checked(program: Path) -> tuple[subprocess.CompletedProcess, list[dict]]:
    result = run([GPUSYM, "capture", "--jsonl", "--", program, "past-end"], env=MEMCHECK)
    return result, [json.loads(line) for line in result.stdout.splitlines()]


RACES = TEST_PROGRAMS / "racecheck.hip"
RACECHECK = {"GPUSYM_CHECK": "racecheck"}


def race_line(text: str) -> str:
    return line_of(RACES, text)


@pytest.fixture(scope="module")
def races(build_program) -> Path:
    return build_program("racecheck.hip", flags=("-g",))


@pytest.mark.parametrize(
    ("mode", "hazard"),
    [
        (
            "read-after-write",
            "thread (0,0,0) reads 4 bytes of __shared__ memory at {address} (tile+4, {read}) that thread (1,0,0) "
            "wrote ({write}) with no __syncwarp or barrier between: a hazard within one wavefront",
        ),
        (
            "write-after-read",
            "thread (1,0,0) writes 4 bytes of __shared__ memory at {address} (tile+4, {write}) that thread (0,0,0) "
            "read ({read}) with no __syncwarp or barrier between: a hazard within one wavefront",
        ),
    ],
)
def test_a_hazard_on_shared_memory_is_reported_once_with_both_lines(races, mode, hazard):
    result = run([races, mode], env=RACECHECK)
    assert result.returncode == 0 and result.stdout == "done\n", describe(result)
    kernel = mode.replace("-", "_")
    lines = result.stderr.splitlines()
    assert len(lines) == 2, describe(result)
    expected = hazard.format(
        address="ADDRESS", read=race_line(f"{kernel}: the read"), write=race_line(f"{kernel}: the write")
    )
    report = re.sub(r"at 0x[0-9a-f]+ \(", "at ADDRESS (", lines[0])
    assert re.fullmatch(
        rf"gpusym: racecheck: kernel '{kernel}\(int\*(, bool)?\)' \(dispatch 1\) block \([01],0,0\): "
        + re.escape(expected),
        report,
    ), report
    assert lines[1] == (
        "gpusym: racecheck: 126 hazards on __shared__ memory, 126 within one wavefront and 0 between wavefronts "
        "(1 pair of lines, each reported once)"
    )


@pytest.mark.parametrize("mode", ["barrier", "atomics"])
def test_barriers_and_atomics_are_no_hazards(races, mode):
    result = run([races, mode], env=RACECHECK)
    assert result.returncode == 0 and result.stderr == "" and result.stdout == "done\n", describe(result)


def test_gpusym_check_racecheck_goes_on_and_counts_the_reports(races):
    result = run([GPUSYM, "check", "--tool", "racecheck", "--", races, "read-after-write"])
    assert result.returncode == 0 and result.stdout == "done\n", describe(result)
    assert result.stderr.splitlines()[-1] == f"gpusym check: racecheck: {races}: 1 report (above)"


def test_gdb_stops_at_the_lane_s_access_after_a_hazard_and_goes_on(races):
    out = gdb(races, "set gpusym check racecheck", "run read-after-write", "print t", "continue")
    assert "[gpusym: the check's report is above; continue goes on to the next]" in out, out
    assert "in read_after_write (out=" in out and race_line("read_after_write: the read") in out, out
    assert "$1 = 0" in out and "exited normally" in out, out


def test_lanes_waiting_at_different_barriers_are_reported(races):
    result = run([races, "divergent"], env={"GPUSYM_CHECK": "synccheck"})
    assert result.returncode == 0 and result.stdout == "done\n", describe(result)
    report = re.sub(r"block \([01],0,0\)", "block B", result.stderr)
    assert report == (
        "gpusym: synccheck: kernel 'parity(int*, bool)' (dispatch 1) block B: thread (1,0,0) waits at the barrier at "
        f"{race_line('the odd threads')} while thread (0,0,0) waited at the one at {race_line('the even threads')}: "
        "__syncthreads in divergent code\n"
    )


def test_lanes_waiting_at_one_barrier_are_not_reported(races):
    result = run([races, "converged"], env={"GPUSYM_CHECK": "synccheck,racecheck"})
    assert result.returncode == 0 and result.stderr == "" and result.stdout == "done\n", describe(result)


def test_a_read_of_memory_nothing_wrote_is_reported_once_per_line(program):
    result = run([program, "unwritten"], env={"GPUSYM_CHECK": "initcheck"})
    assert result.returncode == 0 and result.stdout.endswith("done\n"), describe(result)
    base = base_of(result.stdout)
    # The first lane to read reports: with several workers, any block's.
    first, summary = result.stderr.splitlines()
    report = re.fullmatch(
        r"gpusym: initcheck: kernel 'scale\(float\*, float, int\)' \(dispatch 1\) block \((\d+),0,0\) thread "
        r"\((\d+),0,0\): reads 4 bytes at (0x[0-9a-f]+) \((\S+)\) that no copy, memset or kernel has written: "
        r"(\d+) bytes into a 4000-byte allocation at (0x[0-9a-f]+) \(hipMalloc\)",
        first,
    )
    assert report, describe(result)
    block, thread, address, line, offset, allocation = report.groups()
    assert line == source_line("scale: the access") and int(allocation, 16) == base, describe(result)
    assert int(offset) == (int(block) * 256 + int(thread)) * 4 == int(address, 16) - base, describe(result)
    assert summary == "gpusym: initcheck: 1000 reads of device memory never written"


@pytest.mark.parametrize("mode", ["written", "in-bounds"])
def test_memory_a_kernel_or_a_memset_wrote_reads_clean(program, mode):
    result = run([program, mode], env={"GPUSYM_CHECK": "initcheck,memcheck"})
    assert result.returncode == 0 and result.stderr == "" and result.stdout.endswith("done\n"), describe(result)


def test_capture_records_each_report_the_program_goes_on_from_as_a_check_event(races):
    result = run([GPUSYM, "capture", "--jsonl", "--", races, "divergent"], env={"GPUSYM_CHECK": "synccheck"})
    events = [json.loads(line) for line in result.stdout.splitlines()]
    checks = [event for event in events if event["event"] == "check"]
    assert len(checks) == 1, describe(result)
    (check,) = checks
    assert check["check"] == "synccheck" and check["report"].startswith("synccheck: kernel 'parity(int*, bool)'")
    assert check["lane"]["thread_index"] == [1, 0, 0]
    first = check["backtrace"][0]
    assert first["function"] == "parity" and f"{first['file']}:{first['line']}".endswith(race_line("the odd threads"))
    assert events[-1]["event"] == "exit" and events[-1]["status"] == 0


def test_a_write_past_a_shared_array_is_reported(program):
    result = checked(program, "shared-past-end")
    assert result.returncode == -signal.SIGSEGV, describe(result)
    kernel, _, block, thread, what = report(result)
    assert (kernel, block, thread) == ("rotate(float*, bool)", "0,0,0", "63,0,0")
    assert re.fullmatch(
        r"invalid write of 4 bytes at 0x[0-9a-f]+: 0 bytes past the end of __shared__ tile \(256 bytes\), at "
        + re.escape(source_line("rotate: the store"))
        + r" \(memcheck\)",
        what,
    ), what
    clean = checked(program, "shared-in-bounds")
    assert clean.returncode == 0 and clean.stderr == "", describe(clean)


def test_a_sync_mask_naming_lanes_that_returned_is_reported(races):
    result = run([races, "exited-lanes"], env={"GPUSYM_CHECK": "synccheck"})
    assert result.returncode == 0 and result.stdout == "done\n", describe(result)
    assert result.stderr == (
        "gpusym: synccheck: kernel 'half_shuffle(int*, bool)' (dispatch 1) block (0,0,0): thread (0,0,0) calls "
        f"__shfl_sync at {race_line('half_shuffle: the shuffle')} with mask 0xffffffffffffffff naming lanes of its "
        "wavefront that have exited or are not in the block (lanes 32-63)\n"
    )
    live = run([races, "live-lanes"], env={"GPUSYM_CHECK": "synccheck"})
    assert live.returncode == 0 and live.stderr == "" and live.stdout == "done\n", describe(live)


@pytest.mark.parametrize(
    ("fixture", "check", "mode", "access"),
    [
        ("races", "synccheck", "divergent", "parity: the odd threads"),
        ("program", "initcheck", "unwritten", "scale: the access"),
    ],
)
def test_gdb_stops_at_the_lane_of_each_report_it_goes_on_from(request, fixture, check, mode, access):
    built = request.getfixturevalue(fixture)
    source = RACES if fixture == "races" else SOURCE
    out = gdb(built, f"set gpusym check {check}", f"run {mode}", "continue")
    assert f"gpusym: {check}: kernel" in out and "[gpusym: the check's report is above" in out, out
    assert line_of(source, access) in out.split("[gpusym: the check's report is above", 1)[1], out
    assert "exited normally" in out, out
