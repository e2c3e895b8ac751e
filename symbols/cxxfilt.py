"""Many C++ names demangled at once by LLVM 19's ``llvm-cxxfilt``, the
printer `symbols.llvm_demangle` ports: one child process for a whole list,
about 3 microseconds a name where the port takes 100.

The child runs with bounded memory (`MEMORY_LIMIT`) and time
(`TIMEOUT_SECONDS`): LLVM prints a name with no limit, and a crafted one of
300 characters would print 35 GB (symbols/crafted.py ``pairs_name``).  What
it prints is held to the port's limit (`llvm_demangle.OUTPUT_RATIO` times a
name's length, plus 4 KB).  When the tool is missing, or fails, the names
are read by the port instead, with the same answers: tests check that they
agree.  Only ``_Z`` names without white space go to the tool (it reads words
split at white space, and Rust and D names too); the others are the port's."""

from __future__ import annotations

import atexit
import queue
import resource
import shutil
import subprocess
import threading
from collections.abc import Iterable

from symbols import llvm_demangle

TOOL = "llvm-cxxfilt-19"
#: Heap the child may use (RLIMIT_DATA): real names need a few megabytes.
MEMORY_LIMIT = 256 << 20
TIMEOUT_SECONDS = 60
#: Fewer names than this are read by the port: starting the tool costs about 20 ms.
FEWEST_NAMES = 64

_spare: subprocess.Popen | None = None  # started by `start_early`, for the next list
_stream: _Stream | None = None  # fed by `prefetch`, for the next list


def demangle(name: str) -> str | None:
    """One name, read by the port (starting the tool for one would cost
    more); ``demangle.many`` reads a list."""
    return llvm_demangle.demangle(name)


def demangle_many(names: Iterable[str]) -> dict[str, str | None]:
    """Each of `names` as ``llvm_demangle.demangle`` reads it; those given
    to `prefetch` since the last call are read already, or on their way."""
    global _stream
    unique = list(dict.fromkeys(names))
    eligible = [name for name in unique if _eligible(name)]
    stream, _stream = _stream, None
    if stream is not None:
        stream.send(eligible)
        read = stream.finish()
    else:
        read = _read(eligible) if len(eligible) >= FEWEST_NAMES else None
    read = read or {}
    return {name: read[name] if name in read else demangle(name) for name in unique}


def prefetch(names: Iterable[str]) -> None:
    """Starts demangling `names` for the next `demangle_many`: the tool
    reads them while the caller goes on (reading the rest of a binary)."""
    global _stream
    eligible = [name for name in names if _eligible(name)]
    if eligible and _stream is None and (child := _take_child()) is not None:
        _stream = _Stream(child)
    if eligible and _stream is not None:
        _stream.send(eligible)


def _eligible(name: str) -> bool:
    """Whether the tool reads `name` as the port does."""
    return name.startswith("_Z") and name.split() == [name]


demangle.many = demangle_many  # type: ignore[attr-defined]
demangle.prefetch = prefetch  # type: ignore[attr-defined]


def start_early() -> None:
    """Starts the tool for the next `demangle_many` now, so that its start
    overlaps the reading of a large binary.  One never used ends at exit."""
    global _spare
    if _spare is None:
        _spare = _start()


@atexit.register
def _end_spare() -> None:
    for child in (_spare, _stream and _stream.child):
        if child is not None:
            _end(child)


def _start() -> subprocess.Popen | None:
    """The tool, started with its limits, waiting for input; None when missing."""
    tool = shutil.which(TOOL)
    if tool is None:
        return None
    try:
        child = subprocess.Popen([tool], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    except OSError:
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
    return None if text == name or len(text) > llvm_demangle.OUTPUT_RATIO * len(name) + 4096 else text


def _read(names: list[str]) -> dict[str, str | None] | None:
    """What the tool prints for each of `names`, as the port answers; None
    when it is missing, fails, or runs out of memory or time."""
    child = _take_child()
    if child is None:
        return None
    stream = _Stream(child)
    stream.send(names)
    return stream.finish()


def _take_child() -> subprocess.Popen | None:
    """The tool `start_early` started, else a new one."""
    global _spare
    child, _spare = _spare or _start(), None
    return child


class _Stream:
    """The tool, fed names as they come and read by threads of its own
    (names go in and come out a line at a time: a large library's are tens
    of megabytes, never all held as text at once)."""

    def __init__(self, child: subprocess.Popen):
        self.child = child
        self.sent: list[str] = []  # in the order written
        self.queued: set[str] = set()
        self.read: dict[str, str | None] = {}
        self.lines: queue.SimpleQueue[list[str] | None] = queue.SimpleQueue()
        self.complete = False
        self.timer = threading.Timer(TIMEOUT_SECONDS, child.kill)
        self.threads = [threading.Thread(target=task, daemon=True) for task in (self._write, self._read)]
        self.timer.start()
        for thread in self.threads:
            thread.start()

    def send(self, names: list[str]) -> None:
        new = [name for name in names if name not in self.queued]
        self.queued.update(new)
        self.sent += new
        self.lines.put(new)

    def finish(self) -> dict[str, str | None] | None:
        """What the tool printed for each name sent, as the port answers;
        None when it failed, or ran out of memory or time."""
        self.lines.put(None)
        for thread in self.threads:
            thread.join()
        self.timer.cancel()
        _end(self.child)
        assert self.child.stdout is not None
        self.child.stdout.close()
        return self.read if self.complete else None

    def _write(self) -> None:
        stdin = self.child.stdin
        assert stdin is not None
        try:
            while (names := self.lines.get()) is not None:
                for start in range(0, len(names), 1024):
                    stdin.write(("\n".join(names[start : start + 1024]) + "\n").encode("utf-8", "surrogateescape"))
                stdin.flush()
            stdin.close()
        except OSError:  # it ended early: its output says how far it went
            pass

    def _read(self) -> None:
        stdout = self.child.stdout
        assert stdout is not None
        for position, line in enumerate(stdout):
            if not line.endswith(b"\n") or position >= len(self.sent):
                return
            name = self.sent[position]
            self.read[name] = _within_limit(name, line[:-1].decode("utf-8", "surrogateescape"))
        self.complete = len(self.read) == len(self.sent)
