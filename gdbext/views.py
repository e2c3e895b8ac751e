"""``info kernels``, ``info dispatches`` and ``info devices``: the program's
kernels, its dispatches, and the simulated devices with their streams."""

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
device, stream ('null' or the stream's id, as info devices lists them),
state and the host thread that launched it.  '*' marks the dispatch of the
simulated thread the selected thread runs."""

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
        rows = [("", "Id", "State", "Kernel", "Grid", "Block", "Shmem", "Device", "Stream", "Host thread")]
        for record in records:
            rows.append((
                "*" if int(record["id"]) == focus else "",
                str(int(record["id"])),
                runtime_state.DISPATCH_STATES.get(int(record["state"]), "?"),
                runtime_state.kernel_name(debug, int(record["kernel_index"])),
                runtime_state.dim3(record["grid"]),
                runtime_state.dim3(record["block"]),
                str(int(record["shared_mem"])),
                str(int(record["device"])),
                runtime_state.dispatch_stream(debug, record),
                str(int(record["host_thread"])),
            ))  # fmt: skip
        _print_table(rows)


def _print_table(rows: list[tuple[str, ...]]) -> None:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())


def _bytes(count: int) -> str:
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if count >= size:
            return f"{count / size:.1f} {unit}"
    return f"{count} bytes"


class InfoDevices(gdb.Command):
    """List the simulated devices and their streams: info devices

For each device: its ordinal and name, its streams, its dispatches queued and
running, and the allocations made on it.  '*' marks the device of the
selected thread: the device of the dispatch whose simulated thread it runs,
else the thread's current device (hipSetDevice).  Then every stream: its id
('null' for a device's null stream), device, handle (the program's
hipStream_t), flags and the operations it has queued or running (kernels,
copies, event records and waits)."""

    def __init__(self) -> None:
        super().__init__("info devices", gdb.COMMAND_STATUS)

    def invoke(self, argument: str, from_tty: bool) -> None:
        with one_line_errors("info devices"):
            if argument.strip():
                raise gdb.GdbError("usage: info devices")
            self._list()

    def _list(self) -> None:
        debug = runtime_state.debug_state()
        if debug is None:
            print("No simulated runtime in the program (or it is not running).")
            return
        if not runtime_state.has_devices(debug):
            print("The program's runtime has one device and only the null stream (debug interface before version 3).")
            return
        selected = runtime_state.thread_device(debug)
        work: dict[tuple[int, int], int] = {}
        for record in runtime_state.dispatches(debug):
            key = (int(record["device"]), int(record["state"]))
            work[key] = work.get(key, 0) + 1
        rows = [("", "Device", "Name", "Streams", "Queued", "Running", "Allocations")]
        for device in runtime_state.devices(debug):
            ordinal = int(device["ordinal"])
            allocations = int(device["allocation_count"])
            rows.append((
                "*" if ordinal == selected else "",
                str(ordinal),
                device["name"].string(),
                str(int(device["stream_count"])),
                str(work.get((ordinal, 1), 0)),
                str(work.get((ordinal, 2), 0)),
                f"{allocations} ({_bytes(int(device['allocated_bytes']))})" if allocations else "0",
            ))  # fmt: skip
        _print_table(rows)
        print()
        rows = [("Stream", "Device", "Handle", "Flags", "Pending")]
        for stream in runtime_state.streams(debug):
            flags = "non-blocking" if int(stream["flags"]) & runtime_state.STREAM_NON_BLOCKING else "blocking"
            if int(stream["state"]) == runtime_state.STREAM_DESTROYED:
                flags += ", destroyed"
            rows.append((
                runtime_state.stream_name(stream),
                str(int(stream["device"])),
                f"{int(stream['handle']):#x}",
                flags,
                str(int(stream["pending"])),
            ))  # fmt: skip
        _print_table(rows)
