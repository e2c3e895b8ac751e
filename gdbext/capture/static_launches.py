"""Launches through a CUDA runtime linked into the program (nvcc links the
static cudart by default): its entry points are local functions the program
calls directly, which no preloaded library can wrap.  gdb breaks at them
instead and writes the records the interposer would (records.py), so that the
driver reads one kind of record: at the call, the module map when it changed,
the thread's name and the launch (configuration, handle or kernel object,
return addresses); at its return, the result, the error named as the
program's debug information names cudaError_t's values (nothing is run in
the program: gdb cannot call functions everywhere, and a launch may hold
the runtime's locks).

The entry points are found in each loaded file's symbol table: a definition
that its dynamic symbol table does not export (an exported one is a shared
runtime's, which the interposer wraps).  Two stops per launch, three for
nvcc's <<<>>>: milliseconds, where the interposer takes microseconds."""

from __future__ import annotations

import mmap
import os
import re
import time
from collections import Counter
from typing import Any

import gdb

from capture import process_map
from capture.records import Launch, Modules, Result, Thread, encode
from gdbext.frames import launch_arguments
from gdbext.runtime_view.program_analyses import may_hold_kernels
from symbols.elf import ElfFile
from symbols.errors import FormatError

#: The entry points, with their index in launches.ENTRY_POINTS.  In the
#: static cudart __cudaLaunchKernel (nvcc's <<<>>>) jumps to cudaLaunchKernel:
#: one launch, recorded at the first.
ENTRY_POINTS = {"cudaLaunchKernel": 4, "__cudaLaunchKernel": 5, "cudaLaunchKernelExC": 6}
FRAME_LIMIT = 64
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")


def _definitions(path: str) -> dict[str, int]:
    """The entry points the file at `path` defines without exporting them:
    name -> address in the file.  Its symbols are read only when their
    names hold one (a large program's symbol table takes seconds)."""
    try:
        with open(path, "rb") as stream:
            data = mmap.mmap(stream.fileno(), 0, access=mmap.ACCESS_READ)  # unmapped with its last view
        elf = ElfFile(memoryview(data))
        names = elf.section(".strtab")
        if names is None or data.find(b"cudaLaunchKernel\0", names.offset, names.offset + names.size) < 0:
            return {}
        exported = {symbol.name for symbol in elf.dynsym if symbol.defined}
        return {
            symbol.name: symbol.value
            for symbol in elf.symtab
            if symbol.name in ENTRY_POINTS and symbol.defined and symbol.type == "FUNC" and symbol.name not in exported
        }
    except (OSError, ValueError, FormatError):
        return {}


class StaticLaunches:
    """The breakpoints at a linked-in runtime's launch entry points, and the
    records they write to the interposer's file."""

    def __init__(self, settings: dict[str, Any]):
        self.output = open(settings["records"], "ab", buffering=0)
        self.backtraces: bool = settings["backtraces"]
        self.every: int = settings["every"]
        self.detail_limit: int | None = settings["detail_limit"]
        self.examined: set[str] = set()  # real paths
        self.map_changed = True
        self.entries: dict[gdb.Breakpoint, int] = {}  # -> its entry point
        self.calls: dict[gdb.FinishBreakpoint, Launch] = {}  # (gone once hit: known by identity, not number)
        self.in_call: set[tuple[int, int]] = set()  # (pid, tid) in a launch call
        self.threads: set[tuple[int, int]] = set()
        self.seq: Counter = Counter()  # per process
        self.index: Counter = Counter()  # per (pid, entry)
        self.error_names: dict[int, str | None] = {}

    def watch(self) -> None:
        gdb.events.new_objfile.connect(self._new_objfile)
        gdb.events.free_objfile.connect(self._map_changed)

    def _map_changed(self, _event=None) -> None:
        self.map_changed = True

    def _new_objfile(self, event: gdb.NewObjFileEvent) -> None:
        """Sets breakpoints in the file just loaded, and in the program once
        it runs (its own event comes before: where it is loaded is not known
        then)."""
        pid = gdb.selected_inferior().pid
        if not pid:
            return
        self.map_changed = True
        paths = {
            os.path.realpath(path)
            for path in (event.new_objfile.filename, gdb.current_progspace().filename)
            if path and may_hold_kernels(path)
        } - self.examined
        self.examined |= paths
        found = {path: definitions for path in paths if (definitions := _definitions(path))}
        for module in process_map.modules(pid) if found else []:
            for name, address in found.get(module.path, {}).items():
                self.entries[gdb.Breakpoint(f"*{module.base + address:#x}", internal=True)] = ENTRY_POINTS[name]

    def handles(self, stop: gdb.BreakpointEvent) -> bool:
        """Whether the stop is one of these breakpoints'; then it is recorded."""
        for breakpoint in stop.breakpoints:
            if breakpoint in self.entries:
                self._launch(self.entries[breakpoint])
                return True
            if (launch := self.calls.pop(breakpoint, None)) is not None:
                self._result(launch)
                return True
        return False

    def _write(self, record) -> None:
        self.output.write(encode(record))

    def _launch(self, entry_point: int) -> None:
        """At an entry point's first instruction, where the call's arguments
        are as the ABI passes them (a kernel object takes the handle's
        place)."""
        thread = gdb.selected_thread()
        pid, tid = gdb.selected_inferior().pid, thread.ptid[1]
        frame = gdb.newest_frame()
        arguments = launch_arguments.abi_values(frame)
        if (pid, tid) in self.in_call or arguments is None:
            return  # the entry point another one went on to, or nothing called it
        entry, grid, block, shmem, stream = arguments
        now = time.monotonic_ns()
        if self.map_changed:
            self._write(Modules(now, pid, tid, process_map.modules(pid)))
            self.map_changed = False
        if (pid, tid) not in self.threads:
            self.threads.add((pid, tid))
            self._write(Thread(now, pid, tid, thread.name or ""))
        index = self.index[(pid, entry)]
        self.index[(pid, entry)] += 1
        detailed = (
            self.backtraces
            and index % self.every == 0
            and (self.detail_limit is None or index // self.every < self.detail_limit)
        )
        launch = Launch(
            now,
            pid,
            tid,
            entry,
            grid,
            block,
            shmem,
            stream,
            -1,
            entry_point,
            self.seq[pid],
            index,
            detailed,
            _return_addresses(frame, FRAME_LIMIT if detailed else 1),
        )
        self.seq[pid] += 1
        self._write(launch)
        self.calls[gdb.FinishBreakpoint(frame, internal=True)] = launch
        self.in_call.add((pid, tid))

    def _result(self, launch: Launch) -> None:
        """Back in the caller: the call's result is in eax."""
        self.in_call.discard((launch.pid, launch.tid))
        code = int(gdb.selected_frame().read_register("rax")) & 0xFFFFFFFF
        code -= (code >> 31) << 32  # an int
        self._write(Result(time.monotonic_ns(), launch.pid, launch.tid, launch.seq, code, self._error_name(code)))

    def _error_name(self, code: int) -> str | None:
        """cudaError_t's name for `code`, where the program's debug
        information has the type; None for 0 or without it."""
        if code and code not in self.error_names:
            try:
                name = str(gdb.parse_and_eval(f"(cudaError_t) {code}"))
            except gdb.error:
                name = ""
            self.error_names[code] = name if _IDENTIFIER.fullmatch(name) else None
        return self.error_names.get(code)


def _return_addresses(frame: gdb.Frame, limit: int) -> tuple[int, ...]:
    """The return addresses of the frames above `frame`, its caller first."""
    addresses: list[int] = []
    try:
        caller = frame.older()
        while caller is not None and len(addresses) < limit:
            addresses.append(int(caller.pc()))
            caller = caller.older()
    except gdb.error:
        pass  # where gdb cannot unwind further, the stack ends
    return tuple(addresses)
