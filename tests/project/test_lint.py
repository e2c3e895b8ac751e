"""The tree is as ruff formats and lints it (pyproject.toml, [tool.ruff]):
``ruff format .`` and ``ruff check --fix .`` settle what this finds."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from conftest import REPO, describe, run

pytestmark = []  # no toolchain, no gdb: seconds (make check)

RUFF = Path(sys.executable).parent / "ruff"


@pytest.mark.parametrize("command", [["check"], ["format", "--check"]])
def test_ruff(command):
    result = run([RUFF, *command, "."], cwd=REPO)
    assert result.returncode == 0, describe(result)
