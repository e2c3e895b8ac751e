"""Kernel breakpoints that stop in one lane cost a trap or two, not one per
lane: the debugger's side of the runtime's lane watches
(gpusym_debug.watches, debug_interface.h).

A kbreak with ``-block`` or ``-thread`` gets a watch: the runtime keeps the
breakpoint's trap in the code only while a matching lane runs (with
``-block`` alone, a matching block; a runtime before interface version 6
knows blocks only), so the other lanes never stop.  The breakpoint's own
lane condition still decides at each trap.  A watch is written while the program is stopped, whenever the
breakpoint's locations, its enabled state or the process change; it is
left out for a location another breakpoint shares (that one must trap in
every lane) and when the slots run out (then every lane traps, as without
watches).

Kernels run in their fast form under gdb too, where no lane can stop: a
block runs in the debuggable form when a watch in its kernel's code names
it (from interface version 12; before, a watch in any kernel's), and every block of
a kernel does while a breakpoint no watch gates has a location in that
kernel's code (gpusym_debug.kernel_interest, by the kernels' entries; a
device function inlined into a kernel is its code, and one that is not is
called by kernels that have no fast form).  Every block of every kernel
does while a watchpoint exists, or such a breakpoint is in code of no known
function, or in more kernels than the runtime has slots for, or the runtime
knows no kernel interest (GPUSYM_DEBUG_DEBUGGER_INTEREST).  Both are
written with the watches."""

from __future__ import annotations

import gdb

from device.debug_interface import DEBUGGABLE_FORM, DEBUGGER_INTEREST, WATCH_ANY, Version
from gdbext.frames.device_frames import is_device_address
from gdbext.lanes import lane_record
from gdbext.runtime_view.runtime_state import debug_state, supports

TRAP = 0xCC  # int3
#: Breakpoint types that stop wherever the watched memory changes.
WATCHPOINTS = (gdb.BP_WATCHPOINT, gdb.BP_HARDWARE_WATCHPOINT, gdb.BP_READ_WATCHPOINT, gdb.BP_ACCESS_WATCHPOINT)

Coordinates = tuple[int | None, int | None, int | None]
#: Breakpoint number -> the block and the thread it stops in (None: any).
_gated: dict[int, tuple[Coordinates | None, Coordinates | None]] = {}
#: The process and the watches last written into it.
_written: tuple[int, list] | None = None


def gate(breakpoint: gdb.Breakpoint, block: Coordinates | None, thread: Coordinates | None = None) -> None:
    """Make `breakpoint`, which stops only in `block` (None: any) and
    `thread` (None: any), trap only while such a lane runs."""
    _gated[breakpoint.number] = (block, thread)
    sync()


def _addresses(breakpoint: gdb.Breakpoint) -> list[int]:
    return [location.address for location in breakpoint.locations if location.enabled and location.address]


def _loaded(address: int) -> bool:
    """Whether `address` is in code loaded now: after `kill`, a breakpoint
    keeps its last run's addresses until the next run loads its code again,
    and other memory may lie there meanwhile."""
    progspace = gdb.current_progspace()
    return progspace.solib_name(address) is not None or progspace.find_pc_line(address).symtab is not None


def _originals(addresses: list[int]) -> list[int]:
    """The code bytes at `addresses` (gdb reads past its own traps)."""
    memory = gdb.selected_inferior()
    return [memory.read_memory(address, 1).tobytes()[0] for address in addresses]


def _shared(number: int, addresses: list[int]) -> bool:
    """Whether another enabled breakpoint has a location at one of `addresses`."""
    return any(
        other.number != number and other.enabled and other.is_valid() and set(addresses) & set(_addresses(other))
        for other in gdb.breakpoints()
    )


def _write(field: gdb.Value, value: int) -> None:
    size = field.type.sizeof
    gdb.selected_inferior().write_memory(int(field.address), value.to_bytes(size, "little"))


def _running_lanes(debug: gdb.Value) -> list[tuple[tuple[int, int, int], tuple[int, int, int] | None]]:
    """The block each worker runs now, and the thread of its running lane (None between lanes)."""
    running = []
    for index in range(int(debug["executor_count"])):
        executor = debug["executors"][index]
        if int(executor["lane_count"]) and int(executor["lanes"]):
            block = executor["lanes"][0]["block_idx"]
            thread = None
            if int(executor["lane"]):
                lane = executor["lane"].dereference()["thread_idx"]
                thread = (int(lane["x"]), int(lane["y"]), int(lane["z"]))
            running.append(((int(block["x"]), int(block["y"]), int(block["z"])), thread))
    return running


def _matches(wanted: Coordinates | None, actual: tuple[int, int, int] | None) -> bool:
    return wanted is None or (actual is not None and all(w is None or w == a for w, a in zip(wanted, actual)))


def _write_coordinates(field: gdb.Value, wanted: Coordinates | None) -> None:
    for name, value in zip("xyz", wanted or (None, None, None)):
        _write(field[name], WATCH_ANY if value is None else value)


def _fill(
    watch: gdb.Value, lanes: tuple, addresses: list[int], originals: list[int], kernel: int, running: list
) -> None:
    block, thread = lanes
    _write(watch["active"], 0)
    if any(field.name == "kernel" for field in watch.type.strip_typedefs().fields()):
        _write(watch["kernel"], kernel)
    for index, (address, original) in enumerate(zip(addresses, originals)):
        _write(watch["addresses"][index], address)
        _write(watch["original"][index], original)
    _write(watch["address_count"], len(addresses))
    _write_coordinates(watch["block"], block)
    if thread is not None:
        _write_coordinates(watch["thread"], thread)
    elif any(field.name == "thread" for field in watch.type.strip_typedefs().fields()):
        _write_coordinates(watch["thread"], None)  # the slot's last watch may have had threads
    # Matching lanes (blocks, for a watch without threads) stopped mid-run keep their trap.
    armed = sum(_matches(block, b) and (thread is None or _matches(thread, t)) for b, t in running)
    _write(watch["armed_blocks"], armed)
    _write(watch["trap"], TRAP)
    _write(watch["active"], 1)


def sync(*_event) -> None:
    """Write the watches the gated breakpoints call for into the runtime;
    an event handler: never raises.  Not while gdb runs the program from
    its process record's log: a write there would cut the log short (and
    its traps are gdb's own there)."""
    try:
        if lane_record.replaying():
            return
        _sync()
    except gdb.error:
        pass  # no process, or it cannot be written now: every lane traps


def deleted(breakpoint: gdb.Breakpoint) -> None:
    """A breakpoint was deleted: its watch goes."""
    _gated.pop(breakpoint.number, None)
    sync()


def _sync() -> None:
    global _written
    pid = gdb.selected_inferior().pid
    if pid == 0 or (debug := debug_state()) is None or not supports(debug, Version.WATCHES):
        return
    slots = debug["watches"]
    capacity = slots.type.range()[1] + 1
    per_watch = slots[0]["addresses"].type.range()[1] + 1
    threads = supports(debug, Version.WATCH_THREADS)
    wanted, watched = [], set()
    for breakpoint in gdb.breakpoints():
        lanes = _gated.get(breakpoint.number)
        if lanes is None or not breakpoint.enabled or not breakpoint.is_valid():
            continue
        if not threads:
            lanes = (lanes[0], None)
            if lanes[0] is None:
                continue  # a runtime that knows blocks only: a thread alone is every block
        addresses = _addresses(breakpoint)
        if (
            addresses
            and len(addresses) <= per_watch
            and len(wanted) < capacity
            and all(map(_loaded, addresses))
            and not _shared(breakpoint.number, addresses)
        ):
            # (Originals read each time: a library reloaded in place may differ.)
            wanted.append((lanes, addresses, _originals(addresses), _kernel_entry(addresses)))
            watched.add(breakpoint.number)
    if _written != (pid, wanted):
        running = _running_lanes(debug)
        for index in range(capacity):
            if index < len(wanted):
                _fill(slots[index], *wanted[index], running)
            elif int(slots[index]["active"]):
                _write(slots[index]["active"], 0)
        _write(debug["watch_count"], len(wanted))
        _written = (pid, wanted)
    if supports(debug, Version.INTEREST):
        _write_interest(debug, _kernels_wanted(watched))
    elif supports(debug, Version.FORMS):
        # A runtime from before blocks were chosen by interest (a program
        # built earlier) gets every dispatch in the debuggable form.
        _write_flag(debug, DEBUGGABLE_FORM, True)


def _kernels_wanted(watched: set[int]) -> set[int] | None:
    """The entries of the functions whose code the user's breakpoints may
    stop any lane in (enabled breakpoints that no watch gates), or None
    when any lane of any kernel may stop (a watchpoint, a location in code
    of no known function)."""
    entries: set[int] = set()
    for breakpoint in gdb.breakpoints():
        if not breakpoint.is_valid() or not breakpoint.visible or not breakpoint.enabled:
            continue
        if breakpoint.type in WATCHPOINTS:
            return None
        if breakpoint.number in watched:
            continue
        for location in breakpoint.locations:
            if location.enabled and location.address is not None and is_device_address(location.address):
                entry = _function_entry(location.address)
                if entry is None:
                    return None
                entries.add(entry)
    return entries


def _kernel_entry(addresses: list[int]) -> int:
    """The entry of the function whose code holds all of `addresses`, whose
    blocks a watch of them makes debuggable; 0 (any kernel's) where they lie
    in several or no function is known."""
    entries = {_function_entry(address) for address in addresses}
    return (entries.pop() or 0) if len(entries) == 1 else 0


def _function_entry(address: int) -> int | None:
    """The entry of the function whose code holds `address` (the kernel,
    for code of a function inlined into it), None where no debug
    information says."""
    try:
        block = gdb.block_for_pc(address)
    except RuntimeError:
        return None
    while block is not None and block.superblock is not None and not block.superblock.is_static:
        block = block.superblock
    if block is None or block.function is None:
        return None
    return int(block.function.value().address)


def _write_interest(debug: gdb.Value, kernels: set[int] | None) -> None:
    """Tells the runtime which kernels' lanes may stop: `kernels` by their
    entries, every kernel with None (or where the runtime names none)."""
    if supports(debug, Version.KERNEL_INTEREST):
        slots = debug["kernel_interest"]
        if kernels is not None and len(kernels) <= slots.type.range()[1] + 1:
            for index, entry in enumerate(sorted(kernels)):
                if int(slots[index]) != entry:
                    _write(slots[index], entry)
            if int(debug["kernel_interest_count"]) != len(kernels):
                _write(debug["kernel_interest_count"], len(kernels))
            _write_flag(debug, DEBUGGER_INTEREST, False)
            return
        if int(debug["kernel_interest_count"]):
            _write(debug["kernel_interest_count"], 0)
    _write_flag(debug, DEBUGGER_INTEREST, kernels is None or bool(kernels))


def _write_flag(debug: gdb.Value, bit: int, wanted: bool) -> None:
    """Sets or clears `bit` of the runtime's gpusym_debug.flags."""
    flags = int(debug["flags"])
    value = flags | bit if wanted else flags & ~bit
    if value != flags:
        _write(debug["flags"], value)
