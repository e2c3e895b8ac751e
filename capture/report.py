"""The human summary of a capture: launches per kernel, failing calls, the
first crash with its device frames and launching host stack, a timeout's
stacks, and the program's own output."""

from __future__ import annotations

import os
from typing import Any

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from capture.events import (
    CheckEvent,
    Configuration,
    CrashEvent,
    ErrorEvent,
    Event,
    ExitEvent,
    Frame,
    LaunchEvent,
    StartEvent,
    StopEvent,
    ThreadStack,
)
from symbols.lookup import qualified_name

#: Lines of the program's stdout and stderr shown (the last ones).
OUTPUT_LINES = 10
ERRORS_SHOWN = 10


def _dim3(values: list[int]) -> str:
    return "(" + ",".join(map(str, values)) + ")"


def frame_text(level: int, frame: Frame) -> str:
    """One frame, as a backtrace line: host frames from the launch records
    (demangled, module) and gdb's frames (function, note) alike."""
    text = f"#{level:<2} {frame.get('function') or '??'}"
    if frame.get("kernel") and frame.get("role") == "kernel-stub":
        text += f"  [kernel {frame['kernel']}]"
    if frame.get("note"):
        text += f"  [{frame['note']}]"
    if frame.get("file"):
        text += f" at {frame['file']}" + (f":{frame['line']}" if frame.get("line") else "")
    elif frame.get("module"):
        text += f" in {frame['module']}"
    return text


def _stack(frames: list[Frame]) -> Text:
    return Text("\n".join(frame_text(level, frame) for level, frame in enumerate(frames)) or "(no frames)")


def _is_call(frame: Frame, call: str) -> bool:
    """Whether the frame is part of making `call`, not the program's own
    code: the runtime's entry point, a header's wrapper of it
    (``hipMemcpyToSymbol<float [4]>``, nvcc's inline launch function),
    or a kernel's stub or nvcc's host function that calls the stub."""
    name = qualified_name(frame.get("function") or "")
    stub_or_handle = "__device_stub__" in name or frame.get("role") in ("kernel-stub", "kernel-handle")
    return name.startswith(call) or stub_or_handle


def _where(frames: list[Frame], call: str) -> str:
    """Where the program made `call`: the first frame with a source position
    past the call's own frames (the runtime's, and wrappers of it)."""
    own = [level for level, frame in enumerate(frames) if _is_call(frame, call)]
    frames = frames[own[-1] + 1 :] if own else frames
    return _first_position(frames) or ((frames[0].get("function") or "??") if frames else "")


def _first_position(frames: list[Frame]) -> str:
    """``function at file:line`` of the first frame with a source position, or ""."""
    for frame in frames:
        if frame.get("file") and frame.get("line"):
            return (
                f"{qualified_name(frame.get('function') or '??')} at {frame['file'].rsplit('/', 1)[-1]}:{frame['line']}"
            )
    return ""


def _configurations(configurations: list[Configuration], note: str) -> list[str]:
    """The three most frequent, with their launches when there are more."""
    return [
        f"{_dim3(c.grid)}×{_dim3(c.block)}"
        + (f" {c.shared_mem} B" if c.shared_mem else "")
        + (f" ({c.launches})" if len(configurations) > 1 else "")
        + note
        for c in configurations[:3]
    ]


def _launches(exit_event: ExitEvent, events: list[Event]) -> Table:
    first: dict[str, LaunchEvent] = {}
    for event in events:
        if isinstance(event, LaunchEvent) and event.kernel:
            first.setdefault(event.kernel.name, event)
    refused = exit_event.refused_launches
    title = f"Kernel launches: {exit_event.launches}" + (f", and {refused} refused" if refused else "")
    table = Table(title=title, title_justify="left")
    table.add_column("kernel", overflow="fold")
    table.add_column("launches", justify="right")
    table.add_column("grid × block", overflow="fold")
    table.add_column("first launched from", overflow="fold")
    for row in exit_event.kernels:
        configurations = ", ".join(
            _configurations(row.configurations, "") + _configurations(row.refused_configurations, " refused")
        )
        launch = first.get(row.kernel or "")
        where = _where(launch.backtrace or [], launch.api) if launch else ""
        count = f"{row.launches}" + (f"\n{row.refused} refused" if row.refused else "")
        table.add_row(row.demangled, count, configurations, where)
    return table


def _errors(errors: list[ErrorEvent]) -> Table:
    """The failing calls, each the call over its error beside where the
    program made it: two columns, the first as wide as its longest name, so
    that no name is cut at 80 columns."""
    shown = errors[:ERRORS_SHOWN]
    table = Table(title=f"Failing runtime calls: {len(errors)}", title_justify="left", show_lines=True)
    table.add_column("call: error", min_width=max(max(len(e.call) + 1, len(e.name or "")) for e in shown))
    table.add_column("called from", overflow="fold")
    for error in shown:
        table.add_row(
            f"{error.call}:\n{error.name} ({error.code})",
            f"{_where(error.backtrace, error.call)}\nthread {error.thread.tid}",
        )
    return table


def _checks(checks: list[CheckEvent]) -> Table:
    """Each report of a check the program went on from, beside where."""
    shown = checks[:ERRORS_SHOWN]
    table = Table(title=f"Reports of checks: {len(checks)}", title_justify="left", show_lines=True)
    table.add_column("report", overflow="fold")
    table.add_column("at", overflow="fold")
    for check in shown:
        table.add_row(check.report, _first_position(check.stack.backtrace))
    return table


def _lane_text(event: CrashEvent | ThreadStack) -> str:
    lane = event.lane
    if lane is None:
        return ""
    kernel = lane.kernel.demangled if lane.kernel else "a kernel"
    return (
        f"in kernel {kernel}, block {_dim3(lane.block)} thread {_dim3(lane.thread_index)} of dispatch {lane.dispatch}"
    )


def _crash(event: CrashEvent) -> Panel:
    head = f"{event.signal}"
    if event.address is not None:
        head += f" at address {event.address:#x}"
    head += f", host thread {event.thread.number} (LWP {event.thread.tid})"
    if lane := _lane_text(event):
        head += f"\n{lane}"
    if event.fault:
        head += f"\n{event.fault['description']}"
    return Panel(
        Group(Text(head, style="bold"), _stack(event.backtrace)),
        title="First crash",
        title_align="left",
        border_style="red",
    )


def _stopped(event: StopEvent) -> Panel:
    parts: list[Any] = []
    for thread in event.threads:
        info = thread.thread
        parts.append(Text(f"thread {info.number} (LWP {info.tid}) {_lane_text(thread)}", style="bold"))
        parts.append(_stack(thread.backtrace[:8]))
    if not parts:
        parts.append(Text("the program did not stop on SIGINT and was killed: no stacks"))
    return Panel(Group(*parts), title=f"Stopped: {event.reason}", title_align="left", border_style="yellow")


def _output(exit_event: ExitEvent) -> list[Any]:
    parts: list[Any] = []
    for stream, text in (("stdout", exit_event.stdout), ("stderr", exit_event.stderr)):
        lines = text.splitlines()
        if lines:
            shown = "\n".join(lines[-OUTPUT_LINES:])
            more = f" (last {OUTPUT_LINES} of {len(lines)} lines)" if len(lines) > OUTPUT_LINES else ""
            parts.append(Panel(Text(shown), title=f"program {stream}{more}", title_align="left"))
    return parts


def _status(exit_event: ExitEvent) -> str:
    if exit_event.killed_by:
        return f"stopped by the capture ({exit_event.killed_by})"
    if exit_event.signal:
        return f"killed by {exit_event.signal}"
    return f"exited with status {exit_event.status}"


def _shown(path: str) -> str:
    """`path` relative to the current directory when it is below it."""
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative


def render(events: list[Event], console: Console) -> None:
    """The report of a capture's `events`, the exit event last."""
    start = next((e for e in events if isinstance(e, StartEvent)), None)
    exit_event = events[-1]
    assert isinstance(exit_event, ExitEvent)
    title = " ".join([_shown(start.program), *start.args]) if start else "program"
    console.print(Text(f"gpusym capture: {title}: {_status(exit_event)} after {exit_event.duration_s} s", style="bold"))
    if exit_event.launches or exit_event.kernels:
        console.print(_launches(exit_event, events))
    errors = [e for e in events if isinstance(e, ErrorEvent)]
    if errors:
        console.print(_errors(errors))
    checks = [e for e in events if isinstance(e, CheckEvent)]
    if checks:
        console.print(_checks(checks))
    crash = next((e for e in events if isinstance(e, CrashEvent)), None)
    if crash is not None:
        console.print(_crash(crash))
    for event in events:
        if isinstance(event, StopEvent):
            console.print(_stopped(event))
    for part in _output(exit_event):
        console.print(part)
