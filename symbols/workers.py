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
import threading
from pathlib import Path
from typing import Callable, Iterable, Iterator

from symbols import containers
from symbols.errors import FormatError


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
    """Up to `count` threads reading code objects."""

    def __init__(self, count: int = 1):
        self.count = count

    def read(self, data: memoryview, jobs: list[containers.Job]) -> Iterator[list[containers.Read]]:
        """`containers.read` of each job, in order.  At most `count` jobs
        are read ahead of the one asked for: each holds its images until it
        ends, and what it returns until asked.  Only jobs that inflate are
        worth threads: reading a stored code object is mostly Python, which
        runs one thread at a time."""
        if self.count <= 1 or len(jobs) <= 1 or not any(job.inflates for job in jobs):
            yield from (_read(job, data) for job in jobs)
            return
        yield from _Reading(data, jobs, self.count).outcomes()


class _Reading:
    """`count` threads taking `jobs` in order, while fewer than `count` + 1
    are read and not yet taken (concurrent.futures would do, but importing
    it costs 5 ms, a fortieth of reading a library of 80 MB)."""

    def __init__(self, data: memoryview, jobs: list[containers.Job], count: int):
        self.data, self.jobs, self.count = data, jobs, count
        self.results: list[tuple[list[containers.Read] | None, BaseException | None] | None] = [None] * len(jobs)
        self.done = [threading.Event() for _ in jobs]
        self.room = threading.Semaphore(count + 1)
        self.lock = threading.Lock()
        self.next_job = 0
        self.stopped = False

    def outcomes(self) -> Iterator[list[containers.Read]]:
        threads = [threading.Thread(target=self._work, name="gpusym-read", daemon=True) for _ in range(self.count)]
        for thread in threads:
            thread.start()
        try:
            for index, done in enumerate(self.done):
                done.wait()
                result, self.results[index] = self.results[index], None
                self.room.release()
                reads, error = result
                if error is not None:
                    raise error
                yield reads
        finally:  # also when the caller stops early: the jobs not started never are
            self.stopped = True
            self.room.release(len(threads))
            for thread in threads:
                thread.join()

    def _work(self) -> None:
        while True:
            self.room.acquire()
            with self.lock:
                index, self.next_job = self.next_job, self.next_job + 1
            if self.stopped or index >= len(self.jobs):
                return
            try:
                self.results[index] = (_read(self.jobs[index], self.data), None)
            except BaseException as error:  # raised in the caller's thread, in its turn
                self.results[index] = (None, error)
            self.done[index].set()


def demangled(names: Iterable[str], demangle: Callable[[str], str | None] | None = None) -> dict[str, str | None]:
    """Each of `names`, demangled by `demangle` (default:
    ``gnu.demangle``, as gdb prints names); one with a ``many``
    attribute reads the whole list at once."""
    if demangle is None:
        from symbols.demangling.gnu import demangle
    if (many := getattr(demangle, "many", None)) is not None:
        return many(names)
    return {name: demangle(name) for name in dict.fromkeys(names)}


def _read(job: containers.Job, data: memoryview) -> list[containers.Read]:
    reads = containers.read(data, job)
    release(data, job.offset, job.size)
    return reads
