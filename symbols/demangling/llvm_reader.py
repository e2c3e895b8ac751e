"""Reading a mangled name: the cursor and the lexical pieces (numbers,
source names, qualifiers, discriminators) of LLVM 19's Itanium demangler,
which `symbols.demangling.llvm_demangle` ports."""

from __future__ import annotations

import re

from symbols.demangling import llvm_nodes as n


class Fail(Exception):
    """The name is outside the grammar (LLVM's parser returns nullptr)."""


def is_digit(char: str) -> bool:
    return "0" <= char <= "9"


_DIGITS = re.compile(r"[0-9]+")  # C's isdigit: not str.isdigit, which takes other scripts' digits too
_SEQ_ID = re.compile(r"[0-9A-Z]+")


class Reader:
    """A cursor in the name; past its end the text reads as NULs, as LLVM's look() answers."""

    def __init__(self, text: str) -> None:
        self.text, self.at, self.end = text + "\0\0\0\0", 0, len(text)

    def look(self, ahead: int = 0) -> str:
        return self.text[self.at + ahead]

    def take(self, prefix: str) -> bool:
        if self.text.startswith(prefix, self.at):
            self.at += len(prefix)
            return True
        return False

    def need(self, prefix: str) -> None:
        if not self.take(prefix):
            raise Fail

    def number(self, negative: bool = False) -> str:
        """parseNumber: digits (after an ``n`` if `negative`), "" when none."""
        start = self.at
        if negative and self.text[start] == "n":
            self.at += 1
        digits = _DIGITS.match(self.text, self.at)
        if digits is None:
            return ""
        self.at = digits.end()
        return self.text[start : self.at]

    def positive(self) -> int:
        """parsePositiveInteger (any digits); fails without one."""
        digits = _DIGITS.match(self.text, self.at)
        if digits is None:
            raise Fail
        self.at = digits.end()
        return int(digits.group())

    def bare_source_name(self) -> str:
        length = self.positive()
        if self.end - self.at < length:
            raise Fail
        self.at += length
        return self.text[self.at - length : self.at]

    def cv_qualifiers(self) -> int:
        if self.text[self.at] not in "rVK":
            return 0
        quals = 0
        if self.take("r"):
            quals |= n.RESTRICT
        if self.take("V"):
            quals |= n.VOLATILE
        if self.take("K"):
            quals |= n.CONST
        return quals

    def seq_id(self) -> int | None:
        """A base-36 number of digits and capital letters; None without one."""
        found = _SEQ_ID.match(self.text, self.at)
        if found is None:
            return None
        self.at = found.end()
        return int(found.group(), 36)

    def discriminator(self) -> None:
        """parse_discriminator: ``_N``, ``__NN_``, or digits ending the name."""
        text, at = self.text, self.at
        if at < self.end and text[at] == "_":
            follow = at + 1
            if follow < self.end:
                if is_digit(text[follow]):
                    self.at = follow + 1
                elif text[follow] == "_":
                    follow += 1
                    while follow < self.end and is_digit(text[follow]):
                        follow += 1
                    if follow < self.end and text[follow] == "_":
                        self.at = follow + 1
        elif at < self.end and is_digit(text[at]):
            follow = at + 1
            while follow < self.end and is_digit(text[follow]):
                follow += 1
            if follow == self.end:
                self.at = self.end
