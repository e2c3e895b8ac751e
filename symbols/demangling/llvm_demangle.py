"""C++ names demangled as ``llvm-cxxfilt`` (LLVM 19) prints them.

A port of the parsing half of LLVM 19's ``ItaniumDemangle.h``: names,
types and template arguments here, expressions in
`llvm_expression_parser`, the cursor in `llvm_reader`; `llvm_nodes` and
`llvm_expressions` print.  `demangle` gives None for what llvm-cxxfilt
leaves as it is: names that are not ``_Z...``, names outside the grammar
LLVM reads, and (a limit of gpusym) names that would print longer than
`limits.printed_limit` (64 times their length plus 4 KB), or deeper
than Python recurses.  Differences from libstdc++'s ``__cxa_demangle`` (what
`symbols.demangling.gnu` and gdb print): ``>>`` without a space, lambdas as
``'lambda'(int)`` and unnamed types as ``'unnamed'``, ``std::nullptr_t``,
expressions as C++ (``decltype(fp + 1)``), clone suffixes as
`` (.cold.1)``; ``DF16_`` is ``_Float16`` in both, and ``DF16b`` is
demangled by neither LLVM 19 nor here.
"""

from __future__ import annotations

import functools

from symbols.demangling import llvm_expressions as x
from symbols.demangling import llvm_nodes as n
from symbols.demangling.limits import MANGLED_PREFIX, printed_limit
from symbols.demangling.llvm_expression_parser import CCAST, MEMBER, NAMED_CAST, ExpressionParser
from symbols.demangling.llvm_reader import Fail, is_digit

_BUILTINS = {
    "v": "void",
    "w": "wchar_t",
    "b": "bool",
    "c": "char",
    "a": "signed char",
    "h": "unsigned char",
    "s": "short",
    "t": "unsigned short",
    "i": "int",
    "j": "unsigned int",
    "l": "long",
    "m": "unsigned long",
    "x": "long long",
    "y": "unsigned long long",
    "n": "__int128",
    "o": "unsigned __int128",
    "f": "float",
    "d": "double",
    "e": "long double",
    "g": "__float128",
    "z": "...",
}
_D_BUILTINS = {
    "d": "decimal64",
    "e": "decimal128",
    "f": "decimal32",
    "h": "half",
    "i": "char32_t",
    "s": "char16_t",
    "u": "char8_t",
    "a": "auto",
    "c": "decltype(auto)",
    "n": "std::nullptr_t",
}
_ELABORATED = {"Ts": "struct ", "Tu": "union ", "Te": "enum "}


class _NameState:
    __slots__ = (
        "ctor_dtor_conversion",
        "ends_with_template_args",
        "quals",
        "ref",
        "forward_refs_begin",
        "explicit_object",
    )

    def __init__(self, forward_refs_begin: int) -> None:
        self.ctor_dtor_conversion = self.ends_with_template_args = self.explicit_object = False
        self.quals, self.ref, self.forward_refs_begin = 0, 0, forward_refs_begin


class _Parser(ExpressionParser):
    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.subs: list[n.Node] = []
        self.outer_params: list[n.Node] = []
        self.template_params: list[list[n.Node] | None] = []
        self.forward_refs: list[n.ForwardTemplateReference] = []
        self.try_template_args = True
        self.permit_forward_refs = False
        self.in_constraint = False
        self.lambda_level = -1
        self.synthetic = {"$T": 0, "$N": 0, "$TT": 0}

    # ---- names ----

    def parse(self) -> n.Node:
        self.need("_Z")
        encoding = self.encoding()
        if self.look() == ".":
            encoding = n.DotSuffix(encoding, self.text[self.at : self.end])
            self.at = self.end
        if self.at != self.end:
            raise Fail
        return encoding

    def encoding(self) -> n.Node:
        saved = self.template_params, self.outer_params
        self.template_params, self.outer_params = [], []
        try:
            return self._encoding()
        finally:
            self.template_params, self.outer_params = saved

    def _encoding(self) -> n.Node:
        if self.look() in ("G", "T"):
            return self.special_name()
        state = _NameState(len(self.forward_refs))
        name = self.name(state)
        self.resolve_forward_refs(state)
        if self.at == self.end or self.look() in "E._":
            return name
        attrs = None
        if self.take("Ua9enable_ifI"):
            arguments = []
            while not self.take("E"):
                arguments.append(self.template_arg())
            attrs = n.EnableIfAttr(arguments)
        ret = self.type() if not state.ctor_dtor_conversion and state.ends_with_template_args else None
        params: list[n.Node] = []
        if not self.take("v"):
            while True:
                param = self.type()
                if state.explicit_object and not params:
                    param = n.Wrapped("this ", param)
                params.append(param)
                if self.at == self.end or self.look() in "E._Q":
                    break
        requires = self.constraint_expr() if self.take("Q") else None
        return n.FunctionEncoding(ret, name, params, attrs, requires, state.quals, state.ref)

    def resolve_forward_refs(self, state: _NameState) -> None:
        for ref in self.forward_refs[state.forward_refs_begin :]:
            params = self.template_params[0] if self.template_params else None
            if params is None or ref.index >= len(params):
                raise Fail
            ref.ref = params[ref.index]
        del self.forward_refs[state.forward_refs_begin :]

    def special_name(self) -> n.Node:
        first, second = self.look(), self.look(1)
        if first == "T":
            prefixes = {"V": "vtable for ", "T": "VTT for ", "I": "typeinfo for ", "S": "typeinfo name for "}
            if second in prefixes:
                self.at += 2
                return n.Wrapped(prefixes[second], self.type())
            if second == "A":
                self.at += 2
                return n.Wrapped("template parameter object for ", self.template_arg())
            if second == "c":
                self.at += 2
                self.call_offset()
                self.call_offset()
                return n.Wrapped("covariant return thunk to ", self.encoding())
            if second == "C":
                self.at += 2
                first_type = self.type()
                if not self.number(True) or not self.take("_"):
                    raise Fail
                return n.CtorVtableSpecialName(self.type(), first_type)
            if second in ("W", "H"):
                self.at += 2
                kind = "wrapper" if second == "W" else "initialization"
                return n.Wrapped(f"thread-local {kind} routine for ", self.name())
            self.at += 1
            virtual = self.look() == "v"
            self.call_offset()
            return n.Wrapped("virtual thunk to " if virtual else "non-virtual thunk to ", self.encoding())
        if first == "G":
            if second == "V":
                self.at += 2
                return n.Wrapped("guard variable for ", self.name())
            if second == "R":
                self.at += 2
                name = self.name()
                parsed = self.seq_id() is not None
                if not self.take("_") and parsed:
                    raise Fail
                return n.Wrapped("reference temporary for ", name)
            if second == "I":
                self.at += 2
                module = self.module_name_opt(None)
                if module is None:
                    raise Fail
                return n.Wrapped("initializer for module ", module)
        raise Fail

    def call_offset(self) -> None:
        if self.take("h"):
            if not self.number(True) or not self.take("_"):
                raise Fail
        elif self.take("v"):
            if not self.number(True) or not self.take("_") or not self.number(True) or not self.take("_"):
                raise Fail
        else:
            raise Fail

    def name(self, state: _NameState | None = None) -> n.Node:
        if self.look() == "N":
            return self.nested_name(state)
        if self.look() == "Z":
            return self.local_name(state)
        result, substituted = self.unscoped_name(state)
        if self.look() == "I":
            if not substituted:
                self.subs.append(result)
            args = self.template_args(state is not None)
            if state is not None:
                state.ends_with_template_args = True
            return n.NameWithTemplateArgs(result, args)
        if substituted:
            raise Fail
        return result

    def local_name(self, state: _NameState | None) -> n.Node:
        self.need("Z")
        encoding = self.encoding()
        self.need("E")
        if self.take("s"):
            self.discriminator()
            return n.LocalName(encoding, "::", n.NameType("string literal"))
        saved = self.template_params, self.outer_params
        self.template_params, self.outer_params = [], []
        try:
            if self.take("d"):
                self.number(True)
                self.need("_")
                return n.LocalName(encoding, "::", self.name(state))
            entity = self.name(state)
            self.discriminator()
            return n.LocalName(encoding, "::", entity)
        finally:
            self.template_params, self.outer_params = saved

    def unscoped_name(self, state: _NameState | None) -> tuple[n.Node, bool]:
        """(name, whether it is a substitution)."""
        std = n.NameType("std") if self.take("St") else None
        module = None
        if self.look() == "S":
            sub = self.substitution()
            if isinstance(sub, n.ModuleName):
                module = sub
            elif std is None:
                return sub, True
            else:
                raise Fail
        return self.unqualified_name(state, std, module), False

    def unqualified_name(self, state: _NameState | None, scope: n.Node | None, module: n.ModuleName | None) -> n.Node:
        char = self.text[self.at]
        if char in "WFL":
            module = self.module_name_opt(module)
            friend = scope is not None and self.take("F")
            self.take("L")
            char = self.text[self.at]
        else:
            friend = False
        if "1" <= char <= "9":
            result = self.source_name()
        elif char == "U":
            result = self.unnamed_type_name(state)
        elif self.take("DC"):
            bindings = [self.source_name()]
            while not self.take("E"):
                bindings.append(self.source_name())
            result = n.StructuredBindingName(bindings)
        elif char in ("C", "D"):
            if scope is None or module is not None:
                raise Fail
            scope, result = self.ctor_dtor_name(scope, state)
        else:
            result = self.operator_name(state)
        if module is not None:
            result = n.ModuleEntity(module, "@", result)
        if self.text[self.at] == "B":
            result = self.abi_tags(result)
        if friend:
            return n.Joined(scope, "::friend ", result)
        if scope is not None:
            return n.Joined(scope, "::", result)
        return result

    def module_name_opt(self, module: n.ModuleName | None) -> n.ModuleName | None:
        while self.take("W"):
            partition = self.take("P")
            module = n.ModuleName(module, self.source_name(), partition)
            self.subs.append(module)
        return module

    def unnamed_type_name(self, state: _NameState | None) -> n.Node:
        if state is not None:
            self.template_params = []
        if self.take("Ut"):
            count = self.number()
            self.need("_")
            return n.UnnamedTypeName(count)
        if self.take("Ul"):
            saved_level, self.lambda_level = self.lambda_level, len(self.template_params)
            depth = len(self.template_params)
            lambda_params: list[n.Node] = []
            self.template_params.append(lambda_params)
            try:
                declarations = []
                while self.is_template_param_decl():
                    declarations.append(self.template_param_decl(lambda_params))
                if not declarations:
                    self.template_params.pop()
                requires1 = self.constraint_expr() if self.take("Q") else None
                params = []
                if not self.take("v"):
                    while True:
                        params.append(self.type())
                        if self.look() in ("E", "Q"):
                            break
                requires2 = self.constraint_expr() if self.take("Q") else None
                self.need("E")
                count = self.number()
                self.need("_")
                return n.ClosureTypeName(declarations, requires1, params, requires2, count)
            finally:
                del self.template_params[depth:]
                self.lambda_level = saved_level
        if self.take("Ub"):
            self.number()
            self.need("_")
            return n.NameType("'block-literal'")
        raise Fail

    def source_name(self) -> n.Node:
        length = self.positive()
        if self.end - self.at < length or length == 0:
            raise Fail
        self.at += length
        name = self.text[self.at - length : self.at]
        return n.NameType("(anonymous namespace)" if name.startswith("_GLOBAL__N") else name)

    def operator_name(self, state: _NameState | None) -> n.Node:
        info = self.operator_encoding()
        if info is not None:
            kind, flag, _, name = info
            if kind == CCAST:
                saved = self.try_template_args, self.permit_forward_refs
                self.try_template_args = False
                self.permit_forward_refs = self.permit_forward_refs or state is not None
                try:
                    target = self.type()
                finally:
                    self.try_template_args, self.permit_forward_refs = saved
                if state is not None:
                    state.ctor_dtor_conversion = True
                return n.ConversionOperatorType(target)
            if kind >= NAMED_CAST or (kind == MEMBER and not flag):
                raise Fail
            return n.NameType(name)
        if self.take("li"):
            return n.Wrapped('operator"" ', self.source_name())
        if self.take("v") and is_digit(self.look()):
            self.at += 1
            return n.ConversionOperatorType(self.source_name())
        raise Fail

    def ctor_dtor_name(self, scope: n.Node, state: _NameState | None) -> tuple[n.Node, n.Node]:
        """(the scope, expanded if a special substitution; the name)."""
        if type(scope) is n.SpecialSubstitution:
            scope = n.ExpandedSpecialSubstitution(scope.code)
        if self.take("C"):
            inherited = self.take("I")
            if self.look() not in ("1", "2", "3", "4", "5") or not self.look():
                raise Fail
            self.at += 1
            if state is not None:
                state.ctor_dtor_conversion = True
            if inherited:
                self.name(state)
            return scope, n.CtorDtorName(scope, False)
        if self.look() == "D" and self.look(1) in ("0", "1", "2", "4", "5") and self.look(1):
            self.at += 2
            if state is not None:
                state.ctor_dtor_conversion = True
            return scope, n.CtorDtorName(scope, True)
        raise Fail

    def nested_name(self, state: _NameState | None) -> n.Node:
        self.need("N")
        if not self.take("H"):
            quals = self.cv_qualifiers()
            ref = {"O": n.RVALUE, "R": n.LVALUE}.get(self.text[self.at], 0)
            self.at += ref > 0
            if state is not None:
                state.quals, state.ref = quals, ref
        elif state is not None:
            state.explicit_object = True
        so_far: n.Node | None = None
        text = self.text
        while True:
            char = text[self.at]
            if char == "E":
                self.at += 1
                break
            if state is not None:
                state.ends_with_template_args = False
            if char == "T":
                if so_far is not None:
                    raise Fail
                so_far = self.template_param()
            elif char == "I":
                if so_far is None:
                    raise Fail
                args = self.template_args(state is not None)
                if isinstance(so_far, n.NameWithTemplateArgs):
                    raise Fail
                if state is not None:
                    state.ends_with_template_args = True
                so_far = n.NameWithTemplateArgs(so_far, args)
            elif char == "D" and self.look(1) in ("t", "T") and self.look(1):
                if so_far is not None:
                    raise Fail
                so_far = self.decltype()
            else:
                module = None
                if char == "S":
                    if self.look(1) == "t":
                        self.at += 2
                        sub: n.Node = n.NameType("std")
                    else:
                        sub = self.substitution()
                    if isinstance(sub, n.ModuleName):
                        module = sub
                    elif so_far is not None:
                        raise Fail
                    else:
                        so_far = sub
                        continue
                so_far = self.unqualified_name(state, so_far, module)
            self.subs.append(so_far)
            if text[self.at] == "M":
                self.at += 1
        if so_far is None or not self.subs:
            raise Fail
        self.subs.pop()
        return so_far

    def abi_tags(self, node: n.Node) -> n.Node:
        while self.take("B"):
            tag = self.bare_source_name()
            if not tag:
                raise Fail
            node = n.AbiTagAttr(node, tag)
        return node

    def substitution(self) -> n.Node:
        self.need("S")
        char = self.look()
        if "a" <= char <= "z":
            if char not in n.SPECIAL:
                raise Fail
            self.at += 1
            special: n.Node = n.SpecialSubstitution(char)
            tagged = self.abi_tags(special)
            if tagged is not special:
                self.subs.append(tagged)
            return tagged
        if self.take("_"):
            if not self.subs:
                raise Fail
            return self.subs[0]
        index = self.seq_id()
        if index is None:
            raise Fail
        index += 1
        if not self.take("_") or index >= len(self.subs):
            raise Fail
        return self.subs[index]

    # ---- template parameters and arguments ----

    def template_param(self) -> n.Node:
        begin = self.at
        self.need("T")
        level = 0
        if self.take("L"):
            level = self.positive() + 1
            self.need("_")
        index = 0
        if not self.take("_"):
            index = self.positive() + 1
            self.need("_")
        if self.in_constraint:
            return n.NameType(self.text[begin : self.at - 1])
        if self.permit_forward_refs and level == 0:
            ref = n.ForwardTemplateReference(index)
            self.forward_refs.append(ref)
            return ref
        params = self.template_params
        if level >= len(params) or params[level] is None or index >= len(params[level]):
            if self.lambda_level == level and level <= len(params):
                if level == len(params):
                    params.append(None)
                return n.NameType("auto")
            raise Fail
        return params[level][index]

    def is_template_param_decl(self) -> bool:
        return self.look() == "T" and self.look(1) in ("y", "p", "t", "n", "k") and bool(self.look(1))

    def template_param_decl(self, params: list[n.Node] | None) -> n.Node:
        def invent(kind: str) -> n.Node:
            name = n.SyntheticTemplateParamName(kind, self.synthetic[kind])
            self.synthetic[kind] += 1
            if params is not None:
                params.append(name)
            return name

        if self.take("Ty"):
            return n.TemplateParamDecl(None, invent("$T"))
        if self.take("Tk"):
            constraint = self.name()
            return n.TemplateParamDecl(constraint, invent("$T"))
        if self.take("Tn"):
            name = invent("$N")
            return n.NonTypeTemplateParamDecl(name, self.type())
        if self.take("Tt"):
            name = invent("$TT")
            inner: list[n.Node] = []
            depth = len(self.template_params)
            self.template_params.append(inner)
            try:
                declarations, requires = [], None
                while not self.take("E"):
                    declarations.append(self.template_param_decl(inner))
                    if self.take("Q"):
                        requires = self.constraint_expr()
                        self.need("E")
                        break
            finally:
                del self.template_params[depth:]
            return n.TemplateTemplateParamDecl(name, declarations, requires)
        if self.take("Tp"):
            return n.TemplateParamPackDecl(self.template_param_decl(params))
        raise Fail

    def template_arg(self) -> n.Node:
        char = self.look()
        if char == "X":
            self.at += 1
            argument = self.expression()
            self.need("E")
            return argument
        if char == "J":
            self.at += 1
            elements = []
            while not self.take("E"):
                elements.append(self.template_arg())
            return n.TemplateArgumentPack(elements)
        if char == "L":
            if self.look(1) == "Z":
                self.at += 2
                argument = self.encoding()
                self.need("E")
                return argument
            return self.expr_primary()
        if char == "T" and self.is_template_param_decl():
            param = self.template_param_decl(None)
            return n.TemplateParamQualifiedArg(param, self.template_arg())
        return self.type()

    def template_args(self, tag_templates: bool = False) -> n.Node:
        self.need("I")
        if tag_templates:
            self.outer_params = []
            self.template_params = [self.outer_params]
        arguments: list[n.Node] = []
        requires = None
        text = self.text
        while text[self.at] != "E":
            argument = self.template_arg()
            arguments.append(argument)
            if tag_templates:
                entry = argument
                if isinstance(argument, n.TemplateParamQualifiedArg):
                    entry = argument.arg
                if isinstance(argument, n.TemplateArgumentPack):
                    entry = n.ParameterPack(argument.elements)
                self.outer_params.append(entry)
            if text[self.at] == "Q":
                self.at += 1
                requires = self.constraint_expr()
                if text[self.at] != "E":
                    raise Fail
                break
        self.at += 1
        return n.TemplateArgs(arguments, requires)

    # ---- types ----

    def type(self) -> n.Node:
        char = self.text[self.at]
        if char in _BUILTINS:
            self.at += 1
            return n.NameType(_BUILTINS[char])
        if char == "N" or char == "Z" or "1" <= char <= "9":  # the commonest: a class's name
            result = self.name()
        elif char in ("r", "V", "K"):
            after = 0
            for qualifier in "rVK":
                if self.look(after) == qualifier:
                    after += 1
            following = self.look(after)
            if following == "F" or (
                following == "D" and self.look(after + 1) in ("o", "O", "w", "x") and self.look(after + 1)
            ):
                result = self.function_type()
            else:
                result = self.qualified_type()
        elif char == "U":
            result = self.qualified_type()
        elif char == "u":
            self.at += 1
            name = self.bare_source_name()
            if not name:
                raise Fail
            if self.take("I"):
                base = self.type()
                self.need("E")
                result = n.TransformedType(name, base)
            else:
                result = n.NameType(name)
        elif char == "D":
            second = self.look(1)
            if second in _D_BUILTINS and second:
                self.at += 2
                return n.NameType(_D_BUILTINS[second])
            if second == "F":
                self.at += 2
                dimension = n.NameType(self.number())
                self.need("_")
                return n.Wrapped("_Float", dimension)
            if second in ("B", "U") and second:
                self.at += 2
                size = n.NameType(self.number()) if is_digit(self.look()) else self.expression()
                self.need("_")
                return n.BitIntType(size, second == "B")
            if second in ("k", "K") and second:
                self.at += 2
                constraint = self.name()
                return n.PostfixQualifiedType(constraint, " auto" if second == "k" else " decltype(auto)")
            if second in ("t", "T") and second:
                result = self.decltype()
            elif second == "v":
                result = self.vector_type()
            elif second == "p":
                self.at += 2
                result = n.ParameterPackExpansion(self.type())
            elif second in ("o", "O", "w", "x") and second:
                result = self.function_type()
            else:
                raise Fail
        elif char == "F":
            result = self.function_type()
        elif char == "A":
            result = self.array_type()
        elif char == "M":
            self.at += 1
            class_type = self.type()
            result = n.PointerToMemberType(class_type, self.type())
        elif char == "T":
            if self.look(1) in ("s", "u", "e") and self.look(1):
                result = self.class_enum_type()
            else:
                result = self.template_param()
                if self.try_template_args and self.look() == "I":
                    result = n.NameWithTemplateArgs(result, self.template_args())
        elif char in ("P", "R", "O"):
            self.at += 1
            pointee = self.type()
            result = (
                n.PointerType(pointee)
                if char == "P"
                else n.ReferenceType(pointee, n.LVALUE if char == "R" else n.RVALUE)
            )
        elif char in ("C", "G"):
            self.at += 1
            result = n.PostfixQualifiedType(self.type(), " complex" if char == "C" else " imaginary")
        elif char == "S" and self.look(1) != "t":
            result, substituted = self.unscoped_name(None)
            if self.look() == "I" and (not substituted or self.try_template_args):
                if not substituted:
                    self.subs.append(result)
                result = n.NameWithTemplateArgs(result, self.template_args())
            elif substituted:
                return result
        else:
            result = self.class_enum_type()
        self.subs.append(result)
        return result

    def qualified_type(self) -> n.Node:
        if self.take("U"):
            qualifier = self.bare_source_name()
            if not qualifier:
                raise Fail
            if qualifier.startswith("objcproto"):
                inner = _Parser(qualifier[len("objcproto") :])
                protocol = inner.bare_source_name()
                if not protocol:
                    raise Fail
                return n.ObjCProtoName(self.qualified_type(), protocol)
            args = self.template_args() if self.look() == "I" else None
            return n.VendorExtQualType(self.qualified_type(), qualifier, args)
        quals = self.cv_qualifiers()
        result = self.type()
        return n.QualType(result, quals) if quals else result

    def function_type(self) -> n.Node:
        quals = self.cv_qualifiers()
        exception = None
        if self.take("Do"):
            exception = n.NameType("noexcept")
        elif self.take("DO"):
            expression = self.expression()
            self.need("E")
            exception = n.NoexceptSpec(expression)
        elif self.take("Dw"):
            types = []
            while not self.take("E"):
                types.append(self.type())
            exception = n.DynamicExceptionSpec(types)
        self.take("Dx")
        self.need("F")
        self.take("Y")
        ret = self.type()
        ref, params = 0, []
        while True:
            if self.take("E"):
                break
            if self.take("v"):
                continue
            if self.take("RE"):
                ref = n.LVALUE
                break
            if self.take("OE"):
                ref = n.RVALUE
                break
            params.append(self.type())
        return n.FunctionType(ret, params, quals, ref, exception)

    def vector_type(self) -> n.Node:
        self.need("Dv")
        if "1" <= self.look() <= "9":
            dimension = n.NameType(self.number())
            self.need("_")
            if self.take("p"):
                return n.VectorType(None, dimension)
            return n.VectorType(self.type(), dimension)
        if not self.take("_"):
            dimension_expression = self.expression()
            self.need("_")
            return n.VectorType(self.type(), dimension_expression)
        return n.VectorType(self.type(), None)

    def decltype(self) -> n.Node:
        self.need("D")
        if not self.take("t") and not self.take("T"):
            raise Fail
        expression = self.expression()
        self.need("E")
        return x.EnclosingExpr("decltype", expression)

    def array_type(self) -> n.Node:
        self.need("A")
        dimension = None
        if is_digit(self.look()):
            dimension = n.NameType(self.number())
            self.need("_")
        elif not self.take("_"):
            dimension = self.expression()
            self.need("_")
        return n.ArrayType(self.type(), dimension)

    def class_enum_type(self) -> n.Node:
        kind = _ELABORATED.get(self.text[self.at : self.at + 2])
        if kind is None:
            return self.name()
        self.at += 2
        return n.Wrapped(kind, self.name())


@functools.lru_cache(maxsize=1 << 17)
def demangle(name: str) -> str | None:
    """`name` as llvm-cxxfilt prints it, or None where it prints `name`
    unchanged (or past gpusym's limits, see the module documentation)."""
    if not name.startswith(MANGLED_PREFIX):
        return None
    try:
        parser = _Parser(name)
        node = parser.parse()
        out = n.Output(printed_limit(name))
        node.print(out)
    except (Fail, n.TooLong, RecursionError, ValueError):  # ValueError: a number of thousands of digits
        return None
    return out.text()
