"""``set gpusym api-errors on`` in a CUDA program built with gpusym-nvcc: a
failing runtime call is named as the program called it, with CUDA's name of
its error."""

from __future__ import annotations

import pytest
from gdb_batch import gdb

pytestmark = [pytest.mark.toolchain, pytest.mark.gdb]


def test_failing_cuda_calls_are_named_with_cuda_names(build_program):
    program = build_program("cuda/runtime_api_errors.cu", flags=("-g",))
    output = gdb(program, "set gpusym api-errors on", "run", "print $_hiperr_name", "continue", "continue")
    assert "[gpusym: cudaMalloc failed: cudaErrorMemoryAllocation (2)]" in output, output
    assert '= "cudaErrorMemoryAllocation"' in output, output
    assert "[gpusym: cudaFree failed: cudaErrorInvalidValue (1)]" in output, output
    assert "hipError" not in output and "exited normally" in output, output
