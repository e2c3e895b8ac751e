"""Frames inside a kernel: the number ``bt`` prints is the frame that
``frame N``, ``up``, ``down``, ``frame function`` and MI select; the host
frames recorded at the launch are real frames that say what they cannot
show; locals and ``__shared__`` arrays print at the first stop."""

from __future__ import annotations

import re

import pytest
from conftest import REPO
from gdb_batch import gdb
from gdb_terminal import GdbTerminal

pytestmark = [pytest.mark.toolchain, pytest.mark.gdb]

TEMPLATES = REPO / "sample_apps/programs/templates/templates.hip"


def _line_of(text: str) -> int:
    return next(n for n, line in enumerate(TEMPLATES.read_text().splitlines(), 1) if text in line)


def test_the_frame_bt_numbers_is_the_frame_selected(samples):
    launch, call = _line_of("ns::fill<T><<<"), _line_of("check_fill<float>(0.5f, 1000)")
    output = gdb(
        samples["templates"],
        "kbreak ns::fill<float> -block 1",
        "run",
        "echo --bt\\n",
        "bt",
        "echo --frame\\n",
        "frame 1",
        "echo --up\\n",
        "up",
        "echo --function\\n",
        "frame function main",
        "echo --down\\n",
        "down",
        "echo --mi\\n",
        'interpreter-exec mi "-stack-select-frame 3"',
        'interpreter-exec mi "-stack-info-frame"',
    )
    sections = dict(re.findall(r"^--(\S+)\n(.*?)(?=^--|\Z)", output, re.M | re.S))
    listed = {int(n): text for n, text in re.findall(r"^#(\d+)\s+(.*)$", sections["bt"], re.M)}
    assert "__device_stub__fill<float>" in listed[1] and "main ()" in listed[3], sections["bt"]
    assert not re.search(r"gpusym_run_lanes|gpusym_fiber|call_kernel\.S", output), output
    assert re.match(
        r"#1  0x[0-9a-f]+ in void ns::__device_stub__fill<float>\(float\*, float, int\) \(\)", sections["frame"]
    )
    assert re.match(rf"#2  0x[0-9a-f]+ in check_fill<float> \(.*\) at \S+templates\.hip:{launch}\n", sections["up"])
    assert re.match(rf"#3  0x[0-9a-f]+ in main \(\) at \S+templates\.hip:{call}\n", sections["function"])
    assert re.match(r"#2  0x[0-9a-f]+ in check_fill<float>", sections["down"])
    frame = re.search(
        r'\^done,frame=\{level="3",addr="0x[0-9a-f]+",func="main",file="[^"]+",fullname="[^"]+",'
        rf'line="{call}"',
        sections["mi"],
    )
    assert frame, sections["mi"]


def test_frames_past_main_are_numbered_to_the_start_of_the_program(samples):
    output = gdb(samples["templates"], "kbreak ns::fill<float> -block 1", "run", "set backtrace past-main on", "bt")
    frames = re.findall(r"^#(\d+)\s+(?:0x[0-9a-f]+ in )?(\S+)", output, re.M)
    names = [name for _, name in frames]
    assert [int(n) for n, _ in frames] == list(range(len(frames))), output
    assert names[3] == "main" and names[-1] == "_start", output
    assert any(name.startswith("__libc_start") for name in names[4:-1]), output


def test_bt_full_at_the_first_stop_prints_locals_and_shared_arrays(samples):
    # __shared__ arrays are thread-local storage of the code object: the
    # runtime allocates it before the first lane runs, so gdb can read it.
    output = gdb(samples["reduction"], "kbreak block_sum", "run", "bt full")
    assert re.search(r"^\s+tile = \{0 <repeats 256 times>\}$", output, re.M), output
    assert re.search(r"^\s+t = 0$", output, re.M), output


def test_selecting_a_recorded_frame_says_what_it_cannot_show(samples):
    with GdbTerminal(samples["reduction"]) as session:
        session.command("kbreak block_sum")
        session.command("run")
        selected = session.command("frame 2")
        assert re.match(r"#2  0x[0-9a-f]+ in main \(\) at \S+reduction\.hip:\d+", selected), selected
        assert re.search(
            r"\[gpusym: frame 2 was recorded when dispatch 1 was launched; host thread \d+ has moved on "
            r"since, so its registers, arguments and locals cannot be read\]",
            selected,
        ), selected
        assert session.command("print n").strip() == "value has been optimized out"
        assert "recorded" not in session.command("frame 2")  # said once per stop
        assert "[gpusym:" not in session.command("frame 0")  # a device frame: everything readable


def test_a_launch_record_cut_short_ends_the_stack_saying_so(build_program):
    # 64 recursive calls: more host frames than the runtime records (32).
    output = gdb(build_program("deep_launch.hip"), "set args 64", "kbreak deep_kernel", "run", "bt")
    frames = re.findall(r"^#(\d+)\s+(.*)$", output, re.M)
    assert [int(n) for n, _ in frames] == list(range(len(frames))), output
    assert sum(bool(re.search(r" in recurse\b", text)) for _, text in frames) == 31, output
    assert (
        frames[-1][1]
        == "0x0000000000000000 in ??  [the host stack recorded at the launch ends here: its first 32 frames] ()"
    )


@pytest.mark.parametrize("level", ["-O1", "-O2"])
def test_a_launch_from_inlined_functions_unwinds_through_them_to_main(build_program, level):
    # At -O1 and -O2, the host functions around the launch are inlined into
    # main: gdb shows them as frames of their own at the launch's return
    # address, and the recorded stack goes on past them, at the first bt.
    program = build_program("inlined_launch.hip", flags=("-g", level))
    output = gdb(program, "kbreak scale", "run", "bt", "frame 3")
    frames = re.findall(r"^#(\d+)\s+(?:0x[0-9a-f]+ in )?(\S+)(.*)$", output, re.M)
    assert [(int(n), name) for n, name, _ in frames[:4]] == [
        (0, "scale"),
        (1, "launch_scale"),
        (2, "scale_twice<float>"),
        (3, "main"),
    ], output
    assert "[kernel scale(float*, float) <<<grid (1,1,1), block (64,1,1)" in frames[1][2], output
    assert "[kernel" not in frames[2][2] and frames[2][2].strip().startswith("()"), output
    assert re.search(r"^#3  main \(\) at \S+inlined_launch\.hip:22$", output, re.M), output
