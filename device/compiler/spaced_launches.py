"""Kernel launches spelled ``kernel<< <grid, block>> >(args)``, which nvcc
takes and clang-19 does not.

nvcc reads ``<< <`` and ``>> >`` around a launch's configuration as ``<<<``
and ``>>>`` (Rodinia's particlefilter spells its launches so); clang takes
only the tokens unbroken ("expected expression").  A compile that fails so,
of a source spelling a launch apart, is preprocessed and compiled again
(hip_source.py, as for PTX's constraint letters) with each such launch's
brackets joined.  ``>> >`` alone is left as it is: it also closes nested
templates."""

from __future__ import annotations

import re
from pathlib import Path

_ERROR = re.compile(r"error: expected expression")
_APART = re.compile(r"<<\s+<")
#: A launch's configuration between its brackets, either spelled apart:
#: single < and > may appear in it (a template argument, a comparison), a
#: statement's end may not.
_LAUNCH = re.compile(r"<<\s*<(?P<configuration>(?:[^;<>]|<(?!<)|>(?!>))*?)>>\s*>(?=\s*\()")


def failed_on_spaced_launch(stderr: str, source: Path) -> bool:
    """Whether a compile of `source` failed where it may spell a launch apart."""
    if not _ERROR.search(stderr):
        return False
    try:
        return bool(_APART.search(source.read_text("latin-1")))
    except OSError:
        return False


def portable(source: str) -> str:
    """`source` (preprocessed) with each launch's brackets unbroken."""
    return _LAUNCH.sub(lambda launch: f"<<<{launch['configuration']}>>>", source)
