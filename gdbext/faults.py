"""Why a simulated GPU thread stopped with a signal.

SIGSEGV or SIGBUS in a lane: the faulting address, whether the access was a
read or a write, and the allocation the address is in or near, read from the
simulated runtime's allocation table (gpusym/debug_interface.h, version 2),
or a lane's stack overflow.  gdb sees the signal before the runtime's handler
runs, so this is computed here from memory alone, with the rules and the
words of the runtime's own report (sample_apps/runtime/src/memory.cpp
``describe_address``, faults.cpp): read or write comes from the faulting
instruction (the runtime reads the page fault's error code, which gdb cannot).

SIGABRT in a lane: the device ``assert`` or ``abort`` the runtime recorded in
``gpusym_debug.fault`` before aborting.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass
from typing import Any

import gdb

from gdbext import runtime_state

#: base, size, state, freed_by (gpusym_debug_allocation's first fields; the stride is the type's size).
_ALLOCATION = struct.Struct("<QQII")
FREED_BY_RESET = 1
_STATES = {1: "live", 2: "freed"}
_ACCESS = {1: "read", 2: "write"}
_FAULT_KINDS = {1: "memory", 2: "assertion", 3: "abort", 4: "stack"}
NEAR = 1 << 20  # a fault this close to an allocation is about it (memory.cpp kNear)
STACK_REACH = 64 * 1024  # faults.cpp kStackReach
PAGE = 4096
SI_KERNEL = 0x80
MEMORY_SIGNALS = ("SIGSEGV", "SIGBUS")


@dataclass(frozen=True)
class Allocation:
    base: int
    size: int
    state: str  # "live" or "freed"
    by_reset: bool = False  # freed by hipDeviceReset, not hipFree

    def json(self) -> dict[str, Any]:
        return {"base": self.base, "size": self.size, "state": self.state}


def allocations(debug: gdb.Value) -> list[Allocation]:
    """The runtime's live and remembered freed allocations, by address."""
    if int(debug["version"]) < 2:
        return []
    count, table = int(debug["allocation_count"]), debug["allocations"]
    if count == 0 or int(table) == 0:
        return []
    stride = table.type.target().sizeof
    data = gdb.selected_inferior().read_memory(int(table), count * stride).tobytes()
    found = []
    for offset in range(0, count * stride, stride):
        base, size, state, freed_by = _ALLOCATION.unpack_from(data, offset)
        if state in _STATES:
            found.append(Allocation(base, size, _STATES[state], freed_by == FREED_BY_RESET))
    return sorted(found, key=lambda a: a.base)


def _origin(allocation: Allocation) -> str:
    if allocation.state == "live":
        return "hipMalloc"
    return "hipMalloc, then hipDeviceReset" if allocation.by_reset else "hipMalloc, then hipFree"


def _freed(allocation: Allocation) -> str:
    return "" if allocation.state == "live" else "freed "


def _bytes(count: int) -> str:
    return f"{count} byte" if count == 1 else f"{count} bytes"


def describe(address: int, table: list[Allocation], device_range: tuple[int, int]) -> tuple[str, Allocation | None]:
    """What `address` is in or near, in the runtime's words, and the
    allocation named (None when far from any, or not device memory)."""
    in_range = device_range[0] <= address < device_range[1]
    before = next((a for a in reversed(table) if a.base <= address), None)
    after = next((a for a in table if a.base > address), None)
    if before is not None and address < before.base + before.size:
        return (f"{_bytes(address - before.base)} into a {_freed(before)}{before.size}-byte allocation at "
                f"{before.base:#x} ({_origin(before)})"), before  # fmt: skip
    past = address - (before.base + before.size) if before is not None else None
    ahead = after.base - address if after is not None else None
    null = f"not device memory: {_bytes(address)} from a null pointer" if address < 65536 else "not device memory"
    if past is None and ahead is None:
        return ("far from any allocation (there are none)" if in_range else null), None
    is_past = ahead is None or (past is not None and past <= ahead)
    nearest, distance = (before, past) if is_past else (after, ahead)
    relation = "past the end of" if is_past else "before"
    if distance < NEAR:
        return (f"{_bytes(distance)} {relation} a {_freed(nearest)}{nearest.size}-byte allocation at "
                f"{nearest.base:#x} ({_origin(nearest)})"), nearest  # fmt: skip
    if in_range:
        return (f"far from any allocation: {distance} bytes {relation} the nearest, a {_freed(nearest)}"
                f"{nearest.size}-byte allocation at {nearest.base:#x}"), None  # fmt: skip
    return null, None


# -- read or write, from the faulting instruction ---------------------------------

_PREFIXES = {"lock", "rep", "repz", "repe", "repnz", "repne", "data16", "data32", "addr32", "cs", "ds", "es",
             "ss", "fs", "gs", "notrack", "bnd", "xacquire", "xrelease"}  # fmt: skip
#: Instructions that only read their memory operand, wherever it is.
_READ_ONLY = re.compile(
    r"(cmp[bwlq]?|test[bwlq]?|bt[bwlq]?|v?u?comis[sd]|v?ptest|push[wlq]?|call[q]?|jmp[q]?|j[a-z]{1,3}|"
    r"prefetch\w*|nop[wlq]?|i?mul[bwlq]?|i?div[bwlq]?|fi?ld\w*|fi?u?com\w*|clflush\w*|lods[bwlq]?|"
    r"scas[bwlq]?|cmps[bwlq]?)"
)


def _operands(text: str) -> list[str]:
    """Operands split at the commas outside parentheses and brackets."""
    operands, depth, current = [], 0, ""
    for char in text:
        if char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
        if char == "," and depth == 0:
            operands.append(current.strip())
            current = ""
        else:
            current += char
    if current.strip():
        operands.append(current.strip())
    return operands


def classify(instruction: str, *, intel: bool = False, near_destination: bool | None = None) -> str | None:
    """"read", "write" or None (no memory operand) for one disassembled x86
    instruction, as the processor reports a page fault: an instruction that
    writes its memory operand faults as a write, read-modify-write included.
    `near_destination` decides for string moves, which have two memory
    operands: whether the fault is at the destination (%rdi)."""
    instruction = instruction.split("#", 1)[0].split("<", 1)[0].strip()
    words = instruction.split(None, 1)
    while words and words[0] in _PREFIXES:
        words = words[1].split(None, 1) if len(words) > 1 else []
    if not words:
        return None
    mnemonic, operands = words[0], _operands(words[1]) if len(words) > 1 else []
    memory = [op for op in operands if ("[" in op if intel else "(" in op)]
    if not memory:
        return None
    if re.fullmatch(r"movs[bwlqd]?", mnemonic) and len(memory) == 2 and near_destination is not None:
        return "write" if near_destination else "read"
    if _READ_ONLY.fullmatch(mnemonic):
        return "read"
    destination = operands[0] if intel else operands[-1]
    return "write" if destination in memory else "read"


def _access(frame: gdb.Frame, address: int) -> str | None:
    try:
        instruction = frame.architecture().disassemble(frame.pc())[0]["asm"]
        intel = gdb.parameter("disassembly-flavor") == "intel"
        rdi, rsi = (int(frame.read_register(name)) & (2**64 - 1) for name in ("rdi", "rsi"))
    except (gdb.error, gdb.MemoryError):
        return None
    return classify(instruction, intel=intel, near_destination=abs(address - rdi) <= abs(address - rsi))


# -- the fault of the selected thread ---------------------------------------------


def _siginfo() -> tuple[int, int] | None:
    """si_code and si_addr of the selected thread's signal."""
    try:
        info = gdb.parse_and_eval("$_siginfo")
        return int(info["si_code"]), int(info["_sifields"]["_sigfault"]["si_addr"])
    except gdb.error:
        return None


def _recorded(debug: gdb.Value) -> gdb.Value | None:
    """The runtime's fault record, when the selected thread made it."""
    if int(debug["version"]) < 2 or int(debug["fault"]) == 0:
        return None
    record = debug["fault"].dereference()
    return record if int(record["os_thread"]) == gdb.selected_thread().ptid[1] else None


def memory_fault(signal: str) -> dict[str, Any] | None:
    """The selected thread's SIGSEGV/SIGBUS, explained as the runtime reports it."""
    siginfo = _siginfo()
    debug = runtime_state.debug_state()
    if siginfo is None or debug is None:
        return None
    code, address = siginfo
    frame = gdb.newest_frame()
    if signal == "SIGSEGV" and code == SI_KERNEL:
        return {"kind": "memory", "address": None, "access": None, "allocation": None, "offset": None,
                "description": "invalid memory access at an unknown address (a general protection fault: a "
                               "non-canonical pointer?)"}  # fmt: skip
    sp = int(frame.read_register("rsp")) & (2**64 - 1)
    if address < sp + PAGE and address + STACK_REACH >= sp:
        size = int(debug["lane_stack_size"]) if int(debug["version"]) >= 2 else None
        return {"kind": "stack", "address": address, "access": None, "allocation": None, "offset": None,
                "description": f"stack overflow at {address:#x}: the lane's stack of {size} bytes is exhausted "
                               "(GPUSYM_STACK_SIZE)"}  # fmt: skip
    access = None
    recorded = _recorded(debug)
    if recorded is not None and int(recorded["address"]) == address:
        access = _ACCESS.get(int(recorded["access"]))  # the runtime's handler ran: its word is exact
    elif code > 0:
        access = _access(frame, address)
    if int(debug["version"]) >= 2:
        base, size = int(debug["device_memory_base"]), int(debug["device_memory_size"])
        text, allocation = describe(address, allocations(debug), (base, base + size))
    else:
        text, allocation = "the runtime keeps no allocation table", None
    return {
        "kind": "memory",
        "address": address,
        "access": access,
        "allocation": None if allocation is None else allocation.json(),
        "offset": None if allocation is None else address - allocation.base,
        "description": f"invalid {access or 'access'} at {address:#x}: {text}",
    }


def _string(value: gdb.Value) -> str | None:
    return value.string() if int(value) != 0 else None


def recorded_fault() -> dict[str, Any] | None:
    """The device assert or abort the selected thread's lane reported."""
    debug = runtime_state.debug_state()
    record = _recorded(debug) if debug is not None else None
    if record is None or int(record["kind"]) not in (2, 3):
        return None
    fault: dict[str, Any] = {"kind": _FAULT_KINDS[int(record["kind"])], "description": "abort() called in device code"}
    if fault["kind"] == "assertion":
        fault.update(assertion=_string(record["assertion"]), file=_string(record["file"]), line=int(record["line"]),
                     function=_string(record["function"]))  # fmt: skip
        fault["description"] = (f"{fault['file']}:{fault['line']}: {fault['function']}: Device-side assertion "
                                f"`{fault['assertion']}' failed.")  # fmt: skip
    return fault


def lane_fault(signal: str) -> dict[str, Any] | None:
    """Why the selected thread's lane stopped with `signal`, or None (not in
    a lane, another signal, or nothing the runtime can say)."""
    if runtime_state.lane() is None:
        return None
    try:
        if signal in MEMORY_SIGNALS:
            return memory_fault(signal)
        if signal == "SIGABRT":
            return recorded_fault()
    except (gdb.error, gdb.MemoryError):  # an older runtime, or unreadable memory
        return None
    return None


def announce(event) -> None:
    """On a signal in a lane: say why, in the runtime's words."""
    if not isinstance(event, gdb.SignalEvent):
        return
    fault = lane_fault(event.stop_signal)
    if fault is not None:
        print(f"[gpusym: {fault['description']}]")
