"""Reading one binary with several processes: its code objects are read, and
names demangled, by worker processes that map the file themselves (its bytes
never travel between processes; what comes back is small), in the order
asked.  With one process, or for little work, everything is done here.

Processes, not threads: reading a code object's symbols is Python code,
which holds the interpreter lock (only inflating releases it)."""

from __future__ import annotations

import errno
import mmap
import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Iterator

from symbols import containers
from symbols.errors import FormatError

if TYPE_CHECKING:
    from concurrent.futures import Executor

#: Less stored device code than this is read in this process: starting
#: workers (tens of milliseconds) would cost more than they save.
PARALLEL_BYTES = 16 << 20
#: Fewer names than this are demangled in this process, unless workers run anyway.
PARALLEL_NAMES = 4096
#: Names per task sent to a worker.
NAMES_PER_TASK = 512

_data: memoryview | None = None  # in a worker: the file


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
    """Up to `count` worker processes for the file at `path` (None: the
    bytes are no file's, and are read here), started on first use."""

    def __init__(self, path: str | Path | None, count: int = 1):
        self.path = path
        self.count = count if path is not None else 1
        self._executor: Executor | None = None

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *_) -> None:
        if self._executor is not None:
            self._executor.shutdown(cancel_futures=True)
            self._executor = None

    def _pool(self) -> Executor:
        if self._executor is None:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            # fork: a worker starts in a few milliseconds, with every module imported.
            self._executor = ProcessPoolExecutor(self.count, multiprocessing.get_context("fork"), _open, (self.path,))
        return self._executor

    def read(self, data: memoryview, jobs: list[containers.Job]) -> Iterator[list[containers.Read]]:
        """`containers.read` of each job, in order."""
        if self.count > 1 and len(jobs) > 1 and sum(job.size for job in jobs) >= PARALLEL_BYTES:
            # One job per task: jobs are few, and large.
            return self._pool().map(_read, jobs)
        return (_read(job, data) for job in jobs)

    def demangle(
        self, names: Iterable[str], demangle: Callable[[str], str | None] | None = None
    ) -> dict[str, str | None]:
        """Each of `names`, demangled by `demangle` (default:
        ``demangle.demangle``, as gdb prints names).  A worker is sent
        `demangle` by name: it must be a module's function.  One with a
        ``many`` attribute reads the whole list at once, here."""
        if demangle is None:
            from symbols.demangle import demangle
        if (many := getattr(demangle, "many", None)) is not None:
            return many(names)

        unique = list(dict.fromkeys(names))
        if self.count <= 1 or (self._executor is None and len(unique) < PARALLEL_NAMES):
            return {name: demangle(name) for name in unique}
        tasks = [unique[start : start + NAMES_PER_TASK] for start in range(0, len(unique), NAMES_PER_TASK)]
        results = self._pool().map(_demangle, tasks, [demangle] * len(tasks))
        return dict(zip(unique, (result for task in results for result in task)))


def _open(path: str | Path) -> None:
    global _data
    _data = map_file(path)


def _read(job: containers.Job, data: memoryview | None = None) -> list[containers.Read]:
    data = _data if data is None else data
    reads = containers.read(data, job)
    release(data, job.offset, job.size)
    return reads


def _demangle(names: list[str], demangle: Callable[[str], str | None]) -> list[str | None]:
    try:
        return [demangle(name) for name in names]
    finally:
        # A worker is asked each name once: its results need not stay here too.
        getattr(demangle, "cache_clear", lambda: None)()
