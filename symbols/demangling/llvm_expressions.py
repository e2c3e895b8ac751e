"""The nodes of demangled expressions (template arguments, decltype,
noexcept, array bounds) and how LLVM 19's ``ItaniumDemangle.h`` prints
them: as C++ (``decltype(fp + 1)``, ``(1 > 0)`` inside template arguments,
``0x1p+0f``), where libstdc++ prints ``{parm#1}`` and casts."""

from __future__ import annotations

import struct

from symbols.demangling.llvm_nodes import (
    ASSIGN,
    CAST,
    ORIF,
    PRIMARY,
    ClosureTypeName,
    Node,
    Output,
    ParameterPackExpansion,
    print_list,
)


class BinaryExpr(Node):
    __slots__ = ("lhs", "operator", "rhs_node")

    def __init__(self, lhs: Node, operator: str, rhs: Node, prec: int) -> None:
        super().__init__(prec)
        self.lhs, self.operator, self.rhs_node = lhs, operator, rhs

    def left(self, out: Output) -> None:
        paren_all = out.gt_is_gt == 0 and self.operator in (">", ">>")
        if paren_all:
            out.open()
        assign = self.prec == ASSIGN
        self.lhs.as_operand(out, ORIF if assign else self.prec, not assign)
        if self.operator != ",":
            out.add(" ")
        out.add(self.operator + " ")
        self.rhs_node.as_operand(out, self.prec, assign)
        if paren_all:
            out.close()


class ArraySubscriptExpr(Node):
    __slots__ = ("op1", "op2")

    def __init__(self, op1: Node, op2: Node, prec: int) -> None:
        super().__init__(prec)
        self.op1, self.op2 = op1, op2

    def left(self, out: Output) -> None:
        self.op1.as_operand(out, self.prec)
        out.open("[")
        self.op2.as_operand(out)
        out.close("]")


class PostfixExpr(Node):
    __slots__ = ("child", "operator")

    def __init__(self, child: Node, operator: str, prec: int) -> None:
        super().__init__(prec)
        self.child, self.operator = child, operator

    def left(self, out: Output) -> None:
        self.child.as_operand(out, self.prec, True)
        out.add(self.operator)


class ConditionalExpr(Node):
    __slots__ = ("cond", "then", "otherwise")

    def __init__(self, cond: Node, then: Node, otherwise: Node, prec: int) -> None:
        super().__init__(prec)
        self.cond, self.then, self.otherwise = cond, then, otherwise

    def left(self, out: Output) -> None:
        self.cond.as_operand(out, self.prec)
        out.add(" ? ")
        self.then.as_operand(out)
        out.add(" : ")
        self.otherwise.as_operand(out, ASSIGN, True)


class MemberExpr(Node):
    __slots__ = ("lhs", "kind", "rhs_node")

    def __init__(self, lhs: Node, kind: str, rhs: Node, prec: int) -> None:
        super().__init__(prec)
        self.lhs, self.kind, self.rhs_node = lhs, kind, rhs

    def left(self, out: Output) -> None:
        self.lhs.as_operand(out, self.prec, True)
        out.add(self.kind)
        self.rhs_node.as_operand(out, self.prec, False)


class SubobjectExpr(Node):
    __slots__ = ("type", "sub", "offset")

    def __init__(self, type_: Node, sub: Node, offset: str) -> None:
        super().__init__()
        self.type, self.sub, self.offset = type_, sub, offset

    def left(self, out: Output) -> None:
        self.sub.print(out)
        out.add(".<")
        self.type.print(out)
        offset = self.offset or "0"
        out.add(" at offset " + ("-" + offset[1:] if offset[0] == "n" else offset) + ">")


class EnclosingExpr(Node):
    __slots__ = ("prefix", "infix")

    def __init__(self, prefix: str, infix: Node, prec: int = PRIMARY) -> None:
        super().__init__(prec)
        self.prefix, self.infix = prefix, infix

    def left(self, out: Output) -> None:
        out.add(self.prefix)
        out.open()
        self.infix.print(out)
        out.close()


class CastExpr(Node):
    __slots__ = ("cast", "to", "source")

    def __init__(self, cast: str, to: Node, source: Node, prec: int) -> None:
        super().__init__(prec)
        self.cast, self.to, self.source = cast, to, source

    def left(self, out: Output) -> None:
        out.add(self.cast)
        saved, out.gt_is_gt = out.gt_is_gt, 0
        out.add("<")
        self.to.left(out)
        out.add(">")
        out.gt_is_gt = saved
        out.open()
        self.source.as_operand(out)
        out.close()


class SizeofParamPackExpr(Node):
    __slots__ = ("pack",)

    def __init__(self, pack: Node) -> None:
        super().__init__()
        self.pack = pack

    def left(self, out: Output) -> None:
        out.add("sizeof...")
        out.open()
        ParameterPackExpansion(self.pack).left(out)
        out.close()


class CallExpr(Node):
    __slots__ = ("callee", "args")

    def __init__(self, callee: Node, args: list[Node], prec: int) -> None:
        super().__init__(prec)
        self.callee, self.args = callee, args

    def left(self, out: Output) -> None:
        self.callee.print(out)
        out.open()
        print_list(self.args, out)
        out.close()


class NewExpr(Node):
    __slots__ = ("expressions", "type", "inits", "global_", "array_")

    def __init__(
        self, expressions: list[Node], type_: Node, inits: list[Node], global_: bool, array: bool, prec: int
    ) -> None:
        super().__init__(prec)
        self.expressions, self.type, self.inits, self.global_, self.array_ = expressions, type_, inits, global_, array

    def left(self, out: Output) -> None:
        out.add(("::" if self.global_ else "") + "new" + ("[]" if self.array_ else ""))
        if self.expressions:
            out.open()
            print_list(self.expressions, out)
            out.close()
        out.add(" ")
        self.type.print(out)
        if self.inits:
            out.open()
            print_list(self.inits, out)
            out.close()


class DeleteExpr(Node):
    __slots__ = ("operand", "global_", "array_")

    def __init__(self, operand: Node, global_: bool, array: bool, prec: int) -> None:
        super().__init__(prec)
        self.operand, self.global_, self.array_ = operand, global_, array

    def left(self, out: Output) -> None:
        out.add(("::" if self.global_ else "") + "delete" + ("[]" if self.array_ else "") + " ")
        self.operand.print(out)


class PrefixExpr(Node):
    __slots__ = ("prefix", "child")

    def __init__(self, prefix: str, child: Node, prec: int) -> None:
        super().__init__(prec)
        self.prefix, self.child = prefix, child

    def left(self, out: Output) -> None:
        out.add(self.prefix)
        self.child.as_operand(out, self.prec)


class ConversionExpr(Node):
    """ConversionExpr, ``(T)(e, ...)``, and PointerToMemberConversionExpr."""

    __slots__ = ("type", "expressions")

    def __init__(self, type_: Node, expressions: list[Node], prec: int) -> None:
        super().__init__(prec)
        self.type, self.expressions = type_, expressions

    def left(self, out: Output) -> None:
        out.open()
        self.type.print(out)
        out.close()
        out.open()
        print_list(self.expressions, out)
        out.close()


class InitListExpr(Node):
    __slots__ = ("type", "inits")

    def __init__(self, type_: Node | None, inits: list[Node]) -> None:
        super().__init__()
        self.type, self.inits = type_, inits

    def left(self, out: Output) -> None:
        if self.type is not None:
            self.type.print(out)
        out.add("{")
        print_list(self.inits, out)
        out.add("}")


class BracedExpr(Node):
    __slots__ = ("element", "init", "array_")

    def __init__(self, element: Node, init: Node, array: bool) -> None:
        super().__init__()
        self.element, self.init, self.array_ = element, init, array

    def left(self, out: Output) -> None:
        if self.array_:
            out.add("[")
            self.element.print(out)
            out.add("]")
        else:
            out.add(".")
            self.element.print(out)
        if not isinstance(self.init, (BracedExpr, BracedRangeExpr)):
            out.add(" = ")
        self.init.print(out)


class BracedRangeExpr(Node):
    __slots__ = ("first", "last", "init")

    def __init__(self, first: Node, last: Node, init: Node) -> None:
        super().__init__()
        self.first, self.last, self.init = first, last, init

    def left(self, out: Output) -> None:
        out.add("[")
        self.first.print(out)
        out.add(" ... ")
        self.last.print(out)
        out.add("]")
        if not isinstance(self.init, (BracedExpr, BracedRangeExpr)):
            out.add(" = ")
        self.init.print(out)


class FoldExpr(Node):
    __slots__ = ("left_fold", "operator", "pack", "init")

    def __init__(self, left_fold: bool, operator: str, pack: Node, init: Node | None) -> None:
        super().__init__()
        self.left_fold, self.operator, self.pack, self.init = left_fold, operator, pack, init

    def _pack(self, out: Output) -> None:
        out.open()
        ParameterPackExpansion(self.pack).print(out)
        out.close()

    def left(self, out: Output) -> None:
        out.open()
        if not self.left_fold or self.init is not None:
            if self.left_fold:
                self.init.as_operand(out, CAST, True)
            else:
                self._pack(out)
            out.add(f" {self.operator} ")
        out.add("...")
        if self.left_fold or self.init is not None:
            out.add(f" {self.operator} ")
            if self.left_fold:
                self._pack(out)
            else:
                self.init.as_operand(out, CAST, True)
        out.close()


class BoolExpr(Node):
    __slots__ = ("value",)

    def __init__(self, value: bool) -> None:
        super().__init__()
        self.value = value

    def left(self, out: Output) -> None:
        out.add("true" if self.value else "false")


class StringLiteral(Node):
    __slots__ = ("type",)

    def __init__(self, type_: Node) -> None:
        super().__init__()
        self.type = type_

    def left(self, out: Output) -> None:
        out.add('"<')
        self.type.print(out)
        out.add('>"')


class LambdaExpr(Node):
    __slots__ = ("type",)

    def __init__(self, type_: Node) -> None:
        super().__init__()
        self.type = type_

    def left(self, out: Output) -> None:
        out.add("[]")
        if isinstance(self.type, ClosureTypeName):
            self.type.declarator(out)
        out.add("{...}")


class EnumLiteral(Node):
    __slots__ = ("type", "integer")

    def __init__(self, type_: Node, integer: str) -> None:
        super().__init__()
        self.type, self.integer = type_, integer

    def left(self, out: Output) -> None:
        out.open()
        self.type.print(out)
        out.close()
        out.add("-" + self.integer[1:] if self.integer[0] == "n" else self.integer)


class RequiresExpr(Node):
    __slots__ = ("params", "requirements")

    def __init__(self, params: list[Node], requirements: list[Node]) -> None:
        super().__init__()
        self.params, self.requirements = params, requirements

    def left(self, out: Output) -> None:
        out.add("requires")
        if self.params:
            out.add(" ")
            out.open()
            print_list(self.params, out)
            out.close()
        out.add(" ")
        out.open("{")
        for requirement in self.requirements:
            requirement.print(out)
        out.add(" ")
        out.close("}")


class ExprRequirement(Node):
    __slots__ = ("expression", "noexcept", "constraint")

    def __init__(self, expression: Node, noexcept: bool, constraint: Node | None) -> None:
        super().__init__()
        self.expression, self.noexcept, self.constraint = expression, noexcept, constraint

    def left(self, out: Output) -> None:
        out.add(" ")
        braced = self.noexcept or self.constraint is not None
        if braced:
            out.open("{")
        self.expression.print(out)
        if braced:
            out.close("}")
        if self.noexcept:
            out.add(" noexcept")
        if self.constraint is not None:
            out.add(" -> ")
            self.constraint.print(out)
        out.add(";")


class IntegerLiteral(Node):
    __slots__ = ("type", "value")

    def __init__(self, type_: str, value: str) -> None:
        super().__init__()
        self.type, self.value = type_, value

    def left(self, out: Output) -> None:
        if len(self.type) > 3:
            out.open()
            out.add(self.type)
            out.close()
        out.add("-" + self.value[1:] if self.value[0] == "n" else self.value)
        if len(self.type) <= 3:
            out.add(self.type)


#: Hex digits of a float (f), double (d) and x86 long double (e) literal.
FLOAT_DIGITS = {"f": 8, "d": 16, "e": 20}


class FloatLiteral(Node):
    """A floating-point literal, its bytes in hex as mangled, printed as
    glibc's ``%a`` prints it (``0x1.8p+1``; ``0x1p+0f`` for a float,
    ``0x8p-3L`` for a long double)."""

    __slots__ = ("contents", "kind")

    def __init__(self, contents: str, kind: str) -> None:
        super().__init__()
        self.contents, self.kind = contents, kind

    def left(self, out: Output) -> None:
        raw = bytes.fromhex(self.contents)
        if self.kind == "e":
            out.add(c_hex_long_double(raw) + "L")
        else:
            value = struct.unpack(">f" if self.kind == "f" else ">d", raw)[0]
            out.add(c_hex_float(value) + ("f" if self.kind == "f" else ""))


def c_hex_long_double(raw: bytes) -> str:
    """An x87 80-bit long double (sign and exponent, then the 64-bit
    significand with its integer bit, big-endian) as glibc's ``%La`` writes
    it: the first hex digit is the significand's top four bits."""
    head, significand = int.from_bytes(raw[:2], "big"), int.from_bytes(raw[2:], "big")
    sign, exponent = "-" if head & 0x8000 else "", head & 0x7FFF
    if exponent == 0x7FFF:
        return sign + ("inf" if significand & ((1 << 63) - 1) == 0 else "nan")
    if exponent == 0 and significand == 0:
        return f"{sign}0x0p+0"
    fraction = f"{significand & ((1 << 60) - 1):015x}".rstrip("0")
    power = max(exponent, 1) - 16383 - 3
    return f"{sign}0x{significand >> 60:x}{'.' + fraction if fraction else ''}p{power:+d}"


def c_hex_float(value: float) -> str:
    """`value` as glibc's printf ``%a`` writes a double."""
    if value != value:
        return "-nan" if struct.pack(">d", value)[0] & 0x80 else "nan"
    if value in (float("inf"), float("-inf")):
        return "-inf" if value < 0 else "inf"
    text = value.hex()  # [-]0x1.8000000000000p+1
    sign, text = ("-", text[1:]) if text.startswith("-") else ("", text)
    mantissa, exponent = text[2:].split("p")
    whole, _, fraction = mantissa.partition(".")
    fraction = fraction.rstrip("0")
    return f"{sign}0x{whole}{'.' + fraction if fraction else ''}p{exponent}"
