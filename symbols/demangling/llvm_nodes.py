"""The nodes of a demangled name and how LLVM prints them.

A port of the printing half of LLVM 19's ``ItaniumDemangle.h`` (what
``llvm-cxxfilt`` and libc++abi print), node for node, so that the text is
the same to the character: ``>>`` without a space, ``'lambda'(int)``,
``'unnamed'``, ``std::nullptr_t``, clone suffixes as `` (.cold.1)``;
the expressions' nodes are in `symbols.demangling.llvm_expressions`.
`symbols.demangling.llvm_demangle` builds the nodes.

Printing is bounded: `Output` stops (`TooLong`) once the text or the work
of printing passes a limit, as a name of a few hundred characters can
print gigabytes (each substitution prints its referent again).
"""

from __future__ import annotations

# Precedences, from Node::Prec.
(
    PRIMARY,
    POSTFIX,
    UNARY,
    CAST,
    PTRMEM,
    MULTIPLICATIVE,
    ADDITIVE,
    SHIFT,
    SPACESHIP,
    RELATIONAL,
    EQUALITY,
    AND,
    XOR,
    IOR,
    ANDIF,
    ORIF,
    CONDITIONAL,
    ASSIGN,
    COMMA,
    DEFAULT,
) = range(20)
# Node::Cache.
YES, NO, UNKNOWN = range(3)
# Qualifiers and reference qualifiers.
CONST, VOLATILE, RESTRICT = 1, 2, 4
LVALUE, RVALUE = 1, 2
_NO_PACK = -1  # std::numeric_limits<unsigned>::max()


class TooLong(Exception):
    """The printed name would pass the limit."""


class Output:
    """LLVM's OutputBuffer: the text so far, in pieces, and the printing state."""

    __slots__ = ("pieces", "size", "limit", "work", "gt_is_gt", "pack_index", "pack_max")

    def __init__(self, limit: int) -> None:
        self.pieces: list[str] = []
        self.size, self.limit, self.work = 0, limit, 4 * limit
        self.gt_is_gt, self.pack_index, self.pack_max = 1, _NO_PACK, _NO_PACK

    def add(self, text: str) -> None:
        self.size += len(text)
        if self.size > self.limit:
            raise TooLong
        self.pieces.append(text)

    def open(self, bracket: str = "(") -> None:
        self.gt_is_gt += 1
        self.add(bracket)

    def close(self, bracket: str = ")") -> None:
        self.gt_is_gt -= 1
        self.add(bracket)

    def truncate(self, position: int) -> None:
        """setCurrentPosition: forget what was printed after `position`."""
        while self.size > position:
            last = self.pieces.pop()
            self.size -= len(last)
            if self.size < position:
                self.pieces.append(last[: position - self.size])
                self.size = position

    def back(self) -> str:
        for piece in reversed(self.pieces):
            if piece:
                return piece[-1]
        return ""

    def text(self) -> str:
        return "".join(self.pieces)


class Node:
    """A node: its precedence and whether it prints a right part, holds an
    array or a function type (YES, NO or UNKNOWN: ask the node)."""

    __slots__ = ("prec", "rhs", "array", "function")

    def __init__(self, prec: int = PRIMARY, rhs: int = NO, array: int = NO, function: int = NO) -> None:
        self.prec, self.rhs, self.array, self.function = prec, rhs, array, function

    def has_rhs(self, out: Output) -> bool:
        return self.rhs == YES if self.rhs != UNKNOWN else self.has_rhs_slow(out)

    def has_array(self, out: Output) -> bool:
        return self.array == YES if self.array != UNKNOWN else self.has_array_slow(out)

    def has_function(self, out: Output) -> bool:
        return self.function == YES if self.function != UNKNOWN else self.has_function_slow(out)

    def has_rhs_slow(self, out: Output) -> bool:
        return False

    def has_array_slow(self, out: Output) -> bool:
        return False

    def has_function_slow(self, out: Output) -> bool:
        return False

    def syntax_node(self, out: Output) -> Node:
        return self

    def as_operand(self, out: Output, prec: int = DEFAULT, strictly_worse: bool = False) -> None:
        if self.prec >= prec + strictly_worse:
            out.open()
            self.print(out)
            out.close()
        else:
            self.print(out)

    def print(self, out: Output) -> None:
        out.work -= 1
        if out.work < 0:
            raise TooLong
        self.left(out)
        if self.rhs != NO:
            self.right(out)

    def left(self, out: Output) -> None:
        raise NotImplementedError

    def right(self, out: Output) -> None:
        pass

    def base_name(self) -> str:
        return ""


def print_list(nodes: list[Node], out: Output) -> None:
    """NodeArray::printWithComma: an empty pack expansion takes its comma away."""
    first = True
    for node in nodes:
        before = out.size
        if not first:
            out.add(", ")
        after = out.size
        node.as_operand(out, COMMA)
        if out.size == after:
            out.truncate(before)
            continue
        first = False


def _print_quals(quals: int, out: Output) -> None:
    if quals & CONST:
        out.add(" const")
    if quals & VOLATILE:
        out.add(" volatile")
    if quals & RESTRICT:
        out.add(" restrict")


def _print_ref_qual(ref: int, out: Output) -> None:
    if ref == LVALUE:
        out.add(" &")
    elif ref == RVALUE:
        out.add(" &&")


class NodeArrayNode(Node):
    __slots__ = ("nodes",)

    def __init__(self, nodes: list[Node]) -> None:
        super().__init__()
        self.nodes = nodes

    def left(self, out: Output) -> None:
        print_list(self.nodes, out)


class DotSuffix(Node):
    __slots__ = ("prefix", "suffix")

    def __init__(self, prefix: Node, suffix: str) -> None:
        super().__init__()
        self.prefix, self.suffix = prefix, suffix

    def left(self, out: Output) -> None:
        self.prefix.print(out)
        out.add(f" ({self.suffix})")


class VendorExtQualType(Node):
    __slots__ = ("type", "ext", "args")

    def __init__(self, type_: Node, ext: str, args: Node | None) -> None:
        super().__init__()
        self.type, self.ext, self.args = type_, ext, args

    def left(self, out: Output) -> None:
        self.type.print(out)
        out.add(" " + self.ext)
        if self.args is not None:
            self.args.print(out)


class QualType(Node):
    __slots__ = ("quals", "child")

    def __init__(self, child: Node, quals: int) -> None:
        super().__init__(PRIMARY, child.rhs, child.array, child.function)
        self.quals, self.child = quals, child

    def has_rhs_slow(self, out: Output) -> bool:
        return self.child.has_rhs(out)

    def has_array_slow(self, out: Output) -> bool:
        return self.child.has_array(out)

    def has_function_slow(self, out: Output) -> bool:
        return self.child.has_function(out)

    def left(self, out: Output) -> None:
        self.child.left(out)
        _print_quals(self.quals, out)

    def right(self, out: Output) -> None:
        self.child.right(out)


class ConversionOperatorType(Node):
    __slots__ = ("type",)

    def __init__(self, type_: Node) -> None:
        super().__init__()
        self.type = type_

    def left(self, out: Output) -> None:
        out.add("operator ")
        self.type.print(out)


class PostfixQualifiedType(Node):
    __slots__ = ("type", "postfix")

    def __init__(self, type_: Node, postfix: str) -> None:
        super().__init__()
        self.type, self.postfix = type_, postfix

    def left(self, out: Output) -> None:
        self.type.left(out)
        out.add(self.postfix)


class NameType(Node):
    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name

    def base_name(self) -> str:
        return self.name

    def print(self, out: Output) -> None:  # the commonest node, printed without the generic steps
        out.add(self.name)

    def left(self, out: Output) -> None:
        out.add(self.name)


class UnnamedTypeName(Node):
    __slots__ = ("count",)

    def __init__(self, count: str) -> None:
        super().__init__()
        self.count = count

    def left(self, out: Output) -> None:
        out.add(f"'unnamed{self.count}'")


class BitIntType(Node):
    __slots__ = ("size", "signed")

    def __init__(self, size: Node, signed: bool) -> None:
        super().__init__()
        self.size, self.signed = size, signed

    def left(self, out: Output) -> None:
        out.add("_BitInt" if self.signed else "unsigned _BitInt")
        out.open()
        self.size.as_operand(out)
        out.close()


class Wrapped(Node):
    """ElaboratedTypeSpefType (``struct X``), SpecialName (``vtable for X``),
    TypeRequirement (`` typename T;``) and the others that print a node
    whole between two strings."""

    __slots__ = ("prefix", "child", "suffix")

    def __init__(self, prefix: str, child: Node, suffix: str = "") -> None:
        super().__init__()
        self.prefix, self.child, self.suffix = prefix, child, suffix

    def left(self, out: Output) -> None:
        out.add(self.prefix)
        self.child.print(out)
        if self.suffix:
            out.add(self.suffix)


class TransformedType(Node):
    __slots__ = ("transform", "base")

    def __init__(self, transform: str, base: Node) -> None:
        super().__init__()
        self.transform, self.base = transform, base

    def left(self, out: Output) -> None:
        out.add(self.transform + "(")
        self.base.print(out)
        out.add(")")


class AbiTagAttr(Node):
    __slots__ = ("base", "tag")

    def __init__(self, base: Node, tag: str) -> None:
        super().__init__(PRIMARY, base.rhs, base.array, base.function)
        self.base, self.tag = base, tag

    def base_name(self) -> str:
        return self.base.base_name()

    def left(self, out: Output) -> None:
        self.base.left(out)
        out.add(f"[abi:{self.tag}]")


class EnableIfAttr(Node):
    __slots__ = ("conditions",)

    def __init__(self, conditions: list[Node]) -> None:
        super().__init__()
        self.conditions = conditions

    def left(self, out: Output) -> None:
        out.add(" [enable_if:")
        print_list(self.conditions, out)
        out.add("]")


class ObjCProtoName(Node):
    __slots__ = ("type", "protocol")

    def __init__(self, type_: Node, protocol: str) -> None:
        super().__init__()
        self.type, self.protocol = type_, protocol

    def is_objc_object(self) -> bool:
        return isinstance(self.type, NameType) and self.type.name == "objc_object"

    def left(self, out: Output) -> None:
        self.type.print(out)
        out.add(f"<{self.protocol}>")


class PointerType(Node):
    __slots__ = ("pointee",)

    def __init__(self, pointee: Node) -> None:
        super().__init__(PRIMARY, pointee.rhs)
        self.pointee = pointee

    def has_rhs_slow(self, out: Output) -> bool:
        return self.pointee.has_rhs(out)

    def _objc(self) -> bool:
        return isinstance(self.pointee, ObjCProtoName) and self.pointee.is_objc_object()

    def left(self, out: Output) -> None:
        if self._objc():
            out.add(f"id<{self.pointee.protocol}>")
            return
        pointee = self.pointee
        pointee.left(out)
        if pointee.has_array(out):
            out.add(" ")
        if pointee.has_array(out) or pointee.has_function(out):
            out.add("(")
        out.add("*")

    def right(self, out: Output) -> None:
        if not self._objc():
            if self.pointee.has_array(out) or self.pointee.has_function(out):
                out.add(")")
            self.pointee.right(out)


class ReferenceType(Node):
    __slots__ = ("pointee", "kind", "printing")

    def __init__(self, pointee: Node, kind: int) -> None:
        super().__init__(PRIMARY, pointee.rhs)
        self.pointee, self.kind, self.printing = pointee, kind, False

    def has_rhs_slow(self, out: Output) -> bool:
        return self.pointee.has_rhs(out)

    def _collapse(self, out: Output) -> tuple[int, Node | None]:
        """References to references collapse (T& && is T&); a cycle prints nothing."""
        kind, node = self.kind, self.pointee
        seen: list[Node] = []
        while True:
            syntax = node.syntax_node(out)
            if not isinstance(syntax, ReferenceType):
                return kind, node
            node, kind = syntax.pointee, min(kind, syntax.kind)
            seen.append(node)
            if len(seen) > 1 and node is seen[(len(seen) - 1) // 2]:
                return kind, None

    def left(self, out: Output) -> None:
        if self.printing:
            return
        self.printing = True
        try:
            kind, node = self._collapse(out)
            if node is None:
                return
            node.left(out)
            if node.has_array(out):
                out.add(" ")
            if node.has_array(out) or node.has_function(out):
                out.add("(")
            out.add("&" if kind == LVALUE else "&&")
        finally:
            self.printing = False

    def right(self, out: Output) -> None:
        if self.printing:
            return
        self.printing = True
        try:
            kind, node = self._collapse(out)
            if node is None:
                return
            if node.has_array(out) or node.has_function(out):
                out.add(")")
            node.right(out)
        finally:
            self.printing = False


class PointerToMemberType(Node):
    __slots__ = ("class_type", "member_type")

    def __init__(self, class_type: Node, member_type: Node) -> None:
        super().__init__(PRIMARY, member_type.rhs)
        self.class_type, self.member_type = class_type, member_type

    def has_rhs_slow(self, out: Output) -> bool:
        return self.member_type.has_rhs(out)

    def left(self, out: Output) -> None:
        member = self.member_type
        member.left(out)
        out.add("(" if member.has_array(out) or member.has_function(out) else " ")
        self.class_type.print(out)
        out.add("::*")

    def right(self, out: Output) -> None:
        if self.member_type.has_array(out) or self.member_type.has_function(out):
            out.add(")")
        self.member_type.right(out)


class ArrayType(Node):
    __slots__ = ("base", "dimension")

    def __init__(self, base: Node, dimension: Node | None) -> None:
        super().__init__(PRIMARY, YES, YES)
        self.base, self.dimension = base, dimension

    def has_rhs_slow(self, out: Output) -> bool:
        return True

    def has_array_slow(self, out: Output) -> bool:
        return True

    def left(self, out: Output) -> None:
        self.base.left(out)

    def right(self, out: Output) -> None:
        if out.back() != "]":
            out.add(" ")
        out.add("[")
        if self.dimension is not None:
            self.dimension.print(out)
        out.add("]")
        self.base.right(out)


class FunctionType(Node):
    __slots__ = ("ret", "params", "quals", "ref", "exception")

    def __init__(self, ret: Node, params: list[Node], quals: int, ref: int, exception: Node | None) -> None:
        super().__init__(PRIMARY, YES, NO, YES)
        self.ret, self.params, self.quals, self.ref, self.exception = ret, params, quals, ref, exception

    def has_rhs_slow(self, out: Output) -> bool:
        return True

    def has_function_slow(self, out: Output) -> bool:
        return True

    def left(self, out: Output) -> None:
        self.ret.left(out)
        out.add(" ")

    def right(self, out: Output) -> None:
        out.open()
        print_list(self.params, out)
        out.close()
        self.ret.right(out)
        _print_quals(self.quals, out)
        _print_ref_qual(self.ref, out)
        if self.exception is not None:
            out.add(" ")
            self.exception.print(out)


class NoexceptSpec(Node):
    __slots__ = ("expression",)

    def __init__(self, expression: Node) -> None:
        super().__init__()
        self.expression = expression

    def left(self, out: Output) -> None:
        out.add("noexcept")
        out.open()
        self.expression.as_operand(out)
        out.close()


class DynamicExceptionSpec(Node):
    __slots__ = ("types",)

    def __init__(self, types: list[Node]) -> None:
        super().__init__()
        self.types = types

    def left(self, out: Output) -> None:
        out.add("throw")
        out.open()
        print_list(self.types, out)
        out.close()


class FunctionEncoding(Node):
    __slots__ = ("ret", "name", "params", "attrs", "requires", "quals", "ref")

    def __init__(
        self,
        ret: Node | None,
        name: Node,
        params: list[Node],
        attrs: Node | None,
        requires: Node | None,
        quals: int,
        ref: int,
    ) -> None:
        super().__init__(PRIMARY, YES, NO, YES)
        self.ret, self.name, self.params, self.attrs = ret, name, params, attrs
        self.requires, self.quals, self.ref = requires, quals, ref

    def has_rhs_slow(self, out: Output) -> bool:
        return True

    def has_function_slow(self, out: Output) -> bool:
        return True

    def left(self, out: Output) -> None:
        if self.ret is not None:
            self.ret.left(out)
            if not self.ret.has_rhs(out):
                out.add(" ")
        self.name.print(out)

    def right(self, out: Output) -> None:
        out.open()
        print_list(self.params, out)
        out.close()
        if self.ret is not None:
            self.ret.right(out)
        _print_quals(self.quals, out)
        _print_ref_qual(self.ref, out)
        if self.attrs is not None:
            self.attrs.print(out)
        if self.requires is not None:
            out.add(" requires ")
            self.requires.print(out)


class CtorVtableSpecialName(Node):
    __slots__ = ("first", "second")

    def __init__(self, first: Node, second: Node) -> None:
        super().__init__()
        self.first, self.second = first, second

    def left(self, out: Output) -> None:
        out.add("construction vtable for ")
        self.first.print(out)
        out.add("-in-")
        self.second.print(out)


class Joined(Node):
    """NestedName (``a::b``), LocalName, QualifiedName, MemberLikeFriendName
    (``a::friend b``), ModuleEntity (``b@a``): two nodes and what joins them."""

    __slots__ = ("qual", "joint", "name")

    def __init__(self, qual: Node, joint: str, name: Node) -> None:
        super().__init__()
        self.qual, self.joint, self.name = qual, joint, name

    def base_name(self) -> str:
        return self.name.base_name()

    def left(self, out: Output) -> None:
        self.qual.print(out)
        out.add(self.joint)
        self.name.print(out)


class ModuleEntity(Joined):
    __slots__ = ()

    def left(self, out: Output) -> None:
        self.name.print(out)
        out.add("@")
        self.qual.print(out)


class LocalName(Joined):
    __slots__ = ()

    def base_name(self) -> str:
        return ""


class ModuleName(Node):
    __slots__ = ("parent", "name", "partition")

    def __init__(self, parent: ModuleName | None, name: Node, partition: bool) -> None:
        super().__init__()
        self.parent, self.name, self.partition = parent, name, partition

    def left(self, out: Output) -> None:
        if self.parent is not None:
            self.parent.print(out)
        if self.parent is not None or self.partition:
            out.add(":" if self.partition else ".")
        self.name.print(out)


class VectorType(Node):
    __slots__ = ("base", "dimension")

    def __init__(self, base: Node | None, dimension: Node | None) -> None:
        super().__init__()
        self.base, self.dimension = base, dimension

    def left(self, out: Output) -> None:
        if self.base is None:  # PixelVectorType
            out.add("pixel vector[")
        else:
            self.base.print(out)
            out.add(" vector[")
        if self.dimension is not None:
            self.dimension.print(out)
        out.add("]")


class SyntheticTemplateParamName(Node):
    __slots__ = ("kind", "index")

    def __init__(self, kind: str, index: int) -> None:
        super().__init__()
        self.kind, self.index = kind, index  # kind: $T, $N, $TT

    def left(self, out: Output) -> None:
        out.add(self.kind + (str(self.index - 1) if self.index > 0 else ""))


class TemplateParamQualifiedArg(Node):
    __slots__ = ("param", "arg")

    def __init__(self, param: Node, arg: Node) -> None:
        super().__init__()
        self.param, self.arg = param, arg

    def left(self, out: Output) -> None:
        self.arg.print(out)


class TemplateParamDecl(Node):
    """TypeTemplateParamDecl (``typename $T``) and
    ConstrainedTypeTemplateParamDecl (``C $T``): a prefix, then the name."""

    __slots__ = ("constraint", "name")

    def __init__(self, constraint: Node | None, name: Node) -> None:
        super().__init__(PRIMARY, YES)
        self.constraint, self.name = constraint, name

    def left(self, out: Output) -> None:
        if self.constraint is None:
            out.add("typename ")
        else:
            self.constraint.print(out)
            out.add(" ")

    def right(self, out: Output) -> None:
        self.name.print(out)


class NonTypeTemplateParamDecl(Node):
    __slots__ = ("name", "type")

    def __init__(self, name: Node, type_: Node) -> None:
        super().__init__(PRIMARY, YES)
        self.name, self.type = name, type_

    def left(self, out: Output) -> None:
        self.type.left(out)
        if not self.type.has_rhs(out):
            out.add(" ")

    def right(self, out: Output) -> None:
        self.name.print(out)
        self.type.right(out)


class TemplateTemplateParamDecl(Node):
    __slots__ = ("name", "params", "requires")

    def __init__(self, name: Node, params: list[Node], requires: Node | None) -> None:
        super().__init__(PRIMARY, YES)
        self.name, self.params, self.requires = name, params, requires

    def left(self, out: Output) -> None:
        saved, out.gt_is_gt = out.gt_is_gt, 0
        out.add("template<")
        print_list(self.params, out)
        out.add("> typename ")
        out.gt_is_gt = saved

    def right(self, out: Output) -> None:
        self.name.print(out)
        if self.requires is not None:
            out.add(" requires ")
            self.requires.print(out)


class TemplateParamPackDecl(Node):
    __slots__ = ("param",)

    def __init__(self, param: Node) -> None:
        super().__init__(PRIMARY, YES)
        self.param = param

    def left(self, out: Output) -> None:
        self.param.left(out)
        out.add("...")

    def right(self, out: Output) -> None:
        self.param.right(out)


class ParameterPack(Node):
    """A template argument pack where a template parameter refers to it:
    prints the element of the pack expansion being printed."""

    __slots__ = ("data",)

    def __init__(self, data: list[Node]) -> None:
        super().__init__(PRIMARY, UNKNOWN, UNKNOWN, UNKNOWN)
        self.data = data
        if all(node.array == NO for node in data):
            self.array = NO
        if all(node.function == NO for node in data):
            self.function = NO
        if all(node.rhs == NO for node in data):
            self.rhs = NO

    def _element(self, out: Output) -> Node | None:
        if out.pack_max == _NO_PACK:
            out.pack_max, out.pack_index = len(self.data), 0
        return self.data[out.pack_index] if out.pack_index < len(self.data) else None

    def has_rhs_slow(self, out: Output) -> bool:
        element = self._element(out)
        return element is not None and element.has_rhs(out)

    def has_array_slow(self, out: Output) -> bool:
        element = self._element(out)
        return element is not None and element.has_array(out)

    def has_function_slow(self, out: Output) -> bool:
        element = self._element(out)
        return element is not None and element.has_function(out)

    def syntax_node(self, out: Output) -> Node:
        element = self._element(out)
        return element.syntax_node(out) if element is not None else self

    def left(self, out: Output) -> None:
        element = self._element(out)
        if element is not None:
            element.left(out)

    def right(self, out: Output) -> None:
        element = self._element(out)
        if element is not None:
            element.right(out)


class TemplateArgumentPack(Node):
    __slots__ = ("elements",)

    def __init__(self, elements: list[Node]) -> None:
        super().__init__()
        self.elements = elements

    def left(self, out: Output) -> None:
        print_list(self.elements, out)


class ParameterPackExpansion(Node):
    __slots__ = ("child",)

    def __init__(self, child: Node) -> None:
        super().__init__()
        self.child = child

    def left(self, out: Output) -> None:
        saved = out.pack_index, out.pack_max
        out.pack_index = out.pack_max = _NO_PACK
        try:
            start = out.size
            self.child.print(out)
            if out.pack_max == _NO_PACK:
                out.add("...")
            elif out.pack_max == 0:
                out.truncate(start)
            else:
                for index in range(1, out.pack_max):
                    out.add(", ")
                    out.pack_index = index
                    self.child.print(out)
        finally:
            out.pack_index, out.pack_max = saved


class TemplateArgs(Node):
    __slots__ = ("params", "requires")

    def __init__(self, params: list[Node], requires: Node | None) -> None:
        super().__init__()
        self.params, self.requires = params, requires

    def left(self, out: Output) -> None:
        saved, out.gt_is_gt = out.gt_is_gt, 0
        out.add("<")
        print_list(self.params, out)
        out.add(">")
        out.gt_is_gt = saved


class ForwardTemplateReference(Node):
    __slots__ = ("index", "ref", "printing")

    def __init__(self, index: int) -> None:
        super().__init__(PRIMARY, UNKNOWN, UNKNOWN, UNKNOWN)
        self.index, self.ref, self.printing = index, None, False

    def _guarded(self, what, default):
        if self.printing:
            return default
        self.printing = True
        try:
            return what()
        finally:
            self.printing = False

    def has_rhs_slow(self, out: Output) -> bool:
        return self._guarded(lambda: self.ref.has_rhs(out), False)

    def has_array_slow(self, out: Output) -> bool:
        return self._guarded(lambda: self.ref.has_array(out), False)

    def has_function_slow(self, out: Output) -> bool:
        return self._guarded(lambda: self.ref.has_function(out), False)

    def syntax_node(self, out: Output) -> Node:
        return self._guarded(lambda: self.ref.syntax_node(out), self)

    def left(self, out: Output) -> None:
        self._guarded(lambda: self.ref.left(out), None)

    def right(self, out: Output) -> None:
        self._guarded(lambda: self.ref.right(out), None)


class NameWithTemplateArgs(Node):
    __slots__ = ("name", "args")

    def __init__(self, name: Node, args: Node) -> None:
        super().__init__()
        self.name, self.args = name, args

    def base_name(self) -> str:
        return self.name.base_name()

    def left(self, out: Output) -> None:
        self.name.print(out)
        self.args.print(out)


class GlobalQualifiedName(Node):
    __slots__ = ("child",)

    def __init__(self, child: Node) -> None:
        super().__init__()
        self.child = child

    def base_name(self) -> str:
        return self.child.base_name()

    def left(self, out: Output) -> None:
        out.add("::")
        self.child.print(out)


#: Special substitutions (Sa, Sb, Ss, Si, So, Sd): base name, whether an instantiation.
SPECIAL = {
    "a": ("allocator", False),
    "b": ("basic_string", False),
    "s": ("basic_string", True),
    "i": ("basic_istream", True),
    "o": ("basic_ostream", True),
    "d": ("basic_iostream", True),
}


class ExpandedSpecialSubstitution(Node):
    """``std::basic_string<char, std::char_traits<char>, std::allocator<char>>``
    where a constructor's name needs the class's whole name."""

    __slots__ = ("code",)

    def __init__(self, code: str) -> None:
        super().__init__()
        self.code = code

    def base_name(self) -> str:
        return SPECIAL[self.code][0]

    def left(self, out: Output) -> None:
        name, instantiation = SPECIAL[self.code]
        out.add("std::" + name)
        if instantiation:
            out.add("<char, std::char_traits<char>" + (", std::allocator<char>" if self.code == "s" else "") + ">")


class SpecialSubstitution(ExpandedSpecialSubstitution):
    """``std::string``, ``std::allocator``."""

    __slots__ = ()

    def base_name(self) -> str:
        name, instantiation = SPECIAL[self.code]
        return name.removeprefix("basic_") if instantiation else name

    def left(self, out: Output) -> None:
        out.add("std::" + self.base_name())


class CtorDtorName(Node):
    __slots__ = ("basename", "dtor")

    def __init__(self, basename: Node, dtor: bool) -> None:
        super().__init__()
        self.basename, self.dtor = basename, dtor

    def left(self, out: Output) -> None:
        out.add(("~" if self.dtor else "") + self.basename.base_name())


class DtorName(Node):
    __slots__ = ("base",)

    def __init__(self, base: Node) -> None:
        super().__init__()
        self.base = base

    def left(self, out: Output) -> None:
        out.add("~")
        self.base.left(out)


class ClosureTypeName(Node):
    __slots__ = ("template_params", "requires1", "params", "requires2", "count")

    def __init__(
        self,
        template_params: list[Node],
        requires1: Node | None,
        params: list[Node],
        requires2: Node | None,
        count: str,
    ) -> None:
        super().__init__()
        self.template_params, self.requires1, self.params = template_params, requires1, params
        self.requires2, self.count = requires2, count

    def declarator(self, out: Output) -> None:
        if self.template_params:
            saved, out.gt_is_gt = out.gt_is_gt, 0
            out.add("<")
            print_list(self.template_params, out)
            out.add(">")
            out.gt_is_gt = saved
        if self.requires1 is not None:
            out.add(" requires ")
            self.requires1.print(out)
            out.add(" ")
        out.open()
        print_list(self.params, out)
        out.close()
        if self.requires2 is not None:
            out.add(" requires ")
            self.requires2.print(out)

    def left(self, out: Output) -> None:
        out.add(f"'lambda{self.count}'")
        self.declarator(out)


class StructuredBindingName(Node):
    __slots__ = ("bindings",)

    def __init__(self, bindings: list[Node]) -> None:
        super().__init__()
        self.bindings = bindings

    def left(self, out: Output) -> None:
        out.open("[")
        print_list(self.bindings, out)
        out.close("]")
