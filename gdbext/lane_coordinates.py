"""Lane coordinates as people type them (``3``, ``3,4``, ``3,4,0``) and as
``$_gpusym_lane_is`` reads them (``block (3,4,0) thread (1,0,0)``).  No gdb:
the commands turn an ArgumentError into a gdb error (gdbext/errors.py)."""

from __future__ import annotations

import functools
import re

_LANE_TEXT = re.compile(r"(block|thread) \((\d+),(\d+),(\d+)\)")


class ArgumentError(ValueError):
    """A command's argument that cannot be read: its message is the one
    line the user sees."""


def coordinates(text: str, what: str) -> tuple[int, int, int]:
    """X[,Y[,Z]] as three integers (missing ones are 0); an ArgumentError
    naming `what` otherwise."""
    parts = text.split(",")
    if not 1 <= len(parts) <= 3 or not all(p.strip().isascii() and p.strip().isdigit() for p in parts):
        raise ArgumentError(f"{what} takes X[,Y[,Z]] (non-negative integers), not '{text}'")
    values = [int(p) for p in parts] + [0] * (3 - len(parts))
    return values[0], values[1], values[2]


def lane_text(block: tuple[int, int, int] | None, thread: tuple[int, int, int] | None) -> str:
    """``block (3,4,0) thread (1,0,0)``: the lanes `block` and `thread`
    select (None: any), as $_gpusym_lane_is reads them."""
    parts = [f"{what} ({','.join(map(str, where))})" for what, where in (("block", block), ("thread", thread)) if where]
    return " ".join(parts)


@functools.lru_cache(maxsize=256)
def wanted_lanes(text: str) -> tuple[int, ...]:
    """`lane_text`'s six coordinates back, -1 for any."""
    wanted = {"block": (-1, -1, -1), "thread": (-1, -1, -1)}
    for match in _LANE_TEXT.finditer(text):
        wanted[match[1]] = tuple(int(value) for value in match.groups()[1:])
    if _LANE_TEXT.sub("", text).strip():
        raise ArgumentError(f'$_gpusym_lane_is: "{text}" is not "block (X,Y,Z) thread (X,Y,Z)"')
    return wanted["block"] + wanted["thread"]
