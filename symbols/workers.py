"""Reading one binary's code objects with several threads, in the order
asked: inflating and the C loops of ELF reading (elf_scan) run without the
interpreter lock, so a large file's compressed code objects use every
core, in one process (worker processes would each hold their images and
an interpreter).  Code objects stored uncompressed are read by one thread:
reading them is mostly Python, which runs one thread at a time."""

from __future__ import annotations

import errno
import mmap
import os
import stat
from collections import deque
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Iterator

from symbols import containers
from symbols.errors import FormatError

if TYPE_CHECKING:
    from concurrent.futures import Future, ThreadPoolExecutor


def map_file(path: str | Path) -> memoryview:
    """The bytes of the regular file at `path`, mapped.  Raises OSError, or
    FormatError for an empty file or one that is no regular file."""
    # Opened without blocking: opening a FIFO to read waits for a writer.
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        status = os.fstat(descriptor)
        if stat.S_ISDIR(status.st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if not stat.S_ISREG(status.st_mode):
            raise FormatError("not a regular file (a FIFO, socket or device)")
        if status.st_size == 0:
            raise FormatError("empty file")
        return memoryview(mmap.mmap(descriptor, 0, access=mmap.ACCESS_READ))
    finally:
        os.close(descriptor)


def release(data: memoryview, offset: int, size: int) -> None:
    """Gives back the pages of ``data[offset:offset + size]`` when `data`
    maps a whole file: read once, they need not stay in this process's
    memory (the system keeps caching them; a later read maps them again)."""
    if isinstance(data.obj, mmap.mmap) and size > 0 and len(data) == len(data.obj):
        start = offset - offset % mmap.PAGESIZE
        data.obj.madvise(mmap.MADV_DONTNEED, start, min(offset + size, len(data)) - start)


class Workers:
    """Up to `count` threads reading code objects, started on first use."""

    def __init__(self, count: int = 1):
        self.count = count
        self._executor: ThreadPoolExecutor | None = None

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *_) -> None:
        if self._executor is not None:
            self._executor.shutdown(cancel_futures=True)
            self._executor = None

    def read(self, data: memoryview, jobs: list[containers.Job]) -> Iterator[list[containers.Read]]:
        """`containers.read` of each job, in order.  At most `count` jobs
        are read ahead of the one asked for: each holds its images until it
        ends, and what it returns until asked.  Only jobs that inflate are
        worth threads: reading a stored code object is mostly Python, which
        runs one thread at a time."""
        if self.count <= 1 or len(jobs) <= 1 or not any(job.inflates for job in jobs):
            yield from (_read(job, data) for job in jobs)
            return
        if self._executor is None:
            from concurrent.futures import ThreadPoolExecutor

            self._executor = ThreadPoolExecutor(self.count, "gpusym-read")
        pending: deque[Future] = deque()
        for job in jobs:
            pending.append(self._executor.submit(_read, job, data))
            if len(pending) > self.count:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


def demangled(names: Iterable[str], demangle: Callable[[str], str | None] | None = None) -> dict[str, str | None]:
    """Each of `names`, demangled by `demangle` (default:
    ``demangle.demangle``, as gdb prints names); one with a ``many``
    attribute reads the whole list at once."""
    if demangle is None:
        from symbols.demangle import demangle
    if (many := getattr(demangle, "many", None)) is not None:
        return many(names)
    return {name: demangle(name) for name in dict.fromkeys(names)}


def _read(job: containers.Job, data: memoryview) -> list[containers.Read]:
    reads = containers.read(data, job)
    release(data, job.offset, job.size)
    return reads
