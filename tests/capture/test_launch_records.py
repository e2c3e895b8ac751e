"""The launch-recording interposer, preloaded into real runs of
tests/programs/launch_loop.hip, and the reader of its records.

launch_loop N makes, in this order: N launches of loop::count<<<>>> (grid
i % 3 + 1, block 32, 8 * (i % 4) bytes of dynamic shared memory), 2 of
loop::count by hipLaunchKernel on its handle from main (grid 4, block 16),
1 of loop::mark<<<1, 64>>> from a thread named "launcher", and 1 of
loop::count with a block of 2048 threads, which the runtime refuses.
Addresses are checked against the program's ELF symbol table (read with
pyelftools) moved by the load bias the MODULES record gives."""

from __future__ import annotations

import struct
import subprocess
from pathlib import Path

import pytest
from conftest import RUN_TIMEOUT, describe, run
from elftools.elf.elffile import ELFFile

from capture import interposer
from capture.records import HEADER, Launch, Modules, Record, RecordTail, Result, Thread, encode, read_records
from symbols.errors import FormatError

pytestmark = [pytest.mark.toolchain]

N = 10
LAUNCHES = N + 4
HANDLE = {"count": "_ZN4loop5countEPj", "mark": "_ZN4loop4markEPj"}
STUB = {"count": "_ZN4loop20__device_stub__countEPj", "mark": "_ZN4loop19__device_stub__markEPj"}
INVALID_CONFIGURATION = 9  # hipErrorInvalidConfiguration

#: (kernel, grid x, block x, shared memory, how) of each launch, in order.
EXPECTED = [
    *(("count", i % 3 + 1, 32, 8 * (i % 4), "<<<>>>") for i in range(N)),
    ("count", 4, 16, 0, "handle"),
    ("count", 4, 16, 0, "handle"),
    ("mark", 1, 64, 0, "<<<>>>"),
    ("count", 1, 2048, 0, "<<<>>>"),
]


@pytest.fixture(scope="module")
def program(build_program) -> Path:
    return build_program("launch_loop.hip")


@pytest.fixture(scope="module")
def preload() -> str:
    return str(interposer.library_path())


@pytest.fixture(scope="module")
def symbols(program) -> dict[str, tuple[int, int, str]]:
    """name -> (value, size, type) from the program's .symtab."""
    with program.open("rb") as stream:
        table = ELFFile(stream).get_section_by_name(".symtab")
        return {s.name: (s["st_value"], s["st_size"], s["st_info"]["type"]) for s in table.iter_symbols()}


def recorded(program: Path, preload: str, path: Path, args: tuple[str, ...] = (str(N),), **settings: str):
    """Runs the program with the interposer recording into `path`; returns
    the run and its records."""
    env = {"LD_PRELOAD": preload, "GPUSYM_CAPTURE_RECORDS": str(path), **settings}
    result = run([program, *args], env=env)
    assert result.returncode == 0, describe(result)
    records, used = read_records(path.read_bytes())
    assert used == path.stat().st_size, "the file ends in a partial record"
    return result, records


def of_kind(records: list[Record], kind: type) -> list:
    return [record for record in records if isinstance(record, kind)]


@pytest.fixture(scope="module")
def recording(program, preload, tmp_path_factory) -> tuple[Path, list[Record]]:
    """The records file of one run of ``launch_loop N`` and its records."""
    path = tmp_path_factory.mktemp("records") / "launches.bin"
    return path, recorded(program, preload, path)[1]


@pytest.fixture(scope="module")
def records(recording) -> list[Record]:
    return recording[1]


@pytest.fixture(scope="module")
def launches(records) -> list[Launch]:
    return of_kind(records, Launch)


def main_module(records: list[Record], program: Path):
    """The main program in the first MODULES record."""
    (main,) = [module for module in of_kind(records, Modules)[0].modules if module.path == str(program.resolve())]
    return main


@pytest.fixture(scope="module")
def load_bias(records, program) -> int:
    """The main program's load bias."""
    return main_module(records, program).base


def within(address: int, symbol: tuple[int, int, str], bias: int) -> bool:
    value, size, _ = symbol
    return bias + value <= address - 1 < bias + value + size  # a return address: its call is before it


def test_one_launch_record_per_launch_numbered_in_order(launches):
    assert [launch.seq for launch in launches] == list(range(LAUNCHES))
    assert {launch.entry_point for launch in launches} == {0}  # hipLaunchKernel
    assert {launch.device for launch in launches} == {0}


def test_index_counts_earlier_launches_of_the_same_entry(launches):
    by_kernel = [kernel for kernel, *_ in EXPECTED]
    assert [launch.index for launch in launches] == [by_kernel[:i].count(k) for i, k in enumerate(by_kernel)]


def test_launch_configurations(launches):
    configurations = [(launch.grid, launch.block, launch.shmem, launch.stream) for launch in launches]
    assert configurations == [((grid, 1, 1), (block, 1, 1), shmem, 0) for _, grid, block, shmem, _ in EXPECTED]


def test_entry_is_the_kernel_handle(launches, symbols, load_bias):
    for kernel in HANDLE.values():
        assert symbols[kernel][2] == "STT_OBJECT", kernel
    assert [launch.entry for launch in launches] == [load_bias + symbols[HANDLE[k]][0] for k, *_ in EXPECTED]


def test_first_frame_is_the_caller_of_hipLaunchKernel(launches, symbols, load_bias):
    for launch, (kernel, *_, how) in zip(launches, EXPECTED, strict=True):
        caller = symbols[STUB[kernel]] if how == "<<<>>>" else symbols["main"]
        assert launch.detailed and launch.frames, launch
        assert within(launch.frames[0], caller, load_bias), (
            f"launch {launch.seq}: {launch.frames[0]:#x} outside its caller"
        )


def test_stacks_reach_main(launches, symbols, load_bias):
    main_thread = [launch for launch in launches if launch.tid == launch.pid]
    for launch in main_thread:
        assert any(within(frame, symbols["main"], load_bias) for frame in launch.frames), launch


def test_module_map_precedes_the_first_launch_and_names_the_program(records, program, preload):
    first_launch = next(i for i, record in enumerate(records) if isinstance(record, Launch))
    maps = of_kind(records[:first_launch], Modules)
    assert maps, "no MODULES record before the first launch"
    paths = [module.path for module in maps[0].modules]
    assert paths[0] == str(program.resolve()) and preload in paths
    assert all(module.segments for module in maps[0].modules if module.path == str(program.resolve()))


def test_thread_records_name_each_launching_thread(records, launches):
    threads = {record.tid: record.name for record in of_kind(records, Thread)}
    main_tid = launches[0].pid
    mark = launches[N + 2]
    assert threads == {main_tid: "launch_loop", mark.tid: "launcher"}
    assert mark.tid != main_tid
    assert {launch.tid for launch in launches} == {main_tid, mark.tid}


def test_every_launch_has_a_result_record_after_it(records, launches):
    results = of_kind(records, Result)
    assert [(result.seq, result.tid) for result in results] == [(launch.seq, launch.tid) for launch in launches]
    assert all(records.index(result) > records.index(launch) for result, launch in zip(results, launches))
    refused = [(result.seq, result.result, result.name) for result in results if result.result != 0]
    assert refused == [(N + 3, INVALID_CONFIGURATION, "hipErrorInvalidConfiguration")]
    assert {result.name for result in results if result.result == 0} == {None}


def test_all_records_carry_the_program_pid(records):
    assert len({record.pid for record in records}) == 1


def test_counting_only_records_only_the_caller(program, preload, tmp_path, records, load_bias):
    _, counted = recorded(program, preload, tmp_path / "launches.bin", GPUSYM_CAPTURE_BACKTRACES="0")
    launches = of_kind(counted, Launch)
    assert len(launches) == LAUNCHES
    assert all(not launch.detailed and len(launch.frames) == 1 for launch in launches)
    counted_bias = main_module(counted, program).base
    full = of_kind(records, Launch)
    assert [launch.frames[0] - counted_bias for launch in launches] == [launch.frames[0] - load_bias for launch in full]


@pytest.mark.parametrize(
    "settings, detailed_count_indices",
    [
        ({"GPUSYM_CAPTURE_EVERY": "4"}, {0, 4, 8, 12}),
        ({"GPUSYM_CAPTURE_DETAIL_LIMIT": "3"}, {0, 1, 2}),
        ({"GPUSYM_CAPTURE_EVERY": "3", "GPUSYM_CAPTURE_DETAIL_LIMIT": "2"}, {0, 3}),
        ({"GPUSYM_CAPTURE_DETAIL_LIMIT": "0"}, set()),
    ],
)
def test_sampling_chooses_the_detailed_launches(program, preload, tmp_path, settings, detailed_count_indices):
    _, records = recorded(program, preload, tmp_path / "launches.bin", **settings)
    launches = of_kind(records, Launch)
    assert [launch.index for launch in launches if launch.entry == launches[0].entry][-1] == N + 2
    detailed = {launch.index for launch in launches if launch.detailed and launch.entry == launches[0].entry}
    assert detailed == detailed_count_indices
    assert all((len(launch.frames) > 1) == launch.detailed for launch in launches)
    mark = launches[N + 2]  # the only launch of its entry: index 0, detailed unless the limit is 0
    assert mark.detailed == (settings.get("GPUSYM_CAPTURE_DETAIL_LIMIT") != "0")


def test_program_output_is_unchanged(program, preload, tmp_path):
    plain = run([program, str(N)])
    assert plain.returncode == 0, describe(plain)
    preloaded, _ = recorded(program, preload, tmp_path / "launches.bin")
    assert (preloaded.stdout, preloaded.stderr) == (plain.stdout, plain.stderr)


def test_inactive_without_a_records_file(program, preload, tmp_path):
    result = run([program, str(N)], env={"LD_PRELOAD": preload}, cwd=tmp_path)
    assert result.returncode == 0, describe(result)
    assert list(tmp_path.iterdir()) == []


def test_a_process_that_never_launches_opens_no_file(preload, tmp_path):
    path = tmp_path / "launches.bin"
    result = run(["/bin/sh", "-c", "exit 0"], env={"LD_PRELOAD": preload, "GPUSYM_CAPTURE_RECORDS": str(path)})
    assert result.returncode == 0, describe(result)
    assert not path.exists()


@pytest.mark.parametrize("script", ["exec {program} {n}", "{program} {n}; exit $?"])
def test_through_a_shell_only_the_program_records(program, preload, tmp_path, script):
    path = tmp_path / "launches.bin"
    env = {"LD_PRELOAD": preload, "GPUSYM_CAPTURE_RECORDS": str(path)}
    shell = subprocess.Popen(["/bin/sh", "-c", script.format(program=program, n=N)], env=env, stdout=subprocess.DEVNULL)
    assert shell.wait(timeout=RUN_TIMEOUT) == 0
    records, _ = read_records(path.read_bytes())
    pids = {record.pid for record in records}
    assert len(of_kind(records, Launch)) == LAUNCHES and len(pids) == 1
    assert (pids == {shell.pid}) == script.startswith("exec")  # else the shell's child, not the shell
    assert of_kind(records, Modules)[0].modules[0].path == str(program.resolve())


def test_concurrent_threads_records_stay_whole(build_program, preload, tmp_path):
    """launch_storm: 2 threads of 3000 launches of one kernel."""
    program = build_program("launch_storm.hip")
    _, records = recorded(program, preload, tmp_path / "launches.bin", (), GPUSYM_CAPTURE_EVERY="100")
    launches = of_kind(records, Launch)
    assert sorted(launch.seq for launch in launches) == list(range(6000))
    assert sorted(launch.index for launch in launches) == list(range(6000))
    assert len({launch.tid for launch in launches}) == 2
    assert sum(launch.detailed for launch in launches) == 60


def test_a_truncated_file_reads_up_to_its_last_whole_record(recording):
    path, full = recording
    data = path.read_bytes()
    ends = []
    offset = 0
    while offset < len(data):
        offset += struct.unpack_from("<I", data, offset)[0]
        ends.append(offset)
    cut = (ends[-3] + ends[-2]) // 2  # inside the second to last record
    parsed, used = read_records(data[:cut])
    assert used == ends[-3]
    assert parsed == full[: len(ends) - 2]


def test_a_tail_polled_while_the_file_grows_sees_each_record_once(recording, tmp_path):
    source, full = recording
    data = source.read_bytes()
    grown = tmp_path / "growing.bin"
    tail = RecordTail(grown)
    assert tail.poll() == []  # no file yet
    seen = []
    with grown.open("wb") as stream:
        for start in range(0, len(data), 37):
            stream.write(data[start : start + 37])
            stream.flush()
            seen += tail.poll()
    assert seen == full


def test_unknown_kinds_are_skipped_and_impossible_sizes_refused(recording):
    path, full = recording
    data = path.read_bytes()
    unknown = HEADER.pack(32, 77, 1, 2, 3) + bytes(8)
    assert read_records(unknown + data) == (full, len(unknown + data))
    for size in (12, 36):
        with pytest.raises(FormatError, match=f"impossible size {size}"):
            read_records(data + HEADER.pack(size, 1, 0, 0, 0))


def test_the_writer_writes_each_record_as_the_interposer_does(recording):
    """records.encode, which gdb's own launch records use, byte for byte."""
    path, full = recording
    data = path.read_bytes()
    offset, written = 0, []
    while offset < len(data):
        size = struct.unpack_from("<I", data, offset)[0]
        written.append(data[offset : offset + size])
        offset += size
    assert {type(record) for record in full} == {Launch, Result, Modules, Thread}
    assert [encode(record) for record in full] == written
