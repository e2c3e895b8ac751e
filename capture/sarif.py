"""Findings as a SARIF 2.1.0 log, for GitHub code scanning, editors' SARIF
viewers and other tools: the reports of the simulated runtime's checks
(read here from its report lines, docs/runtime.md "Checks"), a kernel's
fault, and capture's crashes and failing runtime calls.  Pure: no I/O."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from urllib.parse import quote

from capture.events import CheckEvent, CrashEvent, ErrorEvent, Event, ExitEvent, Frame, Json, Lane

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
EXIT_CANNOT_WRITE = 73  # EX_CANTCREAT: the SARIF file cannot be written
SOURCE_ROOT = "%SRCROOT%"  # the working directory: relative paths are relative to it

#: Each rule: (level, short description, full description).
RULES = {
    "memcheck/invalid-read": ("error", "Invalid read of device memory",
        "A load by device code outside every live allocation: past its end, before its start, or far from any."),
    "memcheck/invalid-write": ("error", "Invalid write of device memory",
        "A store by device code outside every live allocation: past its end, before its start, or far from any."),
    "memcheck/misaligned-access": ("error", "Misaligned access of device memory",
        "A load or store at an address not aligned as the code assumes, which a GPU faults on."),
    "memcheck/use-after-free": ("error", "Access of freed device memory",
        "A load or store by device code of an allocation already freed (hipFree, hipDeviceReset)."),
    "memcheck/leak": ("warning", "Device memory never freed",
        "Allocations of device memory still live when the program ended."),
    "memcheck/invalid-free": ("error", "Invalid free in device code",
        "Device code frees a block of device malloc twice, or a pointer device malloc did not return."),
    "racecheck/read-after-write": ("error", "Read-after-write hazard on __shared__ memory",
        "A lane reads __shared__ memory that another lane of its block wrote with no barrier between."),
    "racecheck/write-after-read": ("error", "Write-after-read hazard on __shared__ memory",
        "A lane writes __shared__ memory that another lane of its block read with no barrier between."),
    "racecheck/write-after-write": ("error", "Write-after-write hazard on __shared__ memory",
        "Two lanes of a block write the same __shared__ memory with no barrier between."),
    "racecheck/warp-read-after-write": ("warning", "Read-after-write hazard within one warp",
        "A lane reads __shared__ memory another lane of its warp wrote with no __syncwarp or barrier between."),
    "racecheck/warp-write-after-read": ("warning", "Write-after-read hazard within one warp",
        "A lane writes __shared__ memory another lane of its warp read with no __syncwarp or barrier between."),
    "racecheck/warp-write-after-write": ("warning", "Write-after-write hazard within one warp",
        "Two lanes of a warp write the same __shared__ memory with no __syncwarp or barrier between."),
    "synccheck/divergent-barrier": ("error", "__syncthreads in divergent code",
        "Lanes of a block wait at different barriers, or some wait at a barrier others never reach: "
        "a GPU does not define what happens."),
    "synccheck/bad-mask": ("error", "Warp function's mask names lanes that do not take part",
        "A *_sync warp function's mask names lanes of the wavefront that wait at another warp function or a "
        "barrier, have exited, or are not in the block."),
    "initcheck/uninitialized-read": ("error", "Read of device memory never written",
        "Device code reads allocated memory that no copy, memset or kernel has written."),
    "device-fault": ("error", "A kernel crashed",
        "A lane stopped with a signal: an invalid memory access, a stack overflow, a failed assert or abort()."),
    "host-crash": ("error", "The program crashed in host code", "A fatal signal in the program's host code."),
}  # fmt: skip
API_ERROR = "api-error/"  # and the error's name, or its code


@dataclass(frozen=True, slots=True)
class Place:
    """A line of a source file, as the compiler named the file."""

    file: str
    line: int


@dataclass(slots=True)
class Finding:
    """One result: its rule, the runtime's words, where, the lane
    (kernel, dispatch, block, thread) and the stack, innermost frame first."""

    rule: str
    message: str
    place: Place | None = None
    properties: Json = field(default_factory=dict)
    related: list[tuple[str, Place]] = field(default_factory=list)  # (what happened there, where)
    stack: list[Frame] = field(default_factory=list)


# -- the runtime's report lines ------------------------------------------------

_LANE = re.compile(
    r"(?:(?P<check>racecheck|synccheck|initcheck): )?kernel '(?P<kernel>.*)' \(dispatch (?P<dispatch>\d+)\) "
    r"block \((?P<block>[\d,]+)\)(?: thread \((?P<thread>[\d,]+)\))?: (?:thread \((?P<lane>[\d,]+)\) )?(?P<what>.*)"
)
_MEMCHECK = re.compile(
    r"(?P<kind>invalid|misaligned) (?P<access>read|write) of \d+ bytes? at 0x[0-9a-f]+: (?P<why>.*?)"
    r"(?:, at (?P<where>[^,]+:\d+))? \(memcheck\)"
)
_ASSERTION = re.compile(r"(?P<where>.+?:\d+): .*: Device-side assertion .*")
_HAZARD = re.compile(
    r"(?P<access>reads|writes) \d+ bytes? of __shared__ memory at 0x[0-9a-f]+ \((?:[^(),]*, )?(?P<where>[^()]*)\) "
    r"that thread \((?P<other>[\d,]+)\) (?P<other_access>read|wrote) \((?P<there>[^()]*)\)"
)
_HAZARDS = {
    ("reads", "wrote"): "read-after-write",
    ("writes", "read"): "write-after-read",
    ("writes", "wrote"): "write-after-write",
}
_DIVERGENT = re.compile(
    r"waits at the barrier at (?P<where>.+) while thread \((?P<other>[\d,]+)\) waited at the one at (?P<there>.+): "
)
_UNREACHED = re.compile(
    r"threads? (?P<waited>\S+) waited at the barrier at (?P<where>.+?:\d+)(?: for the \w+ time)? "
    r"while threads? (?P<left>\S+) ran to the end of the kernel(?: after the barrier at (?P<there>.+?:\d+))? "
)
_MASK = re.compile(
    r"calls (?P<function>\w+) at (?P<where>.+?:\d+|an unknown line) with mask 0x[0-9a-f]+ naming lanes (?P<lanes>\S+) "
    r"of its (?:warp|wavefront), which wait at (?P<other>.+) at (?P<there>.+?:\d+)$"
)
_MASK_EXITED = re.compile(r"calls \w+ at (?P<where>.+?:\d+) with mask")
_FREE = re.compile(r"(?:double|invalid) free of 0x[0-9a-f]+: .*?(?:, at (?P<where>[^,]+:\d+))? \(memcheck\)")
_UNWRITTEN = re.compile(
    r"reads \d+ bytes? (?:of __shared__ memory )?at 0x[0-9a-f]+ \((?:[^(),]*, )?(?P<where>[^()]*)\) "
    r"that no (?:copy|thread)"
)
_LEAK = re.compile(r"memcheck: \d+ allocations? of device memory \(\d+ bytes\) never freed:")
_LEAKED = re.compile(r"  \d+ bytes at 0x[0-9a-f]+ \(.*\)")
_PREFIX = "gpusym: "


def _place(text: str | None) -> Place | None:
    """``FILE:LINE`` as the runtime writes it; None for "an unknown line"."""
    match = re.fullmatch(r"(.+):(\d+)", text or "")
    return Place(match[1], int(match[2])) if match else None


def _dim3(text: str) -> list[int]:
    return [int(value) for value in text.split(",")]


def parse_report(report: str) -> Finding | None:
    """The finding of one of the runtime's reports of a lane (a check's, or
    a kernel's fault), with or without its ``gpusym: ``; None for any other
    line, or a check's report in words this parser does not know."""
    lane = _LANE.fullmatch(report.removeprefix(_PREFIX))
    if lane is None:
        return None
    check, what = lane["check"], lane["what"]
    thread = lane["thread"] or lane["lane"]
    properties: Json = {"kernel": lane["kernel"], "dispatch": int(lane["dispatch"]), "block": _dim3(lane["block"])}
    if thread:
        properties["thread"] = _dim3(thread)
    finding = Finding("device-fault", report.removeprefix(_PREFIX), properties=properties)
    other: re.Match[str] | None = None  # the other lane, for a hazard or a divergent barrier
    if check == "racecheck":
        if not (other := _HAZARD.match(what)):
            return None
        scope = "warp-" if what.endswith(("within one warp", "within one wavefront")) else ""
        finding.rule = f"racecheck/{scope}{_HAZARDS[other['access'], other['other_access']]}"
    elif check == "synccheck" and (other := _DIVERGENT.match(what)):
        finding.rule = "synccheck/divergent-barrier"
    elif check == "synccheck" and (unreached := _UNREACHED.match(what)):
        finding.rule = "synccheck/divergent-barrier"
        finding.place = _place(unreached["where"])
        properties["waitingThreads"], properties["endedThreads"] = unreached["waited"], unreached["left"]
        if there := _place(unreached["there"]):
            finding.related = [(f"threads {unreached['left']} passed their last barrier", there)]
    elif check == "synccheck":
        finding.rule = "synccheck/bad-mask"
        if mask := _MASK.search(what):
            finding.place = _place(mask["where"])
            if there := _place(mask["there"]):
                finding.related = [(f"lanes {mask['lanes']} wait at {mask['other']}", there)]
        elif exited := _MASK_EXITED.search(what):
            finding.place = _place(exited["where"])
    elif check == "initcheck":
        finding.rule = "initcheck/uninitialized-read"
        finding.place = _place(unwritten["where"]) if (unwritten := _UNWRITTEN.match(what)) else None
    elif invalid_free := _FREE.fullmatch(what):
        finding.rule = "memcheck/invalid-free"
        finding.place = _place(invalid_free["where"])
    elif memcheck := _MEMCHECK.fullmatch(what):
        finding.place = _place(memcheck["where"])
        if memcheck["kind"] == "misaligned":
            finding.rule = "memcheck/misaligned-access"
        elif re.search(r"\ba freed \d", memcheck["why"]):
            finding.rule = "memcheck/use-after-free"
        else:
            finding.rule = f"memcheck/invalid-{memcheck['access']}"
    elif assertion := _ASSERTION.fullmatch(what):
        finding.place = _place(assertion["where"])
    if other is not None:
        finding.place = _place(other["where"])
        properties["otherThread"] = _dim3(other["other"])
        if there := _place(other["there"]):
            finding.related = [(f"thread ({other['other']}) {other.groupdict().get('other_access', 'waited')}", there)]
    return finding


def parse_reports(lines: list[str]) -> list[Finding]:
    """The findings among the runtime's lines of standard error (the
    program's own lines may be among them): its reports of lanes, and
    memcheck's allocations never freed at exit, each allocation's line
    added to the report's message."""
    findings: list[Finding] = []
    leak: Finding | None = None
    for line in lines:
        text = line.rstrip("\n").removeprefix(_PREFIX) if line.startswith(_PREFIX) else None
        if text is None:
            continue
        if leak is not None and _LEAKED.fullmatch(text):
            leak.message += ("" if leak.message.endswith(":") else ",") + " " + text.strip()
            continue
        leak = Finding("memcheck/leak", text) if _LEAK.fullmatch(text) else None
        finding = leak or parse_report(text)
        if finding is not None:
            findings.append(finding)
    return findings


# -- capture's events ---------------------------------------------------------------


def _lane_properties(lane: Lane) -> Json:
    properties: Json = {"kernel": lane.kernel.demangled if lane.kernel else None, "dispatch": lane.dispatch,
                        "block": lane.block, "thread": lane.thread_index}  # fmt: skip
    if lane.grid is not None:
        properties["grid"] = lane.grid
    if lane.block_dim is not None:
        properties["blockDim"] = lane.block_dim
    return properties


def _first_place(frames: list[Frame]) -> Place | None:
    return next((Place(f["file"], f["line"]) for f in frames if f.get("file") and f.get("line")), None)


def _crash(event: CrashEvent) -> Finding:
    if event.lane is None:
        address = "" if event.address is None else f" at address {event.address:#x}"
        return Finding("host-crash", f"{event.signal}{address} in host code", _first_place(event.backtrace))
    lane = event.lane
    why = event.fault["description"] if event.fault else event.signal
    report = (
        f"kernel '{lane.kernel.demangled if lane.kernel else '?'}' (dispatch {lane.dispatch}) "
        f"block ({','.join(map(str, lane.block))}) thread ({','.join(map(str, lane.thread_index))}): {why}"
    )
    return parse_report(report) or Finding("device-fault", report)


def _error(event: ErrorEvent) -> Finding:
    from capture.report import _is_call  # the runtime's frames and wrappers of the call (rich: only here)

    own = [level for level, frame in enumerate(event.backtrace) if _is_call(frame, event.call)]
    caller = event.backtrace[own[-1] + 1 :] if own else event.backtrace
    name = event.name or str(event.code)
    message = f"{event.call} failed with {name} ({event.code})"
    properties: Json = {"call": event.call, "code": event.code}
    if event.kernel is not None:
        message += f": the launch of {event.kernel.demangled}"
        properties["kernel"] = event.kernel.demangled
    return Finding(API_ERROR + name, message, _first_place(caller), properties)


def findings_of(events: list[Event]) -> list[Finding]:
    """The findings of a capture: each check report, crash and failing
    call with its stack, and memcheck's leaks from the program's stderr."""
    findings: list[Finding] = []
    for event in events:
        if isinstance(event, CheckEvent):
            finding = parse_report(event.report) or Finding(f"{event.check}/report", event.report)
            stack, lane = event.stack.backtrace, event.stack.lane
        elif isinstance(event, CrashEvent):
            finding, stack, lane = _crash(event), event.backtrace, event.lane
        elif isinstance(event, ErrorEvent):
            finding, stack, lane = _error(event), event.backtrace, None
        elif isinstance(event, ExitEvent):
            findings += [f for f in parse_reports(event.stderr.splitlines()) if f.rule == "memcheck/leak"]
            continue
        else:
            continue
        if lane is not None:  # the stack's first line is the lane's
            finding.properties.update(_lane_properties(lane))
            finding.place = finding.place or _first_place(stack)
        finding.stack = stack
        findings.append(finding)
    return findings


# -- the log ------------------------------------------------------------------------


def _artifact(file: str, root: Path) -> Json:
    """An artifactLocation: relative to `root` (the working directory) for
    a relative path or one below it, else an absolute file URI."""
    path = PurePosixPath(file)
    if path.is_absolute():
        try:
            path = path.relative_to(root)
        except ValueError:
            return {"uri": Path(file).as_uri()}
    return {"uri": quote(str(path)), "uriBaseId": SOURCE_ROOT}


def _location(place: Place, root: Path, message: str | None = None) -> Json:
    location: Json = {
        "physicalLocation": {"artifactLocation": _artifact(place.file, root), "region": {"startLine": place.line}}
    }
    if message:
        location["message"] = {"text": message}
    return location


def _frame_text(frame: Frame) -> str:
    function = frame.get("function") or "??"
    return f"{function} [{frame['note']}]" if frame.get("note") else function


def _rule(rule_id: str) -> Json:
    if rule_id.startswith(API_ERROR):
        name = rule_id.removeprefix(API_ERROR)
        level, short, full = "warning", f"A runtime call failed with {name}", f"A runtime API call returned {name}."
        more = "The properties name the call and the error's code; the code flow is the host stack of the call."
    else:
        check = rule_id.split("/")[0]  # a report in words parse_report does not know
        level, short, full = RULES.get(rule_id, ("error", f"A report of {check}", f"A report of {check}."))
        more = "Where known, the properties name the lane (kernel, dispatch, block, thread) and the code flow is "
        more += "the stack down to the line, from the host code that launched the kernel."
    return {
        "id": rule_id,
        "shortDescription": {"text": short},
        "fullDescription": {"text": full},
        "help": {"text": f"{full} {more}"},
        "defaultConfiguration": {"level": level},
        "properties": {"tags": [rule_id.split("/")[0]]},
    }


def _result(finding: Finding, rules: list[Json], root: Path, program: str) -> Json:
    index = next(i for i, rule in enumerate(rules) if rule["id"] == finding.rule)
    level = rules[index]["defaultConfiguration"]["level"]
    result: Json = {"ruleId": finding.rule, "ruleIndex": index, "level": level, "message": {"text": finding.message}}
    if finding.place is not None:
        result["locations"] = [_location(finding.place, root)]
    else:  # no source line known: the program, so that every result has a location
        result["locations"] = [{"physicalLocation": {"artifactLocation": _artifact(program, root)}}]
    if finding.related:
        result["relatedLocations"] = [
            {"id": i, **_location(where, root, what)} for i, (what, where) in enumerate(finding.related, 1)
        ]
    flow = [
        {"location": _location(Place(frame["file"], frame["line"]), root, _frame_text(frame))}
        for frame in reversed(finding.stack)
        if frame.get("file") and frame.get("line")
    ]
    if flow:
        result["codeFlows"] = [{"threadFlows": [{"locations": flow}]}]
    if finding.properties:
        result["properties"] = finding.properties
    return result


def sarif_log(
    findings: list[Finding],
    *,
    version: str,
    command: list[str],
    root: Path,
    exit_code: int | None = None,
    exit_signal: str | None = None,
) -> Json:
    """The SARIF 2.1.0 log of one run of `command` (the program first) in
    the directory `root`; `exit_code` or `exit_signal` says how it ended."""
    rules = [_rule(rule_id) for rule_id in dict.fromkeys([*RULES, *(finding.rule for finding in findings)])]
    invocation: Json = {
        "commandLine": shlex.join(command),
        "arguments": command[1:],
        "executionSuccessful": True,
        "workingDirectory": {"uri": root.as_uri() + "/"},
    }
    if exit_code is not None:
        invocation["exitCode"] = exit_code
    if exit_signal is not None:
        invocation["exitSignalName"] = exit_signal
    run: Json = {
        "tool": {"driver": {"name": "gpusym", "version": version, "rules": rules}},
        "originalUriBaseIds": {SOURCE_ROOT: {"uri": root.as_uri() + "/"}},
        "invocations": [invocation],
        "results": [_result(finding, rules, root, command[0]) for finding in findings],
    }
    return {"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}
