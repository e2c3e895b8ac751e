"""Plain-text tables, as gdb's ``info`` commands and the benchmarks print
them: each column as wide as its widest cell, two spaces between columns,
no trailing spaces.  Nothing but the standard library: gdb's side and the
scripts alike import it."""

from __future__ import annotations

from collections.abc import Sequence


def table_lines(rows: Sequence[Sequence[str]], align: str = "", indent: str = "") -> list[str]:
    """The lines of `rows` (a header, if any, is the first row).  `align`
    has a letter per column, ``l`` (left, the default for a column it does
    not name) or ``r`` (right); every line starts with `indent`."""
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))] if rows else []
    lines = []
    for row in rows:
        cells = [
            cell.rjust(width) if align[column : column + 1] == "r" else cell.ljust(width)
            for column, (cell, width) in enumerate(zip(row, widths))
        ]
        lines.append((indent + "  ".join(cells)).rstrip())
    return lines
