"""No Python traceback reaches a gdb user: errors are one-line gdb errors."""

from __future__ import annotations

import contextlib
import os

import gdb

from gdbext.lane_coordinates import ArgumentError


@contextlib.contextmanager
def one_line_errors(command: str):
    """Turns an argument that cannot be read into its gdb error, and any
    unexpected exception in `command` into one gdb error line (GPUSYM_DEBUG=1
    lets it through, with its traceback)."""
    try:
        yield
    except gdb.GdbError:
        raise
    except ArgumentError as error:
        raise gdb.GdbError(str(error)) from None
    except Exception as error:  # noqa: BLE001 - the last line of defence
        if os.environ.get("GPUSYM_DEBUG") == "1":
            raise
        raise gdb.GdbError(f"{command}: internal error: {type(error).__name__}: {error}") from None
