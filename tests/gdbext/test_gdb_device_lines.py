"""``break FILE:LINE`` on a line of device code before ``run``: gdb resolves
it in the host's code (the device code object is not loaded yet), at the
next line with host code, and moves it to the device line once the program
has loaded it; one line under gdb's says so (gdbext/runtime_view/
device_lines.py)."""

from __future__ import annotations

import re

import pytest
from gdb_batch import gdb

pytestmark = [pytest.mark.toolchain, pytest.mark.gdb]

#: block_scan.hip: line 13 is value_at (host and device code), 14 is blank,
#: 15 opens the kernel block_scan and 17 is its first statement.
NOTES = (
    "[gpusym: line 17 of block_scan.hip is device code, loaded when the program starts: gdb then moves "
    "breakpoint 1 there, and it does not stop at line {host} (host code)]",
    "[gpusym: no code starts at line 14 of block_scan.hip; the next line with device code is 15, loaded when "
    "the program starts: gdb then moves breakpoint 2 there, and it does not stop at line {host} (host code)]",
)


@pytest.mark.parametrize("flags", [("-g",), ("-g", "-O2")])
def test_a_device_line_broken_at_before_run_says_where_it_stops(build_program, flags):
    output = gdb(
        build_program("block_scan.hip", flags=flags),
        "break block_scan.hip:17",
        "break block_scan.hip:14",
        "break block_scan.hip:13",
        "delete 3",
        "run",
        "info breakpoints",
    )
    host = re.findall(r"^Breakpoint \d+ at 0x[0-9a-f]+: file \S*block_scan\.hip, line (\d+)\.$", output, re.M)
    assert len(host) == 3 and host[0] == host[1] and int(host[0]) > 30 and host[2] == "13", output  # main's
    for note in NOTES:
        assert note.format(host=host[0]) in output, output
    assert len(re.findall(r"^\[gpusym: .*\(host code\)\]$", output, re.M)) == 2, output  # none for line 13
    assert re.search(
        r"hit Breakpoint 1, block_scan \(out=0x\w+, totals=0x\w+\) at \S*block_scan\.hip:17$", output, re.M
    )
    assert re.search(r"^2\s+breakpoint\s+keep y\s+0x\w+ in block_scan\(int\*, int\*\) at \S+:17$", output, re.M), output
