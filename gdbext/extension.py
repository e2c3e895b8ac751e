"""Registers gpusym's commands, convenience functions, frame filter and
unwinders in gdb, and connects every gdb event handler of the extension, in
one ordered table (HANDLERS).  Cheap: what they need is read when they are
used."""

from __future__ import annotations

from collections.abc import Callable

import gdb
import gdb.unwinder

from gdbext.commands import cuda_gdb, device_variables
from gdbext.commands.api_errors import ApiErrors, SetPrefix
from gdbext.commands.checks import Check
from gdbext.commands.convenience_functions import Dispatch, LaneIs, Launching, register_lane_builtins
from gdbext.commands.gpu_focus import GpuFocus, GpuPrefix, GpuRunTo
from gdbext.commands.info_views import InfoDevices, InfoDispatches, InfoKernels
from gdbext.commands.kbreak import KbreakCommand, resolve_deferred
from gdbext.frames import device_frames, pushed_configuration, waiting_lane
from gdbext.frames.kernel_frame_filter import KernelFrameFilter
from gdbext.lanes import (
    displaced_stepping,
    fatal_signals,
    info_lanes,
    lane_calls,
    lane_faults,
    lane_record,
    lane_watch,
    shared_watch,
    stepping,
)
from gdbext.runtime_view import device_lines, runtime_state

_registered = False


def _handlers(api_errors: ApiErrors, check: Check) -> list[tuple[gdb.EventRegistry, Callable]]:
    """Every event handler of the extension, in the order gdb calls them
    (an event's handlers run in the order they were connected).  gpusym
    capture's session connects its own after these."""
    events = gdb.events
    return [
        # A stop: what is stale goes first, then the lane's line, then what
        # is said about the stop under it.
        (events.stop, device_frames.forget_explanations),
        (events.stop, runtime_state.announce_lane),  # "[gpusym: block ... of dispatch ...]"
        (events.stop, info_lanes.name_workers),
        (events.stop, info_lanes.name_running_dispatches),  # Ctrl-C on the host: where the lanes are
        (events.stop, lane_faults.announce),  # after the lane's line
        (events.stop, fatal_signals.read_registers),
        (events.stop, fatal_signals.disarm_at_the_end),
        (events.stop, stepping.announce),
        (events.stop, stepping.end),
        (events.stop, lane_record.announce),  # the log nearly full
        (events.stop, lane_record.reverse_stopped),  # a reverse step that left its lane
        (events.stop, lane_record.end),
        (events.stop, api_errors.announce),
        (events.stop, check.announce),
        (events.stop, shared_watch.ended),  # a watched block's __shared__ memory has gone
        # Before the prompt: a reverse step that left its lane goes on back
        # (its hook after it ran before the stop, gdb's CLI being
        # asynchronous), a recorded host frame explained, the selection followed.
        (events.before_prompt, lane_record.after_reverse),
        (events.before_prompt, device_frames.explain_recorded_frame),
        (events.before_prompt, runtime_state.follow_selection),
        (events.before_prompt, stepping.end),
        (events.before_prompt, lane_record.end),  # after a command that failed
        (events.before_prompt, lane_calls.settle),  # after a call gdb failed to make
        # A resume: what the stop showed is forgotten.
        (events.cont, device_frames.UNWINDER.forget),
        (events.cont, info_lanes.unname_workers),
        (events.cont, runtime_state.forget_focus),
        # A function called from gdb at a lane runs on that lane alone.
        (events.inferior_call, lane_calls.inferior_call),
        # The program's end.
        (events.exited, runtime_state.forget_focus),
        (events.exited, runtime_state.clear_lane_variables),
        (events.exited, pushed_configuration.forget),
        (events.exited, fatal_signals.rearm),
        (events.exited, stepping.end),
        (events.exited, lane_record.end),
        (events.exited, shared_watch.exited),
        (events.exited, lane_calls.settle),
        # Object files: kernels, the runtime's breakpoints and its flags.
        (events.new_objfile, resolve_deferred),
        (events.new_objfile, api_errors.arm),
        (events.new_objfile, check.arm),
        (events.new_objfile, device_frames.capture_when_attached),
        (events.new_objfile, displaced_stepping.code_changed),
        (events.new_objfile, lane_watch.sync),  # the runtime of a new process
        (events.free_objfile, displaced_stepping.code_changed),
        # Breakpoints: kept off the host in cuda-gdb, displaced stepping and
        # lane watches kept in step with their locations.
        (events.breakpoint_created, device_lines.note_host_line),  # under gdb's line: where it will move
        (events.breakpoint_created, displaced_stepping.breakpoint_changed),
        (events.breakpoint_created, lane_watch.sync),  # another breakpoint may now share a location
        (events.breakpoint_created, shared_watch.created),  # last: it may replace the breakpoint
        (events.breakpoint_modified, cuda_gdb.disable_host_locations),
        (events.breakpoint_modified, displaced_stepping.breakpoint_changed),
        (events.breakpoint_modified, lane_watch.sync),  # locations resolved or moved, enabled or disabled
        (events.breakpoint_deleted, cuda_gdb.forget),
        (events.breakpoint_deleted, displaced_stepping.update),
        (events.breakpoint_deleted, lane_watch.deleted),
        (events.breakpoint_deleted, shared_watch.deleted),
    ]


def registered() -> bool:
    """Whether register() went through to its end."""
    return _registered


def register() -> None:
    """Idempotent: sourcing the extension again changes nothing."""
    global _registered
    if _registered:
        return
    KbreakCommand()
    InfoKernels()
    InfoDispatches()
    InfoDevices()
    GpuPrefix()
    GpuFocus()
    GpuRunTo()
    info_lanes.InfoLanes()
    SetPrefix("set")
    SetPrefix("show")
    api_errors = ApiErrors()
    check = Check()
    LaneIs()
    Dispatch()
    Launching()
    device_variables.Coordinates()
    device_variables.WarpSize()
    register_lane_builtins(macros=not cuda_gdb.running())  # cuda-gdb reads device code itself
    if not cuda_gdb.running():  # cuda-gdb reads device code's threadIdx and friends itself
        device_variables.define_macros()
    frame_filter = KernelFrameFilter()
    gdb.frame_filters[frame_filter.name] = frame_filter
    gdb.unwinder.register_unwinder(None, device_frames.UNWINDER, replace=True)
    gdb.unwinder.register_unwinder(None, waiting_lane.UNWINDER, replace=True)  # tried first
    for registry, handler in _handlers(api_errors, check):
        registry.connect(handler)
    stepping.hook_commands()  # first: 'show user hook-nexti' would answer for hook-next
    lane_record.hook_commands()
    device_frames.enable_capture()
    device_frames.capture_when_attached()
    _registered = True
