"""Why a simulated GPU thread stopped with a signal: what gdb knows of it,
gathered for device/fault_description.py, which says it in the
runtime's words.

SIGSEGV or SIGBUS in a lane: the signal's address, the stack pointer, the
faulting instruction and the runtime's allocation table
(gpusym/debug_interface.h); gdb sees the signal before the runtime's
handler runs.  SIGABRT in a lane: the device ``assert`` or ``abort`` the
runtime recorded in ``gpusym_debug.fault`` before aborting.
"""

from __future__ import annotations

import gdb

from device.debug_interface import Access, AllocationState, FaultKind, FreedBy, MadeBy, Version
from device.fault_description import (
    MEMORY_SIGNALS,
    Allocation,
    Assertion,
    Fault,
    Instruction,
    MemorySignal,
    checked_fault,
    memory_fault,
    recorded_fault,
)
from gdbext.commands.checks import access_frame
from gdbext.runtime_view import runtime_state

_REGISTER_MASK = 2**64 - 1


def _allocations(debug: gdb.Value) -> list[Allocation]:
    """The runtime's live and remembered freed allocations, by address (interface version FAULTS)."""
    count, table = int(debug["allocation_count"]), debug["allocations"]
    if count == 0 or int(table) == 0:
        return []
    made_by = ("made_by",) if runtime_state.supports(debug, Version.MADE_BY) else ()
    records = runtime_state.read_records(table, count, ("base", "size", "state", "freed_by", *made_by))
    found = [
        Allocation(
            r["base"],
            r["size"],
            AllocationState(r["state"]),
            FreedBy.RESET if r["freed_by"] == FreedBy.RESET else FreedBy.FREE,
            MadeBy(r.get("made_by", MadeBy.HIP_MALLOC)),
        )
        for r in records
        if r["state"] in (AllocationState.LIVE, AllocationState.FREED)
    ]
    return sorted(found, key=lambda a: a.base)


def _instruction(frame: gdb.Frame) -> Instruction | None:
    try:
        text = frame.architecture().disassemble(frame.pc())[0]["asm"]
        rdi, rsi = (int(frame.read_register(name)) & _REGISTER_MASK for name in ("rdi", "rsi"))
    except (gdb.error, gdb.MemoryError):
        return None
    return Instruction(text, gdb.parameter("disassembly-flavor") == "intel", rdi, rsi)


def _siginfo() -> tuple[int, int] | None:
    """si_code and si_addr of the selected thread's signal."""
    try:
        info = gdb.parse_and_eval("$_siginfo")
        return int(info["si_code"]), int(info["_sifields"]["_sigfault"]["si_addr"])
    except gdb.error:
        return None


def _recorded(debug: gdb.Value) -> gdb.Value | None:
    """The runtime's fault record, when the selected thread made it."""
    if not runtime_state.supports(debug, Version.FAULTS) or int(debug["fault"]) == 0:
        return None
    record = debug["fault"].dereference()
    return record if int(record["os_thread"]) == gdb.selected_thread().ptid[1] else None


def _recorded_access(recorded: gdb.Value | None, address: int) -> Access | None:
    """The access in the runtime's record of the fault at `address`; None
    when its handler has not recorded that fault."""
    if recorded is None or int(recorded["address"]) != address:
        return None
    access = int(recorded["access"])
    return Access(access) if access in (Access.READ, Access.WRITE) else Access.UNKNOWN


def memory_signal(signal: str) -> MemorySignal | None:
    """What gdb knows of the selected thread's SIGSEGV or SIGBUS."""
    siginfo = _siginfo()
    debug = runtime_state.debug_state()
    if siginfo is None or debug is None:
        return None
    code, address = siginfo
    frame = gdb.newest_frame()
    has_faults = runtime_state.supports(debug, Version.FAULTS)
    base, size = (int(debug["device_memory_base"]), int(debug["device_memory_size"])) if has_faults else (0, 0)
    return MemorySignal(
        signal=signal,
        code=code,
        address=address,
        stack_pointer=int(frame.read_register("rsp")) & _REGISTER_MASK,
        stack_size=int(debug["lane_stack_size"]) if has_faults else None,
        recorded_access=_recorded_access(_recorded(debug), address),
        instruction=_instruction(frame),
        allocations=_allocations(debug) if has_faults else None,
        device_memory=(base, base + size),
    )


def _string(value: gdb.Value) -> str | None:
    return value.string() if int(value) != 0 else None


def _assert_or_abort() -> Fault | None:
    """The device assert or abort the selected thread's lane reported."""
    debug = runtime_state.debug_state()
    record = _recorded(debug) if debug is not None else None
    if record is None:
        return None
    kind = int(record["kind"])
    assertion = None
    if kind == FaultKind.ASSERTION:
        assertion = Assertion(
            _string(record["assertion"]), _string(record["file"]), int(record["line"]), _string(record["function"])
        )
    return recorded_fault(kind, assertion)


def _checked_access(signal: str) -> Fault | None:
    """The access a check of the runtime found invalid, when the selected
    thread's signal is the one the runtime sent itself after reporting it
    (the signal's own address is then no access's)."""
    siginfo = _siginfo()
    debug = runtime_state.debug_state()
    record = _recorded(debug) if debug is not None and siginfo is not None and siginfo[0] <= 0 else None
    if record is None or int(record["kind"]) != FaultKind.MEMORY or int(record["message"]) == 0:
        return None
    base, state = int(record["allocation_base"]), int(record["allocation_state"])
    allocation = None
    if base and state in (AllocationState.LIVE, AllocationState.FREED):
        allocation = Allocation(base, int(record["allocation_size"]), AllocationState(state))
    access = int(record["access"])
    return checked_fault(
        record["message"].string(),
        int(record["address"]),
        Access(access) if access in (Access.READ, Access.WRITE) else Access.UNKNOWN,
        allocation,
    )


def lane_fault(signal: str) -> Fault | None:
    """Why the selected thread's lane stopped with `signal`, or None (not in
    a lane, another signal, or nothing the runtime can say)."""
    if runtime_state.lane() is None:
        return None
    try:
        if signal in MEMORY_SIGNALS:
            if (checked := _checked_access(signal)) is not None:
                return checked
            seen = memory_signal(signal)
            return memory_fault(seen) if seen is not None else None
        if signal == "SIGABRT":
            return _assert_or_abort()
    except (gdb.error, gdb.MemoryError):  # an older runtime, or unreadable memory
        return None
    return None


def fast_form_fault(signal: str) -> str | None:
    """What to say of a memory fault in a kernel's fast form, where the
    faulting thread cannot be named (None for another stop).  The runtime
    runs the block again in the debuggable form once the signal reaches it."""
    try:
        if signal not in MEMORY_SIGNALS or not runtime_state.in_fast_block():
            return None
        lane = runtime_state.lane()
    except gdb.error:
        return None
    block = f"block {runtime_state.dim3(lane['block_idx'])}" if lane is not None else "the block"
    return f"'continue' runs {block} again in the debuggable form, where the faulting thread stops"


def announce(event) -> None:
    """On a signal in a lane: say why, in the runtime's words."""
    if not isinstance(event, gdb.SignalEvent):
        return
    if (note := fast_form_fault(event.stop_signal)) is not None:
        print(f"[gpusym: {note}]")
        return
    fault = lane_fault(event.stop_signal)
    if fault is None:
        return
    print(f"[gpusym: {fault.description}]")
    try:
        frame = access_frame() if event.stop_signal in MEMORY_SIGNALS else None
        if frame is not None:  # the lane's access, selected and printed as a stop's
            frame.select()
            gdb.execute("frame")
    except gdb.error:
        pass
