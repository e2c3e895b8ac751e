"""``info kernels``: the program's kernels, where they live, how often launched."""

from __future__ import annotations

import re

import gdb

from gdbext import program, runtime_state
from gdbext.errors import one_line_errors


def _launch_counts() -> dict[str, int]:
    """Launches per kernel device name, from the simulated runtime, if running."""
    debug = runtime_state.debug_state()
    if debug is None:
        return {}
    counts: dict[str, int] = {}
    kernels = debug["kernels"]
    for index in range(int(debug["kernel_count"])):
        record = kernels[index]
        name = record["device_name"].string()
        counts[name] = counts.get(name, 0) + int(record["launch_count"])
    return counts


class InfoKernels(gdb.Command):
    """List the program's GPU kernels: info kernels [REGEX]

For each kernel: its host stub, its handle (variable, function, or the stub
itself), the targets of the device code objects holding it, and, while the
simulated runtime runs, how many times it was launched."""

    def __init__(self) -> None:
        super().__init__("info kernels", gdb.COMMAND_STATUS)

    def invoke(self, argument: str, from_tty: bool) -> None:
        with one_line_errors("info kernels"):
            self._list(argument)

    def _list(self, argument: str) -> None:
        try:
            pattern = re.compile(argument.strip()) if argument.strip() else None
        except re.error as error:
            raise gdb.GdbError(f"info kernels: bad regular expression: {error}") from None
        analyses = program.analyses()
        if not analyses:
            print("No GPU code in the program.")
            return
        counts = _launch_counts()
        rows = []
        for analysis in analyses:
            for kernel in analysis.report.kernels:
                if pattern and not (pattern.search(kernel.demangled) or pattern.search(kernel.name)):
                    continue
                targets = ", ".join(sorted({d.target for d in kernel.device})) or "none"
                launches = str(counts.get(kernel.name, 0)) if counts else "-"
                stub = "yes" if kernel.stub else "no"
                handle = kernel.handle.kind if kernel.handle else "none"
                rows.append((kernel.demangled, stub, handle, targets, launches))
        if not rows:
            print(f"No kernel matches '{argument.strip()}'.")
            return
        headers = ("Kernel", "Stub", "Handle", "Device code", "Launches")
        widths = [max(len(r[i]) for r in rows + [headers]) for i in range(len(headers) - 1)]
        for row in [headers, *rows]:
            print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)) + "  " + row[-1])


class InfoDispatches(gdb.Command):
    """List the simulated device's dispatches: info dispatches [all]

Queued and running dispatches and the last ten completed (all: every one the
runtime still remembers), with kernel, grid, block, dynamic shared memory,
stream, device, state and the host thread that launched it.  '*' marks the
dispatch of the simulated thread the selected thread runs."""

    def __init__(self) -> None:
        super().__init__("info dispatches", gdb.COMMAND_STATUS)

    def invoke(self, argument: str, from_tty: bool) -> None:
        with one_line_errors("info dispatches"):
            self._list(argument.strip())

    def _list(self, argument: str) -> None:
        if argument not in ("", "all"):
            raise gdb.GdbError("usage: info dispatches [all]")
        debug = runtime_state.debug_state()
        if debug is None:
            print("No simulated runtime in the program (or it is not running).")
            return
        records = runtime_state.dispatches(debug)
        if argument != "all":
            done = [r for r in records if int(r["state"]) == 3]
            records = [r for r in records if int(r["state"]) != 3 or r in done[-10:]]
        if not records:
            print("No dispatches yet.")
            return
        current = runtime_state.lane()
        focus = int(current["dispatch_id"]) if current is not None else 0
        rows = [("", "Id", "State", "Kernel", "Grid", "Block", "Shmem", "Stream", "Device", "Host thread")]
        for record in records:
            rows.append((
                "*" if int(record["id"]) == focus else "",
                str(int(record["id"])),
                runtime_state.DISPATCH_STATES.get(int(record["state"]), "?"),
                runtime_state.kernel_name(debug, int(record["kernel_index"])),
                runtime_state.dim3(record["grid"]),
                runtime_state.dim3(record["block"]),
                str(int(record["shared_mem"])),
                f"{int(record['stream']):#x}",
                str(int(record["device"])),
                str(int(record["host_thread"])),
            ))  # fmt: skip
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
        for row in rows:
            print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())
