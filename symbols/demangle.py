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
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import re

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
_CLONE_PART = re.compile(r"\.[^.]*(?:\.[0-9]+)*")


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


def _clone_brackets(suffix: str) -> str:
    """`` [clone .a] [clone .b.1]`` for suffix ``.a.b.1``."""
    return "".join(f" [clone {part}]" for part in _CLONE_PART.findall(suffix))


@functools.lru_cache(maxsize=1 << 17)
def demangle(name: str) -> str | None:
    """The demangled form of the C++ symbol `name`, or None if it is not one.

    A ``.suffix`` after the mangled name shows as `` [clone .suffix]`` (see
    the module documentation)."""
    if not name.startswith("_Z") or "\0" in name:
        return None
    whole = _cxa(name)
    if whole is not None:
        return whole
    dot = name.find(".")
    for _ in range(MAX_CUTS):
        if dot == -1:
            break
        prefix = _cxa(name[:dot])
        if prefix is not None:
            return prefix + _clone_brackets(name[dot:])
        dot = name.find(".", dot + 1)
    return None
