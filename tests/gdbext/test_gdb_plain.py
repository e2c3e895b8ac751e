"""Plain gdb, without any extension, stops inside a kernel.

The runtime dlopens the simulated code object, so gdb sees the kernel as a
function of an ordinary shared library: a pending breakpoint on its name or
on a source line inside it resolves when the library loads, and hits on a
worker thread."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import describe, run

from sample_apps.samples import PROGRAMS_DIR

pytestmark = [pytest.mark.toolchain, pytest.mark.gdb]

VECTOR_ADD_SOURCE = PROGRAMS_DIR / "vector_add" / "vector_add.hip"
KERNEL_STATEMENT = "c[i] = a[i] * scale + b[i];"
GDB_TIMEOUT = 120


def line_of(source: Path, text: str) -> int:
    lines = [number for number, line in enumerate(source.read_text().splitlines(), 1) if text in line]
    assert len(lines) == 1, f"expected {text!r} once in {source}, found it on lines {lines}"
    return lines[0]


def gdb_batch(program: Path, *commands: str):
    """Runs ``gdb -nx -batch`` with `commands`, killing the inferior at the end."""
    arguments = ["timeout", "-k", "10", str(GDB_TIMEOUT), "gdb", "-nx", "-batch"]
    for command in ("set breakpoint pending on", "set pagination off", *commands, "kill"):
        arguments += ["-ex", command]
    result = run([*arguments, str(program)], timeout=GDB_TIMEOUT + 30)
    assert result.returncode != 124, f"gdb timed out\n{describe(result)}"
    output = result.stdout + result.stderr
    assert "Traceback" not in output, describe(result)
    return result, output


@pytest.fixture(scope="module")
def break_on_kernel(vector_add):
    return gdb_batch(vector_add, "break vector_add", "run", "info args", "info threads")


@pytest.fixture(scope="module")
def break_on_kernel_line(vector_add):
    line = line_of(VECTOR_ADD_SOURCE, KERNEL_STATEMENT)
    result, output = gdb_batch(vector_add, f"break vector_add.hip:{line}", "run", "print i", "print n", "thread")
    return line, result, output


def test_breakpoint_on_kernel_name_stops_in_the_kernel_with_its_arguments(break_on_kernel):
    result, output = break_on_kernel
    stop = re.search(r"hit Breakpoint 1, vector_add \((.*)\) at (\S+):(\d+)", output)
    assert stop, f"gdb did not stop in vector_add\n{describe(result)}"
    arguments = stop.group(1)
    assert re.fullmatch(r"a=0x[0-9a-f]+, b=0x[0-9a-f]+, c=0x[0-9a-f]+, scale=2\.5, n=100000", arguments), arguments
    assert Path(stop.group(2)).name == "vector_add.hip"


def test_breakpoint_on_kernel_name_hits_on_a_worker_thread(break_on_kernel):
    result, output = break_on_kernel
    assert re.search(r'Thread \d+ "gpusym-w\d+" hit Breakpoint 1, vector_add', output), describe(result)


def test_info_args_shows_the_scalar_kernel_arguments(break_on_kernel):
    result, output = break_on_kernel
    assert re.search(r"^scale = 2\.5$", output, re.MULTILINE), describe(result)
    assert re.search(r"^n = 100000$", output, re.MULTILINE), describe(result)
    for pointer in "abc":
        assert re.search(rf"^{pointer} = 0x[0-9a-f]+$", output, re.MULTILINE), describe(result)


def test_breakpoint_on_kernel_line_stops_at_that_line(break_on_kernel_line):
    line, result, output = break_on_kernel_line
    stop = re.search(r"hit Breakpoint 1, vector_add \(.*\) at (\S+):(\d+)\n(\d+)\s+(.*)", output)
    assert stop, f"gdb did not stop in vector_add\n{describe(result)}"
    assert Path(stop.group(1)).name == "vector_add.hip"
    assert int(stop.group(2)) == line
    assert int(stop.group(3)) == line and stop.group(4).strip() == KERNEL_STATEMENT


def test_locals_and_arguments_are_readable_at_the_kernel_line(break_on_kernel_line):
    _, result, output = break_on_kernel_line
    values = dict(re.findall(r"^\$(\d+) = (.*)$", output, re.MULTILINE))
    assert set(values) >= {"1", "2"}, f"print gave no values\n{describe(result)}"
    i = values["1"]
    assert re.fullmatch(r"-?\d+", i), f"print i gave {i!r}"
    assert 0 <= int(i) < 100000
    assert values["2"] == "100000"


def test_kernel_line_breakpoint_hits_on_a_worker_thread(break_on_kernel_line):
    _, result, output = break_on_kernel_line
    assert re.search(r'Thread \d+ "gpusym-w\d+" hit Breakpoint 1', output), describe(result)


def test_gdb_kills_the_inferior_cleanly(break_on_kernel):
    result, output = break_on_kernel
    assert re.search(r"\[Inferior 1 \(process \d+\) killed\]", output), describe(result)
