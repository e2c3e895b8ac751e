"""Why a lane stopped with a signal, in the words of the simulated runtime's
own report (runtime/faults.cpp, memory.cpp ``describe_address``), from
plain data a debugger gathers: the signal's address, the lane's stack
pointer, the faulting instruction, the allocation table, the fault record.

A debugger sees a SIGSEGV or SIGBUS before the runtime's handler runs, so
the runtime's reasoning is repeated here; read or write comes from the
faulting instruction (the runtime reads the page fault's error code, which
a debugger cannot)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from device.debug_interface import Access, AllocationState, FaultKind, FreedBy, MadeBy

NEAR = 1 << 20  # a fault this close to an allocation is about it (memory.cpp kNear)
STACK_REACH = 64 * 1024  # below the stack pointer, a fault this close overflowed the stack (faults.cpp kStackReach)
PAGE = 4096
SI_KERNEL = 0x80  # si_code of a general protection fault
NULL_REACH = 65536  # an address below this is a null pointer's
MEMORY_SIGNALS = ("SIGSEGV", "SIGBUS")


@dataclass(frozen=True)
class Allocation:
    """A hipMalloc allocation, live or remembered freed (gpusym_debug_allocation)."""

    base: int
    size: int
    state: AllocationState
    freed_by: FreedBy = FreedBy.FREE
    made_by: MadeBy = MadeBy.HIP_MALLOC

    def json(self) -> dict[str, Any]:
        return {"base": self.base, "size": self.size, "state": self.state.name.lower()}


#: The call that made an allocation of each kind, and the one that frees it
#: (memory.cpp ``kMadeBy``).
_CALLS = {
    MadeBy.HIP_MALLOC: ("hipMalloc", "hipFree"),
    MadeBy.HIP_MALLOC_MANAGED: ("hipMallocManaged", "hipFree"),
    MadeBy.CUDA_MALLOC: ("cudaMalloc", "cudaFree"),
    MadeBy.CUDA_MALLOC_MANAGED: ("cudaMallocManaged", "cudaFree"),
    MadeBy.HIP_MALLOC_ASYNC: ("hipMallocAsync", "hipFreeAsync"),
    MadeBy.CUDA_MALLOC_ASYNC: ("cudaMallocAsync", "cudaFreeAsync"),
    MadeBy.HIP_MEM_MAP: ("hipMemMap", "hipMemUnmap"),
    MadeBy.CU_MEM_MAP: ("cuMemMap", "cuMemUnmap"),
}


def _origin(allocation: Allocation) -> str:
    """How the allocation was made and freed, in the API the program used."""
    made, freed = _CALLS[allocation.made_by]
    if allocation.state == AllocationState.LIVE:
        return made
    reset = "cudaDeviceReset" if made.startswith("cu") else "hipDeviceReset"
    return f"{made}, then {reset if allocation.freed_by == FreedBy.RESET else freed}"


def _freed(allocation: Allocation) -> str:
    return "" if allocation.state == AllocationState.LIVE else "freed "


def _bytes(count: int) -> str:
    return f"{count} byte" if count == 1 else f"{count} bytes"


def describe_address(
    address: int, table: list[Allocation], device_memory: tuple[int, int]
) -> tuple[str, Allocation | None]:
    """What `address` is in or near, in the runtime's words, and the
    allocation named (None when far from any, or not device memory).
    `table` is sorted by base; `device_memory` is the range hipMalloc
    allocates from, [start, end)."""
    in_range = device_memory[0] <= address < device_memory[1]
    before = next((a for a in reversed(table) if a.base <= address), None)
    after = next((a for a in table if a.base > address), None)
    if before is not None and address < before.base + before.size:
        return (
            f"{_bytes(address - before.base)} into a {_freed(before)}{before.size}-byte allocation at "
            f"{before.base:#x} ({_origin(before)})"
        ), before
    past = address - (before.base + before.size) if before is not None else None
    ahead = after.base - address if after is not None else None
    null = f"not device memory: {_bytes(address)} from a null pointer" if address < NULL_REACH else "not device memory"
    if past is None and ahead is None:
        return ("far from any allocation (there are none)" if in_range else null), None
    is_past = ahead is None or (past is not None and past <= ahead)
    nearest, distance = (before, past) if is_past else (after, ahead)
    relation = "past the end of" if is_past else "before"
    if distance < NEAR:
        return (
            f"{_bytes(distance)} {relation} a {_freed(nearest)}{nearest.size}-byte allocation at "
            f"{nearest.base:#x} ({_origin(nearest)})"
        ), nearest
    if in_range:
        return (
            f"far from any allocation: {distance} bytes {relation} the nearest, a {_freed(nearest)}"
            f"{nearest.size}-byte allocation at {nearest.base:#x}"
        ), None
    return null, None


# -- read or write, from the faulting instruction ---------------------------------

_PREFIXES = {
    "lock",
    "rep",
    "repz",
    "repe",
    "repnz",
    "repne",
    "data16",
    "data32",
    "addr32",
    "cs",
    "ds",
    "es",
    "ss",
    "fs",
    "gs",
    "notrack",
    "bnd",
    "xacquire",
    "xrelease",
}
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


def classify(instruction: str, *, intel: bool = False, near_destination: bool | None = None) -> Access | None:
    """READ, WRITE or None (no memory operand) for one disassembled x86
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
        return Access.WRITE if near_destination else Access.READ
    if _READ_ONLY.fullmatch(mnemonic):
        return Access.READ
    destination = operands[0] if intel else operands[-1]
    return Access.WRITE if destination in memory else Access.READ


@dataclass(frozen=True)
class Instruction:
    """The faulting instruction as disassembled, and the string registers."""

    text: str
    intel: bool  # the disassembly's syntax: Intel, else AT&T
    rdi: int
    rsi: int

    def access(self, address: int) -> Access | None:
        """How it accessed `address` (string moves: whichever of %rdi and %rsi is nearer)."""
        near_destination = abs(address - self.rdi) <= abs(address - self.rsi)
        return classify(self.text, intel=self.intel, near_destination=near_destination)


# -- the fault -------------------------------------------------------------------


@dataclass(frozen=True)
class Assertion:
    """A failed device assert, as the runtime recorded it."""

    condition: str | None
    file: str | None
    line: int
    function: str | None


@dataclass(frozen=True)
class Fault:
    """Why a lane stopped with a signal: a memory fault, a stack overflow, a
    failed assert or an abort, and its description in the runtime's words."""

    kind: FaultKind
    description: str
    address: int | None = None  # memory and stack faults; None: unknown (a general protection fault)
    access: Access | None = None
    allocation: Allocation | None = None  # the allocation the address is in or near
    assertion: Assertion | None = None

    def json(self) -> dict[str, Any]:
        """As capture records it."""
        kind = self.kind.name.lower()
        if self.kind in (FaultKind.MEMORY, FaultKind.STACK):
            allocation = self.allocation
            return {
                "kind": kind,
                "address": self.address,
                "access": self.access.name.lower() if self.access is not None else None,
                "allocation": allocation.json() if allocation is not None else None,
                "offset": self.address - allocation.base if allocation is not None else None,
                "description": self.description,
            }
        fault: dict[str, Any] = {"kind": kind, "description": self.description}
        if self.assertion is not None:
            fault.update(
                assertion=self.assertion.condition,
                file=self.assertion.file,
                line=self.assertion.line,
                function=self.assertion.function,
            )
        return fault


@dataclass(frozen=True)
class MemorySignal:
    """A SIGSEGV or SIGBUS in a lane, as a debugger sees it before the runtime's handler."""

    signal: str
    code: int  # si_code
    address: int  # si_addr
    stack_pointer: int
    stack_size: int | None  # of each lane's stack (None: the runtime does not say)
    recorded_access: Access | None  # in the runtime's record of this fault; None: its handler has not run
    instruction: Instruction | None  # None: not readable
    allocations: list[Allocation] | None  # sorted by base; None: the runtime keeps no allocation table
    device_memory: tuple[int, int] = (0, 0)  # the range hipMalloc allocates from, [start, end)


def memory_fault(seen: MemorySignal) -> Fault:
    """The fault `seen` is, described as the runtime reports it."""
    address = seen.address
    if seen.signal == "SIGSEGV" and seen.code == SI_KERNEL:
        return Fault(
            FaultKind.MEMORY,
            "invalid memory access at an unknown address (a general protection fault: a non-canonical pointer?)",
        )
    if address < seen.stack_pointer + PAGE and address + STACK_REACH >= seen.stack_pointer:
        return Fault(
            FaultKind.STACK,
            f"stack overflow at {address:#x}: the lane's stack of {seen.stack_size} bytes "
            "is exhausted (GPUSYM_STACK_SIZE)",
            address,
        )
    if seen.recorded_access is not None:  # the runtime's handler ran: its word is exact
        access = seen.recorded_access if seen.recorded_access != Access.UNKNOWN else None
    elif seen.code > 0 and seen.instruction is not None:
        access = seen.instruction.access(address)
    else:
        access = None
    if seen.allocations is None:
        text, allocation = "the runtime keeps no allocation table", None
    else:
        text, allocation = describe_address(address, seen.allocations, seen.device_memory)
    verb = access.name.lower() if access is not None else "access"
    return Fault(FaultKind.MEMORY, f"invalid {verb} at {address:#x}: {text}", address, access, allocation)


def recorded_fault(kind: int, assertion: Assertion | None) -> Fault | None:
    """The device assert or abort the runtime recorded (`kind`: the record's
    gpusym_fault_kind; `assertion`: what a failed assert recorded), or None
    for another kind."""
    if kind == FaultKind.ABORT:
        return Fault(FaultKind.ABORT, "abort() called in device code")
    if kind == FaultKind.ASSERTION and assertion is not None:
        description = (
            f"{assertion.file}:{assertion.line}: {assertion.function}: Device-side assertion "
            f"`{assertion.condition}' failed."
        )
        return Fault(FaultKind.ASSERTION, description, assertion=assertion)
    return None


#: The start of the runtime's fault reports: the lane.
_LANE_PREFIX = re.compile(r"kernel '.*' \(dispatch \d+\) block \([\d,]+\) thread \([\d,]+\): ")


def checked_fault(message: str, address: int, access: Access, allocation: Allocation | None) -> Fault:
    """The access a check of the runtime found invalid (gpusym check),
    described as its report (`message`) says, without the lane."""
    description = _LANE_PREFIX.sub("", message, count=1)
    return Fault(FaultKind.MEMORY, description, address, access if access != Access.UNKNOWN else None, allocation)
