"""Kernel stubs: the host functions a kernel launch calls, matched by name to
the device kernels they launch.

Everything here reads mangled (Itanium ABI) names; nothing is demangled.
Verified with clang 19 (HIP and CUDA) and nvcc 13:

clang
    The stub of kernel ``ns::bar<float>(float*, int)``, ``_ZN2ns3barIfEEvPT_i``,
    is ``ns::__device_stub__bar<float>(float*, int)``,
    ``_ZN2ns18__device_stub__barIfEEvPT_i``: the kernel's mangled name with
    ``__device_stub__`` put before the identifier that names the function,
    whose length prefix changes.  All else stays: the internal-linkage ``L``
    of static kernels (``_ZL19__device_stub__sfooPi`` for ``_ZL4sfooPi``), ABI
    tags, template arguments, parameter types and the substitutions in them.
    The stub of an ``extern "C"`` kernel ``k`` is plain ``__device_stub__k``.

nvcc
    The stub is a function at global scope whose identifier is
    ``__device_stub__`` followed by the kernel's mangled name without its
    leading ``_``, then the stub's own parameter types:
    ``_Z22__device_stub__Z3fooPiPi`` for ``_Z3fooPi``,
    ``_ZL33__device_stub__ZN2ns3barIfEEvPT_iPfi`` (internal linkage, as for
    every template and static kernel) for ``_ZN2ns3barIfEEvPT_i``.  An
    ``extern "C"`` kernel's stub is named as if the kernel had C++ linkage
    (``_Z23__device_stub__Z4cfooPiPi`` for device kernel ``cfoo``), see
    `Stub.device_names`.

Device names of internal-linkage kernels (``static``, anonymous namespace):
clang keeps the host's mangled name (``_ZL4sfooPi``,
``_ZN12_GLOBAL__N_14afooEPi``), nvcc drops the ``L`` (``_Z4sfooPi``) and
names anonymous namespaces after the translation unit
(``_GLOBAL__N__4dd20304_4_a_cu__Z3fooPi``).  With relocatable device code
(``-fgpu-rdc``, ``-rdc=true``) they get decorations that `undecorated_kernel`
removes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from symbols.errors import FormatError

CLANG = "clang"
NVCC = "nvcc"
STUB_PREFIX = "__device_stub__"

_IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*\Z")
_LENGTH = re.compile(r"[1-9][0-9]{0,8}")  # longer lengths cannot fit anyway
#: CV- and ref-qualifiers that may open a nested name.
_QUALIFIERS = re.compile(r"[rVK]*[RO]?")
#: ``S_``, ``S0_``, ``SA_`` and the abbreviations ``Sa``, ``Sb``, ``Ss``...
_SUBSTITUTION = re.compile(r"S[0-9A-Z]*_|S[abdios]")
#: clang's suffix for internal-linkage kernels with -fgpu-rdc: ``.intern.<hash>``
#: (HIP) or ``__intern__<hash>`` (CUDA, as PTX names cannot hold dots), the
#: hash being that of the translation unit's CUID (``__hip_cuid_<hash>``).
_CLANG_INTERN = re.compile(r"(?:\.intern\.|__intern__)[0-9a-f]+\Z")
#: nvcc's prefix for internal-linkage kernels with -rdc=true:
#: ``__nv_static_<n>_<n characters naming the translation unit>_<kernel>``.
_NVCC_STATIC = re.compile(r"__nv_static_([1-9][0-9]{0,8})_")


@dataclass(frozen=True)
class Stub:
    """A host kernel stub: its `symbol`, the mangled name of the `kernel` it
    launches (as the stub's name gives it) and its `convention`, "clang" or
    "nvcc".

    nvcc's stubs of kernels instantiated with extended ``__device__`` lambdas
    name the lambda with nvcc's host-side placeholder (``Unvdl0_...``) where
    the device kernel has the closure type (``UliE_``): their `kernel` is not
    a device name, and only nvcc's registration strings tell it."""

    symbol: str
    kernel: str
    convention: str

    @property
    def device_names(self) -> tuple[str, ...]:
        """The names the kernel may have in device code, `kernel` first (to
        compare with `undecorated_kernel` of device symbols).  An nvcc stub of
        a non-template kernel may be that of an ``extern "C"`` kernel, named
        by its bare identifier."""
        if self.convention == NVCC:
            span = _function_name(self.kernel)
            if span and not self.kernel.startswith("I", _skip_abi_tags(self.kernel, span[1])):
                return (self.kernel, self.kernel[span[0] : span[1]])
        return (self.kernel,)


def parse_stub(symbol: str) -> Stub | None:
    """The kernel stub `symbol` (a host symbol name) is, or None if none.

    Symbols with a ``.suffix`` (``.cold``, ``.part.0``, ``.llvm.123``) are
    compiler-made pieces or copies of functions, never reported."""
    if "." in symbol or STUB_PREFIX not in symbol:  # both conventions put the prefix in every stub
        return None
    if symbol.startswith(STUB_PREFIX):
        kernel = symbol[len(STUB_PREFIX) :]
        return Stub(symbol, kernel, CLANG) if _IDENTIFIER.match(kernel) else None
    span = _function_name(symbol)
    if span is None or not symbol.startswith(STUB_PREFIX, span[0]) or span[1] - span[0] == len(STUB_PREFIX):
        return None
    start, end = span
    rest = symbol[start + len(STUB_PREFIX) : end]
    if _is_nvcc_kernel("_" + rest):
        return Stub(symbol, "_" + rest, NVCC)
    return Stub(symbol, _renamed(symbol, span, rest), CLANG)


def stub_symbol(kernel: str, convention: str) -> str:
    """The stub name `convention` gives the kernel named `kernel` (mangled,
    or a C identifier for clang; undecorated, see `undecorated_kernel`).

    clang: the stub's whole symbol.  nvcc: only the start of it, up to the
    stub's parameter types (``_Z22__device_stub__Z3fooPi`` of
    ``_Z22__device_stub__Z3fooPiPi``): those are the kernel's parameter
    types mangled afresh, which this module does not work out.  No other
    symbol starts the same; a stub with internal linkage has ``_ZL`` for the
    leading ``_Z``.  Raises FormatError if `kernel` names no stub."""
    if convention == NVCC:
        if not _is_nvcc_kernel(kernel):
            raise FormatError(f"nvcc names no stub after {kernel!r}: not a mangled function name")
        identifier = STUB_PREFIX + kernel[1:]
        return f"_Z{len(identifier)}{identifier}"
    if convention != CLANG:
        raise ValueError(f"unknown stub convention {convention!r}")
    if not kernel.startswith("_Z") and _IDENTIFIER.match(kernel):
        return STUB_PREFIX + kernel
    span = _function_name(kernel)
    if span is None:
        raise FormatError(f"{kernel!r} is not the mangled name of a namespace-scope function")
    return _renamed(kernel, span, STUB_PREFIX + kernel[span[0] : span[1]])


def undecorated_kernel(device_symbol: str) -> str:
    """`device_symbol` without what relocatable device code adds to the names
    of internal-linkage kernels: clang's ``.intern.<hash>`` (HIP) and
    ``__intern__<hash>`` (CUDA) suffixes, nvcc's ``__nv_static_<n>_<unit>_``
    prefix.  Other names come back unchanged."""
    nvcc = _NVCC_STATIC.match(device_symbol)
    if nvcc:
        start = nvcc.end() + int(nvcc.group(1)) + 1
        if device_symbol.startswith("_", start - 1) and start < len(device_symbol):
            return device_symbol[start:]
    clang = _CLANG_INTERN.search(device_symbol)
    return device_symbol[: clang.start()] if clang else device_symbol


def _is_nvcc_kernel(name: str) -> bool:
    """Whether `name` reads as a mangled function name: a namespace-scope
    name followed by more (its template arguments or parameter types)."""
    span = _function_name(name)
    return span is not None and span[1] < len(name)


def _renamed(mangled: str, span: tuple[int, int], identifier: str) -> str:
    """`mangled` with the source-name whose identifier spans `span` replaced
    by one of `identifier`."""
    start, end = span
    length_start = start - len(str(end - start))
    return f"{mangled[:length_start]}{len(identifier)}{identifier}{mangled[end:]}"


def _function_name(mangled: str) -> tuple[int, int] | None:
    """Where in `mangled` the identifier naming the function is (``bar`` of
    ``_ZN2ns3barIfEEvPT_i``), or None if `mangled` is not ``_Z`` followed by
    a name whose prefix is namespaces only (``N`` [qualifiers] [``St`` or a
    substitution] {[``L``] source-name [ABI tags]} ``E``, or [``St``] [``L``]
    source-name).  Kernels and stubs live in namespaces: the last identifier
    is the one followed by ``E`` or by template arguments ``I``, so those are
    never skipped, and a class template's member is misread as the class."""
    if not mangled.startswith("_Z"):
        return None
    if mangled.startswith("N", 2):
        return _nested_function_name(mangled, _QUALIFIERS.match(mangled, 3).end())
    pos = 4 if mangled.startswith("St", 2) else 2
    return _source_name(mangled, pos + 1 if mangled.startswith("L", pos) else pos)


def _nested_function_name(mangled: str, pos: int) -> tuple[int, int] | None:
    """`_function_name` of a nested name whose first component is at `pos`."""
    if mangled.startswith("St", pos):
        pos += 2
    elif substitution := _SUBSTITUTION.match(mangled, pos):
        pos = substitution.end()
    while True:
        span = _source_name(mangled, pos + 1 if mangled.startswith("L", pos) else pos)
        if span is None:
            return None
        pos = _skip_abi_tags(mangled, span[1])
        if mangled.startswith(("E", "I"), pos):
            return span


def _source_name(mangled: str, pos: int) -> tuple[int, int] | None:
    """The span of the identifier of the source-name (``3foo``) at `pos`."""
    length = _LENGTH.match(mangled, pos)
    if length is None:
        return None
    start = length.end()
    end = start + int(length.group())
    return (start, end) if end <= len(mangled) else None


def _skip_abi_tags(mangled: str, pos: int) -> int:
    """The position after the ABI tags (``B5cxx11``...) at `pos`."""
    while mangled.startswith("B", pos) and (tag := _source_name(mangled, pos + 1)):
        pos = tag[1]
    return pos


#: The first name of gpusym's own device code: what the simulated device's
#: headers define in every code object (``gpusym_wave_combine``,
#: ``__gpusym_*``, namespaces ``__gpusym``, ``__gpusym_host_math``,
#: ``gpusym_random``).
_GPUSYM_OWN = re.compile(r"_?_?gpusym_|__gpusym\Z")


def is_gpusym_own(name: str) -> bool:
    """Whether `name` (mangled or a C name) is gpusym's own: its first
    component (the function of ``_ZL19gpusym_wave_combinejjj``, the
    namespace of ``_ZN7__gpusym4meetEv``) starts with ``gpusym_`` or
    ``__gpusym``."""
    if not name.startswith("_Z"):
        return bool(_GPUSYM_OWN.match(name))
    pos = 2
    if name.startswith("N", pos):
        pos = _QUALIFIERS.match(name, pos + 1).end()
    if name.startswith("L", pos):
        pos += 1
    span = _source_name(name, pos)
    return span is not None and bool(_GPUSYM_OWN.match(name, span[0], span[1]))


_CLOSERS = {")": "(", "]": "[", "}": "{", ">": "<"}
_CLONE_SUFFIX = re.compile(r" \(\.[\w.]+\)\Z")


def parameter_types(demangled: str) -> list[str] | None:
    """The parameter types of a demangled function name, as it writes them
    (``["float const*", "int"]`` of ``void ns::f<float>(float const*,
    int)``), split at the top-level commas of its last parenthesised list;
    ``[]`` for ``()``; None when the name has no parameter list (a C name)."""
    text = demangled
    while clone := _CLONE_SUFFIX.search(text):
        text = text[: clone.start()]
    if not text.endswith(")"):
        return None
    depth, start = 0, None
    for position in range(len(text) - 1, -1, -1):
        if text[position] == ")":
            depth += 1
        elif text[position] == "(":
            depth -= 1
            if depth == 0:
                start = position
                break
    if start is None or start == 0:
        return None
    inside = text[start + 1 : -1]
    types, stack, begin = [], [], 0
    for position, char in enumerate(inside):
        if char in "([{" or (char == "<" and (not stack or stack[-1] != "(")):
            stack.append(char)
        elif char in ")]}" or (char == ">" and stack and stack[-1] == "<"):
            if stack and stack[-1] == _CLOSERS[char]:
                stack.pop()
        elif char == "," and not stack:
            types.append(inside[begin:position].strip())
            begin = position + 1
    last = inside[begin:].strip()
    if types or last:
        types.append(last)
    return [] if types == ["void"] else types
