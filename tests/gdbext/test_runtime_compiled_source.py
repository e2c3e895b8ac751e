"""A kernel compiled at run time (hiprtc, NVRTC) has its source in gdb: the
runtime keeps the text the program passed, and its headers, where the debug
information names them, so a stop shows the kernel's line, ``list`` its
source, ``next`` and ``step`` the lines that follow, into a header too; two
programs of one name each show their own text, and a program with no name
is ``default_program`` (tests/programs/hiprtc_source.hip,
tests/programs/cuda/nvrtc_compile.cu)."""

from __future__ import annotations

import re

import pytest
from gdb_batch import gdb

pytestmark = [pytest.mark.toolchain, pytest.mark.gdb]


def _source_lines(output: str) -> list[tuple[int, str]]:
    """The source lines gdb printed: (number, text)."""
    return [(int(number), text) for number, text in re.findall(r"^(\d+)\t(.*)$", output, re.M)]


def _stop(output: str, kernel: str) -> str:
    """Where the stop in `kernel` is, with the source line after it."""
    found = re.search(rf"hit Breakpoint \d+, {re.escape(kernel)} \(.*\) at (\S+)\n(.*)\n", output)
    assert found, output
    return found[1] + "\n" + found[2]


def test_hiprtc_kernels_show_their_source(build_program):
    program = build_program("hiprtc_source.hip")
    output = gdb(
        program,
        "kbreak -pending axpy -thread 1",
        "kbreak -pending other -thread 1",
        "kbreak -pending unnamed -thread 1",
        "run",
        "list",
        "next",
        "next",
        "step",
        "continue",
        "list",
        "continue",
        "list",
        "continue",
    )
    assert "No such file or directory" not in output, output
    # The stop, list and next in a program named with a directory.
    axpy = _stop(output, "axpy")
    assert re.fullmatch(r"/\S+/kernels/axpy\.hip:3\n3\t  int i = threadIdx\.x;", axpy), output
    lines = _source_lines(output)
    assert lines[:9] == [
        (3, "  int i = threadIdx.x;"),
        (1, '#include "coef.h"'),
        (2, 'extern "C" __global__ void axpy(float a, const float* x, float* y) {'),
        (3, "  int i = threadIdx.x;"),
        (4, "  float scaled = a * x[i];"),
        (5, "  y[i] = biased(scaled) + y[i];"),
        (6, "}"),
        (4, "  float scaled = a * x[i];"),  # next
        (5, "  y[i] = biased(scaled) + y[i];"),  # next
    ], output
    # step goes into the header passed with the program, found too.
    assert re.search(r"^biased \(value=4\) at /\S+/coef\.h:3\n3\t  return value \+ 1\.0f;$", output, re.M), output
    # A second program of the same name shows its own text, from its own file.
    other = _stop(output, "other")
    assert re.fullmatch(r"/\S+/kernels/axpy\.hip:3\n3\t  int j = threadIdx\.x;", other), output
    assert axpy.split(":")[0] != other.split(":")[0], output
    assert (1, "// The same name as axpy's program, another text.") in lines, output
    # A program without a name.
    unnamed = _stop(output, "unnamed")
    assert re.fullmatch(r"/\S+/default_program:2\n2\t  int k = threadIdx\.x;", unnamed), output
    assert (1, 'extern "C" __global__ void unnamed(float* y) {') in lines, output
    assert "hiprtc_source: ok" in output, output


def test_nvrtc_kernels_show_their_source(build_program):
    program = build_program("cuda/nvrtc_compile.cu", flags=("-g",))
    output = gdb(program, "kbreak -pending axpy<float> -thread 1", "run", "list", "next")
    assert "No such file or directory" not in output, output
    stop = _stop(output, "axpy<float>")
    assert re.fullmatch(r"/\S+/axpy\.cu:4\n4\t  int i = blockIdx\.x \* blockDim\.x \+ threadIdx\.x;", stop), output
    lines = _source_lines(output)
    assert (3, "__global__ void axpy(T a, const T *x, T *y) {") in lines, output
    assert lines[-1] == (5, "  y[i] = a * x[i] + y[i] + (warpSize == 32 ? 0 : 1000);"), output
