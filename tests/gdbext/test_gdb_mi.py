"""gdb driven through MI, as IDEs drive it: a kernel breakpoint set with
kbreak stops with a ``*stopped`` record naming the kernel, frames listed
carry their full file names and select as listed, variable objects read
locals, arguments and ``__shared__`` arrays across steps, and the thread
list says which lane each worker runs."""

from __future__ import annotations

import pprint
import re
import time
from collections.abc import Callable

import pytest
from gdb_batch import EXTENSION, gdb
from pygdbmi.gdbcontroller import GdbController

pytestmark = [pytest.mark.toolchain, pytest.mark.gdb]

#: Seconds to wait for a record gdb owes us.
TIMEOUT = 120
#: lane_focus.hip, one worker: block 1's lane 2 stops at the kernel's first line.
LANE = "block (1,0,0) thread (2,0,0)"
#: What makes a frame the one listed.
IDENTITY = ("level", "func", "addr")
STOP = ("-gdb-set environment GPUSYM_WORKERS 1", '-interpreter-exec console "kbreak rotate -block 1 -thread 2"')


class Mi:
    """A gdb session spoken to in MI, reading its records as they come."""

    def __init__(self, program):
        self.controller = GdbController(
            command=["gdb", "--nx", "--quiet", "--interpreter=mi3", "-iex", f"source {EXTENSION}", str(program)]
        )
        self.stop: dict = {}
        self.transcript: list[dict] = []
        self._unread: list[dict] = []

    def _wait(self, wanted: Callable[[dict], bool], what: str) -> dict:
        """The first record from here on that is `wanted`; fails after TIMEOUT."""
        deadline = time.monotonic() + TIMEOUT
        while True:
            while self._unread:
                record = self._unread.pop(0)
                if wanted(record):
                    return record
            if time.monotonic() > deadline:
                pytest.fail(f"no {what} in {TIMEOUT}s; last records:\n{pprint.pformat(self.transcript[-40:])}")
            self._unread = self.controller.get_gdb_response(timeout_sec=1, raise_error_on_timeout=False)
            self.transcript += self._unread

    def command(self, command: str) -> dict:
        """The payload of `command`'s result record, which must not be an error."""
        self.controller.write(command, read_response=False)
        result = self._wait(lambda record: record["type"] == "result", f"result of {command}")
        assert result["message"] in ("done", "running"), (command, result)
        return result["payload"] or {}

    def resume(self, command: str) -> dict:
        """The payload of the ``*stopped`` record that ends `command`'s run."""
        self.command(command)
        stopped = self._wait(lambda record: record["type"] == "notify" and record["message"] == "stopped", "*stopped")
        return stopped["payload"]


@pytest.fixture(scope="module")
def program(build_program):
    return build_program("lane_focus.hip")


@pytest.fixture
def mi(program):
    """gdb stopped in `rotate` at LANE; the payload of its stop is ``mi.stop``."""
    session = Mi(program)
    try:
        for command in STOP:
            session.command(command)
        session.stop = session.resume("-exec-run")
        yield session
    finally:
        session.controller.exit()


def test_the_stop_names_the_kernel_and_frames_select_as_listed(mi):
    frame = mi.stop["frame"]
    assert mi.stop["reason"] == "breakpoint-hit" and frame["func"] == "rotate", mi.stop
    assert frame["fullname"].endswith("/tests/programs/lane_focus.hip") and frame["line"] == "15", mi.stop
    listed = mi.command("-stack-list-frames")["stack"]
    functions = ["rotate", "__device_stub__rotate(int*)", "main"]
    assert [entry["func"] for entry in listed] == functions, listed
    assert listed[-1]["fullname"] == frame["fullname"], listed
    # Only the compiler's stub has no line information, so no file to name.
    assert [entry["level"] for entry in listed if "fullname" not in entry] == ["1"], listed
    for entry in listed:
        assert "fullname" in entry or "file" not in entry, entry
        mi.command(f"-stack-select-frame {entry['level']}")
        selected = mi.command("-stack-info-frame")["frame"]
        assert [selected[key] for key in IDENTITY] == [entry[key] for key in IDENTITY], (entry, selected)


def test_variable_objects_read_locals_arguments_and_shared_memory_across_steps(mi):
    mine = mi.command("-var-create - * mine")
    out = mi.command("-var-create - * out")
    tile = mi.command("-var-create - * tile")
    assert (mine["type"], out["type"], out["value"]) == ("int", "int *", mi.stop["frame"]["args"][0]["value"]), (
        mine,
        out,
    )
    assert (tile["type"], tile["numchild"]) == ("int [64]", "64"), tile
    children = mi.command(f"-var-list-children --all-values {tile['name']} 0 3")["children"]
    # Lanes 0 and 1 of block 1 stored theirs before waiting at the barrier; lane 2's slot holds block 0's.
    assert [(child["exp"], child["value"]) for child in children] == [("0", "1"), ("1", "11"), ("2", "20")], children
    assert mi.resume("-exec-next")["frame"]["line"] == "16"
    assert mi.resume("-exec-next")["frame"]["line"] == "17"
    changed = {entry["name"]: entry["value"] for entry in mi.command("-var-update --all-values *")["changelist"]}
    assert changed == {mine["name"]: "21"}, changed
    assert mi.resume("-exec-next")["frame"]["line"] == "18"
    changed = {entry["name"]: entry["value"] for entry in mi.command("-var-update --all-values *")["changelist"]}
    assert changed == {children[2]["name"]: "21"}, changed


def test_the_thread_list_names_the_lane_after_a_step(mi):
    step = mi.resume("-exec-next")
    threads = mi.command("-thread-info")
    stopped = next(thread for thread in threads["threads"] if thread["id"] == step["thread-id"])
    assert threads["current-thread-id"] == stopped["id"] == mi.stop["thread-id"], threads
    assert stopped["name"] == f"gpusym-w0 {LANE}", stopped
    assert stopped["frame"]["func"] == "rotate" and stopped["frame"]["line"] == "16", stopped
    assert stopped["frame"]["fullname"] == mi.stop["frame"]["fullname"], stopped


def test_mi_stack_listing_has_the_same_annotation(vector_add):
    """-stack-list-frames through the frame filter: the stub's frame is annotated as in bt."""
    output = gdb(
        vector_add,
        "kbreak -launch vector_add",
        "run",
        'interpreter-exec mi "-enable-frame-filters"',
        'interpreter-exec mi "-stack-list-frames 0 0"',
    )
    assert re.search(r'func="__device_stub__vector_add\(.*\)  \[kernel vector_add\(.*\) <<<grid \(391,1,1\)', output), (
        output
    )
