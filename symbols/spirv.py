"""SPIR-V modules, the device code of HIP on SPIR-V (chipStar, clang's HIPSPV
toolchain: bundle entries ``hip-spirv64----generic``): their kernels and
the kernels' parameters.

Layout (the SPIR-V specification, "Physical Layout of a SPIR-V Module and
Instruction"): 32-bit words, in the byte order in which the first word reads
as the magic number 0x07230203; a header of five words (magic, version,
generator, id bound, schema), then instructions, each a first word holding
its word count (itself included) in the high 16 bits and its opcode in the
low 16, then its operands.  A literal string is UTF-8, NUL-terminated and
padded with NULs to a whole word.  Every id is above 0 and below the bound.

A kernel is an ``OpEntryPoint`` of execution model Kernel (the literal name
is the kernel's: mangled for C++); other entry points (GLCompute, ...) and
plain functions are not kernels.  Its parameters are the
``OpFunctionParameter``s of the entry's ``OpFunction``, their types those of
its ``OpTypeFunction``, their names the ``OpName``s of the parameters (none
where the compiler discarded value names).  Newer SPIR-V translators make
the entry point a wrapper calling a function of the kernel's name and type:
what the wrapper's parameters do not say (names, ``ByVal``) comes from that
function's.  Types are written as OpenCL C writes them: ``float*`` (a
CrossWorkgroup or Generic pointer), ``__local float*`` (Workgroup),
``__constant float*`` (UniformConstant), ``int4``.  An ``OpTypeInt`` of a
Kernel module has no signedness (the specification requires 0), so an
``unsigned int`` parameter is written ``int``: the demangled kernel name
says which.

Sizes are those of OpenCL C on the module's addressing model (pointers of
8 bytes in Physical64, 4 in Physical32, 0 where the model is Logical); the
module has no argument offsets, so each argument's offset is where a C
struct of the parameters in order puts it (each at its natural alignment),
as clang lays out kernel arguments on AMDGPU.
"""

from __future__ import annotations

import sys
from array import array
from typing import NamedTuple

from symbols.errors import FormatError

MAGIC = 0x07230203
#: How a module's first four bytes read in each byte order.
MAGIC_BYTES = (MAGIC.to_bytes(4, "little"), MAGIC.to_bytes(4, "big"))
HEADER_WORDS = 5
EXECUTION_MODEL_KERNEL = 6

# Opcodes read (the specification's numbering).
OP_NAME = 5
OP_MEMORY_MODEL = 14
OP_ENTRY_POINT = 15
OP_TYPE_VOID = 19
OP_TYPE_BOOL = 20
OP_TYPE_INT = 21
OP_TYPE_FLOAT = 22
OP_TYPE_VECTOR = 23
OP_TYPE_IMAGE = 25
OP_TYPE_SAMPLER = 26
OP_TYPE_SAMPLED_IMAGE = 27
OP_TYPE_ARRAY = 28
OP_TYPE_RUNTIME_ARRAY = 29
OP_TYPE_STRUCT = 30
OP_TYPE_OPAQUE = 31
OP_TYPE_POINTER = 32
OP_TYPE_FUNCTION = 33
OP_TYPE_EVENT = 34
OP_TYPE_DEVICE_EVENT = 35
OP_TYPE_RESERVE_ID = 36
OP_TYPE_QUEUE = 37
OP_TYPE_PIPE = 38
OP_CONSTANT = 43
OP_FUNCTION = 54
OP_FUNCTION_PARAMETER = 55
OP_FUNCTION_END = 56
OP_LABEL = 248
OP_DECORATE = 71
OP_GROUP_DECORATE = 74

_OPCODE_NAMES = {
    OP_NAME: "OpName",
    OP_MEMORY_MODEL: "OpMemoryModel",
    OP_ENTRY_POINT: "OpEntryPoint",
    OP_TYPE_VOID: "OpTypeVoid",
    OP_TYPE_BOOL: "OpTypeBool",
    OP_TYPE_INT: "OpTypeInt",
    OP_TYPE_FLOAT: "OpTypeFloat",
    OP_TYPE_VECTOR: "OpTypeVector",
    OP_TYPE_IMAGE: "OpTypeImage",
    OP_TYPE_SAMPLER: "OpTypeSampler",
    OP_TYPE_SAMPLED_IMAGE: "OpTypeSampledImage",
    OP_TYPE_ARRAY: "OpTypeArray",
    OP_TYPE_RUNTIME_ARRAY: "OpTypeRuntimeArray",
    OP_TYPE_STRUCT: "OpTypeStruct",
    OP_TYPE_OPAQUE: "OpTypeOpaque",
    OP_TYPE_POINTER: "OpTypePointer",
    OP_TYPE_FUNCTION: "OpTypeFunction",
    OP_TYPE_EVENT: "OpTypeEvent",
    OP_TYPE_DEVICE_EVENT: "OpTypeDeviceEvent",
    OP_TYPE_RESERVE_ID: "OpTypeReserveId",
    OP_TYPE_QUEUE: "OpTypeQueue",
    OP_TYPE_PIPE: "OpTypePipe",
    OP_CONSTANT: "OpConstant",
    OP_FUNCTION: "OpFunction",
    OP_FUNCTION_PARAMETER: "OpFunctionParameter",
    OP_FUNCTION_END: "OpFunctionEnd",
    OP_LABEL: "OpLabel",
    OP_DECORATE: "OpDecorate",
    OP_GROUP_DECORATE: "OpGroupDecorate",
}
#: The fewest words each instruction read has (its first word included).
_MINIMUM_WORDS = {
    OP_NAME: 3,
    OP_MEMORY_MODEL: 3,
    OP_ENTRY_POINT: 4,
    OP_TYPE_VOID: 2,
    OP_TYPE_BOOL: 2,
    OP_TYPE_INT: 4,
    OP_TYPE_FLOAT: 3,
    OP_TYPE_VECTOR: 4,
    OP_TYPE_IMAGE: 9,
    OP_TYPE_SAMPLER: 2,
    OP_TYPE_SAMPLED_IMAGE: 3,
    OP_TYPE_ARRAY: 4,
    OP_TYPE_RUNTIME_ARRAY: 3,
    OP_TYPE_STRUCT: 2,
    OP_TYPE_OPAQUE: 3,
    OP_TYPE_POINTER: 4,
    OP_TYPE_FUNCTION: 3,
    OP_TYPE_EVENT: 2,
    OP_TYPE_DEVICE_EVENT: 2,
    OP_TYPE_RESERVE_ID: 2,
    OP_TYPE_QUEUE: 2,
    OP_TYPE_PIPE: 3,
    OP_CONSTANT: 4,
    OP_FUNCTION: 5,
    OP_FUNCTION_PARAMETER: 3,
    OP_FUNCTION_END: 1,
    OP_LABEL: 2,
    OP_DECORATE: 3,
    OP_GROUP_DECORATE: 2,
}
#: Type instructions: their result id is their first operand.
_TYPES = {
    OP_TYPE_VOID,
    OP_TYPE_BOOL,
    OP_TYPE_INT,
    OP_TYPE_FLOAT,
    OP_TYPE_VECTOR,
    OP_TYPE_IMAGE,
    OP_TYPE_SAMPLER,
    OP_TYPE_SAMPLED_IMAGE,
    OP_TYPE_ARRAY,
    OP_TYPE_RUNTIME_ARRAY,
    OP_TYPE_STRUCT,
    OP_TYPE_OPAQUE,
    OP_TYPE_POINTER,
    OP_TYPE_FUNCTION,
    OP_TYPE_EVENT,
    OP_TYPE_DEVICE_EVENT,
    OP_TYPE_RESERVE_ID,
    OP_TYPE_QUEUE,
    OP_TYPE_PIPE,
}
#: Operands of each type instruction that are ids (by position after the
#: result id; ``None``: every operand from there on).
_TYPE_ID_OPERANDS = {
    OP_TYPE_VECTOR: (0,),
    OP_TYPE_IMAGE: (0,),
    OP_TYPE_SAMPLED_IMAGE: (0,),
    OP_TYPE_ARRAY: (0, 1),
    OP_TYPE_RUNTIME_ARRAY: (0,),
    OP_TYPE_POINTER: (1,),
    OP_TYPE_STRUCT: None,
    OP_TYPE_FUNCTION: None,
}
_WANTED = set(_MINIMUM_WORDS)

ADDRESSING_MODELS = {0: "Logical", 1: "Physical32", 2: "Physical64", 5348: "PhysicalStorageBuffer64"}
_POINTER_SIZES = {1: 4, 2: 8, 5348: 8}
# Storage classes, and how OpenCL C qualifies a pointer to each.
SC_UNIFORM_CONSTANT, SC_WORKGROUP, SC_CROSS_WORKGROUP, SC_FUNCTION, SC_GENERIC = 0, 4, 5, 7, 8
_QUALIFIERS = {SC_UNIFORM_CONSTANT: "__constant ", SC_WORKGROUP: "__local ", SC_FUNCTION: "__private "}
# Decorations read: FuncParamAttr ByVal on a parameter, CPacked on a struct.
DECORATION_CPACKED, DECORATION_FUNC_PARAM_ATTR, FUNC_PARAM_ATTR_BYVAL = 10, 38, 2
_BYVAL, _PACKED = 1, 2
_INT_NAMES = {8: "char", 16: "short", 32: "int", 64: "long"}
_FLOAT_NAMES = {16: "half", 32: "float", 64: "double"}
_IMAGE_DIMENSIONS = {0: "image1d", 1: "image2d", 2: "image3d", 5: "image1d_buffer"}
_OPAQUE_OBJECTS = {
    OP_TYPE_SAMPLER: ("sampler_t", "sampler"),
    OP_TYPE_SAMPLED_IMAGE: ("sampled_image", "image"),
    OP_TYPE_EVENT: ("event_t", "by_value"),
    OP_TYPE_DEVICE_EVENT: ("clk_event_t", "by_value"),
    OP_TYPE_RESERVE_ID: ("reserve_id_t", "by_value"),
    OP_TYPE_QUEUE: ("queue_t", "queue"),
    OP_TYPE_PIPE: ("pipe", "pipe"),
}
#: How deep a type is followed (pointers to pointers, arrays of structs...)
#: before it is written ``?``: no real kernel parameter comes near.
MAX_TYPE_DEPTH = 32
UNKNOWN = "?"
#: The array type code of 32-bit unsigned words.
_WORD = "I" if array("I").itemsize == 4 else "L"


class Param(NamedTuple):
    name: str | None  # None: the module does not name it
    type_name: str
    size: int  # bytes; 0 where the module does not say (an opaque type)
    offset: int  # in a C struct of the parameters in order
    value_kind: str  # global_buffer, dynamic_shared_pointer, by_value, image, sampler, pipe, queue


class Kernel(NamedTuple):
    name: str
    params: list[Param]


class Module(NamedTuple):
    version: tuple[int, int]
    addressing_model: str  # Logical, Physical32, Physical64, or "unknown-N" (none: "")
    kernels: list[Kernel]  # each name once, in the order of the entry points

    @property
    def triple(self) -> str:
        """The target triple's architecture its addressing model implies:
        ``spirv64``, ``spirv32``, or ``spirv`` (logical addressing)."""
        return {"Physical64": "spirv64", "Physical32": "spirv32"}.get(self.addressing_model, "spirv")


def has_magic(head: bytes | memoryview) -> bool:
    """Whether `head` starts as a SPIR-V module does, in either byte order."""
    return bytes(head[:4]) in MAGIC_BYTES


def read(data: bytes | memoryview) -> Module:
    """The module in `data` (the whole of it), checked instruction by
    instruction; FormatError for anything malformed."""
    return _Reader(_words(data)).module()


def _words(data: bytes | memoryview) -> array:
    """The module's words, in native order."""
    view = memoryview(data)
    if len(view) >= 4 and not has_magic(view):
        raise FormatError(f"not a SPIR-V module (bad magic 0x{int.from_bytes(view[:4], 'little'):08x})")
    if len(view) < HEADER_WORDS * 4:
        raise FormatError(f"truncated SPIR-V module: {len(view)} bytes, less than its {HEADER_WORDS * 4}-byte header")
    if len(view) % 4:
        raise FormatError(f"truncated SPIR-V module: {len(view)} bytes, not a whole number of 32-bit words")
    words = array(_WORD)
    words.frombytes(view)
    if words[0] != MAGIC:
        words.byteswap()
    return words


def _opcode_name(opcode: int) -> str:
    return _OPCODE_NAMES.get(opcode, f"opcode {opcode}")


class _Reader:
    """One pass over the instructions, keeping what kernels' parameters need:
    names (as the positions of their strings, decoded when asked), types,
    integer constants (array lengths), functions and their parameters, and
    the decorations read."""

    def __init__(self, words: array) -> None:
        self.words = words
        self.bound = words[3]
        self.entry_points: list[tuple[int, int, str]] = []  # (execution model, function, name)
        self.names: dict[int, int] = {}  # id -> word position of its OpName
        self.types: dict[int, tuple[int, tuple[int, ...]]] = {}  # id -> (opcode, operands after the id)
        self.constants: dict[int, int] = {}
        self.functions: dict[int, tuple[int, list[int]]] = {}  # id -> (function type, parameters)
        self.flags: dict[int, int] = {}  # id -> _BYVAL | _PACKED
        self.addressing = -1
        self._sizes: dict[int, tuple[int, int]] = {}

    def module(self) -> Module:
        self._scan()
        version = ((self.words[1] >> 16) & 0xFF, (self.words[1] >> 8) & 0xFF)
        addressing = "" if self.addressing < 0 else ADDRESSING_MODELS.get(self.addressing, f"unknown-{self.addressing}")
        return Module(version, addressing, self._kernels())

    # The pass.

    def _scan(self) -> None:
        words, wanted, count_limit = self.words, _WANTED, len(self.words)
        handle = self._handle
        position = HEADER_WORDS
        while position < count_limit:
            word = words[position]
            count = word >> 16
            if count == 0:
                raise FormatError(f"SPIR-V instruction at word {position} has word count 0")
            end = position + count
            if end > count_limit:
                raise FormatError(
                    f"SPIR-V {_opcode_name(word & 0xFFFF)} at word {position} ({count} words)"
                    f" runs past the end of the module ({count_limit} words)"
                )
            if word & 0xFFFF in wanted:
                handle(word & 0xFFFF, position, end)
            position = end

    def _handle(self, opcode: int, start: int, end: int) -> None:
        if end - start < _MINIMUM_WORDS[opcode]:
            raise FormatError(f"SPIR-V {_opcode_name(opcode)} at word {start} is too short ({end - start} words)")
        words = self.words
        if opcode in _TYPES:
            result = self._id(opcode, start, words[start + 1])
            operands = tuple(words[start + 2 : end])
            positions = _TYPE_ID_OPERANDS.get(opcode, ())
            for operand in operands if positions is None else (operands[p] for p in positions if p < len(operands)):
                self._id(opcode, start, operand)
            self.types.setdefault(result, (opcode, operands))
        elif opcode == OP_FUNCTION_PARAMETER:
            self._id(opcode, start, words[start + 1])
            result = self._id(opcode, start, words[start + 2])
            if self._current is None:
                raise FormatError(f"SPIR-V OpFunctionParameter at word {start} does not follow an OpFunction")
            self._current.append(result)
            return
        elif opcode == OP_FUNCTION:
            self._id(opcode, start, words[start + 1])
            result = self._id(opcode, start, words[start + 2])
            function_type = self._id(opcode, start, words[start + 4])
            self._current = []
            self.functions.setdefault(result, (function_type, self._current))
            return
        elif opcode == OP_NAME:
            self.names.setdefault(self._id(opcode, start, words[start + 1]), start)
            self._string(opcode, start, start + 2, end)  # checked now, decoded when needed
        elif opcode == OP_ENTRY_POINT:
            function = self._id(opcode, start, words[start + 2])
            name = self._string(opcode, start, start + 3, end)
            self.entry_points.append((words[start + 1], function, name))
        elif opcode == OP_CONSTANT:
            self._id(opcode, start, words[start + 1])
            result = self._id(opcode, start, words[start + 2])
            value = words[start + 3] | (words[start + 4] << 32 if end - start > 4 else 0)
            self.constants.setdefault(result, value)
        elif opcode == OP_DECORATE:
            target = self._id(opcode, start, words[start + 1])
            decoration = words[start + 2]
            if decoration == DECORATION_CPACKED:
                self.flags[target] = self.flags.get(target, 0) | _PACKED
            elif (
                decoration == DECORATION_FUNC_PARAM_ATTR
                and end - start > 3
                and words[start + 3] == FUNC_PARAM_ATTR_BYVAL
            ):
                self.flags[target] = self.flags.get(target, 0) | _BYVAL
        elif opcode == OP_GROUP_DECORATE:
            group = self.flags.get(self._id(opcode, start, words[start + 1]), 0)
            for position in range(start + 2, end):
                target = self._id(opcode, start, words[position])
                if group:
                    self.flags[target] = self.flags.get(target, 0) | group
        elif opcode == OP_MEMORY_MODEL:
            self.addressing = words[start + 1]
        self._current = None  # any other instruction read (OpLabel, OpFunctionEnd) ends a function's parameters

    _current: list[int] | None = None

    def _id(self, opcode: int, start: int, value: int) -> int:
        if not 0 < value < self.bound:
            raise FormatError(
                f"SPIR-V {_opcode_name(opcode)} at word {start}: id {value} is out of range (bound {self.bound})"
            )
        return value

    def _string(self, opcode: int, start: int, first: int, end: int) -> str:
        """The literal string whose words start at `first` (before `end`)."""
        text = _text(self.words[first:end])
        if text is None:
            raise FormatError(f"SPIR-V {_opcode_name(opcode)} at word {start}: literal string not NUL-terminated")
        return text

    def _name(self, id: int) -> str | None:
        position = self.names.get(id)
        if position is None:
            return None
        end = position + (self.words[position] >> 16)
        return self._string(OP_NAME, position, position + 2, end)

    # Kernels.

    def _kernels(self) -> list[Kernel]:
        kernels: dict[str, Kernel] = {}
        twins: dict[str, list[int]] | None = None
        for model, function, name in self.entry_points:
            if model != EXECUTION_MODEL_KERNEL or name in kernels:
                continue
            if function not in self.functions:
                raise FormatError(f"SPIR-V entry point {name!r} names function {function}, which is not defined")
            function_type, params = self.functions[function]
            param_types = self._parameter_types(name, function_type, params)
            twin: list[int] = []
            if params:
                if twins is None:
                    twins = self._named_functions({n for _, _, n in self.entry_points})
                twin = next(
                    (
                        self.functions[f][1]
                        for f in twins.get(name, ())
                        if f != function and self.functions[f][0] == function_type
                    ),
                    [],
                )
            kernels[name] = Kernel(name, self._params(params, twin, param_types))
        return list(kernels.values())

    def _parameter_types(self, kernel: str, function_type: int, params: list[int]) -> list[int]:
        found = self.types.get(function_type)
        if found is None or found[0] != OP_TYPE_FUNCTION:
            raise FormatError(f"SPIR-V kernel {kernel!r}: its function type {function_type} is not an OpTypeFunction")
        types = list(found[1][1:])
        if len(types) != len(params):
            raise FormatError(f"SPIR-V kernel {kernel!r}: {len(params)} parameters for a function type of {len(types)}")
        return types

    def _named_functions(self, names: set[str]) -> dict[str, list[int]]:
        """The functions that an OpName names as each of `names`, in order."""
        found: dict[str, list[int]] = {}
        for function in self.functions:
            name = self._name(function)
            if name is not None and name in names:
                found.setdefault(name, []).append(function)
        return found

    def _params(self, params: list[int], twin: list[int], types: list[int]) -> list[Param]:
        out, offset = [], 0
        for index, (param, type_id) in enumerate(zip(params, types)):
            other = twin[index] if index < len(twin) else None
            name = self._name(param) or (self._name(other) if other is not None else None)
            byval = (self.flags.get(param, 0) | (self.flags.get(other, 0) if other is not None else 0)) & _BYVAL
            type_name, value_kind = self._describe(type_id, byval)
            pointee = self.types.get(type_id, (0, ()))
            passed = pointee[1][1] if byval and pointee[0] == OP_TYPE_POINTER else type_id
            size, alignment = self._size(passed, 0)
            offset = -(-offset // max(alignment, 1)) * max(alignment, 1)
            out.append(Param(name, type_name, size, offset, value_kind))
            offset += size
        return out

    def _describe(self, type_id: int, byval: int) -> tuple[str, str]:
        """(type name, value kind) of a parameter of type `type_id`."""
        opcode, operands = self.types.get(type_id, (0, ()))
        if opcode == OP_TYPE_POINTER:
            if byval:
                return self._type_name(operands[1], 1), "by_value"
            kind = "dynamic_shared_pointer" if operands[0] == SC_WORKGROUP else "global_buffer"
            return self._type_name(type_id, 0), kind
        if opcode == OP_TYPE_IMAGE:
            return self._type_name(type_id, 0), "image"
        if opcode in _OPAQUE_OBJECTS:
            return _OPAQUE_OBJECTS[opcode][0], _OPAQUE_OBJECTS[opcode][1]
        return self._type_name(type_id, 0), "by_value"

    def _type_name(self, type_id: int, depth: int) -> str:
        found = self.types.get(type_id)
        if found is None or depth > MAX_TYPE_DEPTH:
            return UNKNOWN
        opcode, operands = found
        if opcode == OP_TYPE_VOID:
            return "void"
        if opcode == OP_TYPE_BOOL:
            return "bool"
        if opcode == OP_TYPE_INT:
            return _INT_NAMES.get(operands[0], f"i{operands[0]}")
        if opcode == OP_TYPE_FLOAT:
            return _FLOAT_NAMES.get(operands[0], f"f{operands[0]}")
        if opcode == OP_TYPE_VECTOR:
            return f"{self._type_name(operands[0], depth + 1)}{operands[1]}"
        if opcode == OP_TYPE_POINTER:
            return f"{_QUALIFIERS.get(operands[0], '')}{self._type_name(operands[1], depth + 1)}*"
        if opcode == OP_TYPE_ARRAY:
            length = self.constants.get(operands[1])
            return f"{self._type_name(operands[0], depth + 1)}[{'' if length is None else length}]"
        if opcode == OP_TYPE_RUNTIME_ARRAY:
            return f"{self._type_name(operands[0], depth + 1)}[]"
        if opcode == OP_TYPE_STRUCT:
            name = self._name(type_id)
            return name.removeprefix("struct.").removeprefix("class.").removeprefix("union.") if name else "struct"
        if opcode == OP_TYPE_OPAQUE:
            return _text(array(_WORD, operands)) or self._name(type_id) or "opaque"
        if opcode == OP_TYPE_IMAGE:
            dimension = _IMAGE_DIMENSIONS.get(operands[1], "image")
            return f"{dimension}{'_array' if operands[3] else ''}_t"
        if opcode in _OPAQUE_OBJECTS:
            return _OPAQUE_OBJECTS[opcode][0]
        return UNKNOWN

    def _size(self, type_id: int, depth: int) -> tuple[int, int]:
        """(size, alignment) of `type_id` in bytes, as OpenCL C lays it out;
        (0, 1) where unknown.  Each type's is worked out once."""
        known = self._sizes.get(type_id)
        if known is not None:
            return known
        self._sizes[type_id] = (0, 1)  # a type that contains itself has no size
        found = self.types.get(type_id)
        result = (0, 1) if found is None or depth > MAX_TYPE_DEPTH else self._layout(type_id, *found, depth)
        self._sizes[type_id] = result
        return result

    def _layout(self, type_id: int, opcode: int, operands: tuple[int, ...], depth: int) -> tuple[int, int]:
        pointer = _POINTER_SIZES.get(self.addressing, 0)
        if opcode in (OP_TYPE_INT, OP_TYPE_FLOAT):
            size = operands[0] // 8
            return size, max(size, 1)
        if opcode == OP_TYPE_BOOL:
            return 1, 1
        if opcode == OP_TYPE_POINTER or opcode == OP_TYPE_IMAGE or opcode in _OPAQUE_OBJECTS:
            return pointer, max(pointer, 1)
        if opcode == OP_TYPE_VECTOR:
            element, _ = self._size(operands[0], depth + 1)
            size = element * (4 if operands[1] == 3 else operands[1])  # a 3-vector takes a 4-vector's room
            return size, max(size, 1)
        if opcode == OP_TYPE_ARRAY:
            element, alignment = self._size(operands[0], depth + 1)
            return element * self.constants.get(operands[1], 0), alignment
        if opcode == OP_TYPE_STRUCT:
            packed = self.flags.get(type_id, 0) & _PACKED
            size, alignment = 0, 1
            for member in operands:
                member_size, member_alignment = self._size(member, depth + 1)
                member_alignment = 1 if packed else max(member_alignment, 1)
                size = -(-size // member_alignment) * member_alignment + member_size
                alignment = max(alignment, member_alignment)
            return -(-size // alignment) * alignment, alignment
        return 0, 1


def _text(words: array) -> str | None:
    """The literal string at the start of `words` (native-order words whose
    bytes, lowest-order first, are the string's), or None when no NUL ends it."""
    if sys.byteorder == "big":
        words.byteswap()
    data = words.tobytes()
    nul = data.find(b"\0")
    return None if nul < 0 else data[:nul].decode("utf-8", "replace")
