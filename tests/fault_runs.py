"""What the tests read of a fault: the allocation's base a program prints,
the runtime's one report line, and the crash event of a capture."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

from conftest import GPUSYM, describe, run

REPORT = re.compile(r"gpusym: kernel '(.*)' \(dispatch (\d+)\) block \(([\d,]+)\) thread \(([\d,]+)\): (.*)")


def base_of(output: str) -> int:
    match = re.search(r"\bbase (0x[0-9a-f]+)\b", output)
    assert match, output
    return int(match.group(1), 16)


def report(result: subprocess.CompletedProcess) -> tuple[str, str, str, str, str]:
    """The one report line: kernel, dispatch, block, thread, what happened."""
    lines = [line for line in result.stderr.splitlines() if line.startswith("gpusym:")]
    assert len(lines) == 1, describe(result)
    match = REPORT.fullmatch(lines[0])
    assert match, lines[0]
    return match.groups()


def capture(program: Path, mode: str) -> tuple[subprocess.CompletedProcess, list[dict]]:
    result = run([GPUSYM, "capture", "--jsonl", "--", program, mode])
    return result, [json.loads(line) for line in result.stdout.splitlines()]


def crash_of(result, events) -> dict:
    crashes = [event for event in events if event["event"] == "crash"]
    assert len(crashes) == 1, describe(result)
    return crashes[0]
