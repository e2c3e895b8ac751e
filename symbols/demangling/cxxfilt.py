"""Many C++ names demangled at once by LLVM 19's ``llvm-cxxfilt``, the
printer `symbols.demangling.llvm_demangle` ports: one child process for a whole list,
about 3 microseconds a name where the port takes 100.

The child runs with bounded memory (`MEMORY_LIMIT`) and time
(`TIMEOUT_SECONDS`): LLVM prints a name with no limit, and a crafted one of
300 characters would print 35 GB (crafted/ ``pairs_name``).  What
it prints is held to the port's limit (`limits.printed_limit`).  When
the tool is missing, or fails, the names are read by the port instead, with
the same answers: tests check that they agree.  Only ``_Z`` names without white space go to the tool (it reads words
split at white space, and Rust and D names too); the others are the port's."""

from __future__ import annotations

import atexit
import resource
import subprocess
import threading
from collections.abc import Iterable

from symbols.demangling.limits import MANGLED_PREFIX, printed_limit

TOOL = "llvm-cxxfilt-19"
#: Heap the child may use (RLIMIT_DATA): real names need a few megabytes.
MEMORY_LIMIT = 256 << 20
TIMEOUT_SECONDS = 60
#: Fewer names than this are read by the port: starting the tool costs about 20 ms.
FEWEST_NAMES = 64

_spare: subprocess.Popen | None = None  # started by `start_early`, for the next list


def demangle(name: str) -> str | None:
    """One name, read by the port (starting the tool for one would cost
    more); ``demangle.many`` reads a list."""
    if not name.startswith(MANGLED_PREFIX):
        return None  # as the port answers, without importing it
    from symbols.demangling import llvm_demangle  # imported here: the tool reads nearly every name

    return llvm_demangle.demangle(name)


def demangle_many(names: Iterable[str]) -> dict[str, str | None]:
    """Each of `names` as ``llvm_demangle.demangle`` reads it."""
    unique = list(dict.fromkeys(names))
    eligible = [name for name in unique if name.startswith(MANGLED_PREFIX) and name.split() == [name]]
    read = (_read(eligible) if len(eligible) >= FEWEST_NAMES else None) or {}
    return {name: read[name] if name in read else demangle(name) for name in unique}


demangle.many = demangle_many  # type: ignore[attr-defined]


def start_early() -> None:
    """Starts the tool for the next `demangle_many` now, so that its start
    overlaps the reading of a large binary.  One never used ends at exit."""
    global _spare
    if _spare is None:
        _spare = _start()


@atexit.register
def _end_spare() -> None:
    if _spare is not None:
        _end(_spare)


def _start() -> subprocess.Popen | None:
    """The tool, started with its limits, waiting for input; None when missing."""
    try:  # found on PATH, as shutil.which would find it
        child = subprocess.Popen([TOOL], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    except OSError:  # missing, or not executable
        return None
    # Set before the child reads anything: it waits for its input.
    resource.prlimit(child.pid, resource.RLIMIT_DATA, (MEMORY_LIMIT, MEMORY_LIMIT))
    return child


def _end(child: subprocess.Popen) -> None:
    child.kill()
    child.wait()


def _within_limit(name: str, text: str) -> str | None:
    """What the tool printed for `name`, as the port answers: None for a
    name left as it is, or printing past the port's limit."""
    return None if text == name or len(text) > printed_limit(name) else text


def _read(names: list[str]) -> dict[str, str | None] | None:
    """What the tool prints for each of `names`, as the port answers; None
    when it is missing, fails, or runs out of memory or time.  Names go in
    and come out a line at a time (a large library's are tens of megabytes:
    never all held as text at once)."""
    global _spare
    child, _spare = _spare or _start(), None
    if child is None:
        return None
    writer = threading.Thread(target=_write, args=(child, names), daemon=True)
    writer.start()
    timer = threading.Timer(TIMEOUT_SECONDS, child.kill)
    timer.start()
    read: dict[str, str | None] = {}
    try:
        assert child.stdout is not None
        for name, line in zip(names, child.stdout):
            if not line.endswith(b"\n"):
                break
            read[name] = _within_limit(name, line[:-1].decode("utf-8", "surrogateescape"))
        rest = child.stdout.read()
    finally:
        timer.cancel()
        _end(child)
        writer.join()
        child.stdout.close()
    return read if len(read) == len(names) and not rest else None


def _write(child: subprocess.Popen, names: list[str]) -> None:
    """`names` to the child's input, a line each, then its end."""
    assert child.stdin is not None
    try:
        for start in range(0, len(names), 1024):
            child.stdin.write(("\n".join(names[start : start + 1024]) + "\n").encode("utf-8", "surrogateescape"))
        child.stdin.close()
    except OSError:  # it ended early: its output says how far it went
        pass
