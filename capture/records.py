"""Reader of the launch records the interposer (interposer.c) appends to its
file, and their writer for the launches gdb records itself (a runtime linked
into the program, static_launches.py).  Pure Python.

Every record is ``u32 size, u32 kind, u64 time_ns, u32 pid, u32 tid`` then a
payload, little-endian, `size` (the whole record) a multiple of 8.  A record
of a kind this reader does not know is skipped by its size."""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

from symbols.errors import FormatError

HEADER = struct.Struct("<IIQII")  # size, kind, time_ns, pid, tid
# entry, grid[3], block[3], shmem, stream, device, entry_point, seq, index, frame_count, detailed
_LAUNCH = struct.Struct("<Q3I3IQQiIQQII")
_RESULT = struct.Struct("<QiIi4x")  # seq, result, name length, form; the name follows
_COUNT = struct.Struct("<II")  # a count or length, pad
_MODULE = struct.Struct("<QII")  # base, segment_count, path_length
_SEGMENT = struct.Struct("<QQ")  # start, size
#: Larger sizes can only come from a corrupt file.
MAX_RECORD_SIZE = 1 << 26

LAUNCH, RESULT, MODULES, THREAD, FUNCTION, KERNEL, CALL, DISPATCH = 1, 2, 3, 4, 5, 6, 7, 8
_FUNCTION = struct.Struct("<QII")  # entry, name length, module length; both texts follow, each padded to 8
_KERNEL = struct.Struct("<QQ")  # kernel object, host function
_CALL = struct.Struct("<QQQIiiI")  # start_ns, stream, bytes, call, direction, result, name length; the name follows
_DISPATCH = struct.Struct("<QQQQ")  # seq, id, start_ns, end_ns


@dataclass(slots=True)
class Record:
    time_ns: int  # CLOCK_MONOTONIC
    pid: int
    tid: int


@dataclass(slots=True)
class Launch(Record):
    """A launch call, recorded before the runtime saw it."""

    entry: int  # the function (handle) pointer the call passed
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    shmem: int
    stream: int
    device: int  # -1: unknown
    entry_point: int  # an index of launches.ENTRY_POINTS: 0 hipLaunchKernel, ..., 5 __cudaLaunchKernel
    seq: int  # the process's launches before this one
    index: int  # the process's launches of the same entry before this one
    detailed: bool  # frames were captured (sampling may leave them out)
    frames: tuple[int, ...]  # return addresses, the launch call's caller first (only it when not detailed)


@dataclass(slots=True)
class Result(Record):
    """What the launch call numbered `seq` returned: 0 when it accepted the
    launch, else the error that refused it."""

    seq: int
    result: int
    name: str | None  # the runtime's own name of an error (hipGetErrorName), None for 0 or without one
    form: int = -1  # the simulated runtime's form of the dispatch queued (enum gpusym_dispatch_form); -1: none


@dataclass(slots=True)
class Module:
    path: str
    base: int  # load bias
    segments: list[tuple[int, int]]  # absolute (start, size) of each PT_LOAD segment


@dataclass(slots=True)
class Modules(Record):
    """The process's whole module map, the main program first."""

    modules: list[Module]


@dataclass(slots=True)
class Thread(Record):
    """A thread's name, recorded at its first launch."""

    name: str


@dataclass(slots=True)
class Function(Record):
    """A function of a module loaded at run time, before its first launch."""

    entry: int  # the hipFunction_t launches pass
    name: str  # the runtime's hipKernelNameRef: the device name
    module: str | None  # the file the module was loaded from; None when unknown or loaded from memory


@dataclass(slots=True)
class KernelObject(Record):
    """The host function (the kernel's handle) a CUDA kernel object stands for."""

    object: int  # the cudaKernel_t __cudaLaunchKernel takes
    entry: int


@dataclass(slots=True)
class Call(Record):
    """A copy or a synchronisation (with a timeline), recorded when it
    returned: `time_ns` is its end."""

    start_ns: int
    stream: int
    bytes: int
    call: int  # an index of launches.CALLS
    direction: int  # hipMemcpyKind (cudaMemcpyKind alike); -1 for a synchronisation
    result: int
    name: str | None  # the runtime's name of an error, None for 0 or without one


@dataclass(slots=True)
class Dispatch(Record):
    """A launch's run on the simulated device (with a timeline), recorded
    when its first block started and again when its last block was done."""

    seq: int  # of the launch call that queued it
    id: int  # the runtime's dispatch id
    start_ns: int  # when its first block started; 0 when unknown
    end_ns: int  # when its last block was done; 0 in the record of its start


def read_records(data: bytes) -> tuple[list[Record], int]:
    """The complete records at the start of `data` and how many bytes they
    take; a partial record at the end is left for the next call.  Raises
    FormatError for a size no record can have."""
    view = memoryview(data)
    records: list[Record] = []
    offset = 0
    while len(view) - offset >= 4:
        (size,) = struct.unpack_from("<I", view, offset)
        if size < HEADER.size or size % 8 or size > MAX_RECORD_SIZE:
            raise FormatError(f"launch record at byte {offset} has an impossible size {size}")
        if len(view) - offset < size:
            break
        record = _parse(view[offset : offset + size], offset)
        if record is not None:
            records.append(record)
        offset += size
    return records, offset


def _parse(record: memoryview, offset: int) -> Record | None:
    size, kind, time_ns, pid, tid = HEADER.unpack_from(record)
    common = (time_ns, pid, tid)
    try:
        if kind == LAUNCH:
            return _launch(record, common)
        if kind == RESULT:
            seq, result, length, form = _RESULT.unpack_from(record, HEADER.size)
            return Result(*common, seq, result, _text(record, HEADER.size + _RESULT.size, length) or None, form)
        if kind == MODULES:
            return Modules(*common, _modules(record))
        if kind == THREAD:
            (length, _) = _COUNT.unpack_from(record, HEADER.size)
            return Thread(*common, _text(record, HEADER.size + _COUNT.size, length))
        if kind == FUNCTION:
            entry, name_length, module_length = _FUNCTION.unpack_from(record, HEADER.size)
            start = HEADER.size + _FUNCTION.size
            name = _text(record, start, name_length)
            module = _text(record, start + -(-name_length // 8) * 8, module_length)
            return Function(*common, entry, name, module or None)
        if kind == KERNEL:
            return KernelObject(*common, *_KERNEL.unpack_from(record, HEADER.size))
        if kind == CALL:
            *fields, length = _CALL.unpack_from(record, HEADER.size)
            return Call(*common, *fields, _text(record, HEADER.size + _CALL.size, length) or None)
        if kind == DISPATCH:
            return Dispatch(*common, *_DISPATCH.unpack_from(record, HEADER.size))
    except struct.error as error:
        raise FormatError(f"launch record of kind {kind} at byte {offset} is corrupt ({size} bytes): {error}") from None
    return None  # a kind of a later format: skipped


def _text(record: memoryview, start: int, length: int) -> str:
    """`length` bytes of text at `start` of the record."""
    if start + length > len(record):
        raise struct.error("text past the end")
    return bytes(record[start : start + length]).decode("utf-8", "replace")


def _launch(record: memoryview, common: tuple[int, int, int]) -> Launch:
    fields = _LAUNCH.unpack_from(record, HEADER.size)
    entry, grid, block = fields[0], fields[1:4], fields[4:7]
    shmem, stream, device, entry_point, seq, index, frame_count, detailed = fields[7:]
    start = HEADER.size + _LAUNCH.size
    frames = struct.unpack_from(f"<{frame_count}Q", record, start)
    return Launch(*common, entry, grid, block, shmem, stream, device, entry_point, seq, index, bool(detailed), frames)


def _padded(text: bytes) -> bytes:
    return text + bytes(-len(text) % 8)


def encode(record: Launch | Result | Modules | Thread) -> bytes:
    """The bytes of `record` as the interposer writes it."""
    if isinstance(record, Launch):
        kind = LAUNCH
        payload = _LAUNCH.pack(
            record.entry,
            *record.grid,
            *record.block,
            record.shmem,
            record.stream,
            record.device,
            record.entry_point,
            record.seq,
            record.index,
            len(record.frames),
            record.detailed,
        )
        payload += struct.pack(f"<{len(record.frames)}Q", *record.frames)
    elif isinstance(record, Result):
        kind, name = RESULT, (record.name or "").encode()
        payload = _RESULT.pack(record.seq, record.result, len(name), record.form) + _padded(name)
    elif isinstance(record, Thread):
        kind, name = THREAD, record.name.encode()
        payload = _COUNT.pack(len(name), 0) + _padded(name)
    else:
        kind, payload = MODULES, _COUNT.pack(len(record.modules), 0)
        for module in record.modules:
            path = module.path.encode("utf-8", "surrogateescape")
            payload += _MODULE.pack(module.base, len(module.segments), len(path))
            payload += b"".join(_SEGMENT.pack(*segment) for segment in module.segments) + _padded(path)
    return HEADER.pack(HEADER.size + len(payload), kind, record.time_ns, record.pid, record.tid) + payload


def _modules(record: memoryview) -> list[Module]:
    (count, _) = _COUNT.unpack_from(record, HEADER.size)
    offset = HEADER.size + _COUNT.size
    modules = []
    for _ in range(count):
        base, segment_count, path_length = _MODULE.unpack_from(record, offset)
        offset += _MODULE.size
        segments = [_SEGMENT.unpack_from(record, offset + i * _SEGMENT.size) for i in range(segment_count)]
        offset += segment_count * _SEGMENT.size
        if offset + path_length > len(record):
            raise struct.error("path past the end")
        path = bytes(record[offset : offset + path_length]).decode("utf-8", "surrogateescape")
        offset += -(-path_length // 8) * 8
        modules.append(Module(path, base, segments))
    return modules


class FileTail:
    """What another process appended to a file since the last read, with the
    unconsumed end of the previous read before it."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self._offset = 0  # bytes of the file read so far
        self._partial = b""  # of them, the end not consumed yet

    def read(self) -> bytes:
        """The unconsumed bytes and the new ones (none while the file does
        not exist); the caller gives back what it could not use with keep()."""
        try:
            with self.path.open("rb") as stream:
                stream.seek(self._offset)
                new = stream.read()
        except FileNotFoundError:
            new = b""
        self._offset += len(new)
        data, self._partial = self._partial + new, b""
        return data

    def keep(self, rest: bytes) -> None:
        self._partial = rest


class RecordTail(FileTail):
    """Reads the records appended to a file since the last poll; a record
    still being written waits for the next one."""

    def poll(self) -> list[Record]:
        """The records completed since the last call.  Raises FormatError."""
        data = self.read()
        records, used = read_records(data)
        self.keep(data[used:])
        return records
