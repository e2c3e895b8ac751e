"""``gpusym capture --trace``: the Chrome trace of real programs, read by
Chrome DevTools' trace engine (installed by scripts/setup.sh) and checked
against the JSONL events of the same run."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import other_runtime
import pytest
from capture_runs import of_kind
from conftest import GPUSYM, REPO, describe

pytestmark = [pytest.mark.toolchain, pytest.mark.gdb]

ENGINE = REPO / "build" / "trace-engine"
#: Parses the trace with the engine; prints each thread's complete events as
#: the engine's Renderer handler models them, and the instant events it kept.
READER = """
import fs from 'node:fs';
import * as Trace from '@paulirish/trace_engine';
import {polyfillDOMRect} from '@paulirish/trace_engine/analyze-trace.mjs';
polyfillDOMRect();
const model = Trace.TraceModel.Model.createWithAllHandlers();
await model.parse(JSON.parse(fs.readFileSync(process.argv[1], 'utf8')).traceEvents);
const parsed = model.parsedTrace();
const threads = [];
for (const [pid, process] of parsed.data.Renderer.processes)
  for (const [tid, thread] of process.threads)
    threads.push({pid, tid, name: thread.name, entries: thread.entries.map(
      e => ({name: e.name, cat: e.cat, ts: e.ts, dur: e.dur, args: e.args}))});
const instants = parsed.traceEvents.filter(e => e.ph === 'i').map(
  e => ({name: e.name, cat: e.cat, pid: e.pid, tid: e.tid, ts: e.ts, args: e.args}));
console.log(JSON.stringify({threads, instants}));
"""
EXIT_CANNOT_WRITE = 73


def traced(
    tmp_path: Path, *command, env: dict[str, str] | None = None
) -> tuple[subprocess.CompletedProcess, list[dict], dict]:
    """``gpusym capture --jsonl --trace``: the result, the events, the trace."""
    events, trace = tmp_path / "events.jsonl", tmp_path / "trace.json"
    result = subprocess.run(
        [str(GPUSYM), "capture", "--jsonl", "-o", events, "--trace", trace, "--", *map(str, command)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **(env or {})},
    )
    assert trace.stat().st_size, describe(result)
    return result, [json.loads(line) for line in events.read_text().splitlines()], json.loads(trace.read_text())


def engine_read(trace: dict, tmp_path: Path) -> dict:
    """What the trace engine made of the trace: threads with their complete
    events, and the instant events."""
    assert (ENGINE / "node_modules/@paulirish/trace_engine").is_dir(), "no trace engine: run scripts/setup.sh"
    path = tmp_path / "engine-input.json"
    path.write_text(json.dumps(trace))
    result = subprocess.run(
        ["node", "--input-type=module", "-e", READER, str(path)],
        cwd=ENGINE,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def entries(read: dict, cat: str) -> list[dict]:
    """The engine's complete events of category `cat`, on every thread."""
    return [dict(entry, thread=thread["name"]) for thread in read["threads"] for entry in thread["entries"]
            if entry["cat"] == cat]  # fmt: skip


def instants(read: dict, cat: str) -> list[dict]:
    return [event for event in read["instants"] if event["cat"] == cat]


def us(time_ns: int) -> float:
    return time_ns / 1000


@pytest.fixture(scope="module")
def kernels(build_program) -> Path:
    return build_program("capture_kernels.hip")


def test_launches_run_on_their_stream_between_the_host_calls(kernels, tmp_path):
    result, events, trace = traced(tmp_path, kernels, "loop", "3")
    assert result.returncode == 0, describe(result)
    launches, runs = of_kind(events, "launch"), of_kind(events, "dispatch")
    (sync,), (copy,) = of_kind(events, "sync"), of_kind(events, "copy")
    assert [run["seq"] for run in runs] == [launch["seq"] for launch in launches] == list(range(5))
    assert (sync["call"], sync["stream"], sync["error"]) == ("hipDeviceSynchronize", None, None)
    assert (copy["call"], copy["bytes"], copy["direction"], copy["stream"]) == ("hipMemcpy", 4, "device-to-host", 0)
    for launch, run in zip(launches, runs):  # each ran after its launch, and before the synchronisation returned
        assert launch["time_ns"] <= run["time_ns"] <= run["end_ns"] <= sync["end_ns"]

    read = engine_read(trace, tmp_path)
    kernel_runs = entries(read, "kernel")
    assert [(k["ts"], k["dur"]) for k in kernel_runs] == [
        (us(run["time_ns"]), us(run["end_ns"] - run["time_ns"])) for run in runs
    ]
    assert {k["thread"] for k in kernel_runs} == {"null stream"}
    assert {k["name"] for k in kernel_runs} == {"capture::tick(unsigned int*)"}
    assert [(k["args"]["grid"], k["args"]["block"], k["args"]["seq"]) for k in kernel_runs] == [
        (launch["grid"], launch["block"], launch["seq"]) for launch in launches
    ]
    assert {k["args"]["device_duration"] for k in kernel_runs} == {"measured on the simulated device"}
    host = f"{launches[0]['thread']['name']} ({launches[0]['thread']['tid']})"
    (synchronization,), (memcpy,) = entries(read, "sync"), entries(read, "copy")
    assert (synchronization["name"], synchronization["thread"], synchronization["ts"]) == (
        "hipDeviceSynchronize", host, us(sync["time_ns"]))  # fmt: skip
    assert (memcpy["name"], memcpy["thread"], memcpy["args"]["bytes"], memcpy["args"]["direction"]) == (
        "hipMemcpy", host, 4, "device-to-host")  # fmt: skip
    assert [e["ts"] for e in instants(read, "launch")] == [us(launch["time_ns"]) for launch in launches]


def test_errors_and_failed_copies(build_program, tmp_path):
    result, events, trace = traced(tmp_path, build_program("api_errors.hip"))
    assert result.returncode == 0, describe(result)
    errors, copies = of_kind(events, "error"), of_kind(events, "copy")
    failed = [copy for copy in copies if copy["error"]]
    assert errors and failed and len(copies) > len(failed)

    read = engine_read(trace, tmp_path)
    assert [(e["name"], e["ts"], e["args"]["code"]) for e in instants(read, "error")] == [
        (f"{error['call']}: {error['name']}", us(error["time_ns"]), error["code"]) for error in errors
    ]
    assert [(c["name"], c["ts"], c["args"]["error"]) for c in entries(read, "copy")] == [
        (copy["call"], us(copy["time_ns"]), copy["error"]) for copy in copies
    ]
    assert len(entries(read, "kernel")) == len(of_kind(events, "dispatch")) == 1


# Blocking, the kernel runs and crashes before its launch call returns (as
# a kernel may when a worker starts it at once).
@pytest.mark.parametrize("blocking", ["0", "1"], ids=["queued", "blocking"])
def test_a_crash_in_a_kernel(kernels, tmp_path, blocking):
    result, events, trace = traced(tmp_path, kernels, "oob", env={"GPUSYM_LAUNCH_BLOCKING": blocking})
    assert result.returncode == 139, describe(result)
    kinds = [event["event"] for event in events]
    assert kinds.count("crash") == kinds.count("launch") == kinds.count("dispatch") == 1, (kinds, describe(result))
    (crash,), (launch,), (run,) = of_kind(events, "crash"), of_kind(events, "launch"), of_kind(events, "dispatch")
    assert (run["seq"], run["end_ns"]) == (launch["seq"], None)  # it started, and never ended
    assert launch["time_ns"] <= run["time_ns"] <= crash["time_ns"]

    read = engine_read(trace, tmp_path)
    (signal,) = instants(read, "crash")
    assert (signal["name"], signal["ts"]) == ("SIGSEGV", us(crash["time_ns"]))
    assert (signal["args"]["block"], signal["args"]["thread"]) == (
        crash["lane"]["block"],
        crash["lane"]["thread_index"],
    )
    assert signal["args"]["kernel"] == "void capture::scatter<float>(float*, long)"
    assert signal["args"]["fault"] == crash["fault"]["description"]
    (kernel,) = instants(read, "kernel")  # no end: an instant at its start, saying so
    assert (kernel["ts"], kernel["args"]["device_duration"]) == (
        us(run["time_ns"]), "not known: the kernel did not end while the program ran")  # fmt: skip
    assert not entries(read, "kernel")


def test_streams_are_threads_of_the_device(build_program, tmp_path):
    result, events, trace = traced(tmp_path, build_program("devices_streams.hip"), "ordering")
    assert result.returncode == 0, describe(result)
    launches = {launch["seq"]: launch for launch in of_kind(events, "launch")}
    streams = {launch["stream"] for launch in launches.values()}
    assert len(launches) == 8 and len(streams) == 2 and 0 not in streams

    read = engine_read(trace, tmp_path)
    names = {f"stream {stream:#x}" for stream in streams}
    kernel_runs = entries(read, "kernel")
    assert len(kernel_runs) == len(of_kind(events, "dispatch")) == 8
    for run in kernel_runs:
        assert run["thread"] == f"stream {launches[run['args']['seq']]['stream']:#x}" in names
    syncs = entries(read, "sync")
    assert [s["args"]["stream"] for s in syncs] == [f"{sync['stream']:#x}" for sync in of_kind(events, "sync")]
    assert len(syncs) == 4 and len(entries(read, "copy")) == 4
    processes = {(e["pid"], e["args"]["name"]) for e in trace["traceEvents"] if e["name"] == "process_name"}
    pid = next(iter(launches.values()))["pid"]
    assert {name for _, name in processes} == {f"devices_streams (pid {pid})", f"device 0 of pid {pid}"}


def test_another_runtime_says_no_run(tmp_path):
    """A runtime other than the simulated device's does not say when kernels
    run: each launch is an instant event that says so."""
    result, events, trace = traced(tmp_path, other_runtime.build(tmp_path, shared=True))
    assert result.returncode == 0, describe(result)
    assert len(of_kind(events, "launch")) == 2 and not of_kind(events, "dispatch")
    read = engine_read(trace, tmp_path)
    assert [k["args"]["device_duration"] for k in instants(read, "kernel")] == [
        "not known: the runtime does not say when kernels run (the simulated device does)"
    ] * 2


def test_a_trace_file_that_cannot_be_written(kernels, tmp_path):
    missing = tmp_path / "no such directory" / "trace.json"
    result = subprocess.run(
        [str(GPUSYM), "capture", "--trace", str(missing), "--", str(kernels), "loop", "1"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == EXIT_CANNOT_WRITE
    assert result.stderr == f"gpusym capture: {missing}: cannot write the trace: No such file or directory\n"
