"""The gdb extension in real gdb sessions on the sample programs: kbreak in
each form, stub and launch frames in backtraces, info kernels, loading."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import other_runtime
import pytest
from conftest import GPUSYM, REPO, describe, run, run_gpusym
from gdb_batch import EXTENSION, gdb, stops

pytestmark = [pytest.mark.toolchain, pytest.mark.gdb]


def test_kbreak_stops_in_the_device_kernel_with_its_arguments(vector_add):
    output = gdb(vector_add, "kbreak vector_add", "run", "info args")
    assert re.search(
        r"Breakpoint 1: kernel vector_add\(float const\*, float const\*, float\*, float, int\) — device code "
        r"\(gfx90a, gpusym\), pending until its code object is loaded",
        output,
    ), output
    assert stops(output)[0].startswith("vector_add (a=0x")
    assert "scale = 2.5" in output and "n = 100000" in output
    # Two workers run blocks at once: the first to reach the kernel stops.
    assert re.search(r"\[gpusym: block \(\d+,0,0\) thread \(0,0,0\) of dispatch 1, wavefront 0\]", output), output


def test_kbreak_locations_are_in_device_code_never_the_handle_or_stub(samples):
    output = gdb(samples["templates"], "kbreak twice", "kbreak ns::fill", "start", "info breakpoints")
    locations = re.findall(r"^\d+(?:\.\d+)?\s+(?:breakpoint\s+keep\s+)?y\s+(0x[0-9a-f]+) in (.*?) at ", output, re.M)
    functions = sorted(function for _, function in locations)
    assert functions == sorted(
        [
            "twice(float*, int)",
            "twice(int*, int)",
            "ns::fill<float>(float*, float, int)",
            "ns::fill<int>(int*, int, int)",
            "ns::fill<double>(double*, double, int)",
        ]
    )
    for address, _ in locations:
        where = gdb(samples["templates"], "start", f"info symbol {address}")
        assert re.search(r"in section \.text of \S+\.gpusym\.\d+\.so", where), where


@pytest.mark.parametrize(
    "name, expected",
    [
        ("ns::fill<double>", "ns::fill<double> (out="),
        ("_ZN2ns4fillIiEEvPT_S1_i", "ns::fill<int> (out="),
        ("apply", "apply (params=..."),
    ],
)
def test_kbreak_accepts_source_and_mangled_names(samples, name, expected):
    output = gdb(samples["templates"], f"kbreak {name}", "run")
    assert stops(output)[0].startswith(expected), output


def test_kbreak_block_and_thread_select_one_simulated_thread(vector_add):
    output = gdb(
        vector_add,
        "kbreak vector_add -block 1,0,0 -thread 17",
        "run",
        "print __gpusym_lane->block_idx",
        "print __gpusym_lane->thread_idx",
    )
    assert "[gpusym: block (1,0,0) thread (17,0,0) of dispatch 1, wavefront 0]" in output
    assert "{x = 1, y = 0, z = 0}" in output and "{x = 17, y = 0, z = 0}" in output


def test_kbreak_condition_on_kernel_arguments(vector_add):
    # gdb evaluates the condition in the kernel's frame: its parameters are visible.
    held = gdb(vector_add, "kbreak vector_add -block 2 if scale == 2.5 && n == 100000", "run")
    assert "[gpusym: block (2,0,0) thread (0,0,0) of dispatch 1, wavefront 0]" in held, held
    never = gdb(vector_add, "kbreak vector_add if scale == 3", "run")
    assert stops(never) == [] and "exited normally" in never


def test_kbreak_launch_stops_at_the_stub_with_kernel_and_configuration(vector_add):
    output = gdb(vector_add, "kbreak -launch vector_add", "run", "bt 2")
    frame = next(line for line in output.splitlines() if line.startswith("#0"))
    assert "__device_stub__vector_add(float const*, float const*, float*, float, int)" in frame
    assert (
        "[kernel vector_add(float const*, float const*, float*, float, int) <<<grid (391,1,1), block (256,1,1), "
        "shmem 0, stream 0x0>>>]" in frame
    )
    assert re.search(r"^#1 .* in main \(\) at .*vector_add\.hip:\d+", output, re.M)


def test_kbreak_launch_catches_hip_launch_kernel_on_the_handle_from_plain_cpp(samples):
    output = gdb(samples["interop"], "kbreak -launch scale", "run", "bt 2")
    frame = next(line for line in output.splitlines() if line.startswith("#0"))
    assert (
        "hipLaunchKernel  [launching kernel scale(float*, float, int) <<<grid (4,1,1), block (256,1,1), shmem 0, "
        "stream 0x0>>>]" in frame
    ), output
    # The stop and the frame show the arguments the annotation shows (the
    # breakpoint is past the prologue, where their locations are right).
    # (hipLaunchKernel has a second location: inlined in cudaLaunchKernel.)
    stop = re.search(r"Breakpoint [\d.]+, hipLaunchKernel \((.*)\) at ", output).group(1)
    assert stop.endswith("shared_mem=0, stream=0x0") and "shared_mem=0, stream=0x0) at " in frame, output
    assert re.search(r"^#1 .* in main \(\) at .*main\.cpp:\d+", output, re.M)


def test_kbreak_without_debug_info(vector_add_nodebug):
    output = gdb(vector_add_nodebug, "kbreak vector_add", "run")
    assert re.search(
        r"hit Breakpoint 1, 0x[0-9a-f]+ in vector_add\(float const\*, float const\*, float\*, float, int\)", output
    ), output


def test_errors_are_one_line(vector_add):
    output = gdb(vector_add, "kbreak vectr_add", "kbreak", "kbreak vector_add -block x", "info kernels (")
    assert "kbreak: no kernel named 'vectr_add'; did you mean vector_add?" in output
    assert "usage: kbreak KERNEL" in output
    assert "kbreak: -block takes X[,Y[,Z]]" in output
    assert "info kernels: bad regular expression" in output


def test_info_kernels_lists_each_kernel_with_its_launches(samples):
    # templates launches fill<float>, then fill<int>, then fill<double>.
    output = gdb(samples["templates"], "kbreak ns::fill<int>", "run", "info kernels fill")
    rows = {line.split("(")[0]: line for line in output.splitlines() if line.startswith("void ns::fill")}
    assert set(rows) == {"void ns::fill<float>", "void ns::fill<int>", "void ns::fill<double>"}, output
    for name, launches in (("void ns::fill<float>", 1), ("void ns::fill<int>", 1), ("void ns::fill<double>", 0)):
        assert re.search(rf"\s+yes\s+variable\s+gfx90a, gpusym\s+{launches}\s+(yes|no: .+)$", rows[name]), rows[name]


def test_loading_twice_is_harmless_and_a_missing_package_is_one_line(vector_add):
    output = gdb(vector_add, f"source {EXTENSION}", "kbreak vector_add")
    assert output.count("Breakpoint 1: kernel vector_add") == 1
    blocked = gdb(vector_add, "echo still usable\\n", before=("python import sys; sys.modules['zstandard'] = None",))
    lines = [line for line in blocked.splitlines() if line.startswith("gpusym:")]
    assert lines == [
        f"gpusym: not loaded: the Python package 'zstandard' is missing; run 'make demo' in {REPO} "
        "(it installs gpusym for the Python gdb embeds)"
    ]
    assert "still usable" in blocked


def test_gpusym_gdb_and_gdbinit(vector_add):
    line = subprocess.run([GPUSYM, "gdbinit"], capture_output=True, text=True, check=True).stdout.strip()
    assert line == f"source {EXTENSION}"
    result = run([GPUSYM, "gdb", "-batch", "-ex", "kbreak vector_add", "-ex", "run", "-ex", "kill", "--", vector_add])
    assert "hit Breakpoint 1, vector_add (a=" in result.stdout, describe(result)


@pytest.mark.parametrize("blocking", ["0", "1"])
def test_backtrace_in_a_kernel_continues_with_the_launching_host_stack(samples, blocking):
    source = (REPO / "sample_apps/programs/templates/templates.hip").read_text().splitlines()
    launch_line = next(n for n, text in enumerate(source, 1) if "ns::fill<T><<<" in text)
    call_line = next(n for n, text in enumerate(source, 1) if "check_fill<float>(0.5f, 1000)" in text)
    output = gdb(
        samples["templates"],
        f"set environment GPUSYM_LAUNCH_BLOCKING {blocking}",
        "kbreak ns::fill<float> -block 1",
        "run",
        "bt",
        "bt full",
    )
    frames = [line for line in output.splitlines() if line.startswith("#")]
    assert frames[0].startswith("#0  ns::fill<float>  [device gpusym, block (1,0,0) thread (0,0,0)] (out=0x")
    assert re.match(
        r"#1  0x[0-9a-f]+ in void ns::__device_stub__fill<float>\(float\*, float, int\)  \[kernel void "
        r"ns::fill<float>\(float\*, float, int\) <<<grid \(16,1,1\), block \(64,1,1\), shmem 0, stream 0x0>>>; "
        r"launched dispatch 1 from host thread \d+\]",
        frames[1],
    ), frames[1]
    assert re.match(rf"#2  0x[0-9a-f]+ in check_fill<float> \(\) at \S+templates\.hip:{launch_line}$", frames[2]), (
        frames[2]
    )
    assert re.match(rf"#3  0x[0-9a-f]+ in main \(\) at \S+templates\.hip:{call_line}$", frames[3]), frames[3]
    assert not any("ffi_call" in f or "lane_main" in f or "gpusym_fiber_entry" in f for f in frames)


def test_info_dispatches_and_convenience_variables(samples):
    output = gdb(
        samples["templates"],
        "kbreak ns::fill<int> -block 2 -thread 5",
        "run",
        "info dispatches",
        "print $_kernel",
        "print $_dispatch",
        "print $_block",
        "print $_thread",
    )
    rows = [line.split() for line in output.splitlines() if re.match(r"^[* ]\s+\d+\s+(queued|running|complete)", line)]
    assert [row[:3] for row in rows] == [["1", "complete", "void"], ["*", "2", "running"]], output
    # shmem 0, device 0, the null stream, the launching thread
    assert re.search(r"ns::fill<int>\(int\*, int, int\)\s+\(16,1,1\)\s+\(64,1,1\)\s+0\s+0\s+null\s+\d+", output)
    assert '= "void ns::fill<int>(int*, int, int)"' in output
    assert "= 2\n" in output and "{x = 2, y = 0, z = 0}" in output and "{x = 5, y = 0, z = 0}" in output


def test_kbreak_holds_across_run_kill_run_and_start(vector_add):
    output = gdb(vector_add, "kbreak vector_add -block 3", "run", "kill", "run", "kill", "start", "continue")
    assert output.count("[gpusym: block (3,0,0) thread (0,0,0) of dispatch 1, wavefront 0]") == 3, output


def test_loading_with_python_import(vector_add):
    output = gdb(
        vector_add,
        "kbreak vector_add",
        "run",
        before=(f"python import sys; sys.path.insert(0, '{REPO}')", "python import gdbext.gpusym_gdb"),
    )
    assert output.count("Breakpoint 1: kernel vector_add") == 1 and stops(output)


def test_static_parts_work_with_another_hip_runtime(tmp_path):
    """kbreak -launch and the stub and launch annotations need only symbols:
    here the program is linked against do-nothing HIP entry points."""
    program = other_runtime.build(tmp_path, shared=False)
    output = gdb(program, "kbreak -launch poke", "run", "bt 1", "continue", "bt 1")
    frames = [line for line in output.splitlines() if line.startswith("#0")]
    assert "__device_stub__poke(int*, int)  [kernel poke(int*, int)]" in frames[0], output
    assert (
        "hipLaunchKernel  [launching kernel poke(int*, int) <<<grid (2,1,1), block (64,1,1), shmem 0, stream 0x0>>>]"
        in frames[1]
    ), output


def test_a_deep_launch_stack_is_shown_whole(build_program):
    output = gdb(build_program("deep_launch.hip"), "kbreak deep_kernel", "run", "bt")
    lines = output.splitlines()
    recurse = [line for line in lines if re.search(r"\brecurse \(depth=|in recurse \(", line)]
    assert len(recurse) == 9, output  # depth 8 down to 0
    assert any(re.search(r"in main \(\) at \S+deep_launch\.hip:\d+", line) for line in lines), output


def test_kernels_launched_from_several_host_threads(build_program):
    # Two host threads launch 3,000 times each; the stop names its launcher.
    output = gdb(
        build_program("launch_storm.hip", flags=("-g",), output="launch_storm_g"),
        "kbreak count_blocks -block 2",
        "run",
        "bt",
        "info dispatches",
    )
    assert re.search(r"\[gpusym: block \(2,0,0\) thread \(0,0,0\) of dispatch \d+, wavefront 0\]", output), output
    assert re.search(
        r"__device_stub__count_blocks\(unsigned int\*, int\)  \[kernel count_blocks\(unsigned int\*, int\) "
        r"<<<grid \(3,1,1\), block \(32,1,1\).*launched dispatch \d+ from host thread \d+\]",
        output,
    ), output
    assert re.search(
        r"#2  0x[0-9a-f]+ in main::\{lambda\(int\)#1\}::operator\(\)\(int\) const \(\) at \S+launch_storm\.hip:\d+",
        output,
    ), output
    # The launching thread's stack, to its start, numbered like any other.
    assert re.search(r"#\d+ +0x[0-9a-f]+ in clone3 \(\)", output), output


def test_kbreak_pending_waits_for_a_library_loaded_later(build_program, tmp_path):
    from native import toolchain

    library = build_program("shared_kernels.hip", flags=("-g", "-shared"), output="libshared_kernels.so")
    program = tmp_path / "late_loader"
    built = run(
        [toolchain.tool("clang"), "-g", REPO / "tests/programs/late_loader.c", "-o", program, "-ldl", "-pthread"]
    )
    assert built.returncode == 0, describe(built)
    output = gdb(
        program,
        f"set args {library}",
        "kbreak square",
        "kbreak -pending square",
        "info breakpoints",
        "run",
        "info breakpoints",
        "bt 4",
    )
    # Without -pending: the one-line error, which names -pending.
    assert (
        "kbreak: no GPU code in the program; for a kernel loaded later (a library, hiprtc or NVRTC): "
        "kbreak -pending square"
    ) in output
    assert (
        "Breakpoint 1: no kernel named 'square' in the files loaded so far: pending until a library that defines"
        " it is loaded"
    ) in output
    # Numbered and listed while it waits; replaced by the kernel's breakpoint when the library is loaded.
    assert re.search(r"^1\s+breakpoint\s+keep\s+y\s+<PENDING>\s+'kbreak square'$", output, re.M), output
    assert (
        "Breakpoint 2: kernel square(int*, int) — device code (gfx90a, gpusym), pending until its code object is"
        " loaded (was pending Breakpoint 1)"
    ) in output
    assert stops(output)[0].startswith("square (data=0x")
    listed = output.split("hit Breakpoint", 1)[1]
    assert re.search(r"^2\s+breakpoint\s+keep\s+y\s+0x[0-9a-f]+ in square\(int\*, int\) at ", listed, re.M), output
    assert not re.search(r"^1\s+breakpoint", listed, re.M), output
    assert re.search(r"#2 .* in library_square \(\) at .*shared_kernels.hip:16", output), output
    assert re.search(r"#3 .* in load_and_launch \(\) at .*late_loader.c:\d+", output), output


def test_kbreak_pending_breakpoint_deleted_is_forgotten(build_program, tmp_path):
    from native import toolchain

    library = build_program("shared_kernels.hip", flags=("-g", "-shared"), output="libshared_kernels.so")
    program = tmp_path / "late_loader"
    built = run(
        [toolchain.tool("clang"), "-g", REPO / "tests/programs/late_loader.c", "-o", program, "-ldl", "-pthread"]
    )
    assert built.returncode == 0, describe(built)
    output = gdb(program, f"set args {library}", "kbreak -pending square", "delete 1", "info breakpoints", "run")
    assert "No breakpoints or watchpoints." in output and stops(output) == [], output
    assert "exited normally" in output and "kernel square" not in output, output


def test_kbreak_without_a_program_says_to_load_one():
    output = gdb(None, "kbreak square")
    assert "kbreak: no program (load one with 'file PROGRAM')" in output, output


# --- names: as gdb's own break matches them ---------------------------------------------


@pytest.fixture(scope="module")
def names(build_program) -> Path:
    """tests/programs/names.hip: la::matmul_tiled<T>, zoo::inner::fill<int, 200>,
    an anonymous-namespace kernel, twice(int*) and twice(float*), halve(_Float16*)."""
    return build_program("names.hip")


def test_template_kernels_read_in_gdb_as_gpusym_query_reads_them(names):
    query = json.loads(run_gpusym("query", "--json", names).stdout)["binaries"][0]
    demangled = sorted(k["demangled"] for k in query["kernels"])
    assert "void la::matmul_tiled<double>(double const*, double const*, double*, la::Dims)" in demangled
    assert "halve(_Float16*)" in demangled
    output = gdb(
        names,
        "info kernels",
        "kbreak la::matmul_tiled<double> -thread 1,2",
        "run",
        "bt 1",
        "info dispatches",
        "info breakpoints",
        "print $_kernel",
    )
    rows = [line for line in output.splitlines() if re.search(r"\s+names\s+yes\s+variable", line)]
    assert sorted(re.split(r"\s{2,}", row)[0] for row in rows) == demangled, output
    assert (
        "Breakpoint 1: kernel void la::matmul_tiled<double>(double const*, double const*, double*, la::Dims) — "
        in output
    )
    assert stops(output)[0].startswith("la::matmul_tiled<double> (a=0x"), output
    assert re.search(
        r"^#0  la::matmul_tiled<double>  \[device gpusym, block \(\d,\d,0\) thread \(1,2,0\)\]", output, re.M
    )
    assert re.search(
        r"running\s+void la::matmul_tiled<double>\(double const\*, double const\*, double\*, la::Dims\)\s+"
        r"\(2,2,1\)\s+\(4,4,1\)",
        output,
    ), output
    assert "in la::matmul_tiled<double>(double const*, double const*, double*, la::Dims) at " in output
    assert '= "void la::matmul_tiled<double>(double const*, double const*, double*, la::Dims)"' in output
    assert "_ZN2la" not in output, output


@pytest.mark.parametrize(
    ("command", "kernels"),
    [
        ("kbreak fill", ["void zoo::inner::fill<int, 200>(int*)"]),
        ("kbreak inner::fill", ["void zoo::inner::fill<int, 200>(int*)"]),
        ("kbreak fill<int,200>", ["void zoo::inner::fill<int, 200>(int*)"]),
        ("kbreak -qualified zoo::inner::fill", ["void zoo::inner::fill<int, 200>(int*)"]),
        ("kbreak hidden_scale", ["(anonymous namespace)::hidden_scale(float*, float)"]),
        ("kbreak (anonymous namespace)::hidden_scale -block 0", ["(anonymous namespace)::hidden_scale(float*, float)"]),
        (
            "kbreak -qualified (anonymous namespace)::hidden_scale",
            ["(anonymous namespace)::hidden_scale(float*, float)"],
        ),
        ("kbreak 'twice(int*)'", ["twice(int*)"]),
        ("kbreak twice(int*)", ["twice(int*)"]),
        ("kbreak twice(float *) -thread 3", ["twice(float*)"]),
        ("kbreak twice", ["twice(float*)", "twice(int*)"]),
        (
            "kbreak matmul_tiled",
            [
                "void la::matmul_tiled<double>(double const*, double const*, double*, la::Dims)",
                "void la::matmul_tiled<float>(float const*, float const*, float*, la::Dims)",
            ],
        ),
        ("kbreak halve", ["halve(_Float16*)"]),
    ],
)
def test_kbreak_matches_names_as_gdb_linespecs_do(names, command, kernels):
    output = gdb(names, command)
    assert re.findall(r"^Breakpoint \d+: kernel (.*) — device code", output, re.M) == kernels, output


def test_kbreak_qualified_wants_the_whole_name_and_unknown_names_get_the_nearest(names):
    output = gdb(
        names, "kbreak -qualified inner::fill", "kbreak -qualified hidden_scale", "kbreak twice(double*)", "kbreak fil"
    )
    assert "kbreak: no kernel named 'inner::fill'; did you mean zoo::inner::fill<int, 200>?" in output, output
    assert "kbreak: no kernel named 'hidden_scale'; did you mean (anonymous namespace)::hidden_scale?" in output, output
    assert "kbreak: no kernel named 'twice(double*)'; did you mean twice?" in output, output
    assert "kbreak: no kernel named 'fil'" in output and "Breakpoint" not in output, output


def test_kbreak_by_wild_names_stops_in_those_kernels(names):
    output = gdb(
        names, "kbreak hidden_scale -thread 0", "kbreak 'twice(int*)' -thread 0", "run", "continue", "continue"
    )
    assert [stop.split(" (")[0] for stop in stops(output)] == ["twice", "(anonymous namespace)::hidden_scale"], output
    assert "exited normally" in output


def test_kbreak_completes_namespaced_and_template_names(samples, names):
    output = gdb(
        samples["templates"],
        "complete kbreak ns::fi",
        "complete kbreak ns::fill<f",
        "complete kbreak twice(i",
        "complete kbreak -qu",
        "complete kbreak -qualified fi",
    )
    lines = set(output.splitlines())
    assert {"kbreak ns::fill", "kbreak ns::fill<float>", "kbreak ns::fill<int>", "kbreak ns::fill<double>"} <= lines
    assert {"kbreak ns::fill<float>", "kbreak ns::fill<float>(float*, float, int)"} == {
        line for line in lines if line.startswith("kbreak ns::fill<f")
    }, output
    assert "kbreak twice(int*, int)" in lines and "kbreak twice(float*, int)" not in lines
    assert "kbreak -qualified" in lines
    assert not any(line.startswith("kbreak -qualified fi") for line in lines), output  # fill is ns::fill
    wild = gdb(names, "complete kbreak fi", "complete kbreak hidden", "complete kbreak (anonymous namespace)::hi")
    assert "kbreak fill<int, 200>" in wild and "kbreak zoo::inner::fill" not in wild
    assert "kbreak hidden_scale" in wild and "kbreak (anonymous namespace)::hidden_scale" in wild, wild


def test_info_breakpoints_shows_kernels_demangled_and_lane_filters_readably(samples):
    output = gdb(
        samples["templates"],
        "kbreak ns::fill<int> -block 2 -thread 5",
        "kbreak twice -thread 7 if n > 0",
        "run",
        "info breakpoints",
    )
    assert "[gpusym: block (2,0,0) thread (5,0,0) of dispatch 2, wavefront 0]" in output, output
    listed = output.split("hit Breakpoint", 1)[1]
    assert re.search(r"^1\s+breakpoint\s+keep\s+y\s+0x[0-9a-f]+ in ns::fill<int>\(int\*, int, int\) at ", listed, re.M)
    assert '\tstop only if $_gpusym_lane_is("block (2,0,0) thread (5,0,0)")\n' in listed, listed
    assert '\tstop only if $_gpusym_lane_is("thread (7,0,0)") && (n > 0)\n' in listed, listed
    assert "-1" not in listed, listed


def test_help_kbreak_shows_every_option_and_apropos_lists_every_command():
    output = gdb(None, "help kbreak", "apropos gpusym")
    for option in ("-qualified", "-launch", "-pending", "-block", "-thread", "if CONDITION"):
        assert option in output.split("apropos", 1)[0], (option, output)
    sources = "\n".join(path.read_text() for path in (REPO / "gdbext").rglob("*.py"))
    commands = re.findall(r'super\(\).__init__\(f?"([^"]+)", gdb\.COMMAND_', sources)
    commands = [c.replace("{verb} ", "") for c in commands]
    listed = {line.split(" -- ")[0] for line in output.splitlines() if " -- " in line}
    assert len(commands) >= 8
    for command in commands:
        assert any(entry == command or entry.endswith(" " + command) for entry in listed), (command, listed)
