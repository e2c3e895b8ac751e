"""``gpusym query`` on programs built at test time, checked against outside
tools: llvm-readelf, c++filt and clang-offload-bundler."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import elf_oracles as elf
import pytest
from conftest import GPUSYM, describe, on_terminal, run, run_gpusym

from gpusym import query_text
from symbols import offload_bundle
from symbols.analysis import analyze
from symbols.demangling import cxxfilt
from symbols.model import BinaryReport

pytestmark = [pytest.mark.toolchain]

SIM_TARGET = "hipv4-x86_64-unknown-linux-gnu-gpusym"
PROGRAMS = ["vector_add", "templates", "reduction", "interop"]


def query_json(*args) -> dict:
    result = run_gpusym("query", "--json", *args)
    assert result.returncode == 0, describe(result)
    return json.loads(result.stdout)


def oracle_device_kernels(program: Path, workdir: Path) -> set[tuple[str, str]]:
    """(target, kernel symbol) pairs as the bundler and llvm-readelf see them:
    AMDGPU kernels are FUNC symbols with a .kd descriptor; the simulated
    device defines the same kernels as exported functions."""
    workdir.mkdir(parents=True, exist_ok=True)
    bundle = elf.dump_fatbin(program, workdir / "fatbin.bundle")
    pairs = set()
    amdgpu_kernels = set()
    for bundle_id in elf.bundle_ids(bundle):
        if not bundle_id.startswith("hipv4-amdgcn"):
            continue
        out = workdir / f"{bundle_id}.co"
        assert elf.unbundle(bundle, bundle_id, out).returncode == 0
        symbols = elf.symbols(out)
        kernels = {n for n, s in symbols.items() if s.type == "FUNC" and f"{n}.kd" in symbols}
        amdgpu_kernels |= kernels
        pairs |= {(bundle_id.rsplit("-", 1)[1], k) for k in kernels}
    sim = workdir / "sim.so"
    assert elf.unbundle(bundle, SIM_TARGET, sim).returncode == 0
    sim_symbols = elf.symbols(sim)
    pairs |= {("gpusym", k) for k in amdgpu_kernels if k in sim_symbols and sim_symbols[k].type == "FUNC"}
    return pairs


@pytest.mark.parametrize("program", PROGRAMS)
def test_every_kernel_instance_the_bundler_sees_is_reported(samples, program, tmp_path):
    report = query_json(samples[program])["binaries"][0]
    reported = {(d["target"], d["symbol"]) for k in report["kernels"] for d in k["device"]}
    assert reported == oracle_device_kernels(samples[program], tmp_path)
    assert {c["target"] for c in report["code_objects"]} == {"gfx90a", "gpusym"}


@pytest.mark.parametrize("program", PROGRAMS)
def test_stub_and_handle_of_each_kernel_are_what_nm_and_cxxfilt_say(samples, program):
    symbols = elf.symbols(samples[program])
    report = query_json(samples[program])["binaries"][0]
    names = [k["name"] for k in report["kernels"]] + [k["stub"]["symbol"] for k in report["kernels"]]
    demangled = elf.demangle(names)
    for kernel in report["kernels"]:
        stub, handle = kernel["stub"]["symbol"], kernel["handle"]
        assert symbols[stub].type == "FUNC" and symbols[stub].section == ".text", stub
        assert demangled[stub].replace("__device_stub__", "") == demangled[kernel["name"]]
        assert handle["kind"] == "variable" and handle["symbol"] == kernel["name"]
        assert symbols[handle["symbol"]].type == "OBJECT"
        assert kernel["demangled"] == demangled[kernel["name"]]
        assert kernel["missing_targets"] == []


def test_kernel_arguments_come_from_the_amdgpu_metadata(samples):
    kernel = query_json(samples["vector_add"])["binaries"][0]["kernels"][0]
    assert [(a["name"], a["size"], a["offset"], a["value_kind"]) for a in kernel["args"]] == [
        ("a", 8, 0, "global_buffer"),
        ("b", 8, 8, "global_buffer"),
        ("c", 8, 16, "global_buffer"),
        ("scale", 4, 24, "by_value"),
        ("n", 4, 28, "by_value"),
    ]


def test_device_functions_variables_and_host_shadows(samples):
    report = query_json(samples["reduction"])["binaries"][0]
    functions = {f["demangled"] for f in report["device_functions"]}
    assert {"weighted(float, int)", "tree_sum(float*, int)"} <= functions
    variables = {v["name"]: v for v in report["device_variables"]}
    assert set(variables) == {"weights", "blocks_done"}
    symbols = elf.symbols(samples["reduction"])
    for name, variable in variables.items():
        assert {d["target"] for d in variable["device"]} == {"gfx90a", "gpusym"}
        assert variable["shadow"]["symbol"] == name and symbols[name].type == "OBJECT"
    roles = {s["symbol"]: s["role"] for s in report["host_symbols"]}
    assert roles["weights"] == roles["blocks_done"] == "host-shadow"
    assert roles["__hip_module_ctor"] == "registration"
    assert roles["__hipRegisterVar"] == roles["hipLaunchKernel"] == "runtime-api"


def test_interop_handle_is_the_variable_plain_cpp_calls_a_function(samples):
    report = query_json(samples["interop"])["binaries"][0]
    scale = next(k for k in report["kernels"] if k["demangled"] == "scale(float*, float, int)")
    assert scale["handle"]["kind"] == "variable"
    assert elf.symbols(samples["interop"])[scale["handle"]["symbol"]].type == "OBJECT"


def test_stripped_binary_still_shows_its_device_kernels_and_says_what_is_lost(samples, tmp_path):
    stripped = tmp_path / "vector_add.stripped"
    shutil.copy(samples["vector_add"], stripped)
    subprocess.run(["llvm-strip-19", "--strip-all", stripped], check=True)
    report = query_json(stripped)["binaries"][0]
    kernel = report["kernels"][0]
    assert kernel["name"] == "_Z10vector_addPKfS0_Pffi"
    assert {d["target"] for d in kernel["device"]} == {"gfx90a", "gpusym"}
    assert kernel["stub"] is None and kernel["handle"] is None
    assert any("stripped" in note for note in report["notes"])


def test_bad_inputs_each_get_one_line_and_the_rest_is_reported(samples, tmp_path):
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"not a binary at all")
    empty = tmp_path / "empty.bin"
    empty.write_bytes(b"")
    truncated = tmp_path / "truncated"
    truncated.write_bytes(samples["vector_add"].read_bytes()[:3000])
    outside = tmp_path / "outside.bundle"
    bundle = bytearray(
        offload_bundle.write([(offload_bundle.HOST_ID, b""), ("hipv4-amdgcn-amd-amdhsa--gfx90a", b"x" * 64)])
    )
    entry = len(offload_bundle.MAGIC) + 8 + 24 + len(offload_bundle.HOST_ID)
    bundle[entry : entry + 8] = (1 << 40).to_bytes(8, "little")  # the second entry's offset
    outside.write_bytes(bytes(bundle))
    missing = tmp_path / "missing"
    bad = [junk, empty, truncated, outside, tmp_path, missing]
    result = run([GPUSYM, "query", "--json", *bad, samples["vector_add"]])
    assert result.returncode == 1, describe(result)
    lines = result.stderr.splitlines()
    assert len(lines) == len(bad), describe(result)
    for path, line in zip(bad, lines):
        assert line.startswith(f"gpusym query: {path}: "), line
    assert "Traceback" not in result.stderr
    assert "outside the bundle" in lines[3]
    document = json.loads(result.stdout)
    assert [e["path"] for e in document["errors"]] == [str(p) for p in bad]
    assert [b["path"] for b in document["binaries"]] == [str(samples["vector_add"])]


def test_json_is_utf_8_and_names_that_are_not_are_escaped(samples, tmp_path):
    """JSON is written in UTF-8; a file name that is not UTF-8 (its bytes
    decoded with lone surrogates, as Python decodes file names) is written
    with escapes, and reads back as the same name."""
    accented = tmp_path / "vecteur_é"
    undecodable = Path(os.fsdecode(bytes(tmp_path) + b"/vector_\xff"))
    for path in (accented, undecodable):
        shutil.copy(samples["vector_add"], path)
    for fmt in ("--json", "--jsonl"):
        result = subprocess.run([GPUSYM, "query", fmt, accented, undecodable], capture_output=True)
        assert result.returncode == 0, result.stderr
        text = result.stdout.decode("utf-8")  # strict: raises on anything but UTF-8
        documents = [json.loads(line) for line in text.splitlines()] if fmt == "--jsonl" else [json.loads(text)]
        paths = [b["path"] for b in documents[0]["binaries"]] if fmt == "--json" else [d["binary"] for d in documents]
        assert set(paths) == {str(accented), str(undecodable)}
    assert "vecteur_é" in text and "\\udcff" in text


@pytest.mark.parametrize("argv", [["--kernel", "("], ["--no-such-option"], ["--role", "nonsense"]])
def test_usage_errors_exit_2(samples, argv):
    result = run_gpusym("query", *argv, samples["vector_add"])
    assert result.returncode == 2, describe(result)
    assert "Traceback" not in result.stderr


def test_stdin_batch_answers_names_and_addresses_in_order(samples):
    program = samples["templates"]
    report = query_json(program)["binaries"][0]
    fill = next(k for k in report["kernels"] if k["demangled"].startswith("void ns::fill<float>"))
    gfx90a = next(d for d in fill["device"] if d["target"] == "gfx90a")
    queries = [
        "ns::fill",  # every instance
        "twice",  # both overloads
        f"{fill['stub']['address'] + 1:#x}",  # inside the stub, on the host
        f"gfx90a:{gfx90a['address'] + 4:#x}",  # inside the kernel, on the device
        "no_such_kernel",
    ]
    result = subprocess.run(
        [GPUSYM, "query", "--jsonl", program, "-"],
        input="\n".join(queries) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert [a["query"] for a in answers] == [queries[0]] * 3 + [queries[1]] * 2 + queries[2:]
    assert sorted(a["match"]["demangled"] for a in answers[:3]) == [
        "void ns::fill<double>(double*, double, int)",
        "void ns::fill<float>(float*, float, int)",
        "void ns::fill<int>(int*, int, int)",
    ]
    assert {a["match"]["demangled"] for a in answers[3:5]} == {"twice(float*, int)", "twice(int*, int)"}
    assert answers[5]["role"] == "kernel-stub" and answers[5]["kernel"] == fill["name"] and answers[5]["offset"] == 1
    assert answers[6]["role"] == "device-kernel" and answers[6]["symbol"] == fill["name"] and answers[6]["offset"] == 4
    assert answers[7]["match"] is None


def test_directories_read_in_parallel_give_what_one_process_gives(samples, tmp_path):
    for index in range(6):
        shutil.copy(samples[PROGRAMS[index % len(PROGRAMS)]], tmp_path / f"program{index}")
    (tmp_path / "notes.txt").write_text("not a binary: skipped by -r")
    serial = query_json("-r", "-j", "1", tmp_path)
    parallel = query_json("-r", "-j", "2", tmp_path)
    assert serial == parallel
    assert len(serial["binaries"]) == 6 and serial["errors"] == []


def test_jsonl_csv_and_filters(samples):
    program = samples["templates"]
    lines = run_gpusym("query", "--jsonl", "--kernel", "fill", program).stdout.splitlines()
    kernels = [json.loads(line) for line in lines]
    assert len(kernels) == 3 and all(k["binary"] == str(program) for k in kernels)
    only_sim = query_json("--target", "gpusym", program)["binaries"][0]
    assert {d["target"] for k in only_sim["kernels"] for d in k["device"]} == {"gpusym"}
    assert [c["target"] for c in only_sim["code_objects"]] == ["gpusym"]
    csv_lines = run_gpusym("query", "--csv", program).stdout.splitlines()
    assert csv_lines[0].startswith("binary,kernel,demangled,stub,handle")
    assert len(csv_lines) == 1 + 8 * 2  # 8 kernels on 2 targets
    stubs = query_json("--role", "kernel-stub", program)["binaries"][0]
    assert stubs["kernels"] == [] and len(stubs["host_symbols"]) == 8
    assert {s["role"] for s in stubs["host_symbols"]} == {"kernel-stub"}


def test_kernels_present_only_in_some_places_are_reported_as_such(build_program):
    objects = build_program(
        "partial_kernels.hip",
        flags=("-c", "--offload-arch=gfx90a", "--offload-arch=gfx942"),
        output="partial_kernels.o",
    )
    kernels = {k["demangled"]: k for k in query_json(objects)["binaries"][0]["kernels"]}
    assert set(kernels) == {"everywhere(int*)", "only_gfx942(int*)", "host_pass_only(int*)", "device_only(int*)"}
    targets = {name: sorted(d["target"] for d in k["device"]) for name, k in kernels.items()}
    assert targets == {
        "everywhere(int*)": ["gfx90a", "gfx942", "gpusym"],
        "only_gfx942(int*)": ["gfx942"],
        "host_pass_only(int*)": [],
        "device_only(int*)": ["gfx90a", "gfx942", "gpusym"],
    }
    assert sorted(kernels["only_gfx942(int*)"]["missing_targets"]) == ["gfx90a", "gpusym"]
    rows = table_rows(run_gpusym("query", "--table", objects).stdout)
    assert rows == {
        "everywhere(int*)": ("yes", "variable", "gfx90a, gfx942, gpusym"),
        "only_gfx942(int*)": ("yes", "variable", "gfx942 (missing: gfx90a, gpusym)"),
        "host_pass_only(int*)": ("yes", "variable", "no device code (missing: gfx90a, gfx942, gpusym)"),
        "device_only(int*)": ("none", "none", "gfx90a, gfx942, gpusym"),
    }
    assert sorted(kernels["host_pass_only(int*)"]["missing_targets"]) == ["gfx90a", "gfx942", "gpusym"]
    assert kernels["host_pass_only(int*)"]["stub"] is not None
    assert kernels["device_only(int*)"]["stub"] is None and kernels["device_only(int*)"]["handle"] is None


# ---- for people: the table and the summary ----

#: A table row: stub, handle kind, the kernel's name, [its device code].
_ROW = re.compile(r"^  (yes|none) +(\S+) +(.*)  \[(.*)\]$")


def table_rows(text: str) -> dict[str, tuple[str, str, str]]:
    """Kernel -> (stub, handle, device code) of each row of a table."""
    rows = {}
    for line in text.splitlines():
        if match := _ROW.match(line):
            assert match[3] not in rows, f"two rows for {match[3]}"
            rows[match[3]] = (match[1], match[2], match[4])
    return rows


def missing_and_present(device: str) -> tuple[set[str], set[str]]:
    """The targets a row says its kernel lacks, and those it names as present."""
    shown, _, missing = device.partition(" (missing: ")
    missing = set(missing.removesuffix(")").split(", ")) if missing else set()
    return missing, set(shown.split(", "))


@pytest.mark.parametrize("program", PROGRAMS)
def test_table_has_one_row_per_kernel_as_the_json_says(samples, program):
    report = query_json(samples[program])["binaries"][0]
    result = run_gpusym("query", "--table", samples[program])
    assert result.returncode == 0, describe(result)
    rows = table_rows(result.stdout)
    assert set(rows) == {k["demangled"] for k in report["kernels"]}
    for kernel in report["kernels"]:
        stub, handle, device = rows[kernel["demangled"]]
        assert (stub, handle) == ("yes" if kernel["stub"] else "none", kernel["handle"]["kind"])
        assert device == ", ".join(dict.fromkeys(d["target"] for d in kernel["device"]))
    assert result.stdout.splitlines()[0].startswith(f"{samples[program]} (elf-executable; 2 code objects for ")


def test_a_terminal_gets_the_table_of_a_small_binary_and_a_pipe_json(samples):
    program = samples["templates"]
    shown = on_terminal("query", program)
    assert shown.returncode == 0, describe(shown)
    assert shown.stdout == run_gpusym("query", "--table", program).stdout
    assert json.loads(run_gpusym("query", program).stdout)["binaries"][0]["path"] == str(program)


def test_kernel_filter_applies_to_the_table_and_the_json(samples):
    program = samples["templates"]
    rows = table_rows(run_gpusym("query", "--table", "--kernel", "fill<(float|int)>", program).stdout)
    assert sorted(rows) == ["void ns::fill<float>(float*, float, int)", "void ns::fill<int>(int*, int, int)"]
    kernels = query_json("--kernel", "fill<(float|int)>", program)["binaries"][0]["kernels"]
    assert sorted(k["demangled"] for k in kernels) == sorted(rows)


def big_binary(report: BinaryReport, copies: int) -> BinaryReport:
    """`report` with each kernel `copies` times (renamed), the copies of the
    first kernel lacking the first target and growing in size."""
    targets = query_text.kernel_targets(report)
    kernels = []
    for index in range(copies):
        for kernel in report.kernels:
            copy = dataclasses.replace(kernel, demangled=f"{kernel.demangled} #{index}")
            if kernel is report.kernels[0]:
                device = [d for d in copy.device if d.target != targets[0]]
                copy.device = [dataclasses.replace(d, size=10**6 + index) for d in device]
                copy.missing_targets = [targets[0]]
            kernels.append(copy)
    return dataclasses.replace(report, kernels=kernels)


def test_summary_of_a_big_binary_counts_targets_gaps_and_largest_kernels(samples):
    report = analyze(samples["templates"], demangle=cxxfilt.demangle).report
    binary = big_binary(report, query_text.BIG // len(report.kernels) + 1)
    count = len(binary.kernels)
    assert query_text.is_big(binary) and not query_text.is_big(report)
    first = report.kernels[0].demangled
    lines = list(query_text.summary(binary, None, query_text.Style(False, 100)))
    copies = count // len(report.kernels)
    assert lines[1] == f"  {count} kernels; per target: gfx90a {count - copies}, gpusym {count}"
    assert lines[2] == f"  gaps: {copies} kernels lack some targets"
    assert lines[3].startswith(f"    gfx90a: {copies} missing, e.g. {first} #0; ")
    assert lines[5] == f"      {10**6 + copies - 1}  gpusym   {first} #{copies - 1}"
    assert all(len(line) <= 100 for line in lines[1:]), lines
    assert f"the table of all {count} kernels: --table; some of them: --kernel REGEX" in lines[-2]


@pytest.mark.parametrize("output", ["--table", "--json", "--csv"])
def test_a_reader_that_stopped_reading_gets_no_traceback(samples, output):
    """``gpusym query ... | head``: once the reader is gone, gpusym stops
    quietly with the status of a program killed by SIGPIPE."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        result = subprocess.run(
            [GPUSYM, "query", output, samples["templates"]],
            stdout=writer,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )
    finally:
        os.close(writer)
    assert (result.returncode, result.stderr) == (141, "")


# ---- programs without GPU code, gpusym's own device code, argument types ----


def test_programs_without_code_objects_say_so_in_plain_words(build_program, tmp_path):
    """A program that compiles its kernels at run time (hiprtc) has no fat
    binary: query says it has no GPU code objects, and why its kernels are
    not there; a plain C program gets the same title, without the note."""
    hiprtc = build_program("hiprtc.hip")
    host_only = tmp_path / "host_only"
    run(["clang-19", "-g", Path(__file__).parents[1] / "programs" / "host_only.c", "-o", host_only])
    table = run_gpusym("query", "--table", hiprtc, host_only)
    assert table.returncode == 0, describe(table)
    lines = table.stdout.splitlines()
    assert f"{hiprtc} (elf-executable; no GPU code objects)" in lines
    assert f"{host_only} (elf-executable; no GPU code objects)" in lines
    assert "code objects for none" not in table.stdout
    (note,) = [line for line in lines if "note:" in line]
    assert "compiled or loaded at run time (" in note and "hiprtcCompileProgram" in note
    reports = {b["path"]: b for b in query_json(hiprtc, host_only)["binaries"]}
    assert reports[str(hiprtc)]["code_objects"] == [] and reports[str(hiprtc)]["kernels"] == []
    assert [n for n in reports[str(hiprtc)]["notes"] if "run time" in n] == [note.split("note: ", 1)[1]]
    assert reports[str(host_only)]["notes"] == []


def test_gpusym_runtime_helpers_are_not_the_programs_device_functions(build_program, tmp_path):
    """``gpusym_wave_combine``, which the simulated device's warp functions
    put into every code object (the AMDGPU one too), is not listed among the
    program's device functions; an address inside it still resolves."""
    program = build_program("warp_functions.hip")
    bundle = elf.dump_fatbin(program, tmp_path / "fatbin.bundle")
    code_object = tmp_path / "gfx90a.co"
    assert elf.unbundle(bundle, "hipv4-amdgcn-amd-amdhsa--gfx90a", code_object).returncode == 0
    # There, as a local function (llvm-readelf: "Num: Value Size Type Bind Vis Ndx Name").
    rows = [line.split() for line in elf.check_output([elf.READELF, "-sW", code_object]).splitlines()]
    (address,) = [int(row[1], 16) for row in rows if row[-1:] == ["_ZL19gpusym_wave_combinejjj"] and "FUNC" in row]
    report = query_json(program)["binaries"][0]
    assert {f["demangled"] for f in report["device_functions"]} == {"value_of(int)"}
    assert not any("gpusym" in v["name"] for v in report["device_variables"])
    listed = run_gpusym("query", "--json", "--role", "device-function", program)
    assert listed.returncode == 0 and "gpusym_wave_combine" not in listed.stdout, describe(listed)
    (answer,) = map(
        json.loads,
        run_gpusym("query", "--jsonl", "--addr", f"gfx90a:{address + 4:#x}", program).stdout.splitlines(),
    )
    assert (answer["symbol"], answer["offset"]) == ("_ZL19gpusym_wave_combinejjj", 4)


def test_argument_types_come_from_the_demangled_name(samples):
    """The AMDGPU metadata of a HIP kernel names its arguments but not their
    types: those come from the kernel's demangled name, in order."""
    report = query_json(samples["templates"])["binaries"][0]
    kernels = {k["demangled"]: k for k in report["kernels"]}
    assert [a["type"] for a in kernels["void ns::fill<float>(float*, float, int)"]["args"]] == [
        "float*",
        "float",
        "int",
    ]
    vector_add = query_json(samples["vector_add"])["binaries"][0]["kernels"][0]
    assert [(a["name"], a["type"]) for a in vector_add["args"]] == [
        ("a", "float const*"),
        ("b", "float const*"),
        ("c", "float*"),
        ("scale", "float"),
        ("n", "int"),
    ]


@pytest.mark.parametrize("flags", [("-g",), ()])
def test_argument_types_of_kernels_with_c_linkage_come_from_dwarf(build_program, flags):
    """An ``extern "C"`` kernel's name is not mangled and says nothing of its
    parameters: with ``-g`` their types come from the code object's DWARF,
    read as the demangler would print them (typedefs resolved, the
    parameter's own qualifiers left out); without it they are unknown."""
    program = build_program("extern_c_kernels.hip", flags=flags)
    kernels = {k["name"]: k for k in query_json(program)["binaries"][0]["kernels"]}
    typed = {name: [(a["name"], a["type"]) for a in kernel["args"]] for name, kernel in kernels.items()}
    expected = {
        "saxpy": [("x", "float const*"), ("y", "float*"), ("a", "float"), ("n", "int")],
        "tally": [
            ("counts", "unsigned int*"),
            ("pair", "shapes::Pair"),
            ("n", "unsigned long"),
            ("flags", "char const volatile*"),
        ],
    }
    if not flags:
        expected = {name: [(arg, None) for arg, _ in args] for name, args in expected.items()}
    assert typed == expected, typed
