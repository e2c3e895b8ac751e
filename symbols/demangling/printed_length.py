"""How long an Itanium-ABI mangled name prints, known before printing it.

A demangler prints each substitution (``S_``, ``S0_``) and template
parameter (``T_``) reference by printing what it refers to again, so a name
of a few hundred characters can print gigabytes.  `read` parses the name
once, following the ABI's grammar and its table of substitution
candidates, and adds up an upper bound of the printed length in which each
reference costs what its referent costs: in linear time, and stopping as
soon as the bound passes a limit.  A template parameter counts as the
longest argument of that index in any argument list of the name.

It also finds the extended floating-point types (``DF16_`` ``_Float16``,
``DF16b`` ``std::bfloat16_t``, ``DF32x`` ``_Float32x``), which older
demanglers do not know.

A name outside the grammar understood here raises `Unreadable`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: What each piece of text adds at most to the printed name.
_BUILTIN = 20  # "unsigned long long", "decltype(nullptr)"
_ABBREVIATION = 72  # "std::basic_string<char, std::char_traits<char>, std::allocator<char> >"
_QUALIFIER = 12  # " volatile", "(*)", " _Complex"
_OPERATOR = 24  # "operator delete[]"
_PUNCTUATION = 8  # "(", ")", "::", ", ", "{parm#", casts' parentheses
_BUILTINS = frozenset("vwbcahstijlmxynofdegz")
_D_BUILTINS = frozenset("defhisuacn")
_STD = frozenset("tabsiod")
_PARAM_DECLS = frozenset("yknpt")  # Ty Tk Tn Tp Tt: a generic lambda's template parameters
_BASE36 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: Expression operators by their code, with their operand count.
_OPERATORS = {
    **dict.fromkeys(
        ("ps", "ng", "ad", "de", "co", "nt", "pp", "mm", "dl", "da", "aw", "sz", "az", "te", "nx", "tw", "sp"), 1
    ),
    **dict.fromkeys(
        (
            "pl",
            "mi",
            "ml",
            "dv",
            "rm",
            "an",
            "or",
            "eo",
            "aS",
            "pL",
            "mI",
            "mL",
            "dV",
            "rM",
            "aN",
            "oR",
            "eO",
            "ls",
            "rs",
            "lS",
            "rS",
            "eq",
            "ne",
            "lt",
            "gt",
            "le",
            "ge",
            "ss",
            "aa",
            "oo",
            "cm",
            "pm",
            "ix",
            "ds",
        ),
        2,
    ),
    "qu": 3,
}
#: Operator names that may name a function (``operator+``), besides the expression operators.
_OPERATOR_NAMES = frozenset(_OPERATORS) | {"nw", "na", "cl", "pt", "cv", "li"}


class Unreadable(Exception):
    """The name is outside the grammar `read` understands."""


class _TooLong(Exception):
    """The bound passed the limit."""


@dataclass
class Reading:
    """`size`: an upper bound of the printed length, None when over the limit.
    `floats`: each extended floating-point type code as (start, end, printed name)."""

    size: int | None
    floats: list[tuple[int, int, str]] = field(default_factory=list)


def read(name: str, limit: int) -> Reading:
    """Reads the mangled `name` (``_Z...``, a ``.suffix`` allowed)."""
    parser = _Parser(name, limit)
    try:
        size = parser.mangled_name()
    except _TooLong:
        return Reading(None, parser.floats)
    except (IndexError, ValueError, RecursionError):
        raise Unreadable(name) from None
    return Reading(size, parser.floats)


class _Parser:
    def __init__(self, text: str, limit: int) -> None:
        self.text, self.at, self.limit = text, 0, limit
        self.subs: list[int] = []  # substitution candidates' sizes, in the ABI's order
        self.widest: list[int] = []  # per index, the longest template argument of any list so far
        self.widest_pack = 1
        self.floats: list[tuple[int, int, str]] = []
        self.ends_in_template = False  # the last name read ends with template arguments
        self.special_last = False  # ... and is a constructor, destructor or conversion
        self.lambdas = 0  # lambda signatures being read: a T_ there may be an auto parameter

    # --- reading helpers ----------------------------------------------------------

    def peek(self, offset: int = 0) -> str:
        index = self.at + offset
        return self.text[index] if index < len(self.text) else ""

    def take(self, prefix: str) -> bool:
        if self.text.startswith(prefix, self.at):
            self.at += len(prefix)
            return True
        return False

    def expect(self, prefix: str) -> None:
        if not self.take(prefix):
            raise ValueError(f"expected {prefix!r} at {self.at}")

    def number(self) -> int:
        """<number>: decimal digits, n for negative; returns its printed length."""
        start = self.at
        self.take("n")
        while self.peek().isdigit():
            self.at += 1
        if self.at == start or self.text[self.at - 1] == "n":
            raise ValueError("number expected")
        return self.at - start

    def seq_id(self) -> int:
        value = 0
        while self.peek() and self.peek() in _BASE36:
            value = value * 36 + _BASE36.index(self.peek())
            self.at += 1
        return value

    def bounded(self, size: int) -> int:
        if size > self.limit:
            raise _TooLong
        return size

    def push(self, size: int) -> int:
        self.subs.append(self.bounded(size))
        return size

    # --- names ---------------------------------------------------------------------

    def mangled_name(self) -> int:
        self.expect("_Z")
        size = self.encoding()
        if self.peek() == ".":  # clone suffixes: [clone .cold.1]
            suffix = self.text[self.at :]
            size += len(suffix) + 10 * suffix.count(".")
            self.at = len(self.text)
        if self.at != len(self.text):
            raise ValueError("text after the name")
        return self.bounded(size)

    def encoding(self) -> int:
        if self.peek() in ("T", "G") and self.peek(1) not in ("", "_"):
            return self.special_name()
        size = self.name()
        if self.peek() in ("", "E", "."):
            return size
        if self.take("Ua9enable_if"):
            size += self.template_args()
        if self.ends_in_template and not self.special_last:
            size += self.type() + 1  # the return type
        if self.take("v") and self.peek() in ("", "E", "."):
            return size + 2
        while self.peek() not in ("", "E", "."):
            size = self.bounded(size + self.type() + 2)
        return size + 2

    def special_name(self) -> int:
        if self.take("TV") or self.take("TT") or self.take("TI") or self.take("TS"):
            return 32 + self.type()
        if self.take("Th"):
            self.number()
            self.expect("_")
            return 40 + self.encoding()
        if self.take("Tv"):
            for _ in range(2):
                self.number()
                self.expect("_")
            return 40 + self.encoding()
        if self.take("TH") or self.take("TW") or self.take("GV"):
            return 40 + self.name()
        if self.take("TA"):
            return 40 + self.template_arg()
        if self.take("GTt") or self.take("GTn") or self.take("GA"):
            return 40 + self.encoding()
        raise ValueError("unknown special name")

    def name(self) -> int:
        self.ends_in_template = self.special_last = False
        if self.peek() == "N":
            return self.nested_name()
        if self.peek() == "Z":
            return self.local_name()
        if self.peek() == "S" and self.peek(1) != "t":
            size = self.substitution()
            if self.peek() != "I":
                raise ValueError("a substitution names no entity")
            size += self.template_args()
            self.ends_in_template = True
            return size
        size = self.unscoped_name()
        if self.peek() == "I":
            self.push(size)
            special = self.special_last
            size += self.template_args()
            self.ends_in_template, self.special_last = True, special
        return size

    def unscoped_name(self) -> int:
        size = 5 if self.take("St") else 0  # std::
        self.take("L")  # internal linkage
        return size + self.unqualified_name(0)

    def local_name(self) -> int:
        self.expect("Z")
        size = self.encoding()
        self.expect("E")
        if self.take("s"):
            size += 16  # ::string literal
        else:
            if self.take("d"):
                if self.peek() != "_":
                    self.number()
                self.expect("_")
                size += 16  # {default arg#N}
            size += self.name()
        if self.peek() == "_":  # discriminator: _N or __N_
            self.at += 1
            if self.take("_"):
                self.number()
                self.expect("_")
            else:
                self.number()
        return size + 2

    def nested_name(self) -> int:
        self.expect("N")
        size = 0
        while self.peek() in ("r", "V", "K"):
            self.at += 1
            size += _QUALIFIER
        if self.take("R") or self.take("O"):
            size += 3
        so_far, pushed = 0, False
        while not self.take("E"):
            self.take("L")
            if self.take("M"):  # closure prefix: the member whose initializer holds the lambda
                continue
            self.ends_in_template = self.special_last = False
            char = self.peek()
            if char == "T":
                so_far += self.template_param() + 2
            elif char == "I":
                if not so_far:
                    raise ValueError("template arguments without a template")
                special = self.special_last
                so_far += self.template_args()
                self.ends_in_template, self.special_last = True, special
            elif char == "D" and self.peek(1) in ("t", "T"):
                so_far += self.decltype() + 2
            elif char == "S":
                if so_far:
                    raise ValueError("a substitution after a prefix")
                so_far = 5 if self.take("St") else self.substitution()
                continue
            else:
                so_far += self.unqualified_name(so_far) + 2
            self.push(so_far)
            pushed = True
        if not pushed:
            raise ValueError("an empty nested name")
        self.subs.pop()  # the whole name is no candidate
        return self.bounded(size + so_far)

    def unqualified_name(self, scope: int) -> int:
        """`scope`: the size of the enclosing name, which a constructor repeats."""
        char = self.peek()
        self.special_last = False
        if char.isdigit():
            size = self.source_name()
        elif char == "C" and self.peek(1) in ("1", "2", "3", "4", "5", "I"):
            self.at += 2 if self.peek(1) != "I" else 3
            if self.text[self.at - 2 : self.at] == "CI":
                self.type()  # the base class of an inheriting constructor
            size, self.special_last = scope, True
        elif char == "D" and self.peek(1) in ("0", "1", "2", "3", "4", "5"):
            self.at += 2
            size, self.special_last = scope + 1, True
        elif char == "U":
            size = self.unnamed_type_name()
        elif char == "D" and self.peek(1) == "C":  # a structured binding: [a, b]
            self.at += 2
            size = 2
            while not self.take("E"):
                size += self.source_name() + 2
        else:
            size = self.operator_name()
        while self.take("B"):  # [abi:cxx11]
            size += self.source_name() + 6
        return self.bounded(size)

    def source_name(self) -> int:
        start = self.at
        while self.peek().isdigit():
            self.at += 1
        if start == self.at:
            raise ValueError("a source name expected")
        length = int(self.text[start : self.at])
        if length <= 0 or self.at + length > len(self.text):
            raise ValueError("a source name past the end")
        identifier = self.text[self.at : self.at + length]
        self.at += length
        return 21 if identifier.startswith("_GLOBAL__N") else length  # (anonymous namespace)

    def unnamed_type_name(self) -> int:
        if self.take("Ut"):
            size = 16  # {unnamed type#N}
        elif self.take("Ul"):  # {lambda(int)#1}
            size = 12
            while self.peek() == "T" and self.peek(1) in _PARAM_DECLS:
                size += self.template_param_decl() + 2
            self.lambdas += 1
            if not self.take("v"):
                while self.peek() != "E":
                    size += self.type() + 2
            self.lambdas -= 1
            self.expect("E")
        else:
            raise ValueError("unknown unnamed type")
        if self.peek() != "_":
            size += self.number()
        self.expect("_")
        return size

    def operator_name(self) -> int:
        code = self.text[self.at : self.at + 2]
        if code == "cv":
            self.at += 2
            size = _OPERATOR + self.type()
            self.special_last = True
            return size
        if code == "li":
            self.at += 2
            return _OPERATOR + self.source_name()
        if code[:1] == "v" and code[1:].isdigit():
            self.at += 2
            return _OPERATOR + self.source_name()
        if code in _OPERATOR_NAMES:
            self.at += 2
            return _OPERATOR
        raise ValueError(f"unknown name at {self.at}")

    # --- substitutions and template parameters ---------------------------------------

    def substitution(self) -> int:
        self.expect("S")
        if self.peek() in _STD:
            self.at += 1
            return _ABBREVIATION
        index = 0 if self.peek() == "_" else self.seq_id() + 1
        self.expect("_")
        if index >= len(self.subs):
            raise ValueError("a substitution past the candidates")
        return self.subs[index]

    def template_param(self) -> int:
        self.expect("T")
        if self.take("L"):
            self.number()
            self.expect("_")
        index = 0 if self.peek() == "_" else self.seq_id_decimal() + 1
        self.expect("_")
        if index < len(self.widest):
            return self.widest[index]
        if self.lambdas:
            return _BUILTIN  # auto:1
        raise ValueError("a template parameter before its argument")  # a conversion operator's: rare

    def seq_id_decimal(self) -> int:
        start = self.at
        while self.peek().isdigit():
            self.at += 1
        return int(self.text[start : self.at])

    def template_param_decl(self) -> int:
        self.expect("T")
        kind = self.text[self.at]
        self.at += 1
        if kind == "n":
            return self.type() + 8
        if kind == "k":
            return self.name() + 8
        if kind == "t":
            size = 16
            while not self.take("E"):
                size += self.template_param_decl() + 2
            return size
        if kind == "p":
            return self.template_param_decl() + 3
        return 10  # Ty: typename $T

    def template_args(self) -> int:
        self.expect("I")
        size, index = 3, 0
        while not self.take("E"):
            argument = self.bounded(self.template_arg())
            if index == len(self.widest):
                self.widest.append(argument)
            self.widest[index] = max(self.widest[index], argument)
            size = self.bounded(size + argument + 2)
            index += 1
        return size

    def template_arg(self) -> int:
        char = self.peek()
        if char == "X":
            self.at += 1
            size = self.expression()
            self.expect("E")
            return size
        if char == "L":
            return self.expr_primary()
        if char == "J":
            self.at += 1
            size, count = 2, 0
            while not self.take("E"):
                size += self.template_arg() + 2
                count += 1
            self.widest_pack = max(self.widest_pack, count)
            return size
        if char == "T" and self.peek(1) in _PARAM_DECLS:
            return self.template_param_decl() + self.template_arg()
        return self.type()

    # --- types -----------------------------------------------------------------------

    def type(self) -> int:
        char, after = self.peek(), self.peek(1)
        if char in _BUILTINS:
            self.at += 1
            return _BUILTIN
        if char == "D":
            if after in _D_BUILTINS:
                self.at += 2
                return _BUILTIN
            if after == "F":
                return self.extended_float()
            if after in ("B", "U"):  # _BitInt(N)
                self.at += 2
                size = self.number() if self.peek().isdigit() else self.expression()
                self.expect("_")
                return size + _BUILTIN
            if after == "p":  # a pack expansion prints its pattern once per element
                self.at += 2
                return self.push(self.widest_pack * (self.type() + 2))
            if after in ("t", "T"):
                return self.push(self.decltype())
            if after == "v":
                self.at += 2
                if self.peek().isdigit():
                    size = self.number()
                else:
                    self.expect("_")
                    size = self.expression()
                self.expect("_")
                return self.push(size + self.type() + _QUALIFIER)
            if after in ("o", "O", "w", "x"):
                return self.push(self.function_type())
            raise ValueError("unknown D type")
        if char == "u":
            self.at += 1
            size = self.source_name()
            if self.peek() == "I":
                size += self.template_args()
            return self.push(size)
        if char in ("r", "V", "K", "U"):
            return self.push(self.qualified_type())
        if char == "F":
            return self.push(self.function_type())
        if char == "A":
            self.at += 1
            if self.peek().isdigit():
                size = self.number()
            elif self.peek() == "_":
                size = 0
            else:
                size = self.expression()
            self.expect("_")
            return self.push(size + self.type() + _QUALIFIER)
        if char == "M":
            self.at += 1
            size = self.type()
            return self.push(size + self.type() + _QUALIFIER)
        if char == "T":
            if after in ("s", "u", "e"):  # struct, union, enum
                self.at += 2
                return self.push(self.name() + 6)
            size = self.push(self.template_param())
            if self.peek() == "I":
                size = self.push(size + self.template_args())
            return size
        if char in ("P", "R", "O", "C", "G"):
            self.at += 1
            return self.push(self.type() + _QUALIFIER)
        if char == "S" and after != "t":
            size = self.substitution()
            if self.peek() == "I":
                size = self.push(size + self.template_args())
            return size
        return self.push(self.name())  # a class or enum

    def extended_float(self) -> int:
        start = self.at
        self.expect("DF")
        digits = self.seq_id_decimal() if self.peek().isdigit() else None
        if digits is None:
            raise ValueError("no width of a floating-point type")
        if self.take("_"):
            printed = f"_Float{digits}"
        elif self.take("x"):
            printed = f"_Float{digits}x"
        elif digits == 16 and self.take("b"):
            printed = "std::bfloat16_t"
        else:
            raise ValueError("an unknown floating-point type")
        self.floats.append((start, self.at, printed))
        return _BUILTIN

    def qualified_type(self) -> int:
        size = 0
        while self.take("U"):  # vendor qualifiers: U3AS1 (address spaces)
            size += self.source_name() + 1
            if self.peek() == "I":
                size += self.template_args()
        while self.peek() in ("r", "V", "K"):
            self.at += 1
            size += _QUALIFIER
        if self.peek() == "F":  # the qualifiers are the function's: its type is no candidate
            return size + self.function_type()
        return size + self.type()

    def function_type(self) -> int:
        size = 0
        if self.take("Do"):
            size += 9  # noexcept
        elif self.take("DO"):
            size += self.expression() + 12
            self.expect("E")
        elif self.take("Dw"):
            size += 8
            while not self.take("E"):
                size += self.type() + 2
        if self.take("Dx"):
            size += 18  # transaction_safe
        self.expect("F")
        self.take("Y")
        size += self.type() + _QUALIFIER
        while not self.take("E"):
            if self.take("v") and self.peek() in ("E", "R", "O"):
                continue
            if self.peek() in ("R", "O") and self.peek(1) == "E":
                self.at += 1
                size += 3
                continue
            size = self.bounded(size + self.type() + 2)
        return size

    def decltype(self) -> int:
        self.expect("D")
        self.at += 1  # t or T
        size = self.expression() + 12
        self.expect("E")
        return size

    # --- expressions -------------------------------------------------------------------

    def expr_primary(self) -> int:
        self.expect("L")
        if self.take("_Z") or self.take("Z"):
            size = self.encoding()
        else:
            size = self.type() + _PUNCTUATION
            start = self.at
            while self.peek() not in ("E", ""):
                self.at += 1
            size += self.at - start
        self.expect("E")
        return size

    def expressions_until_end(self) -> int:
        size = 0
        while not self.take("E"):
            size = self.bounded(size + self.braced_expression() + 2)
        return size

    def braced_expression(self) -> int:
        if self.take("di"):
            return self.source_name() + self.braced_expression() + 4
        if self.take("dx"):
            return self.expression() + self.braced_expression() + 4
        if self.take("dX"):
            return self.expression() + self.expression() + self.braced_expression() + 8
        return self.expression()

    def function_param(self) -> int:
        if self.take("fL"):
            self.number()
            self.expect("p")
        else:
            self.expect("fp")
        while self.peek() in ("r", "V", "K"):
            self.at += 1
        if self.peek() != "_":
            self.number()
        self.expect("_")
        return 16  # {parm#N}

    def expression(self) -> int:
        size = self.bounded(self._expression() + _PUNCTUATION)
        return size

    def _expression(self) -> int:
        char, code = self.peek(), self.text[self.at : self.at + 2]
        if char == "L":
            return self.expr_primary()
        if char == "T":
            return self.template_param()
        if code == "fp" or (code == "fL" and self.peek(2).isdigit()):
            return self.function_param()
        if code in ("fl", "fr", "fL", "fR"):  # folds
            self.at += 2
            operator = self.text[self.at : self.at + 2]
            if operator not in _OPERATORS:
                raise ValueError("a fold of no operator")
            self.at += 2
            size = self.expression() + 8
            return size + self.expression() if code in ("fL", "fR") else size
        global_scope = self.take("gs")
        if code in ("nw", "na") or (global_scope and self.text[self.at : self.at + 2] in ("nw", "na")):
            self.at += 2
            size = 16
            while not self.take("_"):
                size += self.expression() + 2
            size += self.type()
            if self.take("pi") or self.take("il"):
                size += self.expressions_until_end()
            else:
                self.expect("E")
            return size
        code = self.text[self.at : self.at + 2]
        if code == "cv":
            self.at += 2
            size = self.type() + _PUNCTUATION
            if self.take("_"):
                return size + self.expressions_until_end()
            return size + self.expression()
        if code in ("dc", "sc", "cc", "rc"):
            self.at += 2
            return 20 + self.type() + self.expression()
        if code in ("st", "at", "ti"):
            self.at += 2
            return 12 + self.type()
        if code == "tr":
            self.at += 2
            return 5
        if code == "sZ":
            self.at += 2
            return 12 + (self.template_param() if self.peek() == "T" else self.function_param())
        if code == "sP":
            self.at += 2
            size = 12
            while not self.take("E"):
                size += self.template_arg() + 2
            return size
        if code == "cl":
            self.at += 2
            return _PUNCTUATION + self.expression() + self.expressions_until_end()
        if code == "cp":
            self.at += 2
            return _PUNCTUATION + self.base_unresolved_name() + self.expressions_until_end()
        if code == "il":
            self.at += 2
            return _PUNCTUATION + self.expressions_until_end()
        if code == "tl":
            self.at += 2
            return _PUNCTUATION + self.type() + self.expressions_until_end()
        if code in ("dt", "pt"):
            self.at += 2
            return 4 + self.expression() + self.unresolved_name()
        if code in ("mc", "so"):
            self.at += 2
            size = _PUNCTUATION + self.type() + self.expression()
            if self.peek() not in ("E", "_"):
                size += self.number()
            while self.take("_"):
                size += self.number() if self.peek() not in ("E", "_", "p") else 0
            self.take("p")
            self.expect("E")
            return size
        if char == "u" and self.peek(1).isdigit():
            self.at += 1
            size = self.source_name() + _PUNCTUATION
            while not self.take("E"):
                size += self.template_arg() + 2
            return size
        if code in _OPERATORS:
            self.at += 2
            if code in ("pp", "mm"):
                self.take("_")
            size = _OPERATOR
            for _ in range(_OPERATORS[code]):
                size = self.bounded(size + self.expression())
            return size
        return self.unresolved_name()

    def unresolved_name(self) -> int:
        size = 2 if self.take("gs") else 0
        if not self.take("sr"):
            return size + self.base_unresolved_name()
        if self.take("N"):
            size += self.unresolved_type()
            if self.peek() == "I":
                size += self.template_args()
            while not self.take("E"):
                size += self.qualifier_level()
        elif self.peek().isdigit():
            while not self.take("E"):
                size += self.qualifier_level()
        else:
            size += self.unresolved_type()
            if self.peek() == "I":
                size += self.template_args()
        return size + self.base_unresolved_name()

    def unresolved_type(self) -> int:
        if self.peek() in ("T", "D", "S"):
            return self.type() + 2
        raise ValueError("an unresolved type expected")

    def qualifier_level(self) -> int:
        size = self.source_name() + 2
        if self.peek() == "I":
            size += self.template_args()
        return size

    def base_unresolved_name(self) -> int:
        if self.peek().isdigit():
            size = self.source_name()
        elif self.take("on"):
            size = self.operator_name()
        elif self.take("dn"):
            size = 1 + (self.source_name() if self.peek().isdigit() else self.unresolved_type())
        else:
            raise ValueError(f"an unresolved name expected at {self.at}")
        if self.peek() == "I":
            size += self.template_args()
        return size
