"""threadIdx, blockIdx, blockDim, gridDim and warpSize in gdb's expressions
and conditions (gdbext/commands/device_variables.py), and host variables of the same names."""

from __future__ import annotations

import re

import pytest
from gdb_batch import gdb

pytestmark = [pytest.mark.toolchain, pytest.mark.gdb]


@pytest.fixture(scope="module")
def builtins(build_program):
    return build_program("builtins.hip")


def _values(output: str) -> list[str]:
    return re.findall(r"^\$\d+ = (.*)$", output, re.MULTILINE)


def test_built_ins_print_the_selected_lane(builtins):
    output = gdb(
        builtins,
        "kbreak fill -block 2 -thread 5",
        "run",
        "print threadIdx",
        "print threadIdx.x",
        "print blockIdx.x",
        "print blockDim",
        "print gridDim.x",
        "print warpSize",
        "print hipThreadIdx_x",
        "print blockIdx.x * blockDim.x + threadIdx.x",
    )
    assert _values(output) == ["{x = 5, y = 0, z = 0}", "5", "2", "{x = 64, y = 1, z = 1}", "3", "64", "5", "133"], (
        output
    )
    assert "Traceback" not in output


def test_a_condition_on_built_ins_stops_in_that_lane(builtins):
    output = gdb(
        builtins,
        "set breakpoint pending on",
        "break builtins.hip:9 if blockIdx.x == 1 && threadIdx.x == 7",
        "run",
        "print index",
        "continue",
    )
    assert re.findall(r"\[gpusym: (.*) of dispatch", output) == ["block (1,0,0) thread (7,0,0)"], output
    assert _values(output) == ["71"] and "exited normally" in output, output


def test_host_variables_of_those_names_keep_their_values(builtins):
    output = gdb(
        builtins,
        "break builtins.hip:19",
        "run",
        "print blockDim.x",
        "print gridDim",
        "print threadIdx.x",
        "print warpSize",
    )
    assert _values(output) == ["64", "{x = 3, y = 1, z = 1}"], output
    assert output.count('No symbol "threadIdx" in current context (a built-in of device code') == 1, output
    assert 'No symbol "warpSize" in current context' in output, output


def test_sizeof_and_ptype_know_the_built_ins(builtins):
    output = gdb(
        builtins,
        "kbreak fill -block 1 -thread 3",
        "run",
        "print sizeof(threadIdx)",
        "ptype blockIdx.x",
        "print 1 || threadIdx.x",
    )
    assert _values(output) == ["12", "true"] and "type = unsigned int" in output, output
