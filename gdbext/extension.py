"""Registers gpusym's commands, convenience functions and frame filter in
gdb.  Cheap: what they need is read when they are used."""

from __future__ import annotations

import gdb
import gdb.unwinder

from gdbext import (
    builtins,
    cuda_gdb,
    device_frames,
    displaced_stepping,
    fatal_signals,
    faults,
    lane_watch,
    lanes,
    pushed_configuration,
    runtime_state,
    stepping,
    waiting_lane,
)
from gdbext.api_errors import ApiErrors, SetPrefix
from gdbext.checks import Check
from gdbext.focus import GpuFocus, GpuPrefix, GpuRunTo
from gdbext.frames import KernelFrameFilter
from gdbext.functions import Dispatch, LaneIs, Launching
from gdbext.kbreak import KbreakCommand, resolve_deferred
from gdbext.views import InfoDevices, InfoDispatches, InfoKernels

_registered = False


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
    lanes.InfoLanes()
    SetPrefix("set")
    SetPrefix("show")
    api_errors = ApiErrors()
    check = Check()
    LaneIs()
    Dispatch()
    Launching()
    builtins.Coordinates()
    builtins.WarpSize()
    if not cuda_gdb.running():  # cuda-gdb reads device code's threadIdx and friends itself
        builtins.define_macros()
    frame_filter = KernelFrameFilter()
    gdb.frame_filters[frame_filter.name] = frame_filter
    gdb.unwinder.register_unwinder(None, device_frames.UNWINDER, replace=True)
    gdb.unwinder.register_unwinder(None, waiting_lane.UNWINDER, replace=True)  # tried first
    gdb.events.before_prompt.connect(device_frames.explain_recorded_frame)
    gdb.events.stop.connect(device_frames.forget_explanations)
    gdb.events.cont.connect(device_frames.UNWINDER.forget)
    gdb.events.stop.connect(runtime_state.announce_lane)
    gdb.events.before_prompt.connect(runtime_state.follow_selection)
    gdb.events.stop.connect(lanes.name_workers)
    gdb.events.cont.connect(lanes.unname_workers)
    gdb.events.cont.connect(runtime_state.forget_focus)
    gdb.events.exited.connect(runtime_state.forget_focus)
    gdb.events.exited.connect(runtime_state.clear_lane_variables)
    gdb.events.exited.connect(pushed_configuration.forget)
    gdb.events.stop.connect(faults.announce)  # after the lane's line
    gdb.events.stop.connect(fatal_signals.read_registers)
    gdb.events.stop.connect(fatal_signals.disarm_at_the_end)
    gdb.events.exited.connect(fatal_signals.rearm)
    gdb.events.new_objfile.connect(resolve_deferred)
    gdb.events.breakpoint_modified.connect(cuda_gdb.disable_host_locations)
    gdb.events.breakpoint_deleted.connect(cuda_gdb.forget)
    gdb.events.new_objfile.connect(api_errors.arm)
    gdb.events.new_objfile.connect(check.arm)
    gdb.events.new_objfile.connect(device_frames.capture_when_attached)
    displaced_stepping.watch()
    lane_watch.watch()
    stepping.follow()
    device_frames.enable_capture()
    device_frames.capture_when_attached()
    _registered = True
