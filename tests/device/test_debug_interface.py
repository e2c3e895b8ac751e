"""device/debug_interface.py says what the runtime's headers say: each
enum's constants and values, the #defines it mirrors, and the newest
interface version."""

from __future__ import annotations

import re

import pytest

from device import debug_interface
from device.debug_interface import HEADERS, Version

pytestmark = []  # no toolchain, no gdb: seconds (make check)

HEADER_TEXT = "\n".join(path.read_text() for path in sorted(HEADERS.glob("*.h")))


def without_comments(text: str) -> str:
    return re.sub(r"/\*.*?\*/|//[^\n]*", "", text, flags=re.S)


def header_enum(name: str) -> dict[str, int]:
    """The constants of C enum `name` in the headers, with their values."""
    match = re.search(rf"enum {name} \{{(.*?)\}};", without_comments(HEADER_TEXT), re.S)
    assert match, f"no enum {name} in the headers"
    entries = [entry.split("=") for entry in match.group(1).split(",") if entry.strip()]
    return {constant.strip(): int(value.strip(), 0) for constant, value in entries}


def header_define(name: str) -> int | str:
    """The value of #define `name`: a number, or a string literal's text."""
    match = re.search(rf"^#define {name} (\S+)$", HEADER_TEXT, re.M)
    assert match, f"no #define {name} in the headers"
    value = match.group(1)
    if value.startswith('"'):
        return value.strip('"')
    return int(value.rstrip("uU"), 0)


@pytest.mark.parametrize("enum", list(debug_interface.ENUMS), ids=lambda enum: enum.__name__)
def test_each_enum_is_the_headers(enum):
    c_name, prefix = debug_interface.ENUMS[enum]
    assert {prefix + member.name: member.value for member in enum} == header_enum(c_name)


@pytest.mark.parametrize(
    ("name", "define"),
    [
        ("DISPATCH_SLOTS", "GPUSYM_DEBUG_DISPATCH_SLOTS"),
        ("CAPTURE_HOST_STACKS", "GPUSYM_DEBUG_CAPTURE_HOST_STACKS"),
        ("WATCH_ANY", "GPUSYM_WATCH_ANY"),
        ("WAVE_SIZE", "GPUSYM_WAVE_SIZE"),
        ("RUNTIME_LIBRARY", "GPUSYM_RUNTIME_LIBRARY"),
        ("FAT_BINARY_CODE_OBJECT_MARK", "GPUSYM_FAT_BINARY_CODE_OBJECT_MARK"),
        ("MODULE_CODE_OBJECT_MARK", "GPUSYM_MODULE_CODE_OBJECT_MARK"),
        ("STREAM_NON_BLOCKING", "GPUSYM_STREAM_NON_BLOCKING"),
    ],
)
def test_each_constant_is_the_headers(name, define):
    assert getattr(debug_interface, name) == header_define(define)


def test_the_newest_version_is_the_one_the_runtime_writes():
    assert max(Version) == header_define("GPUSYM_DEBUG_VERSION")
    assert list(Version) == [Version(number) for number in range(1, max(Version) + 1)]


def test_the_parser_reads_past_comments_and_misses_no_enum():
    assert header_enum("gpusym_lane_state")["GPUSYM_LANE_HELD_UNSTARTED"] == 7
    with pytest.raises(AssertionError):
        header_enum("gpusym_no_such_state")
