"""Kernel parameter descriptors for the simulated device, read from DWARF.

The runtime receives a kernel's arguments as ``void **args`` and must call the
x86-64 kernel with the System V calling convention.  For every function the
simulated code object defines, this module describes each parameter as the
ABI sees it (grammar in the runtime's ``signature.cpp``): scalars by kind and
width, by-value aggregates by size, alignment and the class of each eightbyte.
The descriptors are embedded in the code object as ``__gpusym_signatures``,
and the names of its kernels (the functions a host may launch, e.g. through
``hipModuleGetFunction``) as ``__gpusym_kernels``.
"""

from __future__ import annotations

from pathlib import Path

from elftools.dwarf.die import DIE
from elftools.elf.elffile import ELFFile

from symbols.demangling.gnu import demangle

#: Undefined thread-local symbols of device code are ``extern __shared__``
#: arrays; they all alias one buffer of this size per CPU thread.
DYNAMIC_SHARED_BYTES = 64 * 1024
#: Prefix of the runtime's own symbols (such as the thread-local __gpusym_lane).
RUNTIME_PREFIX = "__gpusym_"

_QUALIFIERS = {
    "DW_TAG_typedef",
    "DW_TAG_const_type",
    "DW_TAG_volatile_type",
    "DW_TAG_restrict_type",
    "DW_TAG_atomic_type",
}
_POINTERS = {
    "DW_TAG_pointer_type",
    "DW_TAG_reference_type",
    "DW_TAG_rvalue_reference_type",
    "DW_TAG_unspecified_type",  # decltype(nullptr)
}
_AGGREGATES = {"DW_TAG_structure_type", "DW_TAG_class_type", "DW_TAG_union_type"}
_FLOAT_ENCODINGS = {0x04}  # DW_ATE_float
_COMPLEX_ENCODINGS = {0x03}  # DW_ATE_complex_float
_SIGNED_ENCODINGS = {0x05, 0x06, 0x0D}  # signed, signed_char, signed_fixed
_PASS_BY_REFERENCE = 0x04  # DW_CC_pass_by_reference
#: The runtime aligns the stack pointer of a kernel's call to this.
_MAX_STACK_ALIGNMENT = 64


class Unsupported(Exception):
    """A parameter type the simulated device cannot pass."""


class UnsupportedKernel(Exception):
    """Kernels with parameters the simulated device cannot pass; one line each."""


# System V classes of an eightbyte, as the descriptor spells them.
_NONE, _INTEGER, _SSE, _SSE_UP, _MEMORY = "N", "I", "S", "U", "M"
#: The classes of the first two eightbytes of a value (more go in memory).
Classes = tuple[str, str]
_UNCLASSED: Classes = (_NONE, _NONE)
_IN_MEMORY: Classes = (_MEMORY, _MEMORY)


def _strip(die: DIE) -> DIE:
    while die.tag in _QUALIFIERS:
        if "DW_AT_type" not in die.attributes:
            raise Unsupported("void")
        die = die.get_DIE_from_attribute("DW_AT_type")
    return die


def _attr(die: DIE, name: str, default=None):
    attribute = die.attributes.get(name)
    return attribute.value if attribute is not None else default


def _element(die: DIE) -> DIE:
    return _strip(die.get_DIE_from_attribute("DW_AT_type"))


def _is_vector(die: DIE) -> bool:
    return die.tag == "DW_TAG_array_type" and "DW_AT_GNU_vector" in die.attributes


def _array_count(die: DIE) -> int:
    count = 1
    for child in die.iter_children():
        if child.tag == "DW_TAG_subrange_type":
            if "DW_AT_count" in child.attributes:
                count *= _attr(child, "DW_AT_count")
            elif "DW_AT_upper_bound" in child.attributes:
                count *= _attr(child, "DW_AT_upper_bound") + 1
            else:
                raise Unsupported("array of unknown size")
    return count


def _size(die: DIE) -> int:
    die = _strip(die)
    if die.tag in _POINTERS and "DW_AT_byte_size" not in die.attributes:
        return 8
    if die.tag == "DW_TAG_array_type" and "DW_AT_byte_size" not in die.attributes:
        return _array_count(die) * _size(_element(die))
    size = _attr(die, "DW_AT_byte_size")
    if size is None:
        raise Unsupported(f"{die.tag} without a size")
    return size


def _alignment(die: DIE) -> int:
    die = _strip(die)
    if "DW_AT_alignment" in die.attributes:
        return _attr(die, "DW_AT_alignment")
    if die.tag in _POINTERS or die.tag == "DW_TAG_ptr_to_member_type":
        return 8
    if _is_vector(die):  # clang aligns a vector to its size, rounded up to a power of two
        return 1 << (_size(die) - 1).bit_length()
    if die.tag == "DW_TAG_array_type":
        return _alignment(_element(die))
    if die.tag in _AGGREGATES:
        return max(
            (
                max(_attr(child, "DW_AT_alignment", 1), _alignment(child.get_DIE_from_attribute("DW_AT_type")))
                for child in die.iter_children()
                if child.tag in ("DW_TAG_member", "DW_TAG_inheritance") and _is_field(child)
            ),
            default=1,
        )
    size = _size(die)
    if _attr(die, "DW_AT_encoding") in _COMPLEX_ENCODINGS:
        return size // 2
    return min(size, 16)


def _is_field(member: DIE) -> bool:
    return "DW_AT_external" not in member.attributes and "DW_AT_declaration" not in member.attributes


def _merge(accumulated: str, field: str) -> str:
    """Two classes of one eightbyte merged (System V ABI 3.2.3, step 4)."""
    if accumulated == field or field == _NONE:
        return accumulated
    if _MEMORY in (accumulated, field):
        return _MEMORY
    if accumulated == _NONE:
        return field
    return _INTEGER if _INTEGER in (accumulated, field) else _SSE


def _merged(a: Classes, b: Classes) -> Classes:
    return _merge(a[0], b[0]), _merge(a[1], b[1])


def _spanning(offset: int, size: int, kind: str) -> Classes:
    """`kind` in each eightbyte that bytes [offset, offset + size) touch."""
    first, second = (kind if offset < 8 * (i + 1) and offset + size > 8 * i else _NONE for i in range(2))
    return first, second


def _post_merge(size: int, classes: Classes) -> Classes:
    """An aggregate's classes after the ABI's post-merger cleanup."""
    low, high = classes
    if high == _MEMORY or (size > 16 and (low, high) != (_SSE, _SSE_UP)):
        return _IN_MEMORY
    if high == _SSE_UP and low not in (_SSE, _SSE_UP):
        return low, _SSE
    return low, high


def _classify(die: DIE, offset: int) -> Classes:
    """The classes of a value of type `die` at byte `offset` of an argument,
    as clang classifies it for x86-64 (X86_64ABIInfo::classify)."""
    die = _strip(die)
    if die.tag in _POINTERS or die.tag in ("DW_TAG_enumeration_type", "DW_TAG_ptr_to_member_type"):
        return _spanning(offset, _size(die), _INTEGER)
    if die.tag == "DW_TAG_base_type":
        return _classify_scalar(die, offset)
    if _is_vector(die):
        return _classify_vector(die, offset)
    if die.tag == "DW_TAG_array_type":
        size, element = _size(die), _element(die)
        if size > 16 or offset % _alignment(element):
            return _IN_MEMORY
        classes, step = _UNCLASSED, _size(element)
        for index in range(_array_count(die)):
            classes = _merged(classes, _classify(element, offset + index * step))
        return _post_merge(size, classes)
    if die.tag in _AGGREGATES:
        return _classify_record(die, offset)
    raise Unsupported(die.tag)


def _classify_scalar(die: DIE, offset: int) -> Classes:
    size, encoding = _size(die), _attr(die, "DW_AT_encoding")
    if encoding in _FLOAT_ENCODINGS:
        if size == 16:  # long double: X87, passed in memory
            return _IN_MEMORY
        if size not in (2, 4, 8):
            raise Unsupported(f"{size}-byte floating point")
        return _spanning(offset, size, _SSE)
    if encoding in _COMPLEX_ENCODINGS:
        return _IN_MEMORY if size == 32 else _spanning(offset, size, _SSE)
    return _spanning(offset, size, _INTEGER)


def _classify_vector(die: DIE, offset: int) -> Classes:
    size, element = _size(die), _element(die)
    if size in (1, 2, 4):
        return _spanning(offset, size, _INTEGER)
    if size == 8:
        element_encoding, element_size = _attr(element, "DW_AT_encoding"), _size(element)
        if element_size == 8 and element_encoding in _FLOAT_ENCODINGS:
            return _IN_MEMORY  # <1 x double>, as gcc passes it
        return _spanning(offset, size, _INTEGER if element_size == 8 else _SSE)
    if size == 16:
        return _SSE, _SSE_UP
    return _IN_MEMORY  # wider vectors need AVX registers, which kernels here are not built for


def _classify_record(die: DIE, offset: int) -> Classes:
    if "DW_AT_declaration" in die.attributes:
        raise Unsupported("incomplete type")
    size = _size(die)
    if size > 64 or _attr(die, "DW_AT_calling_convention") == _PASS_BY_REFERENCE:
        return _IN_MEMORY
    classes = _UNCLASSED
    for child in die.iter_children():
        if child.tag == "DW_TAG_inheritance":
            if _attr(child, "DW_AT_virtuality"):
                raise Unsupported("virtual base class")
            base = child.get_DIE_from_attribute("DW_AT_type")
            classes = _merged(classes, _classify(base, offset + _attr(child, "DW_AT_data_member_location", 0)))
        elif child.tag == "DW_TAG_member" and _is_field(child):
            if size > 16:
                return _IN_MEMORY
            if "DW_AT_bit_size" in child.attributes:
                bits, first = _attr(child, "DW_AT_bit_size"), _attr(child, "DW_AT_data_bit_offset", 0)
                if bits:
                    last = first + bits - 1
                    classes = _merged(classes, _spanning(offset + first // 8, last // 8 - first // 8 + 1, _INTEGER))
                continue
            location = _attr(child, "DW_AT_data_member_location", 0)
            if not isinstance(location, int):
                raise Unsupported("member at a computed location")
            member = child.get_DIE_from_attribute("DW_AT_type")
            if (offset + location) % _alignment(member):
                return _IN_MEMORY
            classes = _merged(classes, _classify(member, offset + location))
        if _MEMORY in classes:
            return _IN_MEMORY
    return _post_merge(size, classes)


def _aggregate(die: DIE) -> str:
    """``{size,alignment:classes}``: one class per eightbyte, or M (memory),
    or R (by reference to a copy the caller makes)."""
    size, align = _size(die), _alignment(die)
    by_reference = _attr(die, "DW_AT_calling_convention") == _PASS_BY_REFERENCE
    classes = _IN_MEMORY if by_reference else _classify(die, 0)
    if _MEMORY in classes and align > _MAX_STACK_ALIGNMENT:
        raise Unsupported(f"aggregate aligned to {align} bytes (at most {_MAX_STACK_ALIGNMENT})")
    if by_reference:
        return f"{{{size},{align}:R}}"
    if _MEMORY in classes:
        return f"{{{size},{align}:M}}"
    return f"{{{size},{align}:{''.join(classes[: (size + 7) // 8])}}}"


def parameter_descriptor(type_die: DIE) -> str:
    """The descriptor of one parameter of type `type_die` (``?why`` if unsupported)."""
    try:
        die = _strip(type_die)
        if die.tag in _POINTERS:
            return "p"
        if die.tag in _AGGREGATES or die.tag == "DW_TAG_array_type":
            return _aggregate(die)
        if die.tag == "DW_TAG_ptr_to_member_type":
            return "i64" if _size(die) == 8 else "{16,8:II}"
        if die.tag == "DW_TAG_enumeration_type":
            underlying = die.get_DIE_from_attribute("DW_AT_type") if "DW_AT_type" in die.attributes else None
            signed = underlying is None or _attr(_strip(underlying), "DW_AT_encoding") in _SIGNED_ENCODINGS
            return f"{'i' if signed else 'u'}{8 * _size(die)}"
        if die.tag == "DW_TAG_base_type":
            size, encoding = _size(die), _attr(die, "DW_AT_encoding")
            if encoding in _FLOAT_ENCODINGS:
                names = {2: "f16", 4: "f32", 8: "f64", 16: "f80"}
                if size not in names:
                    raise Unsupported(f"{size}-byte floating point")
                return names[size]
            if encoding in _COMPLEX_ENCODINGS:
                return _aggregate(die)
            return f"{'i' if encoding in _SIGNED_ENCODINGS else 'u'}{8 * size}"
        raise Unsupported(die.tag)
    except Unsupported as why:
        return f"?{why}"


def _linkage_name(die: DIE) -> str | None:
    for attribute in ("DW_AT_linkage_name", "DW_AT_MIPS_linkage_name"):
        if attribute in die.attributes:
            return _attr(die, attribute).decode()
    for reference in ("DW_AT_specification", "DW_AT_abstract_origin"):
        if reference in die.attributes:
            return _linkage_name(die.get_DIE_from_attribute(reference))
    name = _attr(die, "DW_AT_name")
    return name.decode() if name else None


def _origin(die: DIE) -> DIE:
    """The DIE `die` is a concrete instance of (an out-of-line copy of an
    inlined function, or one of its parameters), else `die` itself."""
    while "DW_AT_abstract_origin" in die.attributes:
        die = die.get_DIE_from_attribute("DW_AT_abstract_origin")
    return die


def _parameter_descriptors(subprogram: DIE) -> list[tuple[str, str]]:
    """Name and descriptor of each of `subprogram`'s parameters, read where
    they are declared."""
    parameters = []
    for child in _origin(subprogram).iter_children():
        if child.tag == "DW_TAG_formal_parameter":
            declared = _origin(child)
            name = (_attr(declared, "DW_AT_name") or b"").decode()
            if "DW_AT_type" in declared.attributes:
                parameters.append((name, parameter_descriptor(declared.get_DIE_from_attribute("DW_AT_type"))))
            else:
                parameters.append((name, "?parameter without a type"))
    return parameters


def describe(shared_object: Path) -> tuple[dict[str, list[tuple[str, str]]], list[str]]:
    """The parameters (name, descriptor) of every function `shared_object`
    defines and exports, and the names of its undefined thread-local symbols
    (``extern __shared__``)."""
    with open(shared_object, "rb") as stream:
        elf = ELFFile(stream)
        symtab = elf.get_section_by_name(".dynsym")
        defined, shared = set(), []
        for symbol in symtab.iter_symbols() if symtab else ():
            info = symbol["st_info"]
            if symbol["st_shndx"] == "SHN_UNDEF":
                if info["type"] == "STT_TLS" and not symbol.name.startswith(RUNTIME_PREFIX):
                    shared.append(symbol.name)
            elif info["type"] == "STT_FUNC" and info["bind"] in ("STB_GLOBAL", "STB_WEAK"):
                defined.add(symbol.name)
        functions: dict[str, list[tuple[str, str]]] = {}
        if elf.has_dwarf_info():
            for unit in elf.get_dwarf_info().iter_CUs():
                for die in unit.iter_DIEs():
                    if die.tag != "DW_TAG_subprogram" or "DW_AT_low_pc" not in die.attributes:
                        continue
                    name = _linkage_name(die)
                    if name in defined and name not in functions:
                        functions[name] = _parameter_descriptors(die)
    return functions, shared


def check_kernels(functions: dict[str, list[tuple[str, str]]], kernels: list[str]) -> None:
    """Raises UnsupportedKernel naming each kernel parameter that cannot be passed."""
    problems = [
        f"kernel {demangle(kernel) or kernel}: parameter {index}{f' ({name})' if name else ''} "
        f"cannot be passed on the simulated device: {descriptor[1:]}"
        for kernel in kernels
        for index, (name, descriptor) in enumerate(functions.get(kernel, ()), 1)
        if descriptor.startswith("?")
    ]
    if problems:
        raise UnsupportedKernel("\n".join(problems))


def _string_table(symbol: str, lines: list[str]) -> list[str]:
    """Assembly of a read-only table `symbol`: one "LINE\\n" each, then a NUL."""
    return [
        '\t.section .gpusym_tables,"a",@progbits',
        f"\t.globl {symbol}",
        f"\t.type {symbol},@object",
        f"{symbol}:",
        *(f'\t.ascii "{line}\\n"' for line in lines),
        "\t.byte 0",
        f"\t.size {symbol}, .-{symbol}",
    ]


def _signature(parameters: list[tuple[str, str]]) -> str:
    return ",".join(
        f"?{text[1:].replace(',', ';').replace(' ', '_')}" if text.startswith("?") else text for _, text in parameters
    )


def assembly(functions: dict[str, list[tuple[str, str]]], shared: list[str], kernels: list[str], wave_size: int) -> str:
    """Assembly defining ``__gpusym_signatures``, ``__gpusym_kernels``,
    ``__gpusym_wave_size`` (the lanes of a wavefront the code was compiled
    for) and the dynamic shared buffer."""
    lines = [
        "\t.section .rodata",
        "\t.p2align 2",
        "\t.globl __gpusym_wave_size",
        "\t.type __gpusym_wave_size,@object",
        "\t.size __gpusym_wave_size, 4",
        "__gpusym_wave_size:",
        f"\t.long {wave_size}",
    ]
    lines += _string_table(
        "__gpusym_signatures", [f"{name} {_signature(parameters)}" for name, parameters in sorted(functions.items())]
    )
    lines += _string_table("__gpusym_kernels", sorted(kernels))
    if shared:
        lines += ['\t.section .tbss,"awT",@nobits', "\t.p2align 4"]
        for name in shared:
            lines += [f"\t.globl {name}", f"\t.type {name},@object", f"\t.size {name}, {DYNAMIC_SHARED_BYTES}"]
        lines += [f"{name}:" for name in shared]
        lines += [f"\t.zero {DYNAMIC_SHARED_BYTES}"]
    lines.append('\t.section .note.GNU-stack,"",@progbits')
    return "\n".join(lines) + "\n"
