"""Reading the simulated runtime's debugger interface (gpusym/debug_interface.h)."""

from __future__ import annotations

import gdb

from gdbext.functions import lane
from symbols.demangle import demangle

DISPATCH_SLOTS = 1024
DISPATCH_STATES = {1: "queued", 2: "running", 3: "complete"}


def debug_state() -> gdb.Value | None:
    """The runtime's gpusym_debug structure, or None without the runtime."""
    try:
        value = gdb.parse_and_eval("gpusym_debug")
        return value if int(value["version"]) >= 1 else None
    except gdb.error:
        return None


def kernel_name(debug: gdb.Value, index: int) -> str:
    name = debug["kernels"][index]["device_name"].string()
    return demangle(name) or name


def dispatches(debug: gdb.Value) -> list[gdb.Value]:
    """Dispatch records still in the ring, oldest first."""
    count = int(debug["dispatch_count"])
    records = [debug["dispatches"][slot] for slot in range(min(count, DISPATCH_SLOTS))]
    return sorted((r for r in records if int(r["state"]) != 0), key=lambda r: int(r["id"]))


def dim3(value: gdb.Value) -> str:
    return f"({int(value['x'])},{int(value['y'])},{int(value['z'])})"


def set_lane_variables() -> None:
    """$_kernel, $_dispatch, $_block and $_thread for the selected thread's lane."""
    current = lane()
    debug = debug_state()
    if current is None or debug is None:
        return
    number = int(current["dispatch_id"])
    record = debug["dispatches"][(number - 1) % DISPATCH_SLOTS]
    if int(record["id"]) == number:
        gdb.set_convenience_variable("_kernel", kernel_name(debug, int(record["kernel_index"])))
    gdb.set_convenience_variable("_dispatch", number)
    gdb.set_convenience_variable("_block", current["block_idx"])
    gdb.set_convenience_variable("_thread", current["thread_idx"])
