"""Kernels' fast form (device/passes/fast_form.cpp): a kernel without
barriers or warp functions runs a block's threads as one loop.  Both forms
give the host's results (tests/programs/fast_form.hip); -v says which
kernels have none and why; a fault in the fast form is reported for the
thread that made it, as in the debuggable form; GPUSYM_FORM picks; and
random kernels (fuzz/random_kernels.py) agree with the host in both forms."""

from __future__ import annotations

import re
import shlex
import signal
from pathlib import Path

import pytest
from capture_runs import source_line
from conftest import BUILD_TIMEOUT, GPUSYM, GPUSYM_NVCC, TEST_PROGRAMS, describe, run, run_gpusym
from fault_runs import report
from gdb_batch import gdb
from gdb_terminal import GdbTerminal

from fuzz import random_kernels

pytestmark = [pytest.mark.toolchain]

NOT_INLINED = "it calls plus_thread(int)"
NO_FAST_FORM = re.compile(r"^gpusym: kernel (.+) has no fast form: (.+)$", re.M)


def build_verbose(source: str, directory: Path, level: str) -> tuple[Path, str]:
    """`source` built with `level` and -v: the program and what the build said."""
    program = directory / f"{Path(source).stem}{level}"
    built = run_gpusym("build", level, "-g", "-v", TEST_PROGRAMS / source, "-o", program, timeout=BUILD_TIMEOUT)
    assert built.returncode == 0, describe(built)
    return program, built.stderr


def device_ir(source: Path, directory: Path) -> str:
    """The simulated device's IR of `source` after gpusym's passes: the
    device compile that ``gpusym build -O2 -v`` shows, run again to print
    IR with its value names."""
    built = run_gpusym("build", "-O2", "-v", "-c", source, "-o", directory / "object.o", timeout=BUILD_TIMEOUT)
    assert built.returncode == 0, describe(built)
    [command] = [
        line for line in built.stderr.splitlines() if "-fcuda-is-device" in line and "libgpusym_fast_form" in line
    ]
    words = [word for word in shlex.split(command) if word != "-discard-value-names"]
    words[words.index("-S")] = "-emit-llvm"
    words[words.index("-o") + 1] = str(directory / "device.ll")
    compiled = run(words, timeout=BUILD_TIMEOUT)
    assert compiled.returncode == 0, describe(compiled)
    return (directory / "device.ll").read_text()


def fast_forms(ir: str) -> dict[str, str]:
    """Each fast form's body in `ir`, by its kernel's name (of kernels whose
    first parameter is a pointer)."""
    return dict(re.findall(r"^define [^\n]*@_Z\d+(\w+?)P\w*\.gpusym_fast\((.*?^})$", ir, re.M | re.S))


def assert_prints_in_both_forms(source: Path, directory: Path, expected: str) -> None:
    """Builds `source` with -O2 and runs it in each form: it must exit 0
    and print `expected`."""
    program = directory / source.stem
    assert run_gpusym("build", "-O2", source, "-o", program, timeout=BUILD_TIMEOUT).returncode == 0
    for form in ("fast", "debug"):
        result = run([program], env={"GPUSYM_FORM": form})
        assert result.returncode == 0 and expected in result.stdout, describe(result)


@pytest.fixture(scope="module")
def optimised(tmp_path_factory) -> tuple[Path, str]:
    return build_verbose("fast_form.hip", tmp_path_factory.mktemp("fast_form"), "-O2")


def test_only_the_kernel_calling_what_reads_its_thread_has_no_fast_form(optimised):
    # call_twice's call, of a function of its argument alone, stays a call.
    _, said = optimised
    assert NO_FAST_FORM.findall(said) == [("call_plus_thread(int const*, int*)", NOT_INLINED)], said
    # The kernels with barriers keep what their threads carry across them,
    # grid_stride across its stride loop's trips; swap_halves works its
    # guards out again from its thread's coordinates.
    assert re.findall(r"^gpusym: kernel (\w+)\(.*\) keeps (\d+) bytes a thread across its barriers", said, re.M) == [
        ("grid_stride", "0"),
        ("reverse_in_block", "0"),
        ("scan_in_block", "16"),
        ("swap_halves", "0"),
        ("rotate_in_wavefront", "16"),  # its shuffle's value (4), result (4) and source lane (8)
        ("call_twice", "0"),
    ], said


@pytest.mark.parametrize("form", ["fast", "debug"])
def test_both_forms_give_the_hosts_results(optimised, form):
    result = run([optimised[0]], env={"GPUSYM_FORM": form})
    assert result.returncode == 0 and "fast form: 0 wrong" in result.stdout, describe(result)
    assert result.stdout.count(": ok\n") == 12, describe(result)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_the_forms_agree_with_any_worker_count(optimised, workers):
    outputs = {
        run([optimised[0]], env={"GPUSYM_FORM": form, "GPUSYM_WORKERS": workers}).stdout for form in ("fast", "debug")
    }
    assert len(outputs) == 1, outputs


def test_at_o0_every_kernel_keeps_its_debuggable_form(tmp_path):
    program, said = build_verbose("fast_form.hip", tmp_path, "-O0")
    assert "gpusym: -O0: every kernel has its debuggable form only" in said, said
    result = run([program])
    assert result.returncode == 0 and "fast form: 0 wrong" in result.stdout, describe(result)


def test_a_fault_in_the_fast_form_names_the_thread_that_made_it(tmp_path):
    # fault::poke has a fast form at -O2: the block runs again in the
    # debuggable form, whose lane 17 of block 1 reports the write.
    program, said = build_verbose("fault.hip", tmp_path, "-O2")
    assert "poke" not in "".join(name for name, _ in NO_FAST_FORM.findall(said)), said
    result = run([program, "past-end"])
    assert result.returncode == -signal.SIGSEGV, describe(result)
    kernel, dispatch, block, thread, what = report(result)
    assert (kernel, dispatch, block, thread) == ("void fault::poke<float>(float*, long)", "1", "1,0,0", "17,0,0")
    assert what.startswith("invalid write at "), what


def test_an_unknown_form_is_named_and_ignored(optimised):
    result = run([optimised[0]], env={"GPUSYM_FORM": "quick"})
    assert result.returncode == 0 and "fast form: 0 wrong" in result.stdout, describe(result)
    assert "gpusym: ignoring GPUSYM_FORM=quick: it is fast or debug" in result.stderr, describe(result)


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 4243, 5112, 7135])
def test_random_kernels_agree_with_the_host_in_both_forms(tmp_path, seed):
    # 40 kernels under 8 launch shapes: 320 cases a form (fuzz/random_kernels.py).
    # Seeds 4243 and 5112 each had a kernel without a fast form: code every
    # thread runs alike after a barrier kept an edge from another stretch.
    # Seed 7135 crashed clang: a phi carried across a barrier had a
    # predecessor with two edges to it.
    source, program = tmp_path / f"random{seed}.hip", tmp_path / f"random{seed}"
    source.write_text(random_kernels.program(seed, 40))
    built = random_kernels.build(source, program, str(GPUSYM))
    assert built.returncode == 0, describe(built)
    assert "has no fast form" not in built.stderr, built.stderr
    for form in ("fast", "debug"):
        result = random_kernels.run(program, form)
        assert result.returncode == 0 and "random kernels: 320 cases, 0 wrong" in result.stdout, describe(result)


@pytest.mark.parametrize("form", ["fast", "debug"])
def test_a_loops_values_after_its_barriers_are_its_last_trips(tmp_path, form):
    program = tmp_path / "barrier_loop_values"
    built = run_gpusym(
        "build", "-O2", "-v", TEST_PROGRAMS / "barrier_loop_values.hip", "-o", program, timeout=BUILD_TIMEOUT
    )
    assert built.returncode == 0 and "has no fast form" not in built.stderr, describe(built)
    result = run([program], env={"GPUSYM_FORM": form})
    assert result.returncode == 0 and "last_trip: 0 wrong" in result.stdout, describe(result)
    assert "some_trips_wait: 0 wrong" in result.stdout, describe(result)
    assert "tile_sums: 0 wrong" in result.stdout, describe(result)


def every_kernel_fast(source: str, directory: Path) -> Path:
    """`source` built with -O2, every kernel of it with a fast form."""
    program, said = build_verbose(source, directory, "-O2")
    assert "has no fast form" not in said, said
    return program


@pytest.fixture(scope="module")
def lane_ranges(tmp_path_factory) -> Path:
    return every_kernel_fast("lane_ranges.hip", tmp_path_factory.mktemp("lane_ranges"))


@pytest.mark.parametrize("form", ["fast", "debug"])
def test_guards_on_a_threads_coordinates_let_in_the_hosts_threads(lane_ranges, form):
    # The fast form runs the range of threads a guard lets in: each kind of
    # test, bounds outside the block, empty ranges, coordinates that wrap.
    result = run([lane_ranges], env={"GPUSYM_FORM": form})
    assert result.returncode == 0 and "lane ranges: 2525 cases, 0 wrong" in result.stdout, describe(result)


@pytest.fixture(scope="module")
def lane_points(tmp_path_factory) -> Path:
    return every_kernel_fast("lane_points.hip", tmp_path_factory.mktemp("lane_points"))


@pytest.mark.parametrize("form", ["fast", "debug"])
def test_equality_tests_of_a_threads_coordinate_give_the_hosts_results(lane_points, form):
    # The fast form cuts its loops over the threads at the threads such
    # tests single out (a tile's halo): constant points in and out of order,
    # points not known, switches, 64-bit coordinates, versions on conditions
    # the same for the block; no thread runs twice or is left out.
    result = run([lane_points], env={"GPUSYM_FORM": form})
    assert result.returncode == 0 and "lane points: 1280 cases, 0 wrong" in result.stdout, describe(result)


def test_a_loop_is_cut_at_a_point_whose_thread_alone_branches_further(tmp_path):
    # plain_nested: `if (tx == 3 && a != 0 && global / a > b)` branches
    # past its point's test; between the points the loop is straight.
    ir = device_ir(TEST_PROGRAMS / "lane_points.hip", tmp_path)
    [fast] = re.findall(r"^define [^\n]*@_Z12plain_nestedPiii\.gpusym_fast\(.*?^}$", ir, re.M | re.S)
    assert re.search(r"^lanes\.piece\d*:", fast, re.M) and re.search(r"^vector\.body\d*:", fast, re.M), fast


def test_the_fast_forms_loops_need_no_checks_that_shared_and_device_memory_are_apart(tmp_path):
    # A tile copied from device memory to shared memory and back: each
    # stretch's loop reads one and writes the other, which LLVM is told
    # cannot overlap, so its vector loops need no run-time check.
    source = TEST_PROGRAMS / "memory_spaces.hip"
    ir = device_ir(source, tmp_path)
    [fast] = re.findall(r"^define [^\n]*@_Z6smoothPKfPfii\.gpusym_fast\(.*?^}$", ir, re.M | re.S)
    vector_loops = len(re.findall(r"^vector\.body\d*:", fast, re.M))
    checks = len(re.findall(r"^vector\.memcheck\d*:", fast, re.M))
    assert vector_loops >= 2 and checks == 0, (vector_loops, checks)
    assert_prints_in_both_forms(source, tmp_path, "memory spaces: 3840 points, 0 wrong")


def test_a_loop_over_threads_going_through_memory_in_two_streams_runs_as_two_loops(tmp_path):
    # add_two, copy_three and reverse_two: each thread's elements a block's
    # width apart;
    # read_back's last store reads what its thread stored to the other
    # stream, so splitting it would read before the write (512 wrong).
    source = TEST_PROGRAMS / "lane_streams.hip"
    ir = device_ir(source, tmp_path)
    split = {name: len(re.findall(r"^lanes\.stream\d*:", body, re.M)) for name, body in fast_forms(ir).items()}
    assert split == {"add_two": 1, "copy_three": 2, "reverse_two": 2, "read_back": 0}, split
    assert_prints_in_both_forms(source, tmp_path, "lane streams: 0 wrong")


def kernel_forms(output: str) -> dict[str, str]:
    """info kernels' Fast form column, by kernel name (without parameters)."""
    rows = [re.split(r"\s{2,}", line) for line in output.splitlines() if re.match(r"^\w+\(", line)]
    return {row[0].split("(")[0]: row[-1] for row in rows}


@pytest.mark.gdb
def test_info_kernels_gives_each_kernels_form_and_why_from_the_binary(optimised, tmp_path):
    forms = kernel_forms(gdb(optimised[0], "info kernels"))
    assert forms.pop("call_plus_thread") == f"no: {NOT_INLINED}", forms
    assert set(forms.values()) == {"yes"} and len(forms) == 11, forms
    unoptimised, _ = build_verbose("fast_form.hip", tmp_path, "-O0")
    forms = kernel_forms(gdb(unoptimised, "info kernels"))
    assert set(forms.values()) == {"no: -O0: every kernel has its debuggable form only"} and len(forms) == 12, forms


@pytest.mark.gdb
def test_info_dispatches_and_info_lanes_say_which_form_ran(optimised):
    # The last printf's line: every kernel has run, in the fast form where it has one.
    line = next(
        n
        for n, text in enumerate((TEST_PROGRAMS / "fast_form.hip").read_text().splitlines(), 1)
        if 'printf("fast form' in text
    )
    output = gdb(
        optimised[0],
        "set environment GPUSYM_FORM fast",
        f"break fast_form.hip:{line}",
        "run",
        "info dispatches all",
        "info lanes 1",
        "info lanes 12",
    )
    forms = re.findall(r"^\s+\d+\s+complete\s+(\w+)\(.*\s(fast|debug)$", output, re.M)
    fast = "saxpy coordinates rows histogram wavefronts grid_stride reverse_in_block scan_in_block".split()
    fast += ["swap_halves", "rotate_in_wavefront", "call_twice"]
    assert forms == [(name, "fast") for name in fast] + [("call_plus_thread", "debug")], output
    assert re.search(
        r"^Dispatch 1: saxpy\(.*>>>, in the fast form: each block runs its threads as one loop", output, re.M
    ), output
    assert re.search(r"^Dispatch 12: call_plus_thread\(.*>>>, in the debuggable form$", output, re.M), output


@pytest.mark.gdb
def test_under_gdb_a_lane_filtered_kbreak_makes_only_its_block_debuggable(optimised):
    output = gdb(optimised[0], "kbreak saxpy -block 1 -thread 3", "run", "print threadIdx", "info dispatches",
                 "info lanes")  # fmt: skip
    assert "$1 = {x = 3, y = 0, z = 0}" in output, output
    assert re.search(r"^\*\s+1\s+running\s+saxpy\(.*\s+fast, 1 debuggable$", output, re.M), output
    assert re.search(
        r"^Dispatch 1: saxpy\(.*>>>, in the fast form \(1 in the debuggable form as the debugger wants\)", output, re.M
    ), output
    # The stopped block is listed lane by lane: it runs in the debuggable form.
    assert re.search(r"^\*\s+\(1,0,0\)\s+\(3,0,0\)\s+1\s", output, re.M), output


@pytest.mark.gdb
def test_under_gdb_a_lane_filtered_kbreak_leaves_the_same_block_of_other_kernels_fast(optimised):
    output = gdb(optimised[0], "kbreak reverse_in_block -block 1 -thread 3", "run", "info dispatches")
    assert re.search(r"^\*\s+7\s+running\s+reverse_in_block\(.*\s+fast, 1 debuggable$", output, re.M), output
    # The kernels before it ran their blocks 1 fast.
    earlier = re.findall(r"^\s+\d+\s+complete\s+(\w+)\(.*\s(fast.*|debug)$", output, re.M)
    assert [name for name, _ in earlier] == "saxpy coordinates rows histogram wavefronts grid_stride".split(), output
    assert {form for _, form in earlier} == {"fast"}, output


@pytest.mark.gdb
def test_under_gdb_a_breakpoint_any_lane_may_reach_makes_every_block_debuggable(optimised):
    line = source_line(TEST_PROGRAMS / "fast_form.hip", "y[i] = a * x[i]")
    output = gdb(optimised[0], f"break fast_form.hip:{line}", "run", "info dispatches")
    assert re.search(r"^\*\s+1\s+running\s+saxpy\(.*\s+debug$", output, re.M), output


BLOCK_SUMS = """\
#include <hip/hip_runtime.h>
__global__ void sums(const float* in, float* out) {
  __shared__ float partial[64];
  int t = threadIdx.x;
  partial[t] = in[blockIdx.x * 64 + t];
  __syncthreads();
  for (int stride = 32; stride > 0; stride /= 2) {
    if (t < stride) partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = partial[0];
  if (t == 0 && blockIdx.x == 65000)
    out[0] = -partial[0];  // one lane of the grid comes here
}
int main() {
  const int blocks = 1 << 16;
  float *in, *out;
  hipMalloc(&in, blocks * 64 * sizeof(float));
  hipMalloc(&out, blocks * sizeof(float));
  hipLaunchKernelGGL(sums, dim3(blocks), dim3(64), 0, 0, in, out);
  return hipDeviceSynchronize() != hipSuccess;
}
"""


@pytest.mark.gdb
def test_under_gdb_a_breakpoint_set_while_a_dispatch_runs_reaches_its_blocks_not_started(tmp_path):
    source = tmp_path / "sums.hip"
    source.write_text(BLOCK_SUMS)
    program = tmp_path / "sums"
    built = run_gpusym("build", "-O2", "-g", source, "-o", program, timeout=BUILD_TIMEOUT)
    assert built.returncode == 0, describe(built)
    line = source_line(source, "one lane of the grid")
    # Stopped in block 1, the dispatch runs fast but for it; a breakpoint
    # every lane may reach then makes the blocks that start after it
    # debuggable, and one of the last blocks stops.  One worker: a second
    # one could run every other block in its fast form before gdb stops it.
    output = gdb(program, "set environment GPUSYM_WORKERS 1", "kbreak sums -block 1 -thread 3", "run", "delete",
                 f"break sums.hip:{line}", "continue", "print blockIdx", "print threadIdx",
                 "info dispatches")  # fmt: skip
    assert "[gpusym: block (1,0,0) thread (3,0,0) of dispatch 1, wavefront 0]" in output, output
    assert "$1 = {x = 65000, y = 0, z = 0}" in output and "$2 = {x = 0, y = 0, z = 0}" in output, output
    debuggable = re.search(r"^\*\s+1\s+running\s+sums\(.*\s+fast, (\d+) debuggable$", output, re.M)
    assert debuggable and 1 < int(debuggable[1]) < 1 << 16, output


@pytest.mark.gdb
def test_selecting_a_thread_in_a_fast_block_names_no_thread_of_it(tmp_path):
    # Stopped in a fast block, gdb names its block and no thread of it, once
    # at the stop, in the worker's name and when the worker is selected
    # again: its one lane's coordinates are not a thread of the kernel.
    program, _ = build_verbose("fault.hip", tmp_path, "-O2")
    fast = "[gpusym: block (1,0,0) of dispatch 1 runs in its kernel's fast form"
    with GdbTerminal(program, "past-end") as session:
        session.command("set environment GPUSYM_WORKERS 1")
        assert session.command("run").count(fast) == 1, session.transcript
        threads = session.command("info threads")
        assert fast not in threads and "thread (0,0,0)" not in threads, session.transcript
        worker = re.search(r'^\* (\d+)\s+Thread .*"gpusym-w0 block \(1,0,0\) in its fast form"', threads, re.M)
        assert worker, session.transcript
        session.command("thread 1")
        back = session.command(f"thread {worker[1]}")
        assert fast in back, session.transcript
        assert "thread (0,0,0)" not in back, session.transcript
        assert session.command("print $_block").strip().endswith("= void"), session.transcript


@pytest.mark.gdb
def test_under_gdb_a_fault_in_the_fast_form_stops_again_in_its_lane(tmp_path):
    program, _ = build_verbose("fault.hip", tmp_path, "-O2")
    output = gdb(program, "run past-end", "print threadIdx", "print blockIdx", "continue", "print threadIdx",
                 "info dispatches")  # fmt: skip
    assert "[gpusym: block (1,0,0) of dispatch 1 runs in its kernel's fast form" in output, output
    # No one thread runs there: threadIdx is refused rather than the first thread's given.
    assert "threadIdx: this block runs in its kernel's fast form, its threads as one loop" in output, output
    assert "$1 = {x = 1, y = 0, z = 0}" in output, output
    assert "'continue' runs block (1,0,0) again in the debuggable form, where the faulting thread stops" in output
    # Then the debuggable form's lane 17 of block 1 makes the write.
    assert "[gpusym: block (1,0,0) thread (17,0,0) of dispatch 1, wavefront 0]" in output, output
    assert "$2 = {x = 17, y = 0, z = 0}" in output, output
    assert re.search(r"^\*\s+1\s+running\s+.*poke.*\s+fast, 1 replayed$", output, re.M), output


def test_cuda_kernels_with_a_cub_reduction_in_a_helper_or_sync_shuffles_have_one(tmp_path):
    # A device function that waits is inlined into its kernels for the fast
    # form; synccheck's mask check after a *_sync function, a math function
    # (no errno on a device) and an extern __shared__ array in a template (its
    # thread-local initialisation routine) do not stop it.
    program = tmp_path / "fast_form_cuda"
    source = TEST_PROGRAMS / "cuda" / "fast_form_cuda.cu"
    built = run([GPUSYM_NVCC, "-O2", "-v", source, "-o", program], timeout=BUILD_TIMEOUT)
    assert built.returncode == 0, describe(built)
    assert NO_FAST_FORM.findall(built.stderr) == [], built.stderr
    kept = re.findall(r"^gpusym: kernel (?:void )?(\w+)(?:<int>)?\(.*\) keeps \d+ bytes a thread", built.stderr, re.M)
    assert sorted(kept) == ["reverse", "sums_and_squares", "warp_sums"], built.stderr
    for form in ("fast", "debug"):
        result = run([program], env={"GPUSYM_FORM": form})
        verdicts = ["sums_and_squares:", "ok", "warp_sums:", "ok", "reverse:", "ok"]
        assert result.returncode == 0 and result.stdout.split() == verdicts, (
            form,
            describe(result),
        )


@pytest.mark.parametrize("form", ["fast", "debug"])
def test_a_kernel_waiting_at_more_places_than_the_masks_have_bits_gives_the_hosts_results(tmp_path, form):
    # Regions from the 62nd share a bit of the meeting's mask: a meeting of
    # lanes all at one such region must not let another region's loop run them.
    program, said = build_verbose("many_waits.hip", tmp_path, "-O2")
    assert "gpusym: kernel many_waits(int*) keeps" in said, said
    result = run([program], env={"GPUSYM_FORM": form})
    assert result.stdout == "many waits: 0 wrong\n" and result.returncode == 0, describe(result)


TWO_KERNELS = """\
#include <hip/hip_runtime.h>
__global__ void first_sums(const float* in, float* out) {
  __shared__ float partial[64];
  int t = threadIdx.x;
  partial[t] = in[blockIdx.x * 64 + t];
  __syncthreads();
  for (int stride = 32; stride > 0; stride /= 2) {
    if (t < stride) partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = partial[0];
}
static __device__ float scaled(float value, float by) {
  return value * by;  // in every kernel that inlines it
}
__global__ void scale(float* out, float by) { out[threadIdx.x] = scaled(out[threadIdx.x], by); }
int main() {
  float *in, *out;
  hipMallocManaged(&in, 64 * 64 * sizeof(float));
  hipMallocManaged(&out, 64 * sizeof(float));
  for (int i = 0; i < 64 * 64; i++) in[i] = 1;
  first_sums<<<64, 64>>>(in, out);
  scale<<<1, 64>>>(out, 2);
  hipDeviceSynchronize();
  return out[0] != 128;
}
"""


@pytest.mark.gdb
def test_under_gdb_a_breakpoint_makes_only_the_kernels_holding_it_debuggable(tmp_path):
    source = tmp_path / "two.hip"
    source.write_text(TWO_KERNELS)
    program = tmp_path / "two"
    built = run_gpusym("build", "-O2", "-g", source, "-o", program, timeout=BUILD_TIMEOUT)
    assert built.returncode == 0, describe(built)
    # A line of a device function inlined into scale alone: first_sums runs
    # fast, scale in the debuggable form, and its lane stops there.
    line = source_line(source, "in every kernel that inlines it")
    output = gdb(program, f"break two.hip:{line}", "run", "print threadIdx", "info dispatches")
    assert "$1 = {x = 0, y = 0, z = 0}" in output, output
    assert re.search(r"^\s+1\s+complete\s+first_sums\(.*\s+fast$", output, re.M), output
    assert re.search(r"^\*\s+2\s+running\s+scale\(.*\s+debug$", output, re.M), output
    # A watchpoint may stop any lane: every kernel runs debuggable again.
    launch = source_line(source, "first_sums<<<")
    output = gdb(program, f"break two.hip:{launch}", "run", "watch -l out[5]", "continue", "info dispatches")
    assert re.search(r"^\*\s+1\s+running\s+first_sums\(.*\s+debug$", output, re.M), output


@pytest.mark.parametrize("form", ["fast", "debug"])
def test_kernels_reaching_barriers_alike_run_a_loop_between_each_two_and_give_the_hosts_results(tmp_path, form):
    # tests/programs/barrier_stretches.hip: trees whose guard lets in no
    # thread, a guard on a negative bound, early and whole-block returns,
    # barriers in a uniform branch, 2D and 3D blocks, loops waiting at their
    # top, lockstep steps only some threads reach, private arrays.
    program, said = build_verbose("barrier_stretches.hip", tmp_path, "-O2")
    structured = re.findall(
        r"^gpusym: kernel (\w+)\(.*\) keeps \d+ bytes .* which runs a loop over the block's threads between each two",
        said,
        re.M,
    )
    assert structured == [
        "tree_any_size",
        "signed_bound",
        "early_return",
        "whole_block_returns",
        "uniform_branch",
        "rows",
        "wait_at_loop_top",
        "steps_in_branches",
        "private_array",
    ]
    result = run([program], env={"GPUSYM_FORM": form})
    assert result.returncode == 0 and result.stdout.endswith("barrier stretches: 0 wrong\n"), describe(result)
    assert result.stdout.count(": ok\n") == 22, describe(result)


@pytest.fixture(scope="module", params=["gfx90a", "gfx1030"], ids=["wave64", "wave32"])
def direct_shuffles(request, tmp_path_factory) -> Path:
    """tests/programs/direct_shuffles.hip for 64- and 32-lane wavefronts."""
    program = tmp_path_factory.mktemp("direct-shuffles") / "direct_shuffles"
    flags = ("-O2", f"--offload-arch={request.param}")
    built = run_gpusym("build", *flags, TEST_PROGRAMS / "direct_shuffles.hip", "-o", program, timeout=BUILD_TIMEOUT)
    assert built.returncode == 0, describe(built)
    return program


@pytest.mark.parametrize("form", ["fast", "debug"])
def test_shuffles_of_constant_operations_meet_in_device_code_with_the_hosts_results(direct_shuffles, form):
    # Up and down by constants within segments, deltas past the width, a
    # width of no power of two, a partial last wavefront, a shuffle met
    # again in a loop, lanes that returned, 64-bit values.
    result = run([direct_shuffles], env={"GPUSYM_FORM": form})
    assert result.returncode == 0 and result.stdout.endswith("direct shuffles: 0 wrong\n"), describe(result)
    assert result.stdout.count(": ok\n") == 12, describe(result)


@pytest.fixture(scope="module")
def stride_loops(tmp_path_factory) -> tuple[Path, str]:
    return build_verbose("stride_loops.hip", tmp_path_factory.mktemp("stride_loops"), "-O2")


def test_stride_loops_become_the_blocks_unless_only_some_threads_reach_them(stride_loops):
    # Every kernel of tests/programs/stride_loops.hip but in_a_branch, whose
    # loop only a quarter of the threads reach; rounds' loop is unrolled.
    by_block = re.findall(
        r"^gpusym: kernel (\w+)\(.*\) keeps \d+ bytes .*, and (\d+) stride loops? a trip of the block's threads",
        stride_loops[1],
        re.M,
    )
    assert dict(by_block) == {
        "grid_sum_long": "1",
        "grid_saxpy": "1",
        "signed_widened": "1",
        "unsigned_counts": "1",
        "early_return": "1",
        "rounds": "3",
        "fill_shared": "1",
        "rows": "1",
        "unsigned_wraps": "1",
    }


@pytest.mark.parametrize("form, workers", [("fast", "2"), ("fast", "1"), ("debug", "2")])
def test_stride_loops_give_the_hosts_results(stride_loops, form, workers):
    # 64- and 32-bit, signed and unsigned indices, adds that may wrap, an
    # index LLVM widened, values carried and left, early returns, no trips, a
    # loop in a loop with a barrier, __shared__ memory, 2D blocks, an index
    # that wraps.
    result = run([stride_loops[0]], env={"GPUSYM_FORM": form, "GPUSYM_WORKERS": workers})
    assert result.returncode == 0 and result.stdout.endswith("stride loops: 0 wrong\n"), describe(result)
    assert result.stdout.count(": ok\n") == 25, describe(result)


def test_a_kernel_with_a_loop_threads_may_leave_before_its_barriers_has_a_fast_form(tmp_path):
    # A random program whose barrier kernel has a loop a thread may return
    # from before its barriers: its structured form once left code using
    # the kernel's own blocks (clang crashed on it; later the kernel had no
    # fast form, "came out invalid").  It has one now, and both forms agree
    # with the host.
    source, program = tmp_path / "stretches.hip", tmp_path / "stretches"
    source.write_text(random_kernels.program(1795926111, 2))
    built = run_gpusym("build", "-O2", "-v", source, "-o", program, timeout=BUILD_TIMEOUT)
    assert built.returncode == 0 and not NO_FAST_FORM.findall(built.stderr), describe(built)
    for form in ("fast", "debug"):
        result = random_kernels.run(program, form)
        assert result.returncode == 0 and "random kernels: 16 cases, 0 wrong" in result.stdout, describe(result)


@pytest.mark.parametrize("form", ["fast", "debug"])
def test_kernels_calling_the_device_math_library_or_assert_have_a_fast_form(tmp_path, form):
    program, said = build_verbose("fast_form_math.hip", tmp_path, "-O2")
    assert "has no fast form" not in said, said
    result = run([program], env={"GPUSYM_FORM": form})
    assert result.returncode == 0 and result.stdout.endswith("math: 0 wrong\n"), describe(result)


def test_a_uniform_loop_whose_trips_skip_its_barrier_finishes_in_its_fast_form(tmp_path):
    # tests/programs/fast_form_loop_skips_barrier.hip, as the random kernels found it.
    program = tmp_path / "loop_skips_barrier"
    built = run_gpusym(
        "build", "-O2", TEST_PROGRAMS / "fast_form_loop_skips_barrier.hip", "-o", program, timeout=BUILD_TIMEOUT
    )
    assert built.returncode == 0, describe(built)
    assert "random kernels: 8 cases, 0 wrong" in run([program], env={"GPUSYM_FORM": "debug"}).stdout
    result = run([program], env={"GPUSYM_FORM": "fast"}, timeout=20)
    assert result.returncode == 0 and "random kernels: 8 cases, 0 wrong" in result.stdout, describe(result)


def test_a_fast_form_prefetches_the_next_blocks_halo_and_no_stream(tmp_path):
    # halo_step's right halo, read by a row's last thread, is a new line
    # each block: it gets a prefetch.  Its loop over that thread has 3 more
    # copies for the grid's right edge, which read no halo: there the
    # thread's own element is the new line.  In the copy with the halo, the
    # next block's element is on the halo's line: no prefetch.  add streams
    # along its loop over threads, column's first thread of a row reads
    # within that loop, gather's addresses come from memory: none.
    source = TEST_PROGRAMS / "next_block_prefetch.hip"
    ir = device_ir(source, tmp_path)
    prefetches = {name: body.count("call void @llvm.prefetch") for name, body in fast_forms(ir).items()}
    assert prefetches == {"halo_step": 4, "add": 0, "column": 0, "gather": 0}, prefetches
    assert_prints_in_both_forms(source, tmp_path, "next block prefetch: 21504 values, 0 wrong")


def test_a_deep_tree_of_functions_on_references_builds_in_seconds(tmp_path):
    """Every access through a reference parameter waits until optimisation
    shows where it goes, so each function of the tree (level N calls level
    N-1 twice) waits: forced inline, the kernel would hold 2^22 copies of
    level 0 and the build would not end.  The tree is left to the inliner
    past a size; the program gives the host's answer in both forms."""
    depth = 22
    levels = "\n".join(
        f"__device__ void level{i}(unsigned long &x) {{ level{i - 1}(x); level{i - 1}(x); }}"
        for i in range(1, depth + 1)
    )
    source = tmp_path / "deep_calls.hip"
    source.write_text(
        "#include <hip/hip_runtime.h>\n#include <cstdio>\n"
        "__device__ void level0(unsigned long &x) { x = x * 6364136223846793005ul + 1442695040888963407ul; }\n"
        f"{levels}\n"
        f"__global__ void hash(unsigned long *out) {{ unsigned long x = threadIdx.x; level{depth}(x); "
        "out[threadIdx.x] = x; }\n"
        "int main() {\n"
        "  unsigned long *out;\n"
        "  hipMallocManaged(&out, 32 * sizeof(unsigned long));\n"
        "  hash<<<1, 32>>>(out);\n"
        "  hipDeviceSynchronize();\n"
        "  int wrong = 0;\n"
        "  for (unsigned long t = 0; t < 32; t++) {\n"
        "    unsigned long x = t;\n"
        f"    for (long i = 0; i < (1l << {depth}); i++) x = x * 6364136223846793005ul + 1442695040888963407ul;\n"
        "    wrong += x != out[t];\n"
        "  }\n"
        '  printf("%d wrong\\n", wrong);\n'
        "}\n"
    )
    program = tmp_path / "deep_calls"
    built = run_gpusym("build", "-O2", source, "-o", program, timeout=300)
    assert built.returncode == 0, describe(built)
    for form in ("fast", "debug"):
        result = run([program], env={"GPUSYM_FORM": form})
        assert result.returncode == 0 and result.stdout == "0 wrong\n", describe(result)
