"""The sample programs compute the right results on the simulated device.

Each sample checks its own results and prints one line ending in
``N wrong``; it exits 0 only when N is 0.  The ``fault`` sample instead ends
with the runtime's report of its kernel's out-of-bounds access."""

from __future__ import annotations

import re
import signal

import pytest
from conftest import SAMPLES_BY_NAME, describe, run

pytestmark = [pytest.mark.toolchain]

SAMPLE_NAMES = sorted(name for name, sample in SAMPLES_BY_NAME.items() if not sample.faults)


def assert_sample_correct(name: str, result) -> None:
    assert result.returncode == 0, describe(result)
    lines = result.stdout.splitlines()
    assert len(lines) == 1, f"expected one line of output\n{describe(result)}"
    line = lines[0]
    assert line.startswith(f"{name}:"), line
    assert re.search(r"(?<![0-9])0 wrong$", line), f"the sample reports errors: {line}"
    assert "gpusym:" not in result.stderr, f"the runtime complained\n{describe(result)}"


@pytest.mark.parametrize("name", SAMPLE_NAMES)
def test_sample_runs_and_reports_no_wrong_results(samples, name):
    assert_sample_correct(name, run([samples[name]]))


@pytest.mark.parametrize("name", SAMPLE_NAMES)
def test_sample_is_correct_with_launch_blocking(samples, name):
    result = run([samples[name]], env={"GPUSYM_LAUNCH_BLOCKING": "1"})
    assert_sample_correct(name, result)


def test_vector_add_built_with_O2_is_correct(sample_builds):
    program = sample_builds.get("vector_add", ("-O2",))
    assert_sample_correct("vector_add", run([program]))


def test_vector_add_built_without_debug_info_is_correct(vector_add_nodebug):
    assert_sample_correct("vector_add", run([vector_add_nodebug]))


def test_vector_add_reports_its_launch_geometry(vector_add):
    # 100000 elements in blocks of 256: the kernel really ran over every block.
    result = run([vector_add])
    assert "100000 elements, 391 blocks of 256, 0 wrong" in result.stdout, describe(result)


@pytest.mark.parametrize("blocking", ["0", "1"])
def test_fault_sample_is_reported_with_kernel_block_and_thread(samples, blocking):
    result = run([samples["fault"]], env={"GPUSYM_LAUNCH_BLOCKING": blocking})
    assert result.returncode == -signal.SIGSEGV, describe(result)
    assert "went unnoticed" not in result.stdout, describe(result)
    report = re.search(
        r"gpusym: kernel 'scale\(float\*, float\)' \(dispatch 1\) block \(3,0,0\) thread \(192,0,0\): "
        r"invalid read at (0x[0-9a-f]+): 0 bytes past the end of a 3840-byte allocation at (0x[0-9a-f]+)",
        result.stderr,
    )
    assert report, describe(result)
    assert int(report.group(1), 16) == int(report.group(2), 16) + 3840


def test_plugin_library_is_unregistered_at_each_dlclose(sample_builds):
    """With GPUSYM_LEAK_CHECK=1 a code object never unregistered is named;
    the plugin's two loads are both unregistered by dlclose."""
    result = run([sample_builds.get("plugin")], env={"GPUSYM_LEAK_CHECK": "1"})
    assert_sample_correct("plugin", result)
