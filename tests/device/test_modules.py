"""Code objects loaded at run time: ``gpusym build --genco``, the module API
(hipModuleLoad and friends), kernel libraries loaded and unloaded with
dlopen/dlclose, ``GPUSYM_LEAK_CHECK``, and what gdb makes of all of them."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from capture_runs import capture
from conftest import describe, run, run_gpusym
from gdb_batch import gdb, stops

from sample_apps.samples import PROGRAMS_DIR
from symbols import offload_bundle

pytestmark = [pytest.mark.toolchain, pytest.mark.gdb]

KERNELS = PROGRAMS_DIR / "module_load" / "kernels.hip"
SIM_TARGET = "hipv4-x86_64-unknown-linux-gnu-gpusym"


def unbundle(bundle: Path, target: str, output: Path) -> Path:
    command = [
        "clang-offload-bundler-19",
        "--unbundle",
        "--type=o",
        f"--input={bundle}",
        f"--targets={target}",
        f"--output={output}",
    ]
    subprocess.run(command, check=True, capture_output=True)
    return output


@pytest.fixture(scope="module")
def code_object(tmp_path_factory) -> Path:
    """The module_load sample's kernels, built with --genco."""
    output = tmp_path_factory.mktemp("genco") / "kernels.co"
    result = run_gpusym("build", "-g", "--genco", KERNELS, "-o", output)
    assert result.returncode == 0, describe(result)
    return output


@pytest.fixture(scope="module")
def modules(build_program) -> Path:
    return build_program("modules.cpp")


def calls(result: subprocess.CompletedProcess) -> dict[str, str]:
    """``what error`` lines of the modules program (a repeated `what` keeps its last)."""
    assert result.returncode == 0, describe(result)
    return dict(line.split(" ", 1) for line in result.stdout.splitlines())


def test_genco_bundle_holds_every_target_and_lists_the_kernels_clang_made(code_object, tmp_path):
    listed = run(["clang-offload-bundler-19", "--list", "--type=o", f"--input={code_object}"])
    assert sorted(listed.stdout.split()) == sorted(
        [f"{SIM_TARGET}-", "hipv4-amdgcn-amd-amdhsa--gfx90a", "host-x86_64-unknown-linux--"]
    ), describe(listed)
    amdgpu = unbundle(code_object, "hipv4-amdgcn-amd-amdhsa--gfx90a", tmp_path / "gfx90a.co")
    descriptors = run(["llvm-nm-19", "--defined-only", amdgpu]).stdout
    expected = sorted(name[:-3] for name in re.findall(r"\S+\.kd$", descriptors, re.M))
    sim = unbundle(code_object, SIM_TARGET, tmp_path / "sim.so")
    table = run(["llvm-objcopy-19", "--dump-section", f".gpusym_tables={tmp_path / 'tables'}", sim, tmp_path / "x"])
    assert table.returncode == 0, describe(table)
    kernels = (tmp_path / "tables").read_bytes().split(b"\0")[1].decode().split()
    assert expected == ["_Z4fillIiEvPT_S0_i", "saxpy"] and kernels == expected


@pytest.mark.parametrize(
    "arguments, message",
    [
        (["--genco", "-shared", "k.hip", "-o", "k.co"], "--genco excludes -c and -shared"),
        (["--genco", "a.hip", "b.hip", "-o", "k.co"], "--genco takes exactly one HIP source"),
        (["--genco", "main.cpp", "-o", "k.co"], "--genco takes exactly one HIP source"),
        (["--genco", "k.hip"], "--genco needs -o FILE"),
    ],
)
def test_genco_usage_errors_are_one_line(arguments, message):
    result = run_gpusym("build", *arguments)
    assert result.returncode == 2, describe(result)
    assert result.stderr.strip().splitlines() == [f"gpusym build: {message} (gpusym build --help shows the usage)"]


def test_query_reads_a_simulated_code_object_on_its_own(code_object, tmp_path):
    sim = unbundle(code_object, SIM_TARGET, tmp_path / "sim.so")
    result = run_gpusym("query", "--jsonl", sim)
    assert result.returncode == 0, describe(result)
    kernels = sorted(json.loads(line)["name"] for line in result.stdout.splitlines())
    assert kernels == ["_Z4fillIiEvPT_S0_i", "saxpy"], result.stdout


def test_refused_module_calls_give_hip_errors(modules, code_object, tmp_path):
    amdgpu = unbundle(code_object, "hipv4-amdgcn-amd-amdhsa--gfx90a", tmp_path / "gfx90a.co")
    amdgpu_only = tmp_path / "amdgpu-only.co"
    amdgpu_only.write_bytes(
        offload_bundle.write([(offload_bundle.HOST_ID, b""), (offload_bundle.amdgpu_id("gfx90a"), amdgpu.read_bytes())])
    )
    result = run([modules, "errors", code_object, KERNELS, amdgpu_only])
    assert calls(result) == {
        "load-missing": "hipErrorFileNotFound",
        "load-text": "hipErrorInvalidImage",
        "load-amdgpu-only": "hipErrorNoBinaryForGpu",
        "load": "hipSuccess",
        "function-unknown": "hipErrorNotFound",
        "function-of-a-variable": "hipErrorNotFound",
        "global-of-a-kernel": "hipErrorNotFound",
        "function": "hipSuccess",
        "launch-short-buffer": "hipErrorInvalidValue",
        "launch-params-and-extra": "hipErrorInvalidValue",
        "launch-2048-threads": "hipErrorInvalidConfiguration",
        "unload": "hipSuccess",
        "launch-after-unload": "hipErrorInvalidDeviceFunction",
        "unload-again": "hipErrorInvalidHandle",
        "function-after-unload": "hipErrorInvalidHandle",
    }
    assert "gpusym:" not in result.stderr, describe(result)


def test_the_same_file_loaded_twice_is_two_modules(modules, code_object):
    result = run([modules, "twice", code_object])
    assert calls(result) == {
        "load": "hipSuccess",
        "load-again": "hipSuccess",
        "distinct": "yes",
        "launch-first": "hipSuccess",
        "launch-second": "hipSuccess",
        "sync": "hipSuccess",
        "unload": "hipSuccess",
        "launch-second-after-first-unloaded": "hipSuccess",
        "unload-second": "hipSuccess",
    }


def test_module_load_data_takes_a_simulated_code_object_itself(modules, code_object, tmp_path):
    sim = unbundle(code_object, SIM_TARGET, tmp_path / "sim.so")
    assert calls(run([modules, "image", sim])) == {
        "load-data": "hipSuccess",
        "function": "hipSuccess",
        "unload": "hipSuccess",
    }


def test_leak_check_names_a_module_never_unloaded(modules, code_object):
    quiet = run([modules, "leak", code_object])
    assert calls(quiet) == {"load": "hipSuccess"} and quiet.stderr == "", describe(quiet)
    checked = run([modules, "leak", code_object], env={"GPUSYM_LEAK_CHECK": "1"})
    assert checked.returncode == 0, describe(checked)
    assert checked.stderr.splitlines() == [
        f"gpusym: leak check: module {code_object} (code object 0, 2 kernels) was never unloaded (hipModuleUnload)"
    ]
    # Unloaded modules are not reported.
    clean = run([modules, "twice", code_object], env={"GPUSYM_LEAK_CHECK": "1"})
    assert clean.stderr == "", describe(clean)


def test_kbreak_before_dlopen_is_hit_in_each_load_of_a_kernel_library(samples):
    output = gdb(
        samples["plugin"],
        "kbreak -pending square -block 0 -thread 5",
        "run",
        "info kernels",
        "bt 4",
        "continue",
        "info kernels",
        "bt 4",
        "continue",
    )
    hits = stops(output)
    assert len(hits) == 2 and all(hit.startswith("square (data=0x") for hit in hits), output
    frames = re.findall(
        r"#0  square  \[device gpusym, block \(0,0,0\) thread \(5,0,0\)\].*\n#1 .*"
        r"launched dispatch (\d+)",
        output,
    )
    assert frames == ["1", "2"], output
    assert output.count("in plugin_square ()") == 2 and output.count("in main () at ") == 2, output
    rows = re.findall(
        r"^square\(int\*, int\)\s+libplugin_kernels\.so\s+yes\s+variable\s+gfx90a, gpusym\s+(\d+)\s+(?:yes|no: .+|-)$",
        output,
        re.M,
    )
    assert rows == ["1", "1"], output  # each load is registered anew
    assert "exited normally" in output, output


def test_kbreak_on_a_kernel_of_a_module_loaded_at_run_time(samples):
    output = gdb(
        samples["module_load"], "kbreak -pending saxpy -block 0 -thread 0", "run", "info kernels", "bt 2", "continue"
    )
    hits = stops(output)
    # saxpy runs once from the file and once from memory: two modules.
    assert len(hits) == 2 and all(h.startswith("saxpy (a=2, x=0x") for h in hits), output
    assert re.search(
        r"^saxpy\s+module_load_kernels\.co \(module 0\)\s+no\s+none\s+gpusym\s+1\s+(?:yes|no: .+|-)$", output, re.M
    ), output
    # No stub: the launching frame itself names the kernel and the launch.
    assert re.search(
        r"#1 .* in main  \[kernel saxpy <<<grid \(40,1,1\), block \(128,1,1\), shmem 0, stream 0x0>>>; "
        r"launched dispatch 1 from host thread \d+\].*main\.cpp:\d+",
        output,
    ), output


def test_info_kernels_lists_one_kernel_per_module(modules, code_object):
    output = gdb(modules, "break hipModuleUnload", f"run twice {code_object}", "info kernels saxpy")
    rows = re.findall(
        r"^saxpy\s+kernels\.co \(module (\d+)\)\s+no\s+none\s+gpusym\s+(\d+)\s+(?:yes|no: .+|-)$", output, re.M
    )
    assert rows == [("0", "1"), ("1", "1")], output


def test_capture_names_module_launches_and_their_files(samples):
    program = samples["module_load"]
    result, events = capture("--jsonl", "--", program)
    assert result.returncode == 0, describe(result)
    launches = [e for e in events if e["event"] == "launch"]
    source = (PROGRAMS_DIR / "module_load" / "main.cpp").read_text().splitlines()
    code_object = str(program.parent / "module_load_kernels.co")
    expected = [
        ("saxpy", "saxpy", code_object),
        ("_Z4fillIiEvPT_S0_i", "void fill<int>(int*, int, int)", code_object),
        ("saxpy", "saxpy", None),
    ]
    assert [(e["kernel"]["name"], e["kernel"]["demangled"], e["kernel"]["module"]) for e in launches] == expected
    for event in launches:
        assert (event["api"], event["via"], event["device"], event["stream"]) == (
            "hipModuleLaunchKernel",
            "module",
            0,
            0,
        )
        caller = event["backtrace"][0]
        assert caller["function"] == "main" and "hipModuleLaunchKernel" in source[caller["line"] - 1], caller


def test_capture_gives_a_library_kernel_its_library(samples):
    program = samples["plugin"]
    result, events = capture("--jsonl", "--", program)
    assert result.returncode == 0, describe(result)
    launches = [e for e in events if e["event"] == "launch"]
    assert [e["kernel"] for e in launches] == [
        {
            "name": "_Z6squarePii",
            "demangled": "square(int*, int)",
            "module": str(program.parent / "libplugin_kernels.so"),
        }
    ] * 2
    assert all(e["via"] == "<<<>>>" and e["backtrace"][1]["function"] == "plugin_square" for e in launches)
