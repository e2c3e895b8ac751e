"""synccheck and racecheck on the planted bugs of
tests/programs/cuda/planted_bugs.cu, built with -G and at -O2: each bug is
reported with its kernel, lanes and source lines, its clean twin is not, and
the program's own output is the same with the check as without."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from conftest import GPUSYM, REPO, TEST_PROGRAMS, describe, run

pytestmark = pytest.mark.toolchain

SOURCE = TEST_PROGRAMS / "cuda" / "planted_bugs.cu"
# One worker: warp_exchange's two blocks write the same elements of out, so
# which block writes last depends on the workers.
ONE_WORKER = {"GPUSYM_WORKERS": "1"}


def line(text: str, then: str = "") -> str:
    """FILE:LINE of the line of planted_bugs.cu commented `// text`, or of
    the first line after it holding `then`."""
    lines = SOURCE.read_text().splitlines()
    (found,) = [n for n, content in enumerate(lines, 1) if f"// {text}" in content]
    if then:
        found = next(n for n, content in enumerate(lines[found:], found + 1) if then in content)
    return f"{SOURCE.relative_to(REPO)}:{found}"


@pytest.fixture(scope="module", params=["-G", "-O2"])
def planted(request, build_program) -> Path:
    return build_program("cuda/planted_bugs.cu", flags=("-g", request.param))


def checked(program: Path, mode: str, check: str) -> subprocess.CompletedProcess:
    """The run of `mode` under `check`, its output the same as unchecked in
    the form checks run in (the kernels' debuggable form: the planted races'
    results may differ in the fast form, which meets a whole block where
    this form meets a wavefront)."""
    result = run([program, mode], env={**ONE_WORKER, "GPUSYM_CHECK": check})
    plain = run([program, mode], env={**ONE_WORKER, "GPUSYM_FORM": "debug"})
    assert result.returncode == plain.returncode == 0 and plain.stderr == "", describe(plain)
    assert result.stdout == plain.stdout and result.stdout.startswith(f"{mode}: cudaSuccess"), describe(result)
    return result


def synccheck_report(kernel: str, what: str) -> str:
    return f"gpusym: synccheck: kernel '{kernel}(int*, bool)' (dispatch 1) block (0,0,0): {what}\n"


DIVERGENT = ": __syncthreads in divergent code"


@pytest.mark.parametrize(
    ("bug", "twin", "kernel", "what"),
    [
        (
            "barrier-skipped",
            "barrier-all",
            "barrier_skipped",
            "threads (0,0,0)-(127,0,0) waited at the barrier at {barrier_skipped: the barrier} while threads "
            "(128,0,0)-(255,0,0) ran to the end of the kernel without reaching it" + DIVERGENT,
        ),
        (
            "barrier-returned",
            "barrier-not-returned",
            "barrier_returned",
            "threads (0,0,0)-(127,0,0) waited at the barrier at {barrier_returned: the barrier} while threads "
            "(128,0,0)-(255,0,0) ran to the end of the kernel without reaching it" + DIVERGENT,
        ),
        (
            # Threads 0-63 leave the loop after one trip: its two barriers.
            "loop-trips",
            "loop-uniform",
            "loop_trips",
            "threads (64,0,0)-(255,0,0) waited at the barrier at {loop_trips: the barrier} for the 2nd time while "
            "threads (0,0,0)-(63,0,0) ran to the end of the kernel after the barrier at {loop_trips: the barrier|"
            "__syncthreads} without reaching it" + DIVERGENT,
        ),
        (
            "mask-other-function",
            "mask-same-function",
            "mask_functions",
            "thread (0,0,0) calls __shfl_sync at {mask_functions: the shuffle} with mask 0xffffffff naming lanes "
            "16-31 of its warp, which wait at __ballot_sync at {mask_functions: the ballot}",
        ),
    ],
)
def test_synccheck_reports_the_bug_once_and_not_its_twin(planted, bug, twin, kernel, what):
    expected = re.sub(r"\{([^}|]+)\|?([^}]*)\}", lambda match: line(match[1], match[2]), what)
    assert checked(planted, bug, "synccheck").stderr == synccheck_report(kernel, expected)
    assert checked(planted, twin, "synccheck").stderr == ""


def test_gpusym_check_counts_the_synccheck_report(planted):
    result = run([GPUSYM, "check", "--tool", "synccheck", "--", planted, "barrier-returned"], env=ONE_WORKER)
    assert result.returncode == 0 and result.stdout.startswith("barrier-returned: cudaSuccess"), describe(result)
    assert result.stderr.splitlines()[-1] == f"gpusym check: synccheck: {planted}: 1 report (above)"
    clean = run([GPUSYM, "check", "--tool", "synccheck", "--", planted, "loop-uniform"], env=ONE_WORKER)
    assert clean.stderr.splitlines()[-1] == f"gpusym check: synccheck: {planted}: nothing to report"


def hazard(kernel: str, access: str, variable: str, other: str, count: int, within: bool) -> str:
    kind = (
        "__syncwarp or barrier between: a hazard within one warp"
        if within
        else "barrier between: a hazard between warps"
    )
    hazards = (
        f"{count} within one warp and 0 between warps" if within else f"0 within one warp and {count} between warps"
    )
    return (
        f"gpusym: racecheck: kernel '{kernel}(int*, bool)' (dispatch 1) block (0,0,0): {access} of __shared__ memory "
        f"at ADDRESS ({variable}) that {other} with no {kind}\n"
        f"gpusym: racecheck: {count} hazard{'s' if count > 1 else ''} on __shared__ memory, {hazards} "
        "(1 pair of lines, each reported once)\n"
    )


@pytest.mark.parametrize(
    ("bug", "twin", "expected"),
    [
        (
            # Lane 1 of each of the 16 warps reads what its lane 0 wrote.
            "warp-race",
            "warp-synced",
            hazard(
                "warp_exchange",
                "thread (1,0,0) reads 4 bytes",
                f"s+0, {line('warp_exchange: the read')}",
                f"thread (0,0,0) wrote ({line('warp_exchange: the write')})",
                16,
                within=True,
            ),
        ),
        (
            # Thread 0 reads s[0] before thread 255 writes it, lanes running in order.
            "block-race",
            "block-synced",
            hazard(
                "block_exchange",
                "thread (255,0,0) writes 4 bytes",
                f"s+0, {line('block_exchange: the write')}",
                f"thread (0,0,0) read ({line('block_exchange: the read')})",
                1,
                within=False,
            ),
        ),
    ],
)
def test_racecheck_tells_hazards_within_a_warp_from_those_between_warps(planted, bug, twin, expected):
    report = checked(planted, bug, "racecheck").stderr
    assert re.sub(r"at 0x[0-9a-f]+ \(", "at ADDRESS (", report) == expected
    assert checked(planted, twin, "racecheck").stderr == ""
