"""Reading the simulated runtime's state (gpusym/debug_interface.h): the
current lane, the dispatch ring, the kernels, the devices and streams; and
how gpusym prints them."""

from __future__ import annotations

import gdb

from device.debug_interface import (
    DISPATCH_SLOTS,
    RUNTIME_LIBRARY,
    WAVE_SIZE,
    DispatchForm,
    DispatchState,
    LaneState,
    StreamState,
    Version,
)
from gdbext.runtime_view.kernel_symbols import symbol_at
from symbols.demangling.gnu import demangle

#: call_kernel.S: where a lane's kernel has returned to the runtime, in
#: gpusym_run_lanes, which marks the lane exited a few instructions on.
LANE_RETURNED = "gpusym_lane_returned"
RUN_LANES = "gpusym_run_lanes"
#: Instructions from LANE_RETURNED searched for the store that marks the lane exited.
RETURN_INSTRUCTIONS = 8

DISPATCH_STATES = {DispatchState.QUEUED: "queued", DispatchState.RUNNING: "running", DispatchState.COMPLETE: "complete"}


#: LANE_RETURNED's address -> the address of the store that marks the lane exited.
_exit_stores: dict[int, int] = {}

#: gdb's global thread number -> the lane ``gpu focus`` selected there when
#: that lane is not the one the thread runs (it waits at a barrier); until
#: the program resumes.
_focused: dict[int, gdb.Value] = {}


def runtime_loaded() -> bool:
    """Whether the simulated runtime is among the program's files.  Its
    symbols are looked up only then: a lookup that fails searches every
    symbol table, milliseconds at each stop of a program without it."""
    return any(RUNTIME_LIBRARY in (objfile.filename or "") for objfile in gdb.objfiles())


def variable(name: str) -> gdb.Value:
    """The value of the runtime's variable `name` (a thread-local one: the
    selected thread's), read through its symbol.  Evaluating the name as an
    expression would look up the selected frame for its scope, and the
    launch-stack unwinder reads these variables while gdb may be looking
    that frame up again (after a call from gdb made with an outer frame
    selected): gdb would recurse into its own frame lookup, and fail."""
    symbol = gdb.lookup_global_symbol(name)
    if symbol is None:
        raise gdb.error(f'No symbol "{name}" in the program.')
    return symbol.value()


def lane() -> gdb.Value | None:
    """The simulated GPU thread selected on the selected thread: the one it
    runs, or the waiting one ``gpu focus`` selected; None outside kernels.
    Reads nothing through the selected frame (an unwinder asks)."""
    if _focused and (thread := gdb.selected_thread()) is not None and thread.global_num in _focused:
        return _focused[thread.global_num]
    if not runtime_loaded():
        return None
    try:
        value = variable("__gpusym_lane") if gdb.current_recording() is None else _recorded_lane()
    except gdb.error:
        return None
    return None if value is None or int(value) == 0 else value.dereference()


def _recorded_lane() -> gdb.Value | None:
    """The lane the selected thread runs, from its executor's record, which
    the runtime writes beside ``__gpusym_lane``: gdb's process record does
    not log writes through the %fs segment (thread-local storage), so when
    it runs the program backwards that variable keeps its latest value."""
    record = executor_record()
    return record["lane"] if record is not None else None


def executor_record() -> gdb.Value | None:
    """The runtime's record of the worker the selected thread is, or None."""
    thread = gdb.selected_thread()
    debug = debug_state()
    if thread is None or debug is None:
        return None
    executors = debug["executors"]
    for index in range(int(debug["executor_count"])):
        if int(executors[index]["os_thread"]) == thread.ptid[1]:
            return executors[index]
    return None


def in_fast_block(record: gdb.Value | None = None) -> bool:
    """Whether the selected thread (or the executor of `record`) runs a
    block in its kernel's fast form (its block's threads as one loop, where
    no thread can be named)."""
    debug = debug_state()
    if debug is None or not supports(debug, Version.INTEREST):
        return False
    record = executor_record() if record is None else record
    return record is not None and int(record["lane_count"]) != 0 and int(record["fast"]) != 0


def focus_waiting_lane(thread: gdb.InferiorThread, waiting: gdb.Value | None) -> None:
    """Select `waiting` (a lane of `thread`'s block suspended at a barrier)
    on `thread`, or, with None, the lane `thread` runs again."""
    if waiting is None:
        _focused.pop(thread.global_num, None)
    else:
        _focused[thread.global_num] = waiting
    gdb.invalidate_cached_frames()


def focused_waiting_lane(thread: gdb.InferiorThread) -> gdb.Value | None:
    return _focused.get(thread.global_num)


def forget_focus(event=None) -> None:
    """On resume and exit: waiting lanes move on, and threads go."""
    _focused.clear()


def debug_state() -> gdb.Value | None:
    """The runtime's gpusym_debug structure, or None without the runtime.
    Reads nothing through the selected frame (an unwinder asks)."""
    if not runtime_loaded():
        return None
    try:
        value = variable("gpusym_debug")
        return value if supports(value, Version.FIRST) else None
    except gdb.error:
        return None


def supports(debug: gdb.Value, version: Version) -> bool:
    """Whether the runtime's interface has what `version` appended."""
    return int(debug["version"]) >= version


def dispatch_record(debug: gdb.Value, number: int) -> gdb.Value | None:
    """Dispatch `number`'s record, or None once its slot has been reused."""
    record = debug["dispatches"][(number - 1) % DISPATCH_SLOTS]
    return record if int(record["id"]) == number else None


def record_wave_size(debug: gdb.Value, record: gdb.Value) -> int:
    """Lanes of a wavefront (warpSize) of dispatch `record`'s kernel."""
    if not supports(debug, Version.WAVE_SIZE):
        return WAVE_SIZE
    return int(record["wave_size"]) or WAVE_SIZE


def wave_size(current: gdb.Value) -> int:
    """Lanes of a wavefront (warpSize) of the kernel lane `current` runs."""
    debug = debug_state()
    record = dispatch_record(debug, int(current["dispatch_id"])) if debug is not None else None
    return record_wave_size(debug, record) if record is not None else WAVE_SIZE


def block_lanes(current: gdb.Value) -> tuple[gdb.Value, int] | None:
    """(the lanes table, its count) of the worker that runs the block of
    lane `current`; None when no worker's table holds it."""
    debug = debug_state()
    if debug is None:
        return None
    address, stride = int(current.address), current.type.strip_typedefs().sizeof
    for index in range(int(debug["executor_count"])):
        executor = debug["executors"][index]
        table, count = executor["lanes"], int(executor["lane_count"])
        if int(table) <= address < int(table) + count * stride:
            return table, count
    return None


def kernel_returned(pc: int) -> bool:
    """Whether a worker at `pc` is where the kernel of the lane it runs has
    returned and the runtime has yet to mark the lane exited: in
    gpusym_run_lanes from gpusym_lane_returned up to the store of
    GPUSYM_LANE_EXITED (after it, the lane's state says so, and the lane
    it enters next is running)."""
    if symbol_at(pc) != RUN_LANES:
        return False
    try:
        returned = int(gdb.parse_and_eval(f"(unsigned long) &{LANE_RETURNED}"))
        if returned not in _exit_stores:
            instructions = gdb.selected_inferior().architecture().disassemble(returned, count=RETURN_INSTRUCTIONS)
            stores = [i["addr"] for i in instructions if f"${int(LaneState.EXITED):#x}," in i["asm"]]
            _exit_stores[returned] = stores[0] if stores else returned
    except gdb.error:
        return False
    return returned <= pc <= _exit_stores[returned]


def active_mask(current: gdb.Value) -> int:
    """The lanes of `current`'s wavefront that have not exited, bit i for
    its lane i.  A lane the selected thread runs whose kernel has returned
    (the thread is where the runtime marks it exited) counts as exited."""
    lanes = block_lanes(current)
    if lanes is None:
        raise gdb.GdbError("$_gpusym_activemask: the selected lane's block is on no worker")
    table, count = lanes
    size = wave_size(current)
    flat = int(current["flat_thread"])
    first = flat - flat % size
    states = read_records(table + first, min(size, count - first), ("state",))
    mask = sum(1 << index for index, lane in enumerate(states) if lane["state"] != LaneState.EXITED)
    try:
        running = int(gdb.parse_and_eval("__gpusym_lane"))
        returned = kernel_returned(gdb.newest_frame().pc())
    except gdb.error:
        return mask
    stride = current.type.strip_typedefs().sizeof
    index = (running - int(table)) // stride - first
    if returned and 0 <= index < size:
        mask &= ~(1 << index)
    return mask


def dispatches(debug: gdb.Value) -> list[gdb.Value]:
    """Dispatch records still in the ring, oldest first."""
    count = int(debug["dispatch_count"])
    records = [debug["dispatches"][slot] for slot in range(min(count, DISPATCH_SLOTS))]
    return sorted((r for r in records if int(r["state"]) != DispatchState.FREE), key=lambda r: int(r["id"]))


def read_records(table: gdb.Value, count: int, names: tuple[str, ...]) -> list[dict[str, int]]:
    """The integer (or pointer) fields `names` of the `count` records `table`
    points to, read in one piece: each field at its offset and size in the
    runtime's debug information."""
    record_type = table.dereference().type.strip_typedefs()
    fields = {field.name: field for field in record_type.fields()}
    layout = [(name, fields[name].bitpos // 8, fields[name].type.sizeof) for name in names]
    size = record_type.sizeof
    data = bytes(gdb.selected_inferior().read_memory(int(table), count * size))
    return [
        {
            name: int.from_bytes(data[start + offset : start + offset + width], "little")
            for name, offset, width in layout
        }
        for start in range(0, count * size, size)
    ]


def launched_kernels(debug: gdb.Value) -> list[tuple[int, str, int]]:
    """(module id, device name, launches) of each kernel launched at least
    once.  The table is read in one piece and only launched kernels' names
    are read: programs register thousands of kernels and launch a few."""
    count = int(debug["kernel_count"])
    if not count:
        return []
    char_pointer = gdb.lookup_type("char").pointer()
    return [
        (kernel["module_id"], gdb.Value(kernel["device_name"]).cast(char_pointer).string(), kernel["launch_count"])
        for kernel in read_records(debug["kernels"], count, ("module_id", "device_name", "launch_count"))
        if kernel["launch_count"]
    ]


def devices(debug: gdb.Value) -> list[gdb.Value]:
    return [debug["devices"][index] for index in range(int(debug["device_count"]))]


def streams(debug: gdb.Value) -> list[gdb.Value]:
    """Live streams (and destroyed ones still running work), by device and id."""
    records = [debug["streams"][slot] for slot in range(int(debug["stream_count"]))]
    return sorted(
        (r for r in records if int(r["state"]) != StreamState.FREE), key=lambda r: (int(r["device"]), int(r["id"]))
    )


def stream_name(record: gdb.Value) -> str:
    """``null`` for a device's null stream, else the stream's id."""
    return "null" if int(record["id"]) == 0 else str(int(record["id"]))


def dispatch_stream(debug: gdb.Value, record: gdb.Value) -> str:
    """The stream of a dispatch record: its id, or its handle from a runtime that has no ids."""
    if supports(debug, Version.DEVICES):
        return "null" if int(record["stream_id"]) == 0 else str(int(record["stream_id"]))
    return f"{int(record['stream']):#x}"


def _not_fast(debug: gdb.Value, record: gdb.Value) -> list[tuple[int, str]]:
    """The blocks of a fast dispatch that ran in the debuggable form: how
    many, and why (``debuggable``: the debugger wanted them, ``replayed``:
    they faulted in the fast form)."""
    counts = [(int(record["blocks_replayed"]), "replayed")]
    if supports(debug, Version.INTEREST):
        counts.insert(0, (int(record["blocks_debuggable"]), "debuggable"))
    return [(count, why) for count, why in counts if count]


def dispatch_form(debug: gdb.Value, record: gdb.Value) -> str:
    """The form a dispatch's blocks run in: ``fast`` (with ``, N
    debuggable`` for blocks run in the debuggable form as the debugger
    wants, ``, N replayed`` for those that faulted and ran again in it),
    ``debug``, or ``-`` from a runtime that does not say."""
    if not supports(debug, Version.FORMS):
        return "-"
    if int(record["form"]) != DispatchForm.FAST:
        return "debug"
    return ", ".join(["fast", *(f"{count} {why}" for count, why in _not_fast(debug, record))])


def form_phrase(debug: gdb.Value, record: gdb.Value) -> str:
    """What a listing of a dispatch's lanes says of its form (``""`` from a
    runtime that does not say)."""
    form = dispatch_form(debug, record)
    if form == "-":
        return ""
    if form == "debug":
        return ", in the debuggable form"
    phrases = {
        "debuggable": "in the debuggable form as the debugger wants",
        "replayed": "faulted and ran again in the debuggable form",
    }
    others = "; ".join(f"{count} {phrases[why]}" for count, why in _not_fast(debug, record))
    again = f" ({others})" if others else ""
    return f", in the fast form{again}: each block runs its threads as one loop, listed as its first lane"


def thread_device(debug: gdb.Value) -> int | None:
    """The device of the selected thread: the device of the dispatch whose
    simulated thread it runs, else its current device (hipSetDevice); None
    when neither can be read."""
    current = lane()
    if current is not None:
        record = dispatch_record(debug, int(current["dispatch_id"]))
        if record is not None:
            return int(record["device"])
    try:
        return int(gdb.parse_and_eval("gpusym_current_device"))
    except gdb.error:
        return None


def kernel_name(debug: gdb.Value, index: int) -> str:
    name = debug["kernels"][index]["device_name"].string()
    return demangle(name) or name


def dim3(value) -> str:
    """``(x,y,z)`` of a gpusym_dim3 value (or anything indexable by x, y, z)."""
    return f"({int(value['x'])},{int(value['y'])},{int(value['z'])})"


def launch_text(grid: str, block: str, shared_mem: int, stream: int) -> str:
    return f"<<<grid {grid}, block {block}, shmem {shared_mem}, stream {stream:#x}>>>"


def record_launch_text(record: gdb.Value) -> str:
    """The configuration of a dispatch record or of the launch state."""
    return launch_text(dim3(record["grid"]), dim3(record["block"]), int(record["shared_mem"]), int(record["stream"]))


def lane_place(current: gdb.Value) -> str:
    return f"block {dim3(current['block_idx'])} thread {dim3(current['thread_idx'])}"


def set_lane_variables(current: gdb.Value) -> None:
    """$_kernel, $_dispatch, $_block, $_thread, $_lane and $_wavefront for
    the lane `current`."""
    number = int(current["dispatch_id"])
    debug = debug_state()
    record = dispatch_record(debug, number) if debug is not None else None
    if record is not None:
        gdb.set_convenience_variable("_kernel", kernel_name(debug, int(record["kernel_index"])))
    gdb.set_convenience_variable("_dispatch", number)
    gdb.set_convenience_variable("_block", current["block_idx"])
    gdb.set_convenience_variable("_thread", current["thread_idx"])
    size = record_wave_size(debug, record) if record is not None else WAVE_SIZE
    gdb.set_convenience_variable("_lane", int(current["flat_thread"]) % size)
    gdb.set_convenience_variable("_wavefront", int(current["flat_thread"]) // size)


LANE_VARIABLES = ("_kernel", "_dispatch", "_block", "_thread", "_lane", "_wavefront")
#: (gdb's thread number, the lane's address) last shown to the user.
_shown: tuple[int, int] | None = None


def shown(thread: gdb.InferiorThread, current: gdb.Value | None) -> None:
    """Note that the user has been told about `current` on `thread`."""
    global _shown
    _shown = (thread.global_num, int(current.address) if current is not None else 0)


def announce_lane(event) -> None:
    """On a stop in a simulated GPU thread, say which block and thread, and
    set the convenience variables."""
    if isinstance(event, gdb.StopEvent):
        tell_lane(quietly=any(getattr(stop, "says_its_lane", False) for stop in getattr(event, "breakpoints", ())))


def tell_fast_block(current: gdb.Value) -> None:
    """Say that the selected thread runs `current`'s block in its kernel's
    fast form, where no one thread runs, and clear the lane variables."""
    print(
        f"[gpusym: block {dim3(current['block_idx'])} of dispatch {int(current['dispatch_id'])} runs in its "
        "kernel's fast form: its threads run as one loop, and none of them can be named]"
    )
    clear_lane_variables()
    shown(gdb.selected_thread(), current)


def tell_lane(quietly: bool = False) -> None:
    """Say which block and thread the selected thread runs, as at a stop
    (not `quietly`: a breakpoint of the stop says it), and set the
    convenience variables."""
    current = lane()
    if current is None:
        clear_lane_variables()
        return
    if in_fast_block():
        tell_fast_block(current)
        return
    wavefront = int(current["flat_thread"]) // wave_size(current)
    if not quietly:
        print(f"[gpusym: {lane_place(current)} of dispatch {int(current['dispatch_id'])}, wavefront {wavefront}]")
    set_lane_variables(current)
    shown(gdb.selected_thread(), current)


def follow_selection() -> None:
    """Before each prompt: when the user has selected another thread
    (``thread N``, ``gpu focus``, a stop elsewhere), say which lane it runs
    and point the convenience variables at it; clear them outside kernels."""
    try:
        _follow_selection()
    except gdb.error:
        pass  # a thread that cannot be read now: nothing to say


def _follow_selection() -> None:
    thread = gdb.selected_thread()
    if thread is None or not thread.is_valid():
        return
    current = lane()
    key = (thread.global_num, int(current.address) if current is not None else 0)
    if key == _shown:
        return
    shown(thread, current)
    if current is None:
        clear_lane_variables()
        return
    if in_fast_block():
        tell_fast_block(current)
        return
    print(f"[gpusym: thread {thread.num} runs {lane_place(current)} of dispatch {int(current['dispatch_id'])}]")
    set_lane_variables(current)


def clear_lane_variables(event=None) -> None:
    """The lane's convenience variables (LANE_VARIABLES) made void (at exit too)."""
    global _shown
    _shown = None
    for name in LANE_VARIABLES:
        gdb.set_convenience_variable(name, None)
