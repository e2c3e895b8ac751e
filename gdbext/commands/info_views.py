"""``info kernels``, ``info dispatches`` and ``info devices``: the program's
kernels, its dispatches, and the simulated devices with their streams."""

from __future__ import annotations

import os
import re

import gdb

from device.debug_interface import STREAM_NON_BLOCKING, CodeObjectOrigin, DispatchState, StreamState, Version
from gdbext.errors import one_line_errors
from gdbext.runtime_view import program_analyses, runtime_state
from symbols import fast_form_reasons
from text_tables import table_lines

#: gpusym_code_object_origin values of modules loaded at run time.
_MODULE_ORIGINS = {CodeObjectOrigin.MODULE_FILE: "hipModuleLoad", CodeObjectOrigin.MODULE_IMAGE: "hipModuleLoadData"}


def _code_objects() -> dict[str, tuple[str, dict[str, int]]]:
    """While the simulated runtime runs: for each loaded code object, by the
    file gdb reads its kernels from (the host binary of a fat binary, the
    extracted file of a module), its name for users and its launches per
    kernel device name."""
    debug = runtime_state.debug_state()
    if debug is None:
        return {}
    by_id: dict[int, tuple[str, dict[str, int]]] = {}
    found: dict[str, tuple[str, dict[str, int]]] = {}
    for index in range(int(debug["code_object_count"])):
        record = debug["code_objects"][index]
        if not int(record["loaded"]):
            continue
        host_path = record["host_path"].string()
        has_origin = runtime_state.supports(debug, Version.MODULES)
        origin = int(record["origin"]) if has_origin else CodeObjectOrigin.FAT_BINARY
        if origin in _MODULE_ORIGINS:
            if not int(record["path"]):
                continue
            shown = os.path.basename(host_path) if host_path else "image"
            entry = (f"{shown} (module {int(record['module_id'])})", {})
            found[os.path.realpath(record["path"].string())] = entry
        else:
            entry = found.setdefault(os.path.realpath(host_path), (os.path.basename(host_path), {}))
        by_id[int(record["module_id"])] = entry
    for module_id, name, launches in runtime_state.launched_kernels(debug):
        entry = by_id.get(module_id)
        if entry is not None:
            entry[1][name] = entry[1].get(name, 0) + launches
    return found


class InfoKernels(gdb.Command):
    """List the program's GPU kernels (gpusym): info kernels [REGEX]

    For each kernel: the file it comes from (a host binary, or a module the
    program loaded at run time: the same kernel in two modules is two kernels),
    its host stub, its handle (variable, function, the stub itself, or none for a
    module's), the targets of the device code objects holding it, while the
    simulated runtime runs how many times it was launched, and whether the
    simulated device's code has a fast form of it (a block's threads as one
    loop), and if not why."""

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
        analyses = program_analyses.analyses()
        if not analyses:
            print("No GPU code in the program.")
            return
        loaded = _code_objects()
        rows = []
        for analysis in analyses:
            path = analysis.report.path
            module, counts = loaded.get(os.path.realpath(path), (os.path.basename(path), None))
            reasons = fast_form_reasons.reasons(path, analysis.report.code_objects)
            for kernel in analysis.report.kernels:
                if pattern and not (pattern.search(kernel.demangled) or pattern.search(kernel.name)):
                    continue
                targets = ", ".join(sorted({d.target for d in kernel.device})) or "none"
                launches = str(counts.get(kernel.name, 0)) if counts is not None else "-"
                stub = "yes" if kernel.stub else "no"
                handle = kernel.handle.kind if kernel.handle else "none"
                why = reasons.get(kernel.name)
                fast = "-" if why is None else f"no: {why}" if why else "yes"
                rows.append((kernel.demangled, module, stub, handle, targets, launches, fast))
        if not rows:
            print(f"No kernel matches '{argument.strip()}'.")
            return
        _print_table([("Kernel", "Module", "Stub", "Handle", "Device code", "Launches", "Fast form"), *rows])


class InfoDispatches(gdb.Command):
    """List the simulated device's dispatches (gpusym): info dispatches [all]

    Queued and running dispatches and the last ten completed (all: every one the
    runtime still remembers), with kernel, grid, block, dynamic shared memory,
    device, stream ('null' or the stream's id, as info devices lists them),
    state, the host thread that launched it, and the form its blocks run in
    (fast: a block's threads as one loop, with the blocks that faulted and ran
    again in the debuggable form; debug: the debuggable form).  '*' marks the dispatch of the
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
            done = [r for r in records if int(r["state"]) == DispatchState.COMPLETE]
            records = [r for r in records if int(r["state"]) != DispatchState.COMPLETE or r in done[-10:]]
        if not records:
            print("No dispatches yet.")
            return
        current = runtime_state.lane()
        focus = int(current["dispatch_id"]) if current is not None else 0
        rows = [("", "Id", "State", "Kernel", "Grid", "Block", "Shmem", "Device", "Stream", "Host thread", "Form")]
        for record in records:
            rows.append(
                (
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
                    runtime_state.dispatch_form(debug, record),
                )
            )
        _print_table(rows)


def _print_table(rows: list[tuple[str, ...]]) -> None:
    print("\n".join(table_lines(rows)))


def _bytes(count: int) -> str:
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if count >= size:
            return f"{count / size:.1f} {unit}"
    return f"{count} bytes"


class InfoDevices(gdb.Command):
    """List the simulated devices and their streams (gpusym): info devices

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
        if not runtime_state.supports(debug, Version.DEVICES):
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
            rows.append(
                (
                    "*" if ordinal == selected else "",
                    str(ordinal),
                    device["name"].string(),
                    str(int(device["stream_count"])),
                    str(work.get((ordinal, DispatchState.QUEUED), 0)),
                    str(work.get((ordinal, DispatchState.RUNNING), 0)),
                    f"{allocations} ({_bytes(int(device['allocated_bytes']))})" if allocations else "0",
                )
            )
        _print_table(rows)
        print()
        rows = [("Stream", "Device", "Handle", "Flags", "Pending")]
        for stream in runtime_state.streams(debug):
            flags = "non-blocking" if int(stream["flags"]) & STREAM_NON_BLOCKING else "blocking"
            if int(stream["state"]) == StreamState.DESTROYED:
                flags += ", destroyed"
            rows.append(
                (
                    runtime_state.stream_name(stream),
                    str(int(stream["device"])),
                    f"{int(stream['handle']):#x}",
                    flags,
                    str(int(stream["pending"])),
                )
            )
        _print_table(rows)
