"""What the program's stdout buffer holds when gdb is about to kill it (at a
crash or a timeout): read from glibc's FILE, not flushed by running code in
a process that may be faulting on other threads, and written where the
program's flush would have written it.  Line buffering (interposer.c)
leaves at most the line not ended yet there."""

from __future__ import annotations

import struct

import gdb

#: glibc's struct _IO_FILE (bits/types/struct_FILE.h) on x86-64: int _flags,
#: then the pointers _IO_read_ptr, _IO_read_end, _IO_read_base,
#: _IO_write_base (the buffer's unwritten bytes start) and _IO_write_ptr.
_WRITE_BASE = 32
_POINTERS = struct.Struct("<QQ")
#: More than a stdio buffer ever holds: anything larger is not one.
_LIMIT = 1 << 20


def stdout_bytes() -> bytes:
    """The bytes written to stdout and not flushed yet; none when they
    cannot be read (no glibc, no symbol)."""
    try:
        stream = int(gdb.parse_and_eval("*(unsigned long *) &stdout"))
        memory = gdb.selected_inferior().read_memory(stream + _WRITE_BASE, _POINTERS.size)
        start, end = _POINTERS.unpack(memory.tobytes())
        if not 0 < end - start <= _LIMIT:
            return b""
        return gdb.selected_inferior().read_memory(start, end - start).tobytes()
    except gdb.error:  # gdb.MemoryError included
        return b""


def save(path: str) -> None:
    """Appends the unflushed stdout bytes to the file at `path`, the
    program's stdout."""
    pending = stdout_bytes()
    if pending:
        with open(path, "ab") as stream:
            stream.write(pending)
