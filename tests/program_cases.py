"""Test programs that run one named case per process and print
``name: value`` lines."""

from __future__ import annotations

from pathlib import Path

from conftest import describe, run


def case(program: Path, name: str, **env: str) -> dict[str, str]:
    """Runs one case; returns its lines as {name: value}."""
    result = run([program, name], env=env)
    assert result.returncode == 0, describe(result)
    lines = {}
    for line in result.stdout.splitlines():
        key, sep, value = line.partition(": ")
        assert sep, f"unexpected line {line!r}\n{describe(result)}"
        lines[key] = value
    return lines
