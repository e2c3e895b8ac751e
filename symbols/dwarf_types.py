"""The parameter types of functions, from a code object's DWARF: for
kernels with C linkage, whose unmangled names do not say them.

A type reads as the GNU demangler prints one in a mangled name
(``float const*``, ``unsigned int&``, ``outer::Payload``), so that a kernel
reads the same with C linkage as without: a typedef is its type, and a
parameter's own ``const``, ``volatile`` or ``__restrict`` is left out (it is
not part of the function's type).  A type the demangler's words cannot be
made of here (a function pointer, a pointer to member, an unnamed struct)
is None.
"""

from __future__ import annotations

import io
from typing import Collection, Iterator

from elftools.dwarf.die import DIE
from elftools.elf.elffile import ELFFile

_QUALIFIERS = {"DW_TAG_const_type": "const", "DW_TAG_volatile_type": "volatile"}
_TRANSPARENT = ("DW_TAG_typedef", "DW_TAG_restrict_type")
_DECLARATORS = {"DW_TAG_pointer_type": "*", "DW_TAG_reference_type": "&", "DW_TAG_rvalue_reference_type": "&&"}
_NAMED = ("DW_TAG_base_type", "DW_TAG_unspecified_type")
_SCOPED = ("DW_TAG_structure_type", "DW_TAG_class_type", "DW_TAG_union_type", "DW_TAG_enumeration_type")
_SCOPES = ("DW_TAG_namespace", "DW_TAG_structure_type", "DW_TAG_class_type", "DW_TAG_union_type")


def parameter_types(image: bytes | memoryview, names: Collection[str]) -> dict[str, list[str | None]]:
    """The parameter types of each function of `names` that the ELF image's
    DWARF defines (by its linkage name, else its name); none for an image
    without DWARF, or with DWARF that cannot be read."""
    wanted = set(names)
    if not wanted:
        return {}
    found: dict[str, list[str | None]] = {}
    # pyelftools reports corrupt input with many exception types: any of
    # them means that the image's types are unknown (as in symbols/lines.py).
    try:
        elf = ELFFile(io.BytesIO(bytes(image)))
        if not elf.has_dwarf_info():
            return {}
        for unit in elf.get_dwarf_info().iter_CUs():
            for die in _definitions(unit.get_top_DIE()):
                name = _text(die, "DW_AT_linkage_name") or _text(die, "DW_AT_name")
                if name in wanted and name not in found:
                    params = (child for child in die.iter_children() if child.tag == "DW_TAG_formal_parameter")
                    found[name] = [_parameter_type(param) for param in params]
    except Exception:
        return {}
    return found


def _definitions(scope: DIE) -> Iterator[DIE]:
    """The function definitions in `scope` and the namespaces inside it."""
    for die in scope.iter_children():
        if die.tag == "DW_TAG_namespace":
            yield from _definitions(die)
        elif die.tag == "DW_TAG_subprogram" and "DW_AT_declaration" not in die.attributes:
            yield die


def _text(die: DIE, attribute: str) -> str | None:
    value = die.attributes.get(attribute)
    return value.value.decode("utf-8", "replace") if value is not None and isinstance(value.value, bytes) else None


def _target(die: DIE) -> DIE | None:
    """The type `die` qualifies or points to; None for void."""
    return die.get_DIE_from_attribute("DW_AT_type") if "DW_AT_type" in die.attributes else None


def _parameter_type(param: DIE) -> str | None:
    die = _target(param)
    while die is not None and (die.tag in _TRANSPARENT or die.tag in _QUALIFIERS):
        die = _target(die)  # the parameter's own qualifiers, and typedefs
    return _type_name(die)


def _type_name(die: DIE | None) -> str | None:
    if die is None:
        return "void"
    if die.tag in _TRANSPARENT:
        return _type_name(_target(die))
    if die.tag in _QUALIFIERS:
        qualifiers = set()
        while die is not None and (die.tag in _QUALIFIERS or die.tag in _TRANSPARENT):
            qualifiers.add(_QUALIFIERS.get(die.tag))
            die = _target(die)
        inner = _type_name(die)
        words = [word for word in _QUALIFIERS.values() if word in qualifiers]  # in the demangler's order
        return " ".join([inner, *words]) if inner is not None else None
    if die.tag in _DECLARATORS:
        inner = _type_name(_target(die))
        return inner + _DECLARATORS[die.tag] if inner is not None else None
    if die.tag in _NAMED:
        return _text(die, "DW_AT_name")
    if die.tag in _SCOPED:
        return _scoped_name(die)
    return None


def _scoped_name(die: DIE) -> str | None:
    """A struct's, class's, union's or enum's name with its scopes."""
    name = _text(die, "DW_AT_name")
    if name is None:
        return None
    parts = [name]
    parent = die.get_parent()
    while parent is not None and parent.tag in _SCOPES:
        scope = _text(parent, "DW_AT_name")
        if scope is None and parent.tag != "DW_TAG_namespace":
            return None  # inside an unnamed struct
        parts.append(scope or "(anonymous namespace)")
        parent = parent.get_parent()
    return "::".join(reversed(parts))
