"""``gpusym query``: kernels, their stubs, handles and device instances, and
every other GPU-related symbol, for any number of binaries."""

from __future__ import annotations

import argparse
import dataclasses
import gc
import os
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from gpusym import __version__, query_text
from symbols.analysis import AddressIndex, Analysis, analyze
from symbols.containers import MAGIC_SIZE, MAGICS
from symbols.demangling import cxxfilt
from symbols.errors import FormatError
from symbols.model import SCHEMA_VERSION, BinaryReport, Role

EXIT_OK, EXIT_SOME_FAILED, EXIT_USAGE = 0, 1, 2
_LARGE_FILE = 32 << 20
_PARALLEL_BYTES = 64 << 20
#: A binary this large has enough names for llvm-cxxfilt: started while it is read.
_EARLY_DEMANGLER_BYTES = 4 << 20


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "query",
        help="kernels, stubs, handles and device symbols of binaries",
        description="Reports each kernel's host stub, handle and device instances, and classifies the other "
        "GPU-related symbols, for ELF binaries, offload bundles and code objects. With '-' among the paths, "
        "reads names or addresses from standard input, one per line, and answers each in order.",
    )
    formats = parser.add_mutually_exclusive_group()
    for name in ("json", "jsonl", "csv"):
        formats.add_argument(
            f"--{name}",
            dest="format",
            action="store_const",
            const=name,
            help=f"{name} output" + (" (the default when stdout is not a terminal)" if name == "json" else ""),
        )
    formats.add_argument(
        "--table",
        dest="format",
        action="store_const",
        const="table",
        help="every kernel, one line each (the default on a terminal, except that a binary of more "
        f"than {query_text.BIG} kernels is summarised: targets, gaps, largest kernels)",
    )
    parser.add_argument(
        "--kernel", metavar="REGEX", help="only kernels whose mangled or demangled name matches (every format)"
    )
    parser.add_argument(
        "--role",
        metavar="ROLE",
        action="append",
        choices=[r.value for r in Role],
        help="list host and device symbols of this role (repeatable): " + ", ".join(r.value for r in Role),
    )
    parser.add_argument(
        "--target",
        metavar="ARCH",
        help="only code objects and instances for this target (gfx90a, sm_90, spirv64, gpusym)",
    )
    parser.add_argument(
        "--addr",
        metavar="ADDR",
        action="append",
        default=[],
        help="which symbol contains ADDR; TARGET:ADDR or #INDEX:ADDR for a code object (repeatable)",
    )
    parser.add_argument(
        "--ptx",
        action="store_true",
        help="read PTX code objects too (slow on big libraries; their cubins name the same kernels)",
    )
    parser.add_argument("-r", "--recursive", action="store_true", help="read the binaries in directories, recursively")
    parser.add_argument(
        "-j",
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        metavar="N",
        help="read files in N processes, or one file's code objects in N threads (default: %(default)s)",
    )
    parser.add_argument(
        "paths", nargs="+", metavar="PATH", help="binaries, directories with -r, or - for stdin queries"
    )


@dataclass
class Outcome:
    path: str
    analysis: Analysis | None
    error: str | None


def _analyze(
    path: str, roles: tuple[str, ...] | None, addresses: bool = True, jobs: int = 1, ptx: bool = False
) -> Outcome:
    """`path` read with `jobs` threads, its PTX only with `ptx`; without
    `addresses`, its report only (the address index is made, and sent back
    from a worker, only when asked)."""
    host_roles = {Role(r) for r in roles} if roles else None
    try:
        if _size(path) >= _EARLY_DEMANGLER_BYTES:
            cxxfilt.start_early()
        analysis = analyze(path, host_roles, jobs=jobs, demangle=cxxfilt.demangle, with_ptx=ptx)
        if not addresses:
            analysis.addresses = AddressIndex()
        return Outcome(path, analysis, None)
    except FormatError as error:
        return Outcome(path, None, _one_line(str(error)))
    except IsADirectoryError:
        return Outcome(path, None, "is a directory (use -r to read the binaries in it)")
    except OSError as error:
        return Outcome(path, None, error.strerror or str(error))
    except (MemoryError, RecursionError) as error:
        return Outcome(path, None, f"too large or too deep to read ({type(error).__name__})")
    except Exception as error:  # a bug: this file's report is lost, not the batch's
        return Outcome(path, None, _one_line(f"internal error, please report it: {type(error).__name__}: {error}"))


def _one_line(message: str) -> str:
    """`message` with its control characters escaped: error messages quote
    bytes of the file (entry ids, names), and each error is one line."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in message)


def _expand(paths: list[str], recursive: bool) -> Iterator[str]:
    for path in paths:
        if recursive and Path(path).is_dir():
            for root, dirs, files in os.walk(path):
                dirs.sort()
                for name in sorted(files):
                    candidate = Path(root, name)
                    if candidate.is_file() and not candidate.is_symlink() and _looks_binary(candidate):
                        yield str(candidate)
        else:
            yield path


def _looks_binary(path: Path) -> bool:
    try:
        with open(path, "rb") as stream:
            return stream.read(MAGIC_SIZE).startswith(MAGICS)
    except OSError:
        return True  # reported as an error when read


def _terminal_columns() -> int:
    import shutil  # imported here: JSON, the usual output, does without it

    return shutil.get_terminal_size().columns


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _run_all(
    paths: list[str], roles: tuple[str, ...] | None, jobs: int, progress: bool, addresses: bool, ptx: bool
) -> Iterator[Outcome]:
    """Each path's outcome, in order, as soon as it is read."""
    # One file: its code objects are read in `jobs` threads.  Several:
    # one process per file, which pays off only for enough input (a small
    # binary takes a few milliseconds, less than starting a worker and
    # returning its result).
    if len(paths) > 1:
        gc.enable()  # off for one file (gpusym.cli); a batch also runs worker pools and a progress bar
    if len(paths) == 1 or jobs <= 1 or sum(map(_size, paths)) < _PARALLEL_BYTES:
        per_file = jobs if len(paths) == 1 else 1
        iterator = (_analyze(path, roles, addresses, per_file, ptx) for path in paths)
        yield from _with_progress(iterator, len(paths), progress)
        return
    from concurrent.futures import ProcessPoolExecutor

    workers = min(jobs, len(paths))
    with ProcessPoolExecutor(max_workers=workers) as pool:
        chunk = max(1, len(paths) // (workers * 4))
        every = len(paths)
        iterator = pool.map(
            _analyze, paths, [roles] * every, [addresses] * every, [1] * every, [ptx] * every, chunksize=chunk
        )
        yield from _with_progress(iterator, len(paths), progress)


def _with_progress(outcomes: Iterator[Outcome], total: int, show: bool) -> Iterator[Outcome]:
    """`outcomes`, with a progress bar on stderr while each is read.  What
    is written to stdout goes straight there (a pipe stays a pipe); on a
    terminal, the bar is taken down while a binary's lines are written."""
    if not show:
        yield from outcomes
        return
    from rich.progress import Progress

    pause = sys.stdout.isatty()
    progress = Progress(transient=True, console=_stderr_console(), redirect_stdout=False)
    task = progress.add_task("reading binaries", total=total)
    try:
        for outcome in _started_before_each(outcomes, progress):
            progress.advance(task)
            if pause:
                progress.stop()
            yield outcome
    finally:
        progress.stop()


def _started_before_each(outcomes: Iterator[Outcome], progress) -> Iterator[Outcome]:
    """`outcomes`, the bar shown while each is read."""
    iterator = iter(outcomes)
    while True:
        progress.start()
        outcome = next(iterator, None)
        if outcome is None:
            return
        yield outcome


def _stderr_console():
    from rich.console import Console

    return Console(stderr=True)


# ---- filtering and rendering ----


def _selected(report: BinaryReport, args: argparse.Namespace) -> BinaryReport:
    """`report` with only what `args` ask for (--kernel, --target, --role);
    `report` itself when they ask for everything.  A kernel or entity kept
    for a target keeps only its instances there."""
    pattern = re.compile(args.kernel) if args.kernel else None
    keep = {c.index for c in report.code_objects if c.target == args.target} if args.target else None
    if pattern is None and keep is None and not args.role:
        return report

    def kept(entities: list, role: str, named: bool) -> list:
        if args.role and role not in args.role:
            return []
        found = []
        for entity in entities:
            if named and pattern and not (pattern.search(entity.name) or pattern.search(entity.demangled)):
                continue
            if keep is not None:
                device = [d for d in entity.device if d.code_object in keep]
                if not device:
                    continue
                entity = dataclasses.replace(entity, device=device)
            found.append(entity)
        return found

    code_objects = report.code_objects if keep is None else [c for c in report.code_objects if c.index in keep]
    return BinaryReport(
        report.path,
        report.format,
        code_objects,
        kept(report.kernels, Role.DEVICE_KERNEL.value, True),
        kept(report.device_functions, Role.DEVICE_FUNCTION.value, False),
        kept(report.device_variables, Role.DEVICE_VARIABLE.value, False),
        report.host_symbols,
        report.notes,
    )


def _json(value: object) -> bytes:
    """`value` as compact JSON in UTF-8.  orjson writes it four times as
    fast as the standard library (a report of cub: 11 ms against 50); a
    string it refuses (a file name that is not UTF-8 holds lone surrogates)
    is escaped by the standard library instead."""
    from orjson import JSONEncodeError, dumps  # imported here: tables do without it

    try:
        return dumps(value)
    except JSONEncodeError:
        import json

        return json.dumps(value, separators=(",", ":")).encode()


def _json_pieces(report: BinaryReport) -> Iterator[bytes]:
    """``_json(report.to_json())``, a piece at a time: each symbol made and
    written as its turn comes (a large library's report is never held
    whole, as objects or as text: it can be larger than the library)."""
    groups = {
        "kernels": (kernel.to_json() for kernel in report.kernels),
        "device_functions": (f.to_json(with_shadow=False) for f in report.device_functions),
        "device_variables": (v.to_json(with_shadow=True) for v in report.device_variables),
        "host_symbols": (s.to_json() for s in report.host_symbols),
    }
    yield b'{"path":%s,"format":%s,"code_objects":' % (_json(report.path), _json(report.format))
    yield _json([c.to_json() for c in report.code_objects])
    for name, items in groups.items():
        yield b',"%s":[' % name.encode()
        for position, item in enumerate(items):
            yield (b"," if position else b"") + _json(item)
        yield b"]"
    yield b',"notes":%s}' % _json(report.notes)


def _parse_address(text: str, report) -> tuple[int | None, int]:
    """(code object index or None for the host, address) of ``[TARGET:|#N:]ADDR``."""
    space, _, number = text.rpartition(":")
    address = int(number, 0)
    if not space:
        return None, address
    if space.startswith("#"):
        return int(space[1:]), address
    for code_object in report.code_objects:
        if code_object.target == space:
            return code_object.index, address
    raise ValueError(f"no code object for target {space}")


def _answer_address(query: str, outcome: Outcome) -> dict:
    report = outcome.analysis.report
    answer = {"query": query, "binary": outcome.path}
    try:
        space, address = _parse_address(query, report)
    except ValueError as error:
        return answer | {"error": str(error)}
    found = outcome.analysis.addresses.lookup(address, space)
    answer |= {"code_object": space, "address": address}
    if found is None:
        return answer | {"symbol": None}
    return answer | {
        "symbol": found.name,
        "offset": address - found.start,
        "role": found.role.value,
        "kernel": found.kernel,
    }


def _answer_name(query: str, outcome: Outcome) -> list[dict]:
    from symbols.lookup import find_entities, find_kernels

    report = outcome.analysis.report
    base = {"query": query, "binary": outcome.path}
    answers = [base | {"kind": "kernel", "match": k.to_json()} for k in find_kernels(report, query)]
    answers += [
        base | {"kind": "device-function", "match": f.to_json(False)}
        for f in find_entities(report.device_functions, query)
    ]
    answers += [
        base | {"kind": "device-variable", "match": v.to_json(True)}
        for v in find_entities(report.device_variables, query)
    ]
    answers += [
        base | {"kind": "host-symbol", "match": s.to_json()}
        for s in report.host_symbols
        if query in (s.symbol, s.demangled)
    ]
    return answers or [base | {"match": None}]


def _is_address(text: str) -> bool:
    return bool(re.fullmatch(r"(?:[#\w.-]+:)?(?:0[xX][0-9a-fA-F]+|\d+)", text))


def _answers(query: str, readable: list[Outcome]) -> list[dict]:
    if _is_address(query):
        return [_answer_address(query, o) for o in readable]
    return [answer for o in readable for answer in _answer_name(query, o)]


def _print_answer(answer: dict, fmt: str) -> None:
    if fmt in ("json", "jsonl"):
        _write_json_line(answer)
        return
    match = answer.get("match")
    if "address" in answer:
        where = (
            f"{answer['symbol']}+{answer.get('offset', 0):#x} ({answer.get('role')})"
            if answer.get("symbol")
            else "no symbol"
        )
        text = f"{answer['query']}: {where}" + (f" kernel {answer['kernel']}" if answer.get("kernel") else "")
    elif match is None:
        text = f"{answer['query']}: not found" + (f" ({answer['error']})" if "error" in answer else "")
    else:
        text = f"{answer['query']}: {answer['kind']} {match.get('demangled', match.get('symbol'))}"
    print(f"{answer['binary']}: {text}", flush=True)


def _write_json_line(value: object) -> None:
    sys.stdout.flush()
    sys.stdout.buffer.write(_json(value) + b"\n")
    sys.stdout.buffer.flush()


def _csv(report: BinaryReport) -> Iterator[list]:
    for kernel in report.kernels:
        stub, handle = kernel.stub, kernel.handle
        for instance in kernel.device or [None]:
            yield [
                report.path,
                kernel.name,
                kernel.demangled,
                stub.symbol if stub else "",
                handle.symbol if handle else "",
                handle.kind if handle else "",
                *((instance.code_object, instance.target, instance.address, instance.size) if instance else [""] * 4),
            ]


class _Output:
    """Writes binaries one at a time, in the chosen format, from their
    reports: JSON, JSON lines and CSV item by item (a large library's report
    is never held whole as text), the table and the summary a binary at a
    time (they count its kernels and targets before the first line)."""

    def __init__(self, fmt: str, args: argparse.Namespace) -> None:
        self.fmt, self.roles, self.count = fmt, args.role, 0
        color = sys.stdout.isatty() and "NO_COLOR" not in os.environ  # https://no-color.org
        self.style = query_text.Style(color, _terminal_columns() if fmt == "text" else 0)
        if fmt == "json":
            sys.stdout.buffer.write(b'{"gpusym":%s,"schema":%d,"binaries":[' % (_json(__version__), SCHEMA_VERSION))
        elif fmt == "csv":
            import csv

            self.csv = csv.writer(sys.stdout)
            self.csv.writerow(
                [
                    "binary",
                    "kernel",
                    "demangled",
                    "stub",
                    "handle",
                    "handle_kind",
                    "code_object",
                    "target",
                    "address",
                    "size",
                ]
            )

    def binary(self, report: BinaryReport) -> None:
        if self.fmt == "json":  # JSON is UTF-8: written as bytes
            if self.count:
                sys.stdout.buffer.write(b",")
            sys.stdout.buffer.writelines(_json_pieces(report))
        elif self.fmt == "jsonl":
            sys.stdout.buffer.writelines(
                _json({"binary": report.path} | kernel.to_json()) + b"\n" for kernel in report.kernels
            )
        elif self.fmt == "csv":
            self.csv.writerows(_csv(report))
        else:
            whole = self.fmt == "table" or not query_text.is_big(report)
            render = query_text.table if whole else query_text.summary
            sys.stdout.writelines(line + "\n" for line in render(report, self.roles, self.style))
        sys.stdout.flush()
        sys.stdout.buffer.flush()
        self.count += 1

    def end(self, errors: list[dict]) -> None:
        if self.fmt == "json":
            sys.stdout.buffer.write(b'],"errors":%s}\n' % _json(errors))


#: glibc's mallopt parameters, and the sizes up to which large blocks come
#: from the heap and freed ones stay there (see `_reuse_freed_images`).
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD, _M_ARENA_MAX = -1, -3, -8
_HEAP_BLOCKS = 64 << 20


def _reuse_freed_images() -> None:
    """Code objects are inflated one after another into images of tens of
    megabytes.  glibc maps each afresh by default, and the kernel zeroes and
    faults in every page again: a tenth of reading cupy's thrust.  Taken
    from the heap and kept there when freed, each image reuses the last
    one's pages.  Up to 64 MB only: beyond, what the heap keeps costs more
    memory than it saves time (xla's plugin peaks at 0.67x its size, and
    at 0.93x with 1 GB).  One arena for every thread: the threads reading
    code objects reuse each other's freed images, instead of each keeping
    its own."""
    import ctypes

    try:
        libc = ctypes.CDLL(None)
        libc.mallopt(_M_MMAP_THRESHOLD, _HEAP_BLOCKS)
        libc.mallopt(_M_TRIM_THRESHOLD, _HEAP_BLOCKS)
        libc.mallopt(_M_ARENA_MAX, 1)
    except (OSError, AttributeError):  # not glibc: its defaults stay
        pass


def run(args: argparse.Namespace) -> int:
    # On a terminal: a table, or a summary of a big binary ("text"); JSON elsewhere.
    fmt = args.format or ("text" if sys.stdout.isatty() else "json")
    stdin_queries = "-" in args.paths
    paths = list(_expand([p for p in args.paths if p != "-"], args.recursive))
    if not paths:
        print("gpusym query: no binaries to read", file=sys.stderr)
        return EXIT_USAGE
    if args.kernel:
        try:
            re.compile(args.kernel)
        except re.error as error:
            print(f"gpusym query: --kernel: bad regular expression: {error}", file=sys.stderr)
            return EXIT_USAGE
    roles = tuple(args.role) if args.role else None
    _reuse_freed_images()
    large = any(os.path.isfile(p) and os.path.getsize(p) > _LARGE_FILE for p in paths)
    progress = sys.stderr.isatty() and (len(paths) > 4 or large)
    outcomes = _run_all(paths, roles, args.jobs, progress, bool(args.addr or stdin_queries), args.ptx)
    errors: list[dict] = []

    def failed(outcome: Outcome) -> bool:
        if outcome.error:
            print(f"gpusym query: {outcome.path}: {outcome.error}", file=sys.stderr)
            errors.append({"path": outcome.path, "error": outcome.error})
        return outcome.error is not None

    if args.addr or stdin_queries:
        readable = [o for o in outcomes if not failed(o)]
        for query in args.addr:
            for answer in _answers(query, readable):
                _print_answer(answer, fmt)
        if stdin_queries:
            for line in sys.stdin:
                if line.strip():
                    for answer in _answers(line.strip(), readable):
                        _print_answer(answer, fmt)
        return EXIT_SOME_FAILED if errors else EXIT_OK

    output = _Output(fmt, args)
    for outcome in outcomes:
        if not failed(outcome):
            output.binary(_selected(outcome.analysis.report, args))
    output.end(errors)
    return EXIT_SOME_FAILED if errors else EXIT_OK
