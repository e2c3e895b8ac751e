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
crafted/ ``pairs_name``) and one of 300, 35 GB, and libstdc++ has no
limit.  Real names print at most about 20 times as long as they are.  So a
name is demangled only when its printed length is at most
`limits.printed_limit` (64 times its length, plus 4 KB): a name with
few references cannot print longer; for the others `symbols.demangling.printed_length` reads the name and bounds its
printed length, stopping at that limit, before libstdc++ prints it.  A name
that would print longer gives None, in every process alike (inside gdb as
in ``gpusym query``).  A name outside the grammar read there (a conversion
operator template referring to its own arguments) is bounded by a coarser
rule: each character prints as 32, each reference doubles what precedes.

Extended floating-point types (``DF16_`` ``_Float16``, ``DF16b``
``std::bfloat16_t``), which c++filt knows and libstdc++ before GCC 13 does
not: libstdc++ is given, in their place, type codes it prints unmistakably
and that are no substitution candidates either (``Dn``, ``Dc``), and their
names are put back in what it prints.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import re

from symbols.demangling import printed_length
from symbols.demangling.limits import MANGLED_PREFIX, printed_limit

_libstdcxx = ctypes.CDLL("libstdc++.so.6")
_libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")

_cxa_demangle = _libstdcxx.__cxa_demangle
# char *__cxa_demangle(const char *mangled, char *buffer, size_t *length, int *status)
_cxa_demangle.argtypes = [
    ctypes.c_char_p,
    ctypes.c_char_p,
    ctypes.POINTER(ctypes.c_size_t),
    ctypes.POINTER(ctypes.c_int),
]
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


def _demangled(name: str) -> str | None:
    """`_cxa` of `name` when it prints within `_longest(name)`, else None."""
    limit = _longest(name)
    if _coarsely_bounded(name, limit) and (_KNOWS_FLOATS or "DF" not in name):
        return _cxa(name)
    try:
        reading = printed_length.read(name, limit)
    except printed_length.Unreadable:
        return _cxa(name) if _coarsely_bounded(name, limit) else None
    if reading.size is None:
        return None
    if reading.floats and not _KNOWS_FLOATS:
        return _with_floats(name, reading.floats)
    return _cxa(name)


def _coarsely_bounded(name: str, limit: int) -> bool:
    """Whether `name` prints at most `limit` long by the coarse rule: each
    character prints as at most 32 (``Sd`` is std::basic_iostream<char,
    std::char_traits<char> >), each reference at most doubles what precedes."""
    references = len(_REFERENCE.findall(name))
    return references < 40 and (32 * len(name)) << references <= limit


def _longest(name: str) -> int:
    """The longest demangled form taken for `name`."""
    return printed_limit(name)


def _with_floats(name: str, floats: list[tuple[int, int, str]]) -> str | None:
    """`_cxa` of `name` with its extended floating-point types (start, end,
    printed name) read through stand-ins; None when the name holds the
    stand-ins' own codes, or more kinds than there are stand-ins."""
    kinds = list(dict.fromkeys(printed for _, _, printed in floats))
    stand_ins = [(code, text) for code, text in _STAND_INS if code not in name]
    if len(kinds) > len(stand_ins):
        return None
    code_of = {kind: code for kind, (code, _) in zip(kinds, stand_ins)}
    parts, last = [], 0
    for start, end, printed in floats:
        parts += [name[last:start], code_of[printed]]
        last = end
    result = _cxa("".join(parts) + name[last:])
    if result is None:
        return None
    for kind, (_, text) in zip(kinds, stand_ins):
        result = result.replace(text, kind)
    return result


_REFERENCE = re.compile(r"[ST][0-9A-Z]*_")
#: Builtin type codes that print as no other code does, standing in for extended floating-point types.
_STAND_INS = (("Dn", "decltype(nullptr)"), ("Dc", "decltype(auto)"))
_KNOWS_FLOATS = _cxa("_Z1fDF16_DF16b") == "f(_Float16, std::bfloat16_t)"


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
    result = _uncached(name)
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
    """`demangle`, uncached."""
    if not name.startswith(MANGLED_PREFIX) or "\0" in name:
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
