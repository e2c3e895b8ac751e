"""``set gpusym api-errors on``: stop when a runtime call fails.

The simulated runtime reports every failing call, and only those, through one
function, gpusym::api_call_failed(hipError_t, const char *call); a breakpoint there (pending
until the runtime is loaded) reads both and stops only for errors, naming the
call, the code and its name, which $_hiperr_call, $_hiperr and $_hiperr_name
keep (in the spirit of rocgdb's catch hiperr and cuda-gdb's api_failures)."""

from __future__ import annotations

import gdb

from gdbext.errors import one_line_errors

RECORD = "-qualified -function gpusym::api_call_failed"


class ApiErrorBreakpoint(gdb.Breakpoint):
    def __init__(self) -> None:
        super().__init__(RECORD, gdb.BP_BREAKPOINT, internal=True)

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
        try:
            name = str(gdb.parse_and_eval(f"(hipError_t) {code}"))
        except gdb.error:
            name = "hipError"
        gdb.set_convenience_variable("_hiperr", code)
        gdb.set_convenience_variable("_hiperr_name", name)
        gdb.set_convenience_variable("_hiperr_call", call)
        print(f"[gpusym: {call} failed: {name} ({code})]")
        return True


class SetPrefix(gdb.Command):
    """Settings of gpusym."""

    def __init__(self, verb: str) -> None:
        super().__init__(f"{verb} gpusym", gdb.COMMAND_DATA, gdb.COMPLETE_NONE, True)


class ApiErrors(gdb.Parameter):
    """Whether to stop when a HIP runtime call fails (the simulated runtime's)."""

    set_doc = "Set whether to stop when a HIP runtime call fails."
    show_doc = "Show whether gpusym stops when a HIP runtime call fails."

    def __init__(self) -> None:
        super().__init__("gpusym api-errors", gdb.COMMAND_BREAKPOINTS, gdb.PARAM_BOOLEAN)
        self.value = False
        self._breakpoint: ApiErrorBreakpoint | None = None

    def get_set_string(self) -> str:
        with one_line_errors("set gpusym api-errors"):
            if self.value and self._breakpoint is None:
                self._breakpoint = ApiErrorBreakpoint()
            elif not self.value and self._breakpoint is not None:
                self._breakpoint.delete()
                self._breakpoint = None
        return ""

    def get_show_string(self, value: str) -> str:
        return f"Stopping when a HIP runtime call fails is {value}."
