"""Expressions in mangled names (template arguments, decltype, noexcept,
array bounds, constraints) read as LLVM 19's Itanium demangler reads them,
into the nodes of `symbols.demangling.llvm_expressions`: the expression half of the
parser `symbols.demangling.llvm_demangle` ports."""

from __future__ import annotations

from symbols.demangling import llvm_expressions as x
from symbols.demangling import llvm_nodes as n
from symbols.demangling.llvm_reader import Fail, Reader, is_digit

_INTEGER_LITERALS = {
    "w": "wchar_t",
    "c": "char",
    "a": "signed char",
    "h": "unsigned char",
    "s": "short",
    "t": "unsigned short",
    "i": "",
    "j": "u",
    "l": "l",
    "m": "ul",
    "x": "ll",
    "y": "ull",
    "n": "__int128",
    "o": "unsigned __int128",
}

# Operator kinds (OperatorInfo::OIKind); those from NAMED_CAST on cannot be named.
PREFIX, POSTFIX_OP, BINARY, ARRAY, MEMBER, NEW, DEL, CALL, CCAST, CONDITIONAL, NAME_ONLY, NAMED_CAST, OF_ID = range(13)
#: Encoding -> (kind, flag, precedence, name), as LLVM's table.
_OPERATORS = {
    "aN": (BINARY, False, n.ASSIGN, "operator&="),
    "aS": (BINARY, False, n.ASSIGN, "operator="),
    "aa": (BINARY, False, n.ANDIF, "operator&&"),
    "ad": (PREFIX, False, n.UNARY, "operator&"),
    "an": (BINARY, False, n.AND, "operator&"),
    "at": (OF_ID, True, n.UNARY, "alignof "),
    "aw": (NAME_ONLY, False, n.PRIMARY, "operator co_await"),
    "az": (OF_ID, False, n.UNARY, "alignof "),
    "cc": (NAMED_CAST, False, n.POSTFIX, "const_cast"),
    "cl": (CALL, False, n.POSTFIX, "operator()"),
    "cm": (BINARY, False, n.COMMA, "operator,"),
    "co": (PREFIX, False, n.UNARY, "operator~"),
    "cv": (CCAST, False, n.CAST, "operator"),
    "dV": (BINARY, False, n.ASSIGN, "operator/="),
    "da": (DEL, True, n.UNARY, "operator delete[]"),
    "dc": (NAMED_CAST, False, n.POSTFIX, "dynamic_cast"),
    "de": (PREFIX, False, n.UNARY, "operator*"),
    "dl": (DEL, False, n.UNARY, "operator delete"),
    "ds": (MEMBER, False, n.PTRMEM, "operator.*"),
    "dt": (MEMBER, False, n.POSTFIX, "operator."),
    "dv": (BINARY, False, n.ASSIGN, "operator/"),
    "eO": (BINARY, False, n.ASSIGN, "operator^="),
    "eo": (BINARY, False, n.XOR, "operator^"),
    "eq": (BINARY, False, n.EQUALITY, "operator=="),
    "ge": (BINARY, False, n.RELATIONAL, "operator>="),
    "gt": (BINARY, False, n.RELATIONAL, "operator>"),
    "ix": (ARRAY, False, n.POSTFIX, "operator[]"),
    "lS": (BINARY, False, n.ASSIGN, "operator<<="),
    "le": (BINARY, False, n.RELATIONAL, "operator<="),
    "ls": (BINARY, False, n.SHIFT, "operator<<"),
    "lt": (BINARY, False, n.RELATIONAL, "operator<"),
    "mI": (BINARY, False, n.ASSIGN, "operator-="),
    "mL": (BINARY, False, n.ASSIGN, "operator*="),
    "mi": (BINARY, False, n.ADDITIVE, "operator-"),
    "ml": (BINARY, False, n.MULTIPLICATIVE, "operator*"),
    "mm": (POSTFIX_OP, False, n.POSTFIX, "operator--"),
    "na": (NEW, True, n.UNARY, "operator new[]"),
    "ne": (BINARY, False, n.EQUALITY, "operator!="),
    "ng": (PREFIX, False, n.UNARY, "operator-"),
    "nt": (PREFIX, False, n.UNARY, "operator!"),
    "nw": (NEW, False, n.UNARY, "operator new"),
    "oR": (BINARY, False, n.ASSIGN, "operator|="),
    "oo": (BINARY, False, n.ORIF, "operator||"),
    "or": (BINARY, False, n.IOR, "operator|"),
    "pL": (BINARY, False, n.ASSIGN, "operator+="),
    "pl": (BINARY, False, n.ADDITIVE, "operator+"),
    "pm": (MEMBER, False, n.PTRMEM, "operator->*"),
    "pp": (POSTFIX_OP, False, n.POSTFIX, "operator++"),
    "ps": (PREFIX, False, n.UNARY, "operator+"),
    "pt": (MEMBER, True, n.POSTFIX, "operator->"),
    "qu": (CONDITIONAL, False, n.CONDITIONAL, "operator?"),
    "rM": (BINARY, False, n.ASSIGN, "operator%="),
    "rS": (BINARY, False, n.ASSIGN, "operator>>="),
    "rc": (NAMED_CAST, False, n.POSTFIX, "reinterpret_cast"),
    "rm": (BINARY, False, n.MULTIPLICATIVE, "operator%"),
    "rs": (BINARY, False, n.SHIFT, "operator>>"),
    "sc": (NAMED_CAST, False, n.POSTFIX, "static_cast"),
    "ss": (BINARY, False, n.SPACESHIP, "operator<=>"),
    "st": (OF_ID, True, n.UNARY, "sizeof "),
    "sz": (OF_ID, False, n.UNARY, "sizeof "),
    "te": (OF_ID, False, n.POSTFIX, "typeid "),
    "ti": (OF_ID, True, n.POSTFIX, "typeid "),
}


def _symbol(kind: int, name: str) -> str:
    """OperatorInfo::getSymbol: the operator without ``operator``."""
    return name.removeprefix("operator").removeprefix(" ") if kind < NAMED_CAST else name


class ExpressionParser(Reader):
    """The expression rules; the names and types they refer to (type(),
    name(), template_param(), template_args()...) are the subclass's."""

    def operator_encoding(self) -> tuple | None:
        info = _OPERATORS.get(self.text[self.at : self.at + 2])
        if info is not None:
            self.at += 2
        return info

    def expression(self) -> n.Node:
        global_scope = self.take("gs")
        info = self.operator_encoding()
        if info is not None:
            return self.operator_expression(info, global_scope)
        if self.end - self.at < 2:
            raise Fail
        char, second = self.look(), self.look(1)
        if char == "L":
            return self.expr_primary()
        if char == "T":
            return self.template_param()
        if char == "f":
            if second == "p" or (second == "L" and is_digit(self.look(2))):
                return self.function_param()
            return self.fold_expression()
        if self.take("il"):
            inits = []
            while not self.take("E"):
                inits.append(self.braced_expression())
            return x.InitListExpr(None, inits)
        if self.take("mc"):
            target = self.type()
            expression = self.expression()
            self.number(True)
            self.need("E")
            return x.ConversionExpr(target, [expression], n.UNARY)
        if self.take("nx"):
            return x.EnclosingExpr("noexcept ", self.expression(), n.UNARY)
        if char == "r" and second in ("q", "Q"):
            return self.requires_expression()
        if self.take("so"):
            return self.subobject_expression()
        if self.take("sp"):
            return n.ParameterPackExpansion(self.expression())
        if self.take("sZ"):
            if self.look() == "T":
                return x.SizeofParamPackExpr(self.template_param())
            return x.EnclosingExpr("sizeof... ", self.function_param())
        if self.take("sP"):
            arguments = []
            while not self.take("E"):
                arguments.append(self.template_arg())
            return x.EnclosingExpr("sizeof... ", n.NodeArrayNode(arguments))
        if self.take("tl"):
            target = self.type()
            inits = []
            while not self.take("E"):
                inits.append(self.braced_expression())
            return x.InitListExpr(target, inits)
        if self.take("tr"):
            return n.NameType("throw")
        if self.take("tw"):
            return n.Wrapped("throw ", self.expression())
        if self.take("u"):
            name = self.source_name()
            if name.base_name() == "__uuidof" and self.take("t"):
                return x.CallExpr(name, [self.type()], n.POSTFIX)
            if name.base_name() == "__uuidof" and self.take("z"):
                return x.CallExpr(name, [self.expression()], n.POSTFIX)
            arguments = []
            while not self.take("E"):
                arguments.append(self.template_arg())
            return x.CallExpr(name, arguments, n.POSTFIX)
        return self.unresolved_name(global_scope)

    def operator_expression(self, info: tuple, global_scope: bool) -> n.Node:
        kind, flag, prec, name = info
        symbol = _symbol(kind, name)
        if kind == BINARY:
            lhs = self.expression()
            return x.BinaryExpr(lhs, symbol, self.expression(), prec)
        if kind == PREFIX:
            return x.PrefixExpr(symbol, self.expression(), prec)
        if kind == POSTFIX_OP:
            if self.take("_"):
                return x.PrefixExpr(symbol, self.expression(), prec)
            return x.PostfixExpr(self.expression(), symbol, prec)
        if kind == ARRAY:
            base = self.expression()
            return x.ArraySubscriptExpr(base, self.expression(), prec)
        if kind == MEMBER:
            lhs = self.expression()
            return x.MemberExpr(lhs, symbol, self.expression(), prec)
        if kind == NEW:
            expressions = []
            while not self.take("_"):
                expressions.append(self.expression())
            target = self.type()
            have_inits = self.take("pi")
            inits = []
            while not self.take("E"):
                if not have_inits:
                    raise Fail
                inits.append(self.expression())
            return x.NewExpr(expressions, target, inits, global_scope, flag, prec)
        if kind == DEL:
            return x.DeleteExpr(self.expression(), global_scope, flag, prec)
        if kind == CALL:
            callee = self.expression()
            arguments = []
            while not self.take("E"):
                arguments.append(self.expression())
            return x.CallExpr(callee, arguments, prec)
        if kind == CCAST:
            saved, self.try_template_args = self.try_template_args, False
            try:
                target = self.type()
            finally:
                self.try_template_args = saved
            many = self.take("_")
            expressions = []
            while not self.take("E"):
                expressions.append(self.expression())
                if not many:
                    break
            if not many and len(expressions) != 1:
                raise Fail
            return x.ConversionExpr(target, expressions, prec)
        if kind == CONDITIONAL:
            condition = self.expression()
            then = self.expression()
            return x.ConditionalExpr(condition, then, self.expression(), prec)
        if kind == NAMED_CAST:
            target = self.type()
            return x.CastExpr(symbol, target, self.expression(), prec)
        if kind == OF_ID:
            return x.EnclosingExpr(symbol, self.type() if flag else self.expression(), prec)
        raise Fail  # NAME_ONLY

    def expr_primary(self) -> n.Node:
        self.need("L")
        char = self.look()
        if char in _INTEGER_LITERALS:
            self.at += 1
            value = self.number(True)
            if not value or not self.take("E"):
                raise Fail
            return x.IntegerLiteral(_INTEGER_LITERALS[char], value)
        if char == "b":
            if self.take("b0E"):
                return x.BoolExpr(False)
            if self.take("b1E"):
                return x.BoolExpr(True)
            raise Fail
        if char in ("f", "d", "e"):
            self.at += 1
            return self.float_literal(char)
        if char == "_":
            if self.take("_Z"):
                encoding = self.encoding()
                self.need("E")
                return encoding
            raise Fail
        if char == "A":
            literal = self.type()
            self.need("E")
            return x.StringLiteral(literal)
        if char == "D":
            if self.take("Dn") and (self.take("0"), self.take("E"))[1]:
                return n.NameType("nullptr")
            raise Fail
        if char in ("T", "\0"):
            raise Fail
        if char == "U":
            if self.look(1) != "l":
                raise Fail
            closure = self.unnamed_type_name(None)
            self.need("E")
            return x.LambdaExpr(closure)
        literal_type = self.type()
        value = self.number(True)
        if not value:
            raise Fail
        self.need("E")
        return x.EnumLiteral(literal_type, value)

    def float_literal(self, kind: str) -> n.Node:
        size = x.FLOAT_DIGITS[kind]
        if self.end - self.at <= size:
            raise Fail
        data = self.text[self.at : self.at + size]
        if any(c not in "0123456789abcdef" for c in data):
            raise Fail
        self.at += size
        self.need("E")
        return x.FloatLiteral(data, kind)

    def function_param(self) -> n.Node:
        if self.take("fpT"):
            return n.NameType("this")
        if self.take("fp"):
            self.cv_qualifiers()
            number = self.number()
            self.need("_")
            return n.Wrapped("fp", n.NameType(number))
        if self.take("fL"):
            if not self.number():
                raise Fail
            self.need("p")
            self.cv_qualifiers()
            number = self.number()
            self.need("_")
            return n.Wrapped("fp", n.NameType(number))
        raise Fail

    def braced_expression(self) -> n.Node:
        if self.look() == "d":
            second = self.look(1)
            if second == "i":
                self.at += 2
                field = self.source_name()
                return x.BracedExpr(field, self.braced_expression(), False)
            if second == "x":
                self.at += 2
                index = self.expression()
                return x.BracedExpr(index, self.braced_expression(), True)
            if second == "X":
                self.at += 2
                first = self.expression()
                last = self.expression()
                return x.BracedRangeExpr(first, last, self.braced_expression())
        return self.expression()

    def fold_expression(self) -> n.Node:
        self.need("f")
        kind = self.look()
        if kind not in ("L", "R", "l", "r") or not kind:
            raise Fail
        self.at += 1
        left_fold, has_init = kind in ("L", "l"), kind in ("L", "R")
        info = self.operator_encoding()
        if info is None or not (info[0] == BINARY or (info[0] == MEMBER and info[3].endswith("*"))):
            raise Fail
        pack = self.expression()
        init = self.expression() if has_init else None
        if left_fold and init is not None:
            pack, init = init, pack
        return x.FoldExpr(left_fold, _symbol(info[0], info[3]), pack, init)

    def subobject_expression(self) -> n.Node:
        target = self.type()
        expression = self.expression()
        offset = self.number(True)
        while self.take("_"):
            self.number()
        self.take("p")
        self.need("E")
        return x.SubobjectExpr(target, expression, offset)

    def constraint_expr(self) -> n.Node:
        saved, self.in_constraint = self.in_constraint, True
        try:
            return self.expression()
        finally:
            self.in_constraint = saved

    def requires_expression(self) -> n.Node:
        params = []
        if self.take("rQ"):
            while not self.take("_"):
                params.append(self.type())
        else:
            self.need("rq")
        requirements = []
        while True:
            if self.take("X"):
                expression = self.expression()
                noexcept = self.take("N")
                constraint = self.name() if self.take("R") else None
                requirements.append(x.ExprRequirement(expression, noexcept, constraint))
            elif self.take("T"):
                requirements.append(n.Wrapped(" typename ", self.type(), ";"))
            elif self.take("Q"):
                requirements.append(n.Wrapped(" requires ", self.expression(), ";"))
            else:
                raise Fail
            if self.take("E"):
                return x.RequiresExpr(params, requirements)

    def unresolved_name(self, global_scope: bool) -> n.Node:
        if self.take("srN"):
            so_far = self.unresolved_type()
            if self.look() == "I":
                so_far = n.NameWithTemplateArgs(so_far, self.template_args())
            while not self.take("E"):
                so_far = n.Joined(so_far, "::", self.simple_id())
            return n.Joined(so_far, "::", self.base_unresolved_name())
        if not self.take("sr"):
            base = self.base_unresolved_name()
            return n.GlobalQualifiedName(base) if global_scope else base
        if is_digit(self.look()):
            so_far = None
            while True:
                qualifier = self.simple_id()
                if so_far is not None:
                    so_far = n.Joined(so_far, "::", qualifier)
                else:
                    so_far = n.GlobalQualifiedName(qualifier) if global_scope else qualifier
                if self.take("E"):
                    break
        else:
            so_far = self.unresolved_type()
            if self.look() == "I":
                so_far = n.NameWithTemplateArgs(so_far, self.template_args())
        return n.Joined(so_far, "::", self.base_unresolved_name())

    def simple_id(self) -> n.Node:
        name = self.source_name()
        if self.look() == "I":
            return n.NameWithTemplateArgs(name, self.template_args())
        return name

    def unresolved_type(self) -> n.Node:
        if self.look() == "T":
            result = self.template_param()
        elif self.look() == "D":
            result = self.decltype()
        else:
            return self.substitution()
        self.subs.append(result)
        return result

    def base_unresolved_name(self) -> n.Node:
        if is_digit(self.look()):
            return self.simple_id()
        if self.take("dn"):
            return n.DtorName(self.simple_id() if is_digit(self.look()) else self.unresolved_type())
        self.take("on")
        operator = self.operator_name(None)
        if self.look() == "I":
            return n.NameWithTemplateArgs(operator, self.template_args())
        return operator
