"""``gpusym query`` for people: a table of kernels, one line each, or for a
big binary a summary (targets, kernels per target, the gaps, the largest
kernels).

Both read one binary's report (``gpusym.query`` applies the filters to it)
and yield lines, so a binary is written out as soon as it is read and no
line waits for the others.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from symbols.model import BinaryReport, Kernel

#: A binary with more kernels than this (after --kernel and --target) is
#: summarised on a terminal unless --table asks for every row: four screens
#: of a table are more than a person reads.
BIG = 200
#: Targets a row names one by one; a kernel on more shows a count.
LISTED_TARGETS = 4
LARGEST = 10  # kernels in a summary's list of the largest
GAPS_SHOWN = 3  # kernels named per target in a summary's gaps

_YELLOW, _RED, _PLAIN = "\x1b[33m", "\x1b[31m", "\x1b[0m"


class Style:
    """Colours on a terminal, plain text elsewhere; names cut to `width`
    (0: never cut)."""

    def __init__(self, color: bool, width: int = 0) -> None:
        self.color, self.width = color, width

    def warn(self, text: str, colour: str = _YELLOW) -> str:
        return f"{colour}{text}{_PLAIN}" if self.color else text

    def fit(self, text: str, used: int) -> str:
        """`text` in the rest of a line of which `used` columns are taken:
        long names keep their start and their end."""
        room = max(self.width - used, 24)
        if not self.width or len(text) <= room:
            return text
        end = (room - 1) // 3
        return text[: room - 1 - end] + "…" + text[len(text) - end :]


def is_big(report: BinaryReport) -> bool:
    return len(report.kernels) > BIG


def kernel_targets(report: BinaryReport) -> list[str]:
    """The targets of the binary's code objects that have kernels, in the
    order of the code objects (as ``missing_targets`` counts them)."""
    present = {d.target for kernel in report.kernels for d in kernel.device}
    return [t for t in dict.fromkeys(c.target for c in report.code_objects) if t in present]


def _targets(report: BinaryReport) -> list[str]:
    """Each code object's target (its triple when unknown), once each."""
    return list(dict.fromkeys(c.target or c.triple for c in report.code_objects))


def _title(report: BinaryReport) -> str:
    if not report.code_objects:
        return f"{report.path} ({report.format}; no GPU code objects)"
    targets = _targets(report)
    shown = ", ".join(targets) if targets else "none"
    return f"{report.path} ({report.format}; {len(report.code_objects)} code objects for {shown})"


def _device(kernel: Kernel, everywhere: int, style: Style) -> str:
    """Where the kernel has device code: its targets (each once), or ``all N
    targets``, and the binary's targets it lacks as ``missing_targets``
    lists them."""
    present = list(dict.fromkeys(d.target for d in kernel.device))
    missing = kernel.missing_targets
    if not present:
        text = style.warn("no device code", _RED)
    elif not missing and len(present) == everywhere and everywhere > LISTED_TARGETS:
        text = f"all {everywhere} targets"
    elif len(present) > LISTED_TARGETS:
        text = f"{len(present)} targets"
    else:
        text = ", ".join(present)
    if missing:
        text += " " + style.warn(f"(missing: {', '.join(missing)})")
    return text


def table(report: BinaryReport, roles: list[str] | None, style: Style) -> Iterator[str]:
    """Every kernel, one line each: whether it has a stub, its handle's
    kind, its name, and its device code in brackets."""
    yield _title(report)
    everywhere = len(kernel_targets(report))
    none = style.warn("none")
    if report.kernels:
        yield f"  {'stub':<5} {'handle':<9} kernel [device code]"
    for kernel in report.kernels:
        stub = "yes  " if kernel.stub else none + " "
        handle = f"{kernel.handle.kind:<9}" if kernel.handle else none + "     "
        yield f"  {stub} {handle} {kernel.demangled}  [{_device(kernel, everywhere, style)}]"
    yield from _tail(report, roles, style)


def summary(report: BinaryReport, roles: list[str] | None, style: Style) -> Iterator[str]:
    """What a big binary holds, in a screen: its targets and kernels per
    target, the kernels some targets lack, and the largest kernels."""
    kernels = report.kernels
    yield _title(report)
    per_target = Counter(t for k in kernels for t in dict.fromkeys(d.target for d in k.device))
    targets = _targets(report)
    yield f"  {len(kernels)} kernels; per target: " + ", ".join(f"{t} {per_target.get(t, 0)}" for t in targets)
    lacking: dict[str, list[Kernel]] = {}
    for kernel in kernels:
        for target in kernel.missing_targets:
            lacking.setdefault(target, []).append(kernel)
    without = [k for k in kernels if not k.device]
    if not lacking and not without:
        yield "  gaps: none (every kernel has code for every target)"
    else:
        gapped = sum(1 for k in kernels if k.missing_targets)
        yield f"  gaps: {gapped} kernels lack some targets" + (
            f", {len(without)} have no device code" if without else ""
        )
        for target, missing in sorted(lacking.items(), key=lambda item: -len(item[1])):
            head = f"    {target}: {len(missing)} missing, e.g. "
            yield head + style.fit("; ".join(k.demangled for k in missing[:GAPS_SHOWN]), len(head))
    sized = [(max(d.size for d in k.device), k) for k in kernels if k.device]
    sized.sort(key=lambda item: -item[0])
    if sized and sized[0][0]:
        yield "  largest kernels (bytes of code, on the target where largest):"
        for size, kernel in sized[:LARGEST]:
            target = max(kernel.device, key=lambda d: d.size).target
            head = f"    {size:>9}  {target:<8} "
            yield head + style.fit(kernel.demangled, len(head))
    yield f"  the table of all {len(kernels)} kernels: --table; some of them: --kernel REGEX"
    yield from _tail(report, roles, style)


def _tail(report: BinaryReport, roles: list[str] | None, style: Style) -> Iterator[str]:
    yield f"  device functions: {len(report.device_functions)}, device variables: {len(report.device_variables)}"
    if roles:
        for symbol in report.host_symbols:
            yield f"  {symbol.role.value:<16} {symbol.demangled}"
    for note in report.notes:
        yield f"  {style.warn('note:')} {note}"
