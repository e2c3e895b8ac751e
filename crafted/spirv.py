"""SPIR-V modules written word by word, as the specification lays them out
(a five-word header, then instructions of word count << 16 | opcode), for
the tests and the fuzzer's seeds and regressions: any byte order, ids out
of range, word counts of 0, strings without their NUL.  Operands are ints
(literals, enumerants), ``%name`` strings (ids, numbered in order of first
use) or other strings (literal strings).
"""

from __future__ import annotations

import struct

from symbols.spirv import MAGIC

# The opcodes and enumerants the modules below use.
OP_NAME, OP_MEMORY_MODEL, OP_ENTRY_POINT, OP_CAPABILITY = 5, 14, 15, 17
OP_TYPE_VOID, OP_TYPE_INT, OP_TYPE_FLOAT, OP_TYPE_VECTOR = 19, 21, 22, 23
OP_TYPE_ARRAY, OP_TYPE_STRUCT, OP_TYPE_POINTER, OP_TYPE_FUNCTION = 28, 30, 32, 33
OP_CONSTANT, OP_FUNCTION, OP_FUNCTION_PARAMETER, OP_FUNCTION_END = 43, 54, 55, 56
OP_FUNCTION_CALL, OP_DECORATE, OP_DECORATION_GROUP, OP_GROUP_DECORATE = 57, 71, 73, 74
OP_RETURN, OP_LABEL = 253, 248
KERNEL, GL_COMPUTE = 6, 5
CROSS_WORKGROUP, WORKGROUP, FUNCTION = 5, 4, 7
PHYSICAL64, OPENCL = 2, 2
CAPABILITY_ADDRESSES, CAPABILITY_LINKAGE, CAPABILITY_KERNEL, CAPABILITY_INT64 = 4, 5, 6, 11
FUNC_PARAM_ATTR, BYVAL, LINKAGE_ATTRIBUTES, EXPORT = 38, 2, 41, 0


def string_words(text: str) -> list[int]:
    """A literal string: UTF-8, NUL-terminated, padded to whole words, each
    word's lowest-order byte first."""
    data = text.encode() + b"\0"
    data += bytes(-len(data) % 4)
    return list(struct.unpack(f"<{len(data) // 4}I", data))


class Assembler:
    """Instructions in order; `ids` numbers each ``%name`` from 1."""

    def __init__(self) -> None:
        self.ids: dict[str, int] = {}
        self.instructions: list[list[int]] = []

    def id(self, name: str) -> int:
        return self.ids.setdefault(name, len(self.ids) + 1)

    def __call__(self, opcode: int, *operands: int | str) -> Assembler:
        words: list[int] = []
        for operand in operands:
            if isinstance(operand, int):
                words.append(operand)
            elif operand.startswith("%"):
                words.append(self.id(operand[1:]))
            else:
                words += string_words(operand)
        self.instructions.append([(len(words) + 1) << 16 | opcode, *words])
        return self

    def module(self, *, little: bool = True, bound: int | None = None, version: tuple[int, int] = (1, 1)) -> bytes:
        """The module, in little- or big-endian words; `bound` by default
        one past the highest id used."""
        bound = len(self.ids) + 1 if bound is None else bound
        words = [MAGIC, version[0] << 16 | version[1] << 8, 0, bound, 0]
        words += [word for instruction in self.instructions for word in instruction]
        return struct.pack(f"{'<' if little else '>'}{len(words)}I", *words)


def kernels(*, wrapper: bool = False) -> Assembler:
    """A module of an OpenCL-style HIP program: kernels ``axpy(float*, int,
    float)`` (C++, its parameters named) and ``extern "C" plain(Params,
    __local float*)`` (a struct passed ByVal, a Workgroup pointer), a
    GLCompute entry point and a plain function, which are no kernels.  With
    `wrapper`, axpy's entry point is a wrapper calling the named function,
    as newer SPIR-V translators write kernels."""
    a = Assembler()
    for capability in (CAPABILITY_ADDRESSES, CAPABILITY_LINKAGE, CAPABILITY_KERNEL, CAPABILITY_INT64):
        a(OP_CAPABILITY, capability)
    a(OP_MEMORY_MODEL, PHYSICAL64, OPENCL)
    a(OP_ENTRY_POINT, KERNEL, "%axpy_entry" if wrapper else "%axpy", "_Z4axpyPfif")
    a(OP_ENTRY_POINT, KERNEL, "%plain", "plain")
    a(OP_ENTRY_POINT, GL_COMPUTE, "%compute", "compute_main")
    for target, name in (
        ("%axpy", "_Z4axpyPfif"),
        ("%out", "out"),
        ("%n", "n"),
        ("%a", "a"),
        ("%plain", "plain"),
        ("%params", "p"),
        ("%tile", "tile"),
        ("%Params", "struct.Params"),
        ("%helper", "_Z6helperv"),
    ):
        a(OP_NAME, target, name)
    a(OP_DECORATE, "%params", FUNC_PARAM_ATTR, BYVAL)
    if wrapper:
        a(OP_DECORATE, "%axpy", LINKAGE_ATTRIBUTES, "_Z4axpyPfif", EXPORT)
    a(OP_TYPE_VOID, "%void")
    a(OP_TYPE_FLOAT, "%float", 32)
    a(OP_TYPE_FLOAT, "%double", 64)
    a(OP_TYPE_INT, "%int", 32, 0)
    a(OP_TYPE_VECTOR, "%float4", "%float", 4)
    a(OP_TYPE_STRUCT, "%Params", "%float", "%int", "%double", "%float4")
    a(OP_TYPE_POINTER, "%global_float", CROSS_WORKGROUP, "%float")
    a(OP_TYPE_POINTER, "%local_float", WORKGROUP, "%float")
    a(OP_TYPE_POINTER, "%private_Params", FUNCTION, "%Params")
    a(OP_TYPE_FUNCTION, "%axpy_type", "%void", "%global_float", "%int", "%float")
    a(OP_TYPE_FUNCTION, "%plain_type", "%void", "%private_Params", "%local_float")
    a(OP_TYPE_FUNCTION, "%void_type", "%void")
    axpy_params = [("%out", "%global_float"), ("%n", "%int"), ("%a", "%float")]
    function(a, "%axpy", "%axpy_type", axpy_params)
    if wrapper:
        wrapped = [(f"%w_{param[1:]}", param_type) for param, param_type in axpy_params]
        call = [OP_FUNCTION_CALL, "%void", "%call", "%axpy", *(param for param, _ in wrapped)]
        function(a, "%axpy_entry", "%axpy_type", wrapped, call)
    function(a, "%plain", "%plain_type", [("%params", "%private_Params"), ("%tile", "%local_float")])
    function(a, "%compute", "%void_type", [])
    function(a, "%helper", "%void_type", [])
    return a


def function(
    a: Assembler, name: str, function_type: str, params: list[tuple[str, str]], *body: list[int | str]
) -> None:
    """A function of type `function_type` with `params` (id, type): `body`'s
    instructions, then a return."""
    a(OP_FUNCTION, "%void", name, 0, function_type)
    for param, param_type in params:
        a(OP_FUNCTION_PARAMETER, param_type, param)
    a(OP_LABEL, f"{name}_body")
    for instruction in body:
        a(*instruction)
    a(OP_RETURN)
    a(OP_FUNCTION_END)


def two_kernels(*, little: bool = True, wrapper: bool = False) -> bytes:
    return kernels(wrapper=wrapper).module(little=little)
