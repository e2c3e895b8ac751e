"""memcheck and initcheck on the planted bugs of
tests/programs/cuda/planted_bugs.cu, built with -G and at -O2: each bug is
reported with its kernel, lane, source line and sizes, and its clean twin
runs without a report; without checks, a read of freed pinned host memory
faults and a second free is told from a foreign one."""

from __future__ import annotations

import re
import signal
import subprocess
from pathlib import Path

import pytest
from conftest import GPUSYM, REPO, TEST_PROGRAMS, describe, run
from fault_runs import report

pytestmark = pytest.mark.toolchain

SOURCE = TEST_PROGRAMS / "cuda" / "planted_bugs.cu"
ADDRESS = r"0x[0-9a-f]+"


def line_of(text: str) -> str:
    """FILE:LINE of the source's one line that ends in the comment `text`, or is `text`."""
    lines = enumerate(SOURCE.read_text().splitlines(), 1)
    (number,) = [n for n, content in lines if content.endswith(f"// {text}") or content.strip() == text]
    return f"{SOURCE.relative_to(REPO)}:{number}"


@pytest.fixture(scope="module", params=["-G", "-O2"])
def program(request, build_program) -> Path:
    return build_program("cuda/planted_bugs.cu", flags=("-g", request.param), output=f"planted_bugs{request.param}")


def checked(program: Path, mode: str, check: str = "memcheck") -> subprocess.CompletedProcess:
    return run([program, mode], env={"GPUSYM_CHECK": check})


def test_a_read_past_dynamic_shared_memory_is_reported_against_the_launch_s_size(program):
    result = checked(program, "dynamic-shared-past-end")
    assert result.returncode == -signal.SIGSEGV, describe(result)
    kernel, _, block, thread, what = report(result)
    assert (kernel, block, thread) == ("dynamic_shared(float*, int)", "0,0,0", "255,0,0"), describe(result)
    assert re.fullmatch(
        f"invalid read of 4 bytes at {ADDRESS}: 0 bytes past the end of extern __shared__ dynamic "
        rf"\(1024 bytes at launch\), at {re.escape(line_of('dynamic_shared: the read'))} \(memcheck\)",
        what,
    ), what


def test_a_write_past_a_device_malloc_block_is_reported_to_the_byte(program):
    result = checked(program, "heap-past-end")
    assert result.returncode == -signal.SIGSEGV, describe(result)
    kernel, _, block, thread, what = report(result)
    assert kernel == "heap_blocks(int*, int)" and block in ("0,0,0", "1,0,0") and thread == "0,0,0", describe(result)
    match = re.fullmatch(
        f"invalid write of 4 bytes at ({ADDRESS}): 0 bytes past the end of a 64-byte block of device malloc at "
        rf"({ADDRESS}), at {re.escape(line_of('heap_blocks: the write'))} \(memcheck\)",
        what,
    )
    assert match and int(match[1], 16) == int(match[2], 16) + 64, what


def test_a_double_free_is_reported_with_the_lane_that_made_and_freed_the_block(program):
    result = checked(program, "heap-double-free")
    assert result.returncode == 0 and "heap-double-free: cudaSuccess" in result.stdout, describe(result)
    # Each of the two blocks frees twice at one line: reported once, counted twice.
    first, summary = result.stderr.splitlines()
    match = re.fullmatch(
        r"gpusym: kernel 'heap_blocks\(int\*, int\)' \(dispatch 1\) block \(([01]),0,0\) thread \(0,0,0\): "
        f"double free of {ADDRESS}: a 64-byte block of device malloc made by dispatch 1 block \\(([01]),0,0\\) "
        rf"thread \(0,0,0\) and freed by it at {re.escape(line_of('free(block);'))}; ignored, at "
        rf"{re.escape(line_of('heap_blocks: the second free'))} \(memcheck\)",
        first,
    )
    assert match and match[1] == match[2], describe(result)
    assert summary == "gpusym: memcheck: 2 invalid frees in device code (each line reported once)"


def test_a_device_free_of_a_cuda_malloc_allocation_is_reported(program):
    result = checked(program, "heap-free-foreign")
    assert result.returncode == 0, describe(result)
    assert re.fullmatch(
        r"gpusym: kernel 'free_foreign\(int\*\)' \(dispatch 1\) block \(0,0,0\) thread \(0,0,0\): invalid free of "
        f"({ADDRESS}): 0 bytes into a 1024-byte allocation at \\1 \\(cudaMalloc\\), not a block of device malloc; "
        rf"ignored, at {re.escape(line_of('free_foreign: the free'))} \(memcheck\)"
        "\ngpusym: memcheck: 1 invalid free in device code \\(each line reported once\\)\n",
        result.stderr,
    ), describe(result)


def test_a_read_of_freed_pinned_memory_is_reported(program):
    result = checked(program, "pinned-after-free")
    assert result.returncode == -signal.SIGSEGV, describe(result)
    kernel, _, block, thread, what = report(result)
    assert (kernel, block, thread) == ("read_pinned(int const*, int*)", "0,0,0", "0,0,0"), describe(result)
    assert re.fullmatch(
        f"invalid read of 4 bytes at ({ADDRESS}): 0 bytes into a freed 1024-byte allocation of pinned host memory "
        rf"at \1 \(cudaHostAlloc, then cudaFreeHost\), at {re.escape(line_of('read_pinned: the read'))} \(memcheck\)",
        what,
    ), what


def test_without_checks_freed_pinned_memory_faults_and_frees_are_told_apart(program):
    pinned = run([program, "pinned-after-free"])
    assert pinned.returncode == -signal.SIGSEGV, describe(pinned)
    assert re.fullmatch(
        r"gpusym: kernel 'read_pinned\(int const\*, int\*\)' \(dispatch 1\) block \(0,0,0\) thread \(0,0,0\): "
        f"invalid read at ({ADDRESS}): 0 bytes into a freed 1024-byte allocation of pinned host memory at \\1 "
        r"\(cudaHostAlloc, then cudaFreeHost\)\n",
        pinned.stderr,
    ), describe(pinned)
    twice = run([program, "heap-double-free"])
    already_freed = (
        rf"gpusym: free\({ADDRESS}\) in kernel heap_blocks\(int\*, int\): a block of device malloc already freed; "
        "ignored"
    )
    assert twice.returncode == 0 and re.fullmatch(f"({already_freed}\n){{2}}", twice.stderr), describe(twice)
    foreign = run([program, "heap-free-foreign"])
    assert foreign.returncode == 0 and re.fullmatch(
        rf"gpusym: free\({ADDRESS}\) in kernel free_foreign\(int\*\): not an allocation of device malloc; ignored\n",
        foreign.stderr,
    ), describe(foreign)


def test_gpusym_check_counts_the_reports(program):
    frees = run([GPUSYM, "check", "--tool", "memcheck", "--", program, "heap-double-free"])
    assert frees.returncode == 0, describe(frees)
    assert frees.stderr.splitlines()[-1] == f"gpusym check: memcheck: {program}: 1 report (above)", describe(frees)
    fault = run([GPUSYM, "check", "--tool", "memcheck", "--", program, "heap-past-end"])
    assert fault.returncode == 128 + signal.SIGSEGV, describe(fault)
    assert (
        fault.stderr.splitlines()[-1]
        == f"gpusym check: memcheck: {program}: ended at an invalid access (reported above)"
    )
    shared = run([GPUSYM, "check", "--tool", "initcheck", "--", program, "shared-unwritten"])
    assert shared.returncode == 0, describe(shared)
    assert shared.stderr.splitlines()[-1] == f"gpusym check: initcheck: {program}: 1 report (above)", describe(shared)


@pytest.mark.parametrize(
    "mode",
    ["dynamic-shared-in-bounds", "heap-in-bounds", "heap-free-once", "pinned-live", "shared-written", "global-written"],
)
def test_clean_twins_run_without_a_report(program, mode):
    result = checked(program, mode, "memcheck,initcheck")
    assert result.returncode == 0 and result.stderr == "", describe(result)
    assert result.stdout.startswith(f"{mode}: cudaSuccess"), describe(result)


def test_a_read_of_shared_memory_no_thread_wrote_is_reported_once(program):
    result = checked(program, "shared-unwritten", "initcheck")
    assert result.returncode == 0, describe(result)
    first, summary = result.stderr.splitlines()
    assert re.fullmatch(
        r"gpusym: initcheck: kernel 'shared_reads\(int\*, bool\)' \(dispatch 1\) block \(0,0,0\) thread \(0,0,0\): "
        f"reads 4 bytes of __shared__ memory at {ADDRESS} \\(s\\+0, {re.escape(line_of('shared_reads: the read'))}\\) "
        "that no thread of its block has written",
        first,
    ), describe(result)
    assert summary == "gpusym: initcheck: 256 reads of __shared__ memory never written"


def test_a_read_of_global_memory_nothing_wrote_is_still_reported(program):
    result = checked(program, "global-unwritten", "initcheck")
    assert result.returncode == 0, describe(result)
    first, summary = result.stderr.splitlines()
    assert re.fullmatch(
        r"gpusym: initcheck: kernel 'global_reads\(int const\*, int\*\)' \(dispatch 1\) block \(0,0,0\) thread "
        rf"\(0,0,0\): reads 4 bytes at ({ADDRESS}) \({re.escape(line_of('global_reads: the read'))}\) that no copy, "
        r"memset or kernel has written: 0 bytes into a 1024-byte allocation at \1 \(cudaMalloc\)",
        first,
    ), describe(result)
    assert summary == "gpusym: initcheck: 256 reads of device memory never written"
