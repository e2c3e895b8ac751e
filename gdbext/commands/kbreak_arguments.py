"""kbreak's argument, read: the kernel's name (split at spaces outside
brackets and quotes, as linespecs are), its options and its condition.  No
gdb: errors are ArgumentErrors, which the command turns into gdb errors."""

from __future__ import annotations

import re
from dataclasses import dataclass

from gdbext.lane_coordinates import ArgumentError, coordinates

OPTIONS = ("-launch", "-pending", "-qualified", "-block", "-thread")
USAGE = "usage: kbreak KERNEL [-qualified] [-launch] [-pending] [-block X,Y,Z] [-thread X,Y,Z] [if CONDITION]"
_OPEN, _CLOSE = "<({[", ">)}]"
_CONDITION = re.compile(r"(?:^|\s)if(?:\s|$)")


@dataclass
class Request:
    """A kbreak command's argument, read."""

    name: str
    launch: bool = False
    pending: bool = False
    qualified: bool = False
    block: tuple[int, int, int] | None = None
    thread: tuple[int, int, int] | None = None
    condition: str | None = None


def words(text: str) -> list[str]:
    """`text` split at spaces outside brackets and quotes (which go), as
    linespecs are read: ``(anonymous namespace)::f`` and ``fill<int, 2>``
    are one word each.  An unclosed quote or bracket ends the last word."""
    found: list[str] = []
    current: list[str] = []
    depth, quote = 0, ""
    for char in text:
        if quote:
            if char == quote:
                quote = ""
            else:
                current.append(char)
        elif char in "'\"":
            quote = char
        elif char.isspace() and depth == 0:
            if current:
                found.append("".join(current))
                current = []
        else:
            depth += (char in _OPEN) - (char in _CLOSE)
            depth = max(depth, 0)
            current.append(char)
    if current or quote:
        found.append("".join(current))
    return found


def _condition(argument: str) -> re.Match | None:
    """The first ``if`` outside quotes: what follows it is the condition."""
    for match in _CONDITION.finditer(argument):
        prefix = argument[: match.start()]
        if prefix.count("'") % 2 == 0 and prefix.count('"') % 2 == 0:
            return match
    return None


def parse(argument: str) -> Request:
    """A kbreak command's argument as typed: its name, options and condition."""
    condition = None
    match = _condition(argument)
    if match:
        argument, condition = argument[: match.start()], argument[match.end() :].strip() or None
    request, names = Request("", condition=condition), []
    iterator = iter(words(argument))
    for word in iterator:
        if word in ("-launch", "-pending", "-qualified"):
            setattr(request, word[1:], True)
        elif word in ("-block", "-thread"):
            value = next(iterator, None)
            if value is None:
                raise ArgumentError(f"kbreak: {word} needs X,Y,Z")
            setattr(request, word[1:], coordinates(value, f"kbreak: {word}"))
        elif word.startswith("-"):
            raise ArgumentError(f"kbreak: unknown option {word}; {USAGE}")
        else:
            names.append(word)
    request.name = " ".join(names)
    if not request.name:
        raise ArgumentError(USAGE)
    if request.launch and (request.block or request.thread):
        raise ArgumentError("kbreak: -block and -thread select simulated threads of a kernel, not of its launch")
    return request
