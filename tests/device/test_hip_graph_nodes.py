"""Graphs built node by node, instantiated with flags or parameters and
added to by hipStreamBeginCaptureToGraph; the driver-style arrays, copies
and texture objects, hipExtModuleLaunchKernel, hipStreamBatchMemOp and the
occupancy templates (tests/programs/graph_nodes.hip)."""

from __future__ import annotations

import pytest
from conftest import describe, run

pytestmark = [pytest.mark.toolchain]


def test_graph_nodes_and_driver_calls_work(build_program):
    result = run([build_program("graph_nodes.hip", flags=("-g",))])
    assert result.returncode == 0 and result.stdout.splitlines() == ["ok"], describe(result)
