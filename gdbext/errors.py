"""No Python traceback reaches a gdb user: errors are one-line gdb errors."""

from __future__ import annotations

import contextlib
import os

import gdb


@contextlib.contextmanager
def one_line_errors(command: str):
    """Turns any unexpected exception in `command` into one gdb error line
    (GPUSYM_DEBUG=1 lets it through, with its traceback)."""
    try:
        yield
    except gdb.GdbError:
        raise
    except Exception as error:  # noqa: BLE001 - the last line of defence
        if os.environ.get("GPUSYM_DEBUG") == "1":
            raise
        raise gdb.GdbError(f"{command}: internal error: {type(error).__name__}: {error}") from None
