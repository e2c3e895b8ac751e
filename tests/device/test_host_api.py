"""The wider HIP host API on the simulated runtime.

tests/programs/host_api.hip runs one group of checks per case and prints
``check: ok`` or ``check: got G, want W`` for each; a few lines carry values
compared here with what HIP specifies (memset bytes, error names, the wall
clock rate, the PCI bus id)."""

from __future__ import annotations

import pytest
from conftest import describe, run, run_gpusym

pytestmark = [pytest.mark.toolchain]

CASES = ["pinned", "managed", "1d", "2d", "3d", "queries", "symbols", "callbacks", "errors", "last_error", "lookups"]

# Every hipError_t code with HIP's name for it (codes with two names: the first).
HIP_ERRORS = {
    0: "hipSuccess",
    1: "hipErrorInvalidValue",
    2: "hipErrorOutOfMemory",
    3: "hipErrorNotInitialized",
    4: "hipErrorDeinitialized",
    5: "hipErrorProfilerDisabled",
    6: "hipErrorProfilerNotInitialized",
    7: "hipErrorProfilerAlreadyStarted",
    8: "hipErrorProfilerAlreadyStopped",
    9: "hipErrorInvalidConfiguration",
    12: "hipErrorInvalidPitchValue",
    13: "hipErrorInvalidSymbol",
    17: "hipErrorInvalidDevicePointer",
    21: "hipErrorInvalidMemcpyDirection",
    35: "hipErrorInsufficientDriver",
    52: "hipErrorMissingConfiguration",
    53: "hipErrorPriorLaunchFailure",
    98: "hipErrorInvalidDeviceFunction",
    100: "hipErrorNoDevice",
    101: "hipErrorInvalidDevice",
    200: "hipErrorInvalidImage",
    201: "hipErrorInvalidContext",
    202: "hipErrorContextAlreadyCurrent",
    205: "hipErrorMapFailed",
    206: "hipErrorUnmapFailed",
    207: "hipErrorArrayIsMapped",
    208: "hipErrorAlreadyMapped",
    209: "hipErrorNoBinaryForGpu",
    210: "hipErrorAlreadyAcquired",
    211: "hipErrorNotMapped",
    212: "hipErrorNotMappedAsArray",
    213: "hipErrorNotMappedAsPointer",
    214: "hipErrorECCNotCorrectable",
    215: "hipErrorUnsupportedLimit",
    216: "hipErrorContextAlreadyInUse",
    217: "hipErrorPeerAccessUnsupported",
    218: "hipErrorInvalidKernelFile",
    219: "hipErrorInvalidGraphicsContext",
    300: "hipErrorInvalidSource",
    301: "hipErrorFileNotFound",
    302: "hipErrorSharedObjectSymbolNotFound",
    303: "hipErrorSharedObjectInitFailed",
    304: "hipErrorOperatingSystem",
    400: "hipErrorInvalidHandle",
    401: "hipErrorIllegalState",
    500: "hipErrorNotFound",
    600: "hipErrorNotReady",
    700: "hipErrorIllegalAddress",
    701: "hipErrorLaunchOutOfResources",
    702: "hipErrorLaunchTimeOut",
    704: "hipErrorPeerAccessAlreadyEnabled",
    705: "hipErrorPeerAccessNotEnabled",
    708: "hipErrorSetOnActiveProcess",
    709: "hipErrorContextIsDestroyed",
    710: "hipErrorAssert",
    712: "hipErrorHostMemoryAlreadyRegistered",
    713: "hipErrorHostMemoryNotRegistered",
    719: "hipErrorLaunchFailure",
    720: "hipErrorCooperativeLaunchTooLarge",
    801: "hipErrorNotSupported",
    900: "hipErrorStreamCaptureUnsupported",
    901: "hipErrorStreamCaptureInvalidated",
    902: "hipErrorStreamCaptureMerge",
    903: "hipErrorStreamCaptureUnmatched",
    904: "hipErrorStreamCaptureUnjoined",
    905: "hipErrorStreamCaptureIsolation",
    906: "hipErrorStreamCaptureImplicit",
    907: "hipErrorCapturedEvent",
    908: "hipErrorStreamCaptureWrongThread",
    910: "hipErrorGraphExecUpdateFailure",
    911: "hipErrorInvalidChannelDescriptor",
    912: "hipErrorInvalidTexture",
    999: "hipErrorUnknown",
    1052: "hipErrorRuntimeMemory",
    1053: "hipErrorRuntimeOther",
}


def memset_oracle() -> str:
    """The 64 bytes the 1d case's memsets leave, as HIP defines each call."""
    data = bytearray(64)
    data[2:12] = (0xABCD).to_bytes(2, "little") * 5  # hipMemsetD16(d + 2, 0xABCD, 5)
    data[16:28] = (0x11223344).to_bytes(4, "little") * 3  # hipMemsetD32(d + 16, 0x11223344, 3)
    data[40:44] = b"\x7f" * 4  # hipMemsetD8(d + 40, 0x7f, 4)
    data[48:52] = (0x0102).to_bytes(2, "little") * 2  # hipMemsetD16Async(d + 48, 0x0102, 2)
    data[56:60] = (-2).to_bytes(4, "little", signed=True)  # hipMemsetD32Async(d + 56, -2, 1)
    data[60:63] = b"\x55" * 3  # hipMemsetD8Async(d + 60, 0x55, 3)
    return data.hex()


@pytest.fixture(scope="module")
def program(build_program):
    return build_program("host_api.hip")


@pytest.fixture(scope="module", params=["queued", "blocking"])
def outputs(request, program) -> dict[str, object]:
    """case -> its finished process, each case run on its own."""
    env = {"GPUSYM_LAUNCH_BLOCKING": "1"} if request.param == "blocking" else {}
    return {case: run([program, case], env=env) for case in CASES}


def lines(result) -> dict[str, str]:
    found = {}
    for line in result.stdout.splitlines():
        key, sep, value = line.partition(": ")
        if sep:
            found.setdefault(key, value)
    return found


@pytest.mark.parametrize("case", CASES)
def test_case_passes_every_check(outputs, case):
    result = outputs[case]
    assert result.returncode == 0, describe(result)
    assert result.stderr == "", describe(result)
    checks = [line for line in result.stdout.splitlines() if line.endswith(": ok") or ": got " in line]
    assert checks, f"no checks ran\n{describe(result)}"
    failed = [line for line in checks if not line.endswith(": ok")]
    assert not failed, describe(result)


def test_memset_widths(outputs):
    assert lines(outputs["1d"]).get("memset bytes") == memset_oracle(), describe(outputs["1d"])


def test_device_identity(outputs):
    found = lines(outputs["queries"])
    assert found.get("wall clock rate") == "100000", describe(outputs["queries"])
    assert found.get("warp size") == "64"
    assert found.get("arch") == "gfx90a"
    assert found.get("pci bus id of device 1") == "0000:02:00.0"


def test_callbacks_run_in_stream_order(outputs):
    order = [
        line.removeprefix("order: ") for line in outputs["callbacks"].stdout.splitlines() if line.startswith("order: ")
    ]
    # The callback sees the kernel before it (3 * 5), the host function the copy before it.
    assert order == ["callback sees 15 status hipSuccess", "host function sees 77"], describe(outputs["callbacks"])


def test_every_error_code_has_hips_name_and_a_text(outputs):
    result = outputs["errors"]
    reported = {}
    for line in result.stdout.splitlines():
        if line.startswith("error "):
            code, _, rest = line.removeprefix("error ").partition(": ")
            name, _, text = rest.partition(" | ")
            reported[int(code)] = (name, text)
    assert {code: name for code, (name, _) in reported.items() if code in HIP_ERRORS} == HIP_ERRORS, describe(result)
    for code, (name, text) in reported.items():
        if code in HIP_ERRORS and code != 999:
            assert text and text != "unknown error", f"{name}: {text!r}"
    assert reported[1054] == ("hipErrorUnknown", "unknown error"), "a code HIP does not define"


@pytest.mark.parametrize("mode", ["queued", "blocking"])
def test_older_and_extended_launch_forms(build_program, mode):
    # tests/programs/launch_forms.hip: hipConfigureCall, hipSetupArgument and
    # hipLaunchByPtr; hipExtLaunchKernel(GGL) with events; hipMemcpyDeviceToDeviceNoCU.
    env = {"GPUSYM_LAUNCH_BLOCKING": "1"} if mode == "blocking" else {}
    result = run([build_program("launch_forms.hip", flags=("-O2",))], env=env)
    assert result.returncode == 0, describe(result)
    assert result.stderr == "", describe(result)
    checks = result.stdout.splitlines()
    assert len(checks) == 19, describe(result)
    assert all(line.endswith(": ok") for line in checks), describe(result)


@pytest.mark.parametrize("tool", [None, "memcheck"])
def test_managed_variables_are_one_copy_for_host_and_device(build_program, tool):
    program = build_program("managed_variables.hip", flags=("-O2",))
    result = run_gpusym("check", "--tool", tool, program) if tool else run([program])
    assert result.returncode == 0, describe(result)
    assert result.stdout.splitlines() == [
        "initial: 5",
        "after a launch: 9 1.5 4.5",
        "after the host wrote: 108",
        "attributes: hipSuccess managed=1",
    ], describe(result)
    if tool:  # the runtime frees the variables' storage: no leak reported
        assert "nothing to report" in result.stderr, describe(result)


def test_stream_capture_records_then_graph_launches_replay_in_order(build_program):
    result = run([build_program("hip_graphs.hip", flags=("-O2",))])
    assert result.returncode == 0, describe(result)
    assert result.stdout.splitlines() == [
        "begin: hipSuccess",
        "capturing: 1",
        "end: hipSuccess",
        "while captured: 0 launches, value 0",
        "instantiate: hipSuccess",
        "after two launches: 2 launches, value 2",
        "legacy stream: hipErrorStreamCaptureUnsupported",
    ], describe(result)
