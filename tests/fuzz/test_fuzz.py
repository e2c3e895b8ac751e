"""The fuzzer (fuzz/) as part of the suite: every input kept in
fuzz/regressions/ (findings of earlier runs, and small reproductions of the
bugs the hardening fixed) still ends in a result or a FormatError, and every
target is fuzzed for a few seconds (``make fuzz`` fuzzes longer)."""

from __future__ import annotations

import json
import sys

import pytest
from conftest import REPO, describe, run

pytestmark = [pytest.mark.toolchain, pytest.mark.slow]

if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from fuzz import run as fuzz_run  # noqa: E402
from fuzz import targets  # noqa: E402

#: Per target; two at a time on two cores, so about 25 s in all.
SECONDS = 4
KEPT = sorted(path for path in (REPO / "fuzz" / "regressions").glob("*/*") if path.is_file())


def test_every_target_has_kept_inputs():
    assert {path.parent.name for path in KEPT} == set(fuzz_run.TARGETS) == set(targets.PARSERS)
    assert all(path.stat().st_size <= 8192 for path in KEPT), "kept inputs are small"


@pytest.mark.parametrize("path", KEPT, ids=[f"{p.parent.name}/{p.name}" for p in KEPT])
def test_kept_input(path):
    targets.run(path.parent.name, path.read_bytes())


def test_every_target_fuzzed_briefly_finds_nothing(tmp_path):
    result = run(
        [sys.executable, "-m", "fuzz.run", "--seconds", str(SECONDS), "--no-nvcc", "--out", tmp_path],
        cwd=REPO,
        timeout=SECONDS * len(fuzz_run.TARGETS) + 300,
    )
    assert result.returncode == 0, describe(result)
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert [t["target"] for t in summary["targets"]] == fuzz_run.TARGETS
    for target in summary["targets"]:
        assert target["executions"] > 100 and target["findings"] == [], target
