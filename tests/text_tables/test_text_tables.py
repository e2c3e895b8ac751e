"""The plain-text tables of gdb's info views and the benchmarks."""

from __future__ import annotations

from text_tables import table_lines

pytestmark = []  # no toolchain, no gdb: seconds (make check)


def test_columns_are_as_wide_as_their_widest_cell_two_spaces_apart():
    rows = [("Kernel", "Launches", "Note"), ("scale(float*, float, int)", "12", ""), ("k", "3", "x")]
    assert table_lines(rows, "lr") == [
        "Kernel                     Launches  Note",
        "scale(float*, float, int)        12",  # no trailing spaces
        "k                                 3  x",
    ]


def test_an_indent_starts_every_line_and_no_rows_are_no_lines():
    assert table_lines([("a", "bb"), ("ccc", "d")], indent="  ") == ["  a    bb", "  ccc  d"]
    assert table_lines([]) == []
