"""gpusym's hipRAND and rocRAND (device/libraries/rocrand, hiprand; the
device API in device/include/rocrand and hiprand over
gpusym/random_engines.h): the device generators' bits against references
computed here from the algorithms' definitions with rocRAND's seeding, the
conversions to reals, the distributions' statistics, the host API writing
into device memory in a stream's order, the identifiers of ROCm's headers,
and a CMake project with find_package(hiprand)."""

from __future__ import annotations

import math

import pytest
from cmake_projects import cmake_build, rocm_prefix
from conftest import TEST_PROGRAMS, describe, run, run_gpusym
from library_api import build_coverage, identifiers, statuses
from random_references import (
    M1,
    UNIT32,
    XorwowJumps,
    box_muller,
    f32,
    float_uniform,
    mrg32k3a_outputs,
    mrg32k3a_seeding,
    philox,
    sobol,
    xorwow_outputs,
)

pytestmark = [pytest.mark.toolchain]

SEED = 1234
#: rocRAND's XORWOW seeding: multiplier and mask of the seed's low word, then its high word's.
XORWOW_SEEDING = (1228688033, 0x2C7F967F, 2073658381, 0xA03697CB)


@pytest.fixture(scope="module")
def lines(build_program):
    program = build_program("libraries/hiprand_sequences.hip", flags=("-O1", "-lhiprand"))
    result = run([program])
    assert result.returncode == 0 and "status" not in result.stdout, describe(result)
    assert (
        result.stderr.strip()
        == "gpusym: hiprandGenerateChar is not supported by gpusym's hipRAND (HIPRAND_STATUS_NOT_IMPLEMENTED)"
    )
    table = {}
    for line in result.stdout.splitlines():
        name, values = line.split(":")
        table[name] = [float(word) if "." in word or "e" in word else int(word) for word in values.split()]
    return table


@pytest.fixture(scope="module")
def jumps():
    return XorwowJumps(67 + 64)


def xorwow(jumps, seed: int, subsequence: int, offset: int, count: int) -> list[int]:
    """Marsaglia's XORWOW after rocRAND's seeding, 2^67 steps a subsequence."""
    return xorwow_outputs(jumps, XORWOW_SEEDING, seed, subsequence, offset, count)


def mrg32k3a(seed: int, steps: int, count: int) -> list[int]:
    """L'Ecuyer's MRG32k3a's outputs z after rocRAND's seeding (the seed as
    the multiplier) and `steps` steps."""
    return mrg32k3a_outputs(mrg32k3a_seeding(seed, seed), steps, count)


def mrg_bits(z: int) -> int:
    return int((z - 1) * 1.000000048661607)


def sobol_vectors(s: int, a: int, m: list[int]) -> list[int]:
    """Sobol's direction vectors of a primitive polynomial (degree s,
    coefficients a) and initial numbers m (Bratley and Fox's recurrence)."""
    v = [m[k] << (31 - k) for k in range(s)]
    for k in range(s, 32):
        x = v[k - s] ^ (v[k - s] >> s)
        for j in range(1, s):
            if (a >> (s - 1 - j)) & 1:
                x ^= v[k - j]
        v.append(x)
    return v


def uniform(x: int) -> float:
    return float_uniform(x, UNIT32)


def uniform_double(x: int, y: int) -> float:
    return 2.0**-53 + (x | (y >> 11) << 32) * 2.0**-53


def normals(x: int, y: int) -> list[float]:
    return box_muller(uniform(x), (y + 1) * 2.0**-32 * 2 * math.pi)


def normals_double(x0: int, x1: int, y0: int, y1: int) -> list[float]:
    u = 2.0**-53 + (x0 ^ (x1 << 21)) * 2.0**-53
    return box_muller(u, math.pi * ((1 + (y0 ^ (y1 << 21))) * 2.0**-52))


def test_device_bits_follow_the_algorithms(lines, jumps):
    assert lines["xorwow 0 0"] == xorwow(jumps, SEED, 0, 0, 8)
    assert lines["xorwow 3 5"] == xorwow(jumps, SEED, 3, 5, 8)
    assert lines["rocrand xorwow 1 2"] == xorwow(jumps, SEED, 1, 2, 8)
    assert lines["philox 3 5"] == philox(SEED, 3, 5, 8)
    assert lines["mrg32k3a 3 5"] == [mrg_bits(z) for z in mrg32k3a(SEED, (3 << 76) + 5, 8)]


def test_device_skips(lines, jumps):
    """hipRAND's skipahead_sequence is rocRAND's skipahead_subsequence."""
    assert lines["skip xorwow 2 1000"] == xorwow(jumps, SEED, 2, 1000, 8)
    assert lines["skip philox 2 1001"] == philox(SEED, 2, 1001, 8)
    assert lines["skip mrg32k3a 2 1000"] == [mrg_bits(z) for z in mrg32k3a(SEED, (2 << 76) + 1000, 8)]
    assert lines["philox4 1"] == philox(SEED, 0, 1, 4)


def test_device_conversions(lines, jumps):
    bits = xorwow(jumps, SEED, 0, 0, 14)
    want = [uniform(bits[0]), uniform(bits[1]), uniform_double(bits[2], bits[3]), uniform_double(bits[4], bits[5])]
    want += normals(bits[6], bits[7]) + normals_double(*bits[8:12])
    want += [math.exp(0.5 + 0.25 * n) for n in normals(bits[12], bits[13])]
    assert lines["reals xorwow"] == pytest.approx(want, rel=1e-6)
    assert lines["reals xorwow"][:4] == want[:4]
    z = mrg32k3a(SEED, 0, 10)
    mrg = [f32(z[0] / M1), f32(z[1] / M1), z[2] / M1, z[3] / M1]
    mrg += box_muller(f32(z[4] / M1), f32(f32(z[5] / M1) * f32(2 * math.pi)))
    mrg += box_muller(z[6] / M1, 2 * math.pi * (z[7] / M1))
    assert lines["reals mrg32k3a"][:8] == pytest.approx(mrg, rel=1e-5)
    p = philox(SEED, 0, 5, 4)
    assert lines["philox normal4"] == pytest.approx(normals(p[0], p[1]) + normals(p[2], p[3]), rel=1e-5)


def test_device_sobol_follows_the_gray_code(lines):
    assert lines["sobol 5"] == sobol(sobol_vectors(2, 1, [1, 3]), 5, 8)


def test_device_distributions(lines):
    low, high, mean, normal, squares, small, large, log_normal = lines["moments philox"]
    assert 0 < low and high <= 1 and abs(mean - 0.5) < 0.005
    assert abs(normal) < 0.01 and abs(squares - 1) < 0.01
    assert abs(small - 4) < 0.03 and abs(large - 100) < 0.1
    assert abs(log_normal - math.exp(0.125)) < 0.01


def test_host_api_writes_the_sequence_into_device_memory(lines, jumps):
    floats = [f32(value) for value in lines["host uniform xorwow 10"]]
    assert floats == [uniform(x) for x in xorwow(jumps, SEED, 0, 10, 8)]
    assert lines["host bits philox 7"] == philox(SEED, 0, 7, 8)
    assert lines["host bits mrg32k3a 0"] == [mrg_bits(z) for z in mrg32k3a(SEED, 0, 8)]
    bits = xorwow(jumps, SEED, 0, 0, 8)
    assert lines["host uniform_double xorwow 0"] == [uniform_double(*bits[i : i + 2]) for i in range(0, 8, 2)]
    assert lines["host continued xorwow 0"] == bits
    p = philox(SEED, 0, 0, 8)
    want = [2 + 3 * n for n in normals_double(*p[:4]) + normals_double(*p[4:])]
    assert lines["host normal_double philox 0"] == pytest.approx(want, rel=1e-12)


def test_host_api_sobol32_gives_each_dimension_in_turn(lines):
    first = [1 << (31 - k) for k in range(32)]
    assert lines["host bits sobol32 3"] == sobol(first, 3, 4) + sobol(sobol_vectors(1, 0, [1]), 3, 4)


def test_host_api_distributions(lines):
    mean, variance, log_normal, poisson = lines["host moments mrg32k3a"]
    assert abs(mean - 1) < 0.03 and abs(variance - 4) < 0.1
    assert abs(log_normal - math.exp(0.125)) < 0.01 and abs(poisson - 7.5) < 0.05


def test_version_and_not_implemented(lines):
    assert lines["version"] == [201100]
    assert lines["not implemented"] == [1000]


@pytest.mark.parametrize("name", ["hiprand", "rocrand"])
def test_every_identifier_of_the_api_is_declared_and_links(name, tmp_path):
    built, coverage = build_coverage(tmp_path, name, identifiers(name), [f"{name}/{name}.h"])
    assert built.returncode == 0, describe(built)
    assert statuses(run([coverage])) == {}


def test_gpusym_headers_come_before_debians(tmp_path):
    source = tmp_path / "which.hip"
    source.write_text("#include <hiprand/hiprand_kernel.h>\n#include <rocrand/rocrand.h>\n")
    result = run_gpusym("build", "-c", "-H", source, "-o", tmp_path / "which.o")
    assert result.returncode == 0, describe(result)
    included = [line for line in result.stderr.splitlines() if "rand" in line]
    assert included and all("/usr/include" not in line for line in included), describe(result)


def test_cmake_project_with_find_package_hiprand(tmp_path):
    cmake_build(TEST_PROGRAMS / "libraries" / "hiprand_cmake", tmp_path / "build", rocm_prefix(tmp_path / "rocm"))
    result = run([tmp_path / "build" / "hiprand_host"])
    assert result.returncode == 0, describe(result)
    values = [float(word) for word in result.stdout.split()]
    assert len(values) == 4 and all(0 < value <= 1 for value in values), describe(result)
