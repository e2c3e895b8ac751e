"""AMD's device functions over the wavefront and the lane
(hip/gpusym_detail/amd_device_functions.h): lane masks, __mbcnt_lo/hi,
__match_any/__match_all and their 64-bit *_sync forms, __fns32/__fns64,
__clock/__clock64, __smid and __get_dynamicgroupbaseptr, checked lane by lane
against the host's answer (tests/programs/amd_device_functions.hip), with
every lane and with the odd lanes only, in full and partial wavefronts of 64
and of 32 lanes."""

from __future__ import annotations

import pytest
from conftest import describe, run

pytestmark = [pytest.mark.toolchain]


@pytest.mark.parametrize(("flags", "wave"), [(("-g",), 64), (("-O2", "-mno-wavefrontsize64"), 32)], ids=["64", "32"])
def test_each_function_gives_each_lane_its_answer(build_program, flags, wave):
    result = run([build_program("amd_device_functions.hip", flags=flags)])
    lines = result.stdout.splitlines()
    assert lines[:1] == [f"amd_device_functions: wave {wave}"], describe(result)
    assert result.returncode == 0 and lines[1:] == ["ok"], describe(result)
