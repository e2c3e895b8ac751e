"""Textures and surfaces on the simulated device.

tests/programs/textures.hip samples each texture mode on the device and
computes the same samples on the host from CUDA's definition of texture
fetching; each case prints ``MODE: M mismatches of N`` (or ``check: ok`` for
the error cases), and the program exits non-zero when anything differs."""

from __future__ import annotations

import pytest
from conftest import describe, run

pytestmark = [pytest.mark.toolchain]

# Program case -> the lines it prints that count mismatches.
CASES = {
    "clamp": ["clamp"],
    "wrap": ["wrap"],
    "mirror": ["mirror"],
    "border": ["border"],
    "unnormalized": ["unnormalized clamp", "unnormalized wrap", "unnormalized mirror", "unnormalized border"],
    "border_colour": ["border colour"],
    "normalized_float": ["normalized float"],
    "element_type": ["element type"],
    "tex1D": ["tex1D"],
    "tex1Dfetch": ["tex1Dfetch"],
    "pitch2D": ["pitch2D"],
    "tex3D": ["tex3D"],
    "tex2DLayered": ["tex2DLayered"],
    "surface": ["surface"],
    "copies": ["array copies"],
    "errors": [],
}


@pytest.fixture(scope="module")
def program(build_program):
    return build_program("textures.hip")


@pytest.mark.parametrize("case", CASES)
def test_mode_matches_the_host_reference(program, case):
    result = run([program, case])
    assert result.returncode == 0, describe(result)
    assert result.stderr == "", describe(result)
    found = {}
    for line in result.stdout.splitlines():
        key, sep, value = line.partition(": ")
        if sep:
            found[key] = value
    for mode in CASES[case]:
        counted = found.get(mode, "")
        assert counted.startswith("0 mismatches of ") and not counted.endswith(" of 0"), describe(result)
    checks = [value for key, value in found.items() if key not in CASES[case]]
    assert all(value == "ok" for value in checks), describe(result)
    assert CASES[case] or checks, describe(result)


def test_queued_and_blocking_launches_agree(program):
    # GPUSYM_LAUNCH_BLOCKING=1 runs kernels and copies in the calls that queue them.
    queued = run([program])
    blocking = run([program], env={"GPUSYM_LAUNCH_BLOCKING": "1"})
    assert queued.returncode == 0, describe(queued)
    assert blocking.returncode == 0, describe(blocking)
    assert queued.stdout == blocking.stdout
