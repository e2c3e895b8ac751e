"""C++ names demangled by libstdc++'s ``__cxa_demangle``, through ctypes.

``demangle`` reads Itanium-ABI names (``_Z...``) only; anything else, and any
name libstdc++ rejects, gives None.  Results are cached and the function may
be called from several threads at once.

Clone suffixes: compilers derive symbols from a mangled name by appending
``.suffix`` (``_Z3foov.cold.1``, clang's ``_ZL4sfooPi.intern.faf0d31dde65e436``,
AMDGPU kernel descriptors ``_Z3fooPi.kd``).  Such a name reads as GNU tools
(c++filt, gdb) print clone suffixes: the demangled name, then each ``.part``
(with any ``.<digits>`` parts after it) as `` [clone .part]``::

    _Z3foov.cold.1       ->  foo() [clone .cold.1]
    _Z3foov.intern.abc   ->  foo() [clone .intern] [clone .abc]
    _Z3fooPi.kd          ->  foo(int*) [clone .kd]
    _Z3foo.kd            ->  foo [clone .kd]

libstdc++ understands some suffixes itself, after function names; for the
others the name is cut at the first ``.`` whose prefix demangles, among the
first ``MAX_CUTS`` (mangled names have no dots: the prefix before the first
one is the mangled name; trying every dot of a name made of dots would take
the square of its length).

Names that could print without bound: each substitution or template
parameter reference (``S_``, ``S0_``, ``T_``) prints an earlier part of the
name again, references included, so that a name of 250 characters prints
half a gigabyte (each level ``std::pair<previous, previous>``, see
tests/crafted.py ``pairs_name``) and one of 300, 35 GB, and libstdc++ has no
limit.  Real names print at most about 20 times as long as they are.  So a
name that could print longer than ``OUTPUT_RATIO`` times its length (plus
4 KB), by a bound that lets each character print as 32 and each reference
double what precedes it (most template names), is demangled in a child
process started for the purpose, which may grow by ``CHILD_MEMORY`` bytes
and take ``CHILD_SECONDS`` per name; a longer answer is not taken.  `warm`
sends it many names in one exchange.  A name it does not answer gives None
(not cached), and after ``MAX_UNANSWERED`` of them, until the next `reset`,
so does any name needing the child.  Inside gdb, where a child process
would be one gdb does not know about, and where no Python interpreter can
be started, names within the bound are demangled in-process and the others
give None (their users show them mangled): a session is not put at risk
for a name.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import re
import resource
import select
import struct
import subprocess
import sys
import threading
import time
from typing import Iterable

_libstdcxx = ctypes.CDLL("libstdc++.so.6")
_libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")

_cxa_demangle = _libstdcxx.__cxa_demangle
# char *__cxa_demangle(const char *mangled, char *buffer, size_t *length, int *status)
_cxa_demangle.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_size_t), ctypes.POINTER(ctypes.c_int)]
_cxa_demangle.restype = ctypes.c_void_p  # not c_char_p: the buffer must be freed
_free = _libc.free
_free.argtypes = [ctypes.c_void_p]
_free.restype = None

#: How many ``.`` cuts of a name `demangle` tries.
MAX_CUTS = 16
#: One clone suffix part as GNU tools bracket it: ``.cold``, ``.cold.1``, ``.kd``.
_CLONE_PART = re.compile(r"\.[^.]*(?:\.[0-9]+(?=\.|$))*")


def _cxa(name: str) -> str | None:
    """libstdc++'s reading of `name`, or None if it rejects it."""
    status = ctypes.c_int()
    pointer = _cxa_demangle(name.encode("utf-8", "surrogateescape"), None, None, ctypes.byref(status))
    if not pointer:
        return None
    try:
        return ctypes.string_at(pointer).decode("utf-8", "surrogateescape") if status.value == 0 else None
    finally:
        _free(pointer)


class _Unanswered(Exception):
    """The child gave no answer within the limits: the name is not cached as
    one that is no C++ name."""


def _demangled(name: str) -> str | None:
    """`_cxa`, in the child when the output could be huge (in gdb, no answer then)."""
    if name in _warmed:
        return _warmed[name]
    if _bounded(name):
        return _cxa(name)
    if "gdb" in sys.modules:
        raise _Unanswered
    if not _CHILD.startable:
        return _cxa(name)
    answers = _CHILD.demangle([name])
    if name not in answers:
        raise _Unanswered
    return answers[name]


def _bounded(name: str) -> bool:
    """Whether `name`'s demangled form is at most `_longest(name)` long:
    each character prints as at most 32 (``Sd`` is std::basic_iostream<char,
    std::char_traits<char> >), each reference at most doubles what precedes."""
    references = len(_REFERENCE.findall(name))
    return references < 40 and (32 * len(name)) << references <= _longest(name)


def _longest(name: str) -> int:
    """The longest demangled form taken for `name`: real names print at most
    20 times as long as they are."""
    return OUTPUT_RATIO * len(name) + 4096


#: See the module documentation.
OUTPUT_RATIO = 64
CHILD_MEMORY = 256 << 20
CHILD_SECONDS = 1.0
STARTUP_SECONDS = 60.0
MAX_UNANSWERED = 3
_REFERENCE = re.compile(r"[ST][0-9A-Z]*_")
_NONE = -1
_READY = b"R"
_ANSWER = struct.Struct("<q")
#: Names demangled ahead by `warm`, for the next reads of them.
_warmed: dict[str, str | None] = {}


class _Child:
    """A Python process that demangles the names it is sent:
    requests are a u32 length and the name, answers an i64 length (-1 for
    None) and the demangled name, UTF-8 with surrogate escapes.  Requests
    stream in while answers stream out: one exchange for many names."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.process: subprocess.Popen | None = None
        self.owner = 0  # the process that started it: a forked copy of this one needs its own
        self.requests = self.answers = -1
        self.ready = False  # it said it is ready: it has started
        self.startable = True  # False when no interpreter could be started (an embedding program's)
        self.unanswered = 0

    def demangle(self, names: list[str]) -> dict[str, str | None]:
        """The answers the child gives within the limits to `names` (no
        two the same), by name.  A name unanswered costs the child its life:
        the next is asked of a new one."""
        answers: dict[str, str | None] = {}
        pending = names
        with self.lock:
            while pending and self.unanswered < MAX_UNANSWERED:
                before = len(answers)
                try:
                    if self.owner != os.getpid():
                        self._start()
                    self._exchange(pending, answers)
                    break
                except (OSError, EOFError, TimeoutError, ValueError):
                    self.unanswered += 1
                    self._stop()
                    pending = pending[len(answers) - before + 1 :]  # past the one unanswered
        return answers

    def _exchange(self, names: list[str], answers: dict[str, str | None]) -> None:
        requests = bytearray()
        for name in names:
            encoded = name.encode("utf-8", "surrogateescape")
            requests += struct.pack("<I", len(encoded)) + encoded
        sent, received, index = 0, bytearray(), 0
        if not self.ready:  # its start (an interpreter's, on a loaded machine) is not a name's time
            self._read_ready()
        deadline = time.monotonic() + CHILD_SECONDS
        while index < len(names):
            left = deadline - time.monotonic()
            writing = [self.requests] if sent < len(requests) else []
            readable, writable, _ = select.select([self.answers], writing, [], max(left, 0))
            if not readable and not writable:
                raise TimeoutError
            if writable:
                sent += os.write(self.requests, requests[sent : sent + (1 << 16)])
            if readable:
                chunk = os.read(self.answers, 1 << 20)
                if not chunk:
                    raise EOFError
                received += chunk
                while index < len(names) and len(received) >= _ANSWER.size:
                    (size,) = _ANSWER.unpack_from(received)
                    if size > 4 * _longest(names[index]):  # bytes: up to 4 a character
                        raise ValueError("answer too long")
                    if size != _NONE and len(received) < _ANSWER.size + size:
                        break
                    end = _ANSWER.size + max(size, 0)
                    answer = None if size == _NONE else bytes(received[_ANSWER.size : end]).decode("utf-8", "surrogateescape")
                    if answer is not None and len(answer) > _longest(names[index]):
                        raise ValueError("answer too long")
                    answers[names[index]] = answer
                    del received[:end]
                    index += 1
                    deadline = time.monotonic() + CHILD_SECONDS

    def _read_ready(self) -> None:
        deadline = time.monotonic() + STARTUP_SECONDS
        while not select.select([self.answers], [], [], max(deadline - time.monotonic(), 0))[0]:
            if time.monotonic() >= deadline:
                raise TimeoutError
        if os.read(self.answers, 1) != _READY:
            raise EOFError
        self.ready = True

    def reset(self) -> None:
        with self.lock:
            self.unanswered = 0

    def start(self) -> None:
        """Starts the child now if it is not running (reading a file takes
        longer than starting it, so its start costs nothing there)."""
        with self.lock:
            if self.owner != os.getpid() and "gdb" not in sys.modules:
                try:
                    self._start()
                except OSError:
                    pass  # tried again, and counted, when a name needs it

    def _start(self) -> None:
        # A new interpreter, not a fork: after a fork of a process holding a
        # large report, each of its pages this process writes would be copied.
        try:
            self.process = subprocess.Popen([sys.executable, "-I", "-c", _CHILD_CODE.format(_PACKAGES)],
                                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=subprocess.DEVNULL)  # fmt: skip
        except OSError:
            self.startable = False
            raise
        self.requests, self.answers = self.process.stdin.fileno(), self.process.stdout.fileno()
        os.set_blocking(self.requests, False)
        self.owner, self.ready = os.getpid(), False

    def _stop(self) -> None:
        if self.owner == os.getpid() and self.process is not None:
            self.process.kill()
            for stream in (self.process.stdin, self.process.stdout):
                try:
                    stream.close()
                except OSError:
                    pass
            self.process.wait()
        self.process, self.owner = None, 0


# The child imports this very module, whatever the directory it starts in
# holds (isolated: no current directory, no PYTHONPATH).
_PACKAGES = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_CHILD_CODE = "import sys; sys.path.insert(0, {!r}); from symbols.demangle import _serve; _serve()"


def _serve() -> None:
    """The child: answers the requests on its standard input until it ends,
    within CHILD_MEMORY bytes more than it had when it started."""
    with open("/proc/self/statm") as statm:
        size = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    resource.setrlimit(resource.RLIMIT_AS, (size + CHILD_MEMORY, resource.getrlimit(resource.RLIMIT_AS)[1]))
    with os.fdopen(0, "rb") as reader, os.fdopen(1, "wb", buffering=1 << 16) as writer:
        writer.write(_READY)
        writer.flush()
        while len(header := reader.read(4)) == 4:
            name = reader.read(struct.unpack("<I", header)[0]).decode("utf-8", "surrogateescape")
            try:
                result = _cxa(name)  # None when libstdc++ runs out of the memory allowed
                answer = None if result is None else result.encode("utf-8", "surrogateescape")
            except MemoryError:
                answer = None
            writer.write(_ANSWER.pack(_NONE if answer is None else len(answer)) + (answer or b""))
            if not select.select([reader], [], [], 0)[0]:
                writer.flush()  # nothing more asked for now: the parent waits for this


_CHILD = _Child()


def warm(names: Iterable[str]) -> None:
    """Demangles `names` ahead, those needing the child in one exchange: a
    reader about to demangle many names calls this first.  Forgets the
    names warmed before."""
    wanted = [name for name in dict.fromkeys(names)
              if name not in _cache and name.startswith("_Z") and "\0" not in name and not _bounded(name)]  # fmt: skip
    _warmed.clear()
    if wanted and "gdb" not in sys.modules and _CHILD.startable:
        _warmed.update(_CHILD.demangle(wanted))


def reset() -> None:
    """Lets the child be tried again after MAX_UNANSWERED names it could not
    answer, and starts it if it is not running: a reader of many files calls
    this as it starts reading each."""
    _CHILD.reset()
    _CHILD.start()


def _clone_brackets(suffix: str) -> str:
    """`` [clone .a] [clone .b.1]`` for suffix ``.a.b.1``."""
    return "".join(f" [clone {part}]" for part in _CLONE_PART.findall(suffix))


def demangle(name: str) -> str | None:
    """The demangled form of the C++ symbol `name`, or None if it is not one
    (or could not be demangled within the limits).

    A ``.suffix`` after the mangled name shows as `` [clone .suffix]`` (see
    the module documentation)."""
    try:
        return _cache[name]
    except KeyError:
        pass
    try:
        result = _uncached(name)
    except _Unanswered:
        return None
    if len(_cache) >= CACHE_SIZE:
        _cache.clear()
    _cache[name] = result
    return result


def cache_clear() -> None:
    _cache.clear()


#: Names demangled, and None for those that are no C++ names.
_cache: dict[str, str | None] = {}
CACHE_SIZE = 1 << 17


def _uncached(name: str) -> str | None:
    """`demangle`, uncached; raises _Unanswered when the child gave no answer."""
    if not name.startswith("_Z") or "\0" in name:
        return None
    whole = _demangled(name)
    if whole is not None:
        return whole
    dot = name.find(".")
    for _ in range(MAX_CUTS):
        if dot == -1:
            break
        prefix = _demangled(name[:dot])
        if prefix is not None:
            return prefix + _clone_brackets(name[dot:])
        dot = name.find(".", dot + 1)
    return None


demangle.cache_clear = cache_clear  # type: ignore[attr-defined]
