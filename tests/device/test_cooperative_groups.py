"""Cooperative groups on the simulated device (hip/hip_cooperative_groups.h):
thread blocks, static and dynamic tiles, coalesced groups and the grid of a
cooperative launch, each call's result checked on the host
(tests/programs/cooperative_groups.hip), with one worker or several, at -O0
and -O2, and with launches blocking."""

from __future__ import annotations

import re

import pytest
from conftest import describe, run

pytestmark = [pytest.mark.toolchain]


@pytest.fixture(scope="module", params=[("-g",), ("-O2",)], ids=["O0", "O2"])
def program(build_program, request):
    return build_program("cooperative_groups.hip", flags=request.param)


@pytest.mark.parametrize(
    "environment",
    [{"GPUSYM_WORKERS": "1"}, {"GPUSYM_WORKERS": "3"}, {"GPUSYM_LAUNCH_BLOCKING": "1"}],
    ids=["1 worker", "3 workers", "blocking"],
)
def test_every_cooperative_groups_call_gives_each_lane_its_result(program, environment):
    result = run([program], env=environment)
    cases = dict(re.findall(r"^cooperative_groups: (.+): (\d+) wrong$", result.stdout, re.M))
    failing = {case: count for case, count in cases.items() if count != "0"}
    assert len(cases) == 18 and not failing, (failing, describe(result))
    assert result.returncode == 0, describe(result)
