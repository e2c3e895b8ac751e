"""``gpusym capture`` on real programs under a real gdb: the events, counts,
kernel names, stub frames and exit statuses are checked exactly."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import other_runtime
import pytest
from capture_runs import capture, of_kind, source_line, table_rows
from conftest import GPUSYM, REPO, TEST_PROGRAMS, describe, run, run_gpusym
from elftools.elf.elffile import ELFFile

from native import toolchain

pytestmark = [pytest.mark.toolchain, pytest.mark.gdb]

SOURCE = TEST_PROGRAMS / "capture_kernels.hip"
CAPTURE_FAILED, EXTENSION_FAILED, TIMED_OUT = 125, 126, 124


@pytest.fixture(scope="module")
def kernels(build_program) -> Path:
    return build_program("capture_kernels.hip")


@pytest.fixture(scope="module")
def host_only(tmp_path_factory) -> Path:
    """A program with no GPU code and no runtime at all."""
    program = tmp_path_factory.mktemp("host_only") / "host_only"
    result = run([toolchain.tool("clang"), "-g", "-O0", TEST_PROGRAMS / "host_only.c", "-o", program])
    assert result.returncode == 0, describe(result)
    return program


@pytest.fixture(scope="module")
def loop_capture(kernels):
    return capture("--", kernels, "loop", "20")


def test_every_launch_is_an_event_with_its_configuration(loop_capture):
    result, events = loop_capture
    assert result.returncode == 0, describe(result)
    assert [e["event"] for e in events] == ["start"] + ["launch"] * 22 + ["exit"]
    launches = of_kind(events, "launch")
    assert [e["seq"] for e in launches] == list(range(22))
    assert {e["kernel"]["name"] for e in launches} == {"_ZN7capture4tickEPj"}
    assert {e["kernel"]["demangled"] for e in launches} == {"capture::tick(unsigned int*)"}
    assert [(e["grid"], e["block"]) for e in launches] == (
        [([2, 1, 1], [32, 1, 1])] * 20 + [([3, 1, 1], [64, 1, 1]), ([4, 1, 1], [16, 1, 1])]
    )
    assert {(e["shared_mem"], e["stream"], e["device"], e["api"]) for e in launches} == {(0, 0, 0, "hipLaunchKernel")}
    assert {e["thread"]["tid"] for e in launches} == {launches[0]["pid"]}  # the main thread
    assert {e["form"] for e in launches} == {"debug"}  # under gdb, where any lane can stop


def test_a_launch_names_its_stub_frame_or_the_line_that_launched_through_the_handle(loop_capture):
    _, events = loop_capture
    launches = of_kind(events, "launch")
    # <<<>>> and hipLaunchKernelGGL go through the stub; the last calls hipLaunchKernel on the handle.
    assert [e["via"] for e in launches] == ["<<<>>>"] * 21 + ["handle"]
    stub = launches[0]["backtrace"][0]
    assert (stub["function"], stub["symbol"]) == (
        "capture::__device_stub__tick(unsigned int*)",
        "_ZN7capture19__device_stub__tickEPj",
    )
    assert (stub["role"], stub["kernel"]) == ("kernel-stub", "capture::tick(unsigned int*)")
    caller = launches[0]["backtrace"][1]
    assert (caller["function"], caller["line"]) == (
        "loop(int)",
        source_line(SOURCE, "i < launches; i++) capture::tick<<<2, 32>>>"),
    )
    assert caller["file"].endswith("tests/programs/capture_kernels.hip")
    direct = launches[-1]["backtrace"][0]
    assert (direct["function"], direct["line"]) == (
        "loop(int)",
        source_line(SOURCE, "hipLaunchKernel(reinterpret_cast"),
    )
    assert [f["function"] for f in launches[-1]["backtrace"][:2]] == ["loop(int)", "main"]


def test_the_exit_event_counts_launches_and_keeps_the_programs_output(loop_capture):
    _, events = loop_capture
    exit_event = events[-1]
    assert (exit_event["status"], exit_event["signal"], exit_event["exit_code"]) == (0, None, 0)
    assert exit_event["stdout"] == "blocks 47 expected 47\n" and exit_event["stderr"] == ""
    assert exit_event["launches"] == exit_event["launch_events"] == 22
    (row,) = exit_event["kernels"]
    assert (row["demangled"], row["launches"]) == ("capture::tick(unsigned int*)", 22)
    assert [c["launches"] for c in row["configurations"]] == [20, 1, 1]


def test_a_refused_launch_carries_its_error_and_is_counted_apart(kernels):
    result, events = capture("--", kernels, "refused")
    assert result.returncode == 0, describe(result)
    launches = of_kind(events, "launch")
    assert [(e["block"], e["error"]) for e in launches] == [
        ([32, 1, 1], None),
        ([2048, 1, 1], {"code": 9, "name": "hipErrorInvalidConfiguration"}),
    ]
    exit_event = events[-1]
    assert (exit_event["launches"], exit_event["refused_launches"], exit_event["launch_events"]) == (1, 1, 2)
    (row,) = exit_event["kernels"]
    assert (row["launches"], row["refused"]) == (1, 1)
    assert [(c["block"], c["launches"]) for c in row["configurations"]] == [([32, 1, 1], 1)]
    assert [(c["block"], c["launches"]) for c in row["refused_configurations"]] == [([2048, 1, 1], 1)]
    report = run([GPUSYM, "capture", "--", kernels, "refused"], env={"COLUMNS": "80"})
    assert "Kernel launches: 1, and 1 refused" in report.stdout, describe(report)
    (shown,) = table_rows(report.stdout, "Kernel launches")
    assert shown[1:3] == ["1 1 refused", "(1,1,1)×(32,1,1), (1,1,1)×(2048,1,1) refused"], report.stdout


def test_max_launches_caps_events_and_still_counts_every_launch(kernels):
    result, events = capture("--max-launches", 5, "--", kernels, "loop", 10000)
    assert result.returncode == 0, describe(result)
    assert [e["seq"] for e in of_kind(events, "launch")] == [0, 1, 2, 3, 4]
    assert events[-1]["launches"] == 10002 and events[-1]["launch_events"] == 5


def test_every_samples_each_kernels_launches_and_no_backtraces_only_counts(kernels):
    result, events = capture("--every", 1000, "--no-backtraces", "--", kernels, "loop", 10000)
    assert result.returncode == 0, describe(result)
    launches = of_kind(events, "launch")
    assert [e["seq"] for e in launches] == list(range(0, 10001, 1000))
    assert not any("backtrace" in e for e in launches)
    assert events[-1]["launches"] == 10002


def test_kernels_filter_selects_by_name(kernels):
    result, events = capture("--kernels", "^nothing", "--", kernels, "loop", 3)
    assert result.returncode == 0 and of_kind(events, "launch") == []
    assert (events[-1]["launches"], events[-1]["kernels"]) == (0, [])
    result, events = capture("--kernels", r"capture::tick", "--", kernels, "loop", 3)
    assert len(of_kind(events, "launch")) == 5


def test_a_crash_in_a_kernel_has_its_lane_device_frames_and_launching_host_stack(kernels):
    result, events = capture("--", kernels, "oob")
    assert result.returncode == 128 + signal.SIGSEGV, describe(result)
    (crash,) = of_kind(events, "crash")
    assert crash["signal"] == "SIGSEGV" and crash["address"]
    lane = crash["lane"]
    assert lane["kernel"] == {
        "name": "_ZN7capture7scatterIfEEvPT_l",
        "demangled": "void capture::scatter<float>(float*, long)",
    }
    assert (lane["grid"], lane["block_dim"]) == ([2, 1, 1], [64, 1, 1])
    assert lane["block"][0] in (0, 1) and 0 <= lane["thread_index"][0] < 64
    frames = crash["backtrace"]
    assert (frames[0]["function"], frames[0]["line"]) == (
        "capture::scatter<float>",
        source_line(SOURCE, "data[(blockIdx.x"),
    )
    assert frames[0]["note"].startswith("device gpusym, block (")
    assert "__device_stub__scatter<float>" in frames[1]["function"]
    assert "launched dispatch 1 from host thread" in frames[1]["note"]
    assert [f["function"] for f in frames[2:4]] == ["out_of_bounds", "main"]
    (launch,) = of_kind(events, "launch")
    assert launch["kernel"]["name"] == lane["kernel"]["name"]
    assert events[-1]["signal"] == "SIGSEGV"


def test_a_crash_loses_none_of_the_programs_output(kernels):
    """Its lines (stdout is line-buffered) and the line it had not ended
    (read from its stdout buffer before it is killed)."""
    result, events = capture("--", kernels, "oob")
    assert result.returncode == 128 + signal.SIGSEGV, describe(result)
    assert events[-1]["stdout"] == "allocated 256 bytes\nlaunching scatter\nsynchronizing..."


def test_a_program_killed_outside_gdbs_sight_keeps_its_lines(host_only):
    result, events = capture("--", host_only, "killed")
    assert result.returncode == 128 + signal.SIGKILL, describe(result)
    assert events[-1]["stdout"] == "one\ntwo\n"


def test_failing_api_calls_are_errors_with_the_call_code_and_stack(build_program):
    program = build_program("api_errors.hip")
    result, events = capture("--", program)
    assert result.returncode == 0, describe(result)
    errors = [(e["call"], e["name"], e["code"]) for e in of_kind(events, "error")]
    assert errors == [
        ("hipLaunchKernel", "hipErrorInvalidDeviceFunction", 98),
        ("hipLaunchKernel", "hipErrorInvalidConfiguration", 9),
        ("hipLaunchKernel", "hipErrorInvalidConfiguration", 9),
        ("hipMemcpy", "hipErrorInvalidValue", 1),
        ("hipMemcpy", "hipErrorInvalidValue", 1),
        ("hipFree", "hipErrorInvalidValue", 1),
        ("hipFree", "hipErrorInvalidValue", 1),
        ("hipMemcpy", "hipErrorInvalidValue", 1),
        ("hipMemcpy", "hipErrorInvalidValue", 1),
        ("hipMemset", "hipErrorInvalidValue", 1),
        ("hipLaunchKernel", "hipErrorInvalidConfiguration", 9),
        ("hipMalloc", "hipErrorOutOfMemory", 2),
        ("hipMalloc", "hipErrorInvalidValue", 1),
        ("hipMemcpyToSymbol", "hipErrorInvalidSymbol", 13),
    ]
    stub_launch = of_kind(events, "error")[1]["backtrace"]
    assert [f["function"] for f in stub_launch[:3]] == [
        "hipLaunchKernel",
        "__device_stub__increment(int*, int)",
        "main",
    ]
    assert events[-1]["errors"] == 14


@pytest.fixture(scope="module")
def api_errors_report(build_program, tmp_path_factory) -> tuple[str, list[dict]]:
    """The 80-column report of api_errors and the events it shows."""
    output = tmp_path_factory.mktemp("api_errors") / "capture.json"
    result = run(
        [GPUSYM, "capture", "--json", "-o", output, "--report", "--", build_program("api_errors.hip")],
        env={"COLUMNS": "80"},
    )
    assert result.returncode == 0, describe(result)
    return result.stdout, json.loads(output.read_text())["events"]


def test_the_report_says_which_line_of_the_program_made_a_failing_call(api_errors_report):
    report, events = api_errors_report
    errors = of_kind(events, "error")
    mains = [next(frame["line"] for frame in error["backtrace"] if frame["function"] == "main") for error in errors]
    called_from = [row[1].split(" thread ")[0] for row in table_rows(report, "Failing runtime calls")]
    assert called_from == [f"main at api_errors.hip:{line}" for line in mains[:10]], report


def test_the_report_never_cuts_a_call_or_an_error_name_at_80_columns(api_errors_report):
    report, events = api_errors_report
    shown = [row[0] for row in table_rows(report, "Failing runtime calls")]
    assert shown == [f"{e['call']}: {e['name']} ({e['code']})" for e in of_kind(events, "error")[:10]], report
    assert "hipErrorInvalidConfiguration (9)" in shown[1] and "…" not in report
    assert max(len(line) for line in report.splitlines()) <= 80, report


def test_errors_are_not_recorded_when_not_asked_for(build_program):
    result, events = capture("--on", "launch,crash", "--", build_program("api_errors.hip"))
    assert result.returncode == 0 and of_kind(events, "error") != []  # failed launches, from the interposer
    assert {e["call"] for e in of_kind(events, "error")} == {"hipLaunchKernel"}
    result, events = capture("--on", "crash", "--", build_program("api_errors.hip"))
    assert of_kind(events, "error") == [] and of_kind(events, "launch") == []


def test_a_host_crash_in_a_program_without_gpu_code(host_only):
    result, events = capture("--", host_only, "crash")
    assert result.returncode == 128 + signal.SIGSEGV, describe(result)
    assert [e["event"] for e in events] == ["start", "crash", "exit"]
    crash = events[1]
    assert (crash["signal"], crash["address"]) == ("SIGSEGV", 4)  # config[1] of a null int pointer
    assert [f["function"] for f in crash["backtrace"][:2]] == ["parse_config", "main"]
    assert "lane" not in crash
    assert events[-1]["launches"] == 0


def test_timeout_stops_the_program_with_every_threads_stack(host_only):
    started = time.monotonic()
    result, events = capture("--timeout", 1, "--", host_only, "spin")
    assert result.returncode == TIMED_OUT, describe(result)
    assert time.monotonic() - started < 60
    (timeout,) = of_kind(events, "timeout")
    (thread,) = timeout["threads"]
    assert [f["function"] for f in thread["backtrace"][:2]] == ["spin_forever", "main"]
    assert events[-1]["killed_by"] == "timeout"


def test_stdin_passes_through_and_output_stays_apart(host_only):
    result, events = capture("--", host_only, "echo", stdin="hello\nworld\n")
    assert result.returncode == 3, describe(result)
    assert (events[-1]["stdout"], events[-1]["stderr"]) == ("hello\nworld\n", "echo done\n")
    assert all(line.startswith("{") for line in result.stdout.splitlines())


def test_env_reaches_the_program(host_only, tmp_path):
    script = tmp_path / "show_env"
    script.write_text('#!/bin/sh\necho "$GPUSYM_TEST_VALUE"\n')
    script.chmod(0o755)
    result, events = capture("--env", "GPUSYM_TEST_VALUE=a b", "--", "/bin/sh", script)
    assert result.returncode == 0, describe(result)
    assert events[-1]["stdout"] == "a b\n"


def test_break_stops_in_a_kernels_first_thread_for_its_device_backtrace(kernels):
    result, events = capture("--on", "crash", "--break", "capture::tick", "--", kernels, "loop", 2)
    assert result.returncode == 0, describe(result)
    stops = of_kind(events, "kernel-stop")
    assert len(stops) == 4
    for stop in stops:
        assert (stop["lane"]["block"], stop["lane"]["thread_index"]) == ([0, 0, 0], [0, 0, 0])
        assert stop["backtrace"][0]["function"] == "capture::tick"
        assert "__device_stub__tick" in stop["backtrace"][1]["function"] or stop["backtrace"][1]["function"] == "loop"


def test_json_document_and_report(kernels, tmp_path):
    output = tmp_path / "capture.json"
    result = run(
        [GPUSYM, "capture", "--json", "--report", "-o", output, "--", kernels, "loop", 2], env={"COLUMNS": "200"}
    )
    assert result.returncode == 0, describe(result)
    document = json.loads(output.read_text())
    assert document["schema"] == 1
    assert [e["event"] for e in document["events"]] == ["start"] + ["launch"] * 4 + ["exit"]
    assert "Kernel launches: 4" in result.stdout and "capture::tick(unsigned int*)" in result.stdout
    assert "blocks 11 expected 11" in result.stdout
    assert (
        f"loop at {SOURCE.name}:{source_line(SOURCE, 'i < launches; i++) capture::tick<<<2, 32>>>')}" in result.stdout
    )


def test_a_killed_capture_leaves_every_event_so_far(kernels, tmp_path):
    output = tmp_path / "events.jsonl"
    process = subprocess.Popen(
        [str(GPUSYM), "capture", "--jsonl", "-o", str(output), "--", str(kernels), "hang", "3"], start_new_session=True
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            lines = output.read_text().splitlines() if output.exists() else []
            if sum('"event": "launch"' in line for line in lines) == 3:
                break
            time.sleep(0.1)
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    events = [json.loads(line) for line in output.read_text().splitlines()]
    assert [e["event"] for e in events] == ["start", "launch", "launch", "launch"]


@pytest.mark.parametrize(
    ("arguments", "status", "message"),
    [
        (["--", "/nonexistent/program"], CAPTURE_FAILED, "gpusym capture: /nonexistent/program: program not found"),
        (["--", "/etc"], CAPTURE_FAILED, "gpusym capture: /etc: not an executable file"),
        (["--", "/usr/bin/ldd"], CAPTURE_FAILED, "gpusym capture: /usr/bin/ldd: not an ELF program"),
        ([], 2, "gpusym capture: no program given"),
        (["--kernels", "(", "--", "true"], 2, "gpusym capture: --kernels: not a regular expression"),
        (["--on", "launch,boom", "--", "true"], 2, "gpusym capture: --on: unknown event kind boom"),
        (["-o", "x.json", "--", "true"], 2, "gpusym capture: --output needs --json or --jsonl"),
        (["--env", "NOEQUALS", "--", "true"], 2, "gpusym capture: --env takes NAME=VALUE"),
    ],
)
def test_bad_use_is_one_line_and_a_distinct_status(arguments, status, message, tmp_path):
    result = run_gpusym("capture", *arguments, cwd=tmp_path)
    assert result.returncode == status, describe(result)
    assert result.stderr.startswith(message) and result.stderr.count("\n") == 1, describe(result)
    assert "Traceback" not in result.stderr


def test_gdb_missing_is_a_capture_failure(kernels, tmp_path):
    result = run([GPUSYM, "capture", "--", kernels, "loop", "1"], env={"PATH": str(tmp_path)})
    assert result.returncode == CAPTURE_FAILED, describe(result)
    assert result.stderr == "gpusym capture: gdb is not installed (make demo installs it)\n"


MISSING = (
    "the Python package '{}' is missing; run 'make demo' in " + f"{REPO} (it installs gpusym for the Python gdb embeds)"
)


@pytest.mark.parametrize(
    ("python", "cause"),
    [
        ("import sys; sys.modules['msgpack'] = None", MISSING.format("msgpack")),
        ("import sys; sys.modules['gdbext'] = None", MISSING.format("gdbext")),  # capture's session too
        ("import gdb; gdb.frame_filters = None", "TypeError: 'NoneType' object does not support item assignment"),
    ],
)
def test_an_extension_gdb_does_not_load_is_one_line_naming_why(kernels, tmp_path, python, cause):
    """A real gdb whose Python lacks a package, or where the extension raises
    while it loads (the first command makes it so)."""
    (tmp_path / "gdb").write_text(f'#!/bin/sh\nexec {shutil.which("gdb")} -iex "python {python}" "$@"\n')
    (tmp_path / "gdb").chmod(0o755)
    result = run([GPUSYM, "capture", "--", kernels, "loop", "1"], env={"PATH": f"{tmp_path}:{os.environ['PATH']}"})
    assert result.returncode == EXTENSION_FAILED, describe(result)
    assert result.stderr == f"gpusym capture: gdb did not load gpusym's extension: {cause}\n"


def hiding(paths: list[Path], command: list, empty: Path, **env: str) -> subprocess.CompletedProcess:
    """`command` in a private mount namespace where each of `paths` is
    replaced by /dev/null (a file) or `empty` (a directory), as on a machine
    without them; skips the test where namespaces cannot be made."""
    if run(["unshare", "--user", "--map-root-user", "--mount", "true"]).returncode != 0:
        pytest.skip("user and mount namespaces are not available here")
    empty.mkdir()
    mounts = "".join(f"mount --bind {'/dev/null' if Path(path).is_file() else empty} {path} && " for path in paths)
    return run(
        ["unshare", "--user", "--map-root-user", "--mount", "sh", "-c", mounts + 'exec "$@"', "sh", *command], env=env
    )


def test_the_interposer_is_built_by_the_systems_cc_without_llvm(kernels, tmp_path):
    cache = tmp_path / "cache"
    result = hiding(
        [toolchain.LLVM_BIN],
        [GPUSYM, "capture", "--jsonl", "--", kernels, "loop", 2],
        tmp_path / "empty",
        GPUSYM_CACHE_DIR=str(cache),
    )
    assert result.returncode == 0, describe(result)
    events = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(of_kind(events, "launch")) == 4
    (library,) = cache.glob("gpusym_capture-*/libgpusym_capture.so")
    with library.open("rb") as stream:
        assert b"GCC: " in ELFFile(stream).get_section_by_name(".comment").data()


def test_no_c_compiler_at_all_is_one_line(kernels, tmp_path):
    compilers = [toolchain.LLVM_BIN, Path(shutil.which("cc")).resolve()]
    result = hiding(
        compilers,
        [GPUSYM, "capture", "--", kernels, "loop", 1],
        tmp_path / "empty",
        GPUSYM_CACHE_DIR=str(tmp_path / "cache"),
    )
    assert result.returncode == CAPTURE_FAILED, describe(result)
    assert result.stderr == (
        "gpusym capture: cannot build the launch interposer: no C compiler: neither clang-19 nor cc is installed\n"
    )


def test_launches_from_another_thread_name_it(build_program):
    result, events = capture("--", build_program("launch_loop.hip"), 5)
    assert result.returncode == 0, describe(result)
    (mark,) = [e for e in of_kind(events, "launch") if e["kernel"]["demangled"] == "loop::mark(unsigned int*)"]
    assert mark["thread"]["name"] == "launcher" and mark["thread"]["tid"] != mark["pid"]
    (refused,) = of_kind(events, "error")
    assert (refused["call"], refused["name"]) == ("hipLaunchKernel", "hipErrorInvalidConfiguration")


def test_kernels_of_a_library_loaded_late_from_a_thread(build_program, tmp_path):
    library = build_program("shared_kernels.hip", flags=("-g", "-shared"), output="libshared_kernels.so")
    program = tmp_path / "late_loader"
    built = run([toolchain.tool("clang"), "-g", TEST_PROGRAMS / "late_loader.c", "-o", program, "-ldl", "-pthread"])
    assert built.returncode == 0, describe(built)
    result, events = capture("--", program, library)
    assert result.returncode == 0, describe(result)
    (launch,) = of_kind(events, "launch")
    assert launch["kernel"] == {"name": "_Z6squarePii", "demangled": "square(int*, int)", "module": str(library)}
    assert (launch["via"], launch["thread"]["name"]) == ("<<<>>>", "late-loader")
    stub, caller, loader = launch["backtrace"][:3]
    assert stub["module"] == caller["module"] == str(library)
    assert (caller["function"], loader["function"]) == ("library_square", "load_and_launch")
    assert events[-1]["stdout"] == "late_loader: library_square 0, synchronize 0\n"


def test_a_program_without_debug_information(vector_add_nodebug):
    result, events = capture("--", vector_add_nodebug)
    assert result.returncode == 0, describe(result)
    (launch,) = of_kind(events, "launch")
    stub, caller = launch["backtrace"][:2]
    assert (stub["role"], stub["kernel"]) == ("kernel-stub", launch["kernel"]["demangled"])
    assert caller["function"] == "main" and "file" not in caller


def test_launches_through_another_hip_runtime(tmp_path):
    """The interposer needs no particular runtime: here the program is linked
    against a do-nothing one (a shared library, as HIP runtimes are)."""
    program = other_runtime.build(tmp_path, shared=True)
    result, events = capture("--", program)
    assert result.returncode == 0, describe(result)
    stub_launch, handle_launch = of_kind(events, "launch")
    assert {e["kernel"]["demangled"] for e in (stub_launch, handle_launch)} == {"poke(int*, int)"}
    assert (stub_launch["via"], handle_launch["via"]) == ("<<<>>>", "handle")
    assert (handle_launch["grid"], handle_launch["block"], handle_launch["device"]) == ([2, 1, 1], [64, 1, 1], -1)
    assert handle_launch["backtrace"][0]["function"] == "main"
    assert "form" not in stub_launch and "form" not in handle_launch  # only the simulated device says
