"""``gpusym capture`` run from the tests, and what they read in its output:
events of a kind, a line of a source, rows of a report's table."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from conftest import GPUSYM


def source_line(path: Path, text: str) -> int:
    """The line of `path` holding `text` (exactly once)."""
    lines = [n for n, line in enumerate(path.read_text().splitlines(), 1) if text in line]
    assert len(lines) == 1, f"{text!r} is on lines {lines} of {path}"
    return lines[0]


def capture(*arguments, stdin: str | None = None) -> tuple[subprocess.CompletedProcess, list[dict]]:
    """``gpusym capture --jsonl ARGUMENTS``; the result and its events."""
    result = subprocess.run(
        [str(GPUSYM), "capture", "--jsonl", *map(str, arguments)],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )
    events = [json.loads(line) for line in result.stdout.splitlines()]
    return result, events


def of_kind(events: list[dict], kind: str) -> list[dict]:
    return [event for event in events if event["event"] == kind]


def table_rows(report: str, title: str) -> list[list[str]]:
    """The cells of each row of the report's table under `title` (rows
    between rules), the lines of a cell joined by spaces."""
    table = report[report.index(title) :].split("└", 1)[0]
    rows, lines = [], []
    for line in [*table.splitlines(), "├"]:
        if line.startswith("│"):
            lines.append([cell.strip() for cell in line[1:-1].split("│")])
        elif line.startswith("├") and lines:
            rows.append([" ".join(part for part in cell if part) for cell in zip(*lines)])
            lines = []
    return rows
