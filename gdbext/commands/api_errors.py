"""``set gpusym api-errors on``: stop when a runtime call fails.

The simulated runtime reports every failing call, and only those, through one
function, gpusym::api_call_failed(hipError_t, const char *call); a breakpoint
there (made once a loaded file defines the function, so that gdb says nothing
of it before) reads both and stops only for errors, naming the
call, the code and its name, which $_hiperr_call, $_hiperr and $_hiperr_name
keep (in the spirit of rocgdb's catch hiperr and cuda-gdb's api_failures).
The breakpoint is silent: the stop says which call failed and how, and
selects the caller's frame in the program's own code, printed as gdb prints
a stop, rather than the runtime's reporting function."""

from __future__ import annotations

import gdb

from gdbext.errors import one_line_errors
from gdbext.frames.device_frames import is_runtime
from gdbext.runtime_view import runtime_state
from gdbext.runtime_view.kernel_symbols import STUB_MARK

FUNCTION = "gpusym::api_call_failed"
RECORD = f"-qualified -function {FUNCTION}"


def _callers_frame() -> gdb.Frame | None:
    """The innermost frame of the program's own code: outside the runtime,
    and not a kernel's stub (compiler-made, without lines)."""
    frame = gdb.newest_frame()
    while frame is not None and (is_runtime(frame) or STUB_MARK in (frame.name() or "")):
        frame = frame.older()
    return frame


def _error_type(call: str) -> str:
    """The enumeration naming `call`'s errors: CUDA's runtime and driver API
    calls' codes have HIP's numbers and CUDA's names."""
    if call.startswith("cuda"):
        return "cudaError_t"
    return "CUresult" if call.startswith("cu") else "hipError_t"


def _error_name(call: str, code: int) -> str:
    """The name of error `code` of `call`, as the runtime's debug information
    has it (HIP's when it lacks the CUDA type), or the enumeration's name."""
    for type_name in dict.fromkeys((_error_type(call), "hipError_t")):
        try:
            name = str(gdb.parse_and_eval(f"({type_name}) {code}"))
        except gdb.error:
            continue
        if not name.lstrip("-").isdigit():  # a number: the enumeration has no such code
            return name
    return _error_type(call)


class ApiErrorBreakpoint(gdb.Breakpoint):
    def __init__(self) -> None:
        super().__init__(RECORD, gdb.BP_BREAKPOINT, internal=True)
        self.silent = True
        self.failure: str | None = None  # what the last stop says, until it is said

    def stop(self) -> bool:
        frame = gdb.newest_frame()
        try:
            code = int(frame.read_var("error"))
        except (gdb.error, ValueError):  # a runtime without debug information
            code = int(frame.read_register("rdi")) & 0xFFFFFFFF
        if code == 0:
            return False
        try:
            call = frame.read_var("call").string()
        except (gdb.error, ValueError):
            call = gdb.selected_inferior().read_memory(int(frame.read_register("rsi")), 64).tobytes()
            call = call.split(b"\0")[0].decode("ascii", "replace") or "a runtime call"
        name = _error_name(call, code)
        gdb.set_convenience_variable("_hiperr", code)
        gdb.set_convenience_variable("_hiperr_name", name)
        gdb.set_convenience_variable("_hiperr_call", call)
        self.failure = f"[gpusym: {call} failed: {name} ({code})]"
        return True

    def announce(self, event) -> None:
        """At the stop this breakpoint made (gdb.events.stop): the failure,
        then the caller's frame, selected and printed as a stop's."""
        if self.failure is None or self not in getattr(event, "breakpoints", ()):
            return
        print(self.failure)
        self.failure = None
        caller = _callers_frame()
        if caller is not None:
            caller.select()
            gdb.execute("frame", to_string=False)


class SetPrefix(gdb.Command):
    """Settings of gpusym."""

    def __init__(self, verb: str) -> None:
        super().__init__(f"{verb} gpusym", gdb.COMMAND_DATA, gdb.COMPLETE_NONE, True)


class ApiErrors(gdb.Parameter):
    """Whether to stop when a HIP runtime call fails (the simulated runtime's)."""

    set_doc = "Set whether gpusym stops when a HIP runtime call fails."
    show_doc = "Show whether gpusym stops when a HIP runtime call fails."

    def __init__(self) -> None:
        super().__init__("gpusym api-errors", gdb.COMMAND_BREAKPOINTS, gdb.PARAM_BOOLEAN)
        self.value = False
        self._breakpoint: ApiErrorBreakpoint | None = None

    def get_set_string(self) -> str:
        with one_line_errors("set gpusym api-errors"):
            if self.value:
                self.arm()
            elif self._breakpoint is not None:
                self._breakpoint.delete()
                self._breakpoint = None
        return ""

    def arm(self, event=None) -> None:
        """Sets the breakpoint when it is wanted and the runtime is loaded;
        also called on each new object file (gdb.events.new_objfile)."""
        if self.value and self._breakpoint is None and runtime_state.runtime_loaded():  # it defines FUNCTION
            self._breakpoint = ApiErrorBreakpoint()

    def announce(self, event) -> None:
        """At each stop (gdb.events.stop): the failure, if the breakpoint made it."""
        if self._breakpoint is not None:
            self._breakpoint.announce(event)

    def get_show_string(self, value: str) -> str:
        return f"Stopping when a HIP runtime call fails is {value}."
