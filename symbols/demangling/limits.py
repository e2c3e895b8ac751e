"""What every demangler of gpusym reads: Itanium-ABI names only, and how
long they may print (real names print at most about 20 times as long as
they are mangled, and a crafted one of 300 characters would print 35 GB,
crafted.pairs_name)."""

from __future__ import annotations

#: How every name a demangler reads starts; it leaves the others as they are.
MANGLED_PREFIX = "_Z"
#: A demangled name prints at most this many times its mangled length...
OUTPUT_RATIO = 64
#: ...plus this many characters.
OUTPUT_SLACK = 4096


def printed_limit(mangled: str) -> int:
    """The most characters `mangled` may print as; past it, a demangler
    leaves it mangled."""
    return OUTPUT_RATIO * len(mangled) + OUTPUT_SLACK
