"""gdbext/lane_coordinates.py: coordinates as people type them (``3,4``)
and as $_gpusym_lane_is reads them (``block (3,4,0) thread (1,0,0)``),
and the one-line errors about the ones that cannot be read."""

from __future__ import annotations

import pytest

from gdbext.lane_coordinates import ArgumentError, coordinates, lane_text, wanted_lanes

pytestmark = []  # no toolchain, no gdb: seconds (make check)

ANY = (-1, -1, -1)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("3", (3, 0, 0)),
        ("3,4", (3, 4, 0)),
        ("3,4,5", (3, 4, 5)),
        ("0", (0, 0, 0)),
        ("007,10", (7, 10, 0)),
        ("65535,65535,64", (65535, 65535, 64)),
        (" 1, 2 ,3 ", (1, 2, 3)),
    ],
)
def test_coordinates_fill_missing_parts_with_zero(text, expected):
    assert coordinates(text, "kbreak: -block") == expected


@pytest.mark.parametrize(
    "text", ["", " ", "1,2,3,4", "1,,2", "1,2,", ",1", "-1", "1,-2", "+1", "x", "1.5", "1 2", "(1,2,3)"]
)
def test_coordinates_that_cannot_be_read_name_what_takes_them(text):
    with pytest.raises(ArgumentError) as raised:
        coordinates(text, "kbreak: -thread")
    assert str(raised.value) == f"kbreak: -thread takes X[,Y[,Z]] (non-negative integers), not '{text}'"


def test_argument_errors_are_value_errors():
    assert issubclass(ArgumentError, ValueError)


@pytest.mark.parametrize(
    "block, thread, text",
    [
        (None, None, ""),
        ((3, 4, 0), None, "block (3,4,0)"),
        (None, (1, 0, 0), "thread (1,0,0)"),
        ((3, 4, 0), (1, 0, 0), "block (3,4,0) thread (1,0,0)"),
        ((0, 0, 0), (0, 0, 0), "block (0,0,0) thread (0,0,0)"),
        ((1024, 65535, 7), (255, 3, 63), "block (1024,65535,7) thread (255,3,63)"),
    ],
)
def test_lane_text_and_wanted_lanes_round_trip(block, thread, text):
    assert lane_text(block, thread) == text
    assert wanted_lanes(text) == (block or ANY) + (thread or ANY)


def test_wanted_lanes_reads_the_parts_in_either_order():
    assert wanted_lanes("thread (1,2,3) block (4,5,6)") == (4, 5, 6, 1, 2, 3)


def test_wanted_lanes_ignores_surrounding_spaces():
    assert wanted_lanes("  block (1,2,3)  ") == (1, 2, 3, -1, -1, -1)
    assert wanted_lanes("   ") == ANY + ANY


@pytest.mark.parametrize(
    "text",
    [
        "block (1, 2, 3)",  # spaces inside
        "block(1,2,3)",  # no space before the parenthesis
        "block  (1,2,3)",
        "block (1,2)",  # too few parts
        "block (1,2,3,4)",  # too many parts
        "block (-1,0,0)",  # negative
        "thread (1,2,-3)",
        "block (1,2,3) lane (0,0,0)",
        "warp (0,0,0)",
        "block 1,2,3",
        "block (x,0,0)",
        "junk",
    ],
)
def test_wanted_lanes_refuses_other_texts(text):
    with pytest.raises(ArgumentError) as raised:
        wanted_lanes(text)
    assert str(raised.value) == f'$_gpusym_lane_is: "{text}" is not "block (X,Y,Z) thread (X,Y,Z)"'


@pytest.mark.parametrize("text", ["²", "1,²", "١", "٣,0"])
def test_digits_of_other_scripts_are_refused_as_arguments(text):
    with pytest.raises(ArgumentError, match="takes X\\[,Y\\[,Z\\]\\]"):
        coordinates(text, "gpu focus: block")
