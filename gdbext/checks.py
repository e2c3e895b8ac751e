"""``set gpusym check memcheck``: the next run of the program checks its
device code's accesses (the runtime's GPUSYM_CHECK, as ``gpusym check``
sets it); an invalid one stops the program at the lane's access, with the
runtime's report (gdbext/faults.py)."""

from __future__ import annotations

import gdb

from gdbext.errors import one_line_errors

#: What the runtime checks (sample_apps/runtime/src/checks.cpp), and off.
CHOICES = ["off", "memcheck"]


class Check(gdb.Parameter):
    """Which check of device code the next run of the program makes: off, or
    memcheck (every access to device memory inside one live allocation, to
    the byte, and aligned as the code assumes)."""

    set_doc = "Set the check gpusym makes of device code at the next run (off, memcheck)."
    show_doc = "Show the check gpusym makes of device code at the next run."

    def __init__(self) -> None:
        super().__init__("gpusym check", gdb.COMMAND_RUNNING, gdb.PARAM_ENUM, CHOICES)
        self.value = "off"

    def get_set_string(self) -> str:
        with one_line_errors("set gpusym check"):
            if self.value == "off":
                gdb.execute("unset environment GPUSYM_CHECK", to_string=True)
            else:
                gdb.execute(f"set environment GPUSYM_CHECK={self.value}", to_string=True)
        return "" if self.value == "off" else f"The next run checks device code: {self.value}."

    def get_show_string(self, value: str) -> str:
        return f"The check of device code for the next run is {value}."
