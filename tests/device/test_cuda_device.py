"""CUDA's device language on the simulated device, compiled by gpusym-nvcc:
the warp functions with 32-bit masks, block votes and warp-synchronous code
(tests/programs/cuda/device_warp.cu), atomics and cache-hinted memory access,
with the program's own overloads of those CUDA has not (device_atomics.cu), cooperative groups with reduce and scans
(device_groups.cu), math, intrinsics (the SIMD ones too) and the half types,
assigned from braced lists (device_numerics.cu),
the math functions CUDA gives host code too (host_math.cu), the warp matrix
functions of every shape and type (device_wmma.cu), each with -G
(nothing optimized) and at -O2; and cuRAND's device generators (XORWOW, Philox,
MRG32k3a, Sobol) against references computed here from the algorithms'
definitions (curand_sequences.cu)."""

from __future__ import annotations

import math

import pytest
from conftest import GPUSYM_NVCC, assert_checks_pass, describe, run
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

CHECKS = {
    "device_warp.cu": 17,
    "device_atomics.cu": 15,
    "device_groups.cu": 11,
    "device_numerics.cu": 9,
    "host_math.cu": 16,
    "device_wmma.cu": 14,
}


@pytest.mark.parametrize("flags", [("-G",), ("-O2",)], ids=["G", "O2"])
@pytest.mark.parametrize("source", sorted(CHECKS))
def test_every_check_of_the_program_passes(build_program, source, flags):
    result = run([build_program(f"cuda/{source}", flags=flags)])
    assert_checks_pass(result, CHECKS[source])


@pytest.mark.parametrize("form", ["fast", "debug"])
def test_warp_matrix_multiplies_in_either_form(build_program, form):
    """A multiply is one meeting of the warp in both forms of its kernels."""
    result = run([build_program("cuda/device_wmma.cu", flags=("-O2",))], env={"GPUSYM_FORM": form})
    assert_checks_pass(result, CHECKS["device_wmma.cu"])


@pytest.mark.parametrize(("arch", "device"), [("sm_75", "1 70 7"), ("sm_80", "1 80 87"), ("sm_90", "1 90 7")])
def test_nv_target_keeps_the_code_of_each_passs_target(build_program, arch, device):
    result = run([build_program("cuda/nv_target.cu", flags=(f"-arch={arch}",))])
    assert result.stdout == f"device: {device} host: -1 1000\n", describe(result)


def test_nv_dispatch_target_of_more_targets_than_it_takes_is_a_compile_error(tmp_path):
    pairs = ", ".join(f"NV_PROVIDES_SM_{sm}, (return {sm};)" for sm in (90, 89, 87, 86, 80, 75, 70, 60, 50))
    source = tmp_path / "many.cu"
    source.write_text(f"#include <nv/target>\n__device__ int f() {{ NV_DISPATCH_TARGET({pairs}) return 0; }}\n")
    result = run([GPUSYM_NVCC, "-c", source, "-o", tmp_path / "many.o"], cwd=tmp_path)
    assert result.returncode != 0 and "NV_DISPATCH_TARGET: more than 8 targets" in result.stderr, describe(result)


# ---- cuRAND: references from the algorithms' definitions ----

#: cuRAND's XORWOW seeding: multiplier and mask of the seed's low word, then its high word's.
XORWOW_SEEDING = (1099087573, 0xAAD26B49, 2591861531, 0xF7DCEFDD)
MRG_NORM = 2.3283065498378288e-10  # 1 / m1, as a double


@pytest.fixture(scope="module")
def jumps():
    return XorwowJumps(67 + 64)


def xorwow(jumps, seed: int, subsequence: int, offset: int, count: int) -> list[int]:
    """cuRAND's XORWOW: its seeding, 2^67 steps per subsequence, 1 per offset."""
    return xorwow_outputs(jumps, XORWOW_SEEDING, seed, subsequence, offset, count)


def mrg32k3a_z(seed: int, steps: int, count: int) -> list[int]:
    """MRG32k3a's outputs z after cuRAND's seeding (12345 the multiplier;
    seed 0: every word 12345) and `steps` steps."""
    state = mrg32k3a_seeding(seed, 12345) if seed else ([12345] * 3, [12345] * 3)
    return mrg32k3a_outputs(state, steps, count)


def mrg32k3a(seed: int, subsequence: int, offset: int, count: int, sequence: int = 0) -> list[int]:
    """cuRAND's curand() of MRG32k3a: subsequences 2^76 steps apart,
    sequences 2^127; the output scaled by 1.000000048662 and truncated."""
    steps = (sequence << 127) + (subsequence << 76) + offset
    return [int(z * 1.000000048662) for z in mrg32k3a_z(seed, steps, count)]


def uniform(x: int) -> float:
    return float_uniform(x, f32(UNIT32 / 2))


def uniform_double(x: int, y: int) -> float:
    return (x ^ (y << 21)) * 2.0**-53 + 2.0**-54


def normals(x: int, y: int) -> list[float]:
    return box_muller(uniform(x), (y + 0.5) * 2.0**-32 * 2 * math.pi)


def normals_double(x0: int, x1: int, y0: int, y1: int) -> list[float]:
    return box_muller(uniform_double(x0, x1), math.pi * ((y0 ^ (y1 << 21)) * 2.0**-52 + 2.0**-53))


def mrg_normals(z0: int, z1: int) -> list[float]:
    """MRG32k3a's float Box-Muller on two float uniforms."""
    return box_muller(f32(z0 * MRG_NORM), f32(f32(z1 * MRG_NORM) * f32(2 * math.pi)))


def mrg_normals_double(z0: int, z1: int) -> list[float]:
    return box_muller(z0 * MRG_NORM, math.pi * (z1 * MRG_NORM * 2))


def log_normals(pair: list[float], mean: float, stddev: float) -> list[float]:
    return [math.exp(mean + stddev * n) for n in pair]


def expected_reals(name: str, seed: int, subsequence: int, jumps) -> list[float]:
    """What the program's `reals` kernel returns: two of each of uniform,
    uniform_double, normal, normal_double, log_normal(0.5, 0.25),
    log_normal_double(-1, 2), then normal2 and normal2_double."""
    if name == "mrg32k3a":
        z = mrg32k3a_z(seed, subsequence << 76, 16)
        want = [f32(z[0] * MRG_NORM), f32(z[1] * MRG_NORM), z[2] * MRG_NORM, z[3] * MRG_NORM]
        want += mrg_normals(z[4], z[5]) + mrg_normals_double(z[6], z[7])
        want += log_normals(mrg_normals(z[8], z[9]), 0.5, 0.25) + log_normals(mrg_normals_double(z[10], z[11]), -1, 2)
        return want + mrg_normals(z[12], z[13]) + mrg_normals_double(z[14], z[15])
    bits = xorwow(jumps, seed, subsequence, 0, 24) if name == "xorwow" else philox(seed, subsequence, 0, 24)
    want = [uniform(bits[0]), uniform(bits[1])]
    if name == "philox":  # one output for each double, (x + 1) 2^-32
        want += [(bits[2] + 1) * 2.0**-32, (bits[3] + 1) * 2.0**-32]
        bits = bits[:4] + bits[2:]  # the later draws start two outputs sooner
    else:
        want += [uniform_double(bits[2], bits[3]), uniform_double(bits[4], bits[5])]
    want += normals(bits[6], bits[7]) + normals_double(*bits[8:12])
    want += log_normals(normals(bits[12], bits[13]), 0.5, 0.25) + log_normals(normals_double(*bits[14:18]), -1, 2)
    return want + normals(bits[18], bits[19]) + normals_double(*bits[20:24])


@pytest.fixture(scope="module")
def sequences(build_program):
    result = run([build_program("cuda/curand_sequences.cu", flags=("-O2",))])
    assert result.returncode == 0, describe(result)
    return result.stdout.splitlines()


def test_curand_bits_follow_the_algorithms(sequences, jumps):
    compared = 0
    for line in sequences:
        name, *fields = line.split()
        if len(fields) < 4 or fields[3] != "curand":
            continue
        seed, subsequence, offset = map(int, fields[:3])
        got = list(map(int, fields[4:]))
        reference = {"xorwow": lambda *a: xorwow(jumps, *a), "philox": philox, "mrg32k3a": mrg32k3a}[name]
        want = reference(seed, subsequence, offset, len(got))
        assert got == want, (line, want)
        compared += 1
    assert compared == 24


def test_curand_distributions_follow_the_algorithms(sequences, jumps):
    compared = 0
    for fields in (line.split() for line in sequences if " reals " in line):
        name, seed, subsequence = fields[0], int(fields[1]), int(fields[2])
        got, want = list(map(float, fields[5:])), expected_reals(name, seed, subsequence, jumps)
        assert got[:4] == want[:4], (name, got, want)  # uniforms: exact
        assert got[4:] == pytest.approx(want[4:], rel=1e-5, abs=1e-6), (name, got, want)
        compared += 1
    assert compared == 4


def test_curand_mrg32k3a_jumps_match_single_steps():
    """The reference's jump by matrix powers agrees with stepping one by one."""
    for seed in (0, 1234, 0xFEDCBA9876543210):
        stepped = mrg32k3a_z(seed, 0, 1000 + 8)
        assert mrg32k3a_z(seed, 1000, 8) == stepped[1000:], seed
        assert mrg32k3a_z(seed, 1, 4) == stepped[1:5], seed
    # L'Ecuyer's first value from the default state (all 12345), as z / (m1 + 1).
    assert mrg32k3a_z(0, 0, 1)[0] / (M1 + 1) == pytest.approx(0.1270111220, abs=1e-10)


def test_curand_mrg32k3a_skips(sequences):
    compared = 0
    for fields in (line.split() for line in sequences if line.startswith("mrgskips ")):
        seed, sequence, subsequence, steps = map(int, fields[1:5])
        got = list(map(int, fields[5:]))
        assert got == mrg32k3a(seed, subsequence, steps, len(got), sequence=sequence), fields
        compared += 1
    assert compared == 4


def test_curand_sobol_follows_the_gray_code(sequences):
    vectors32 = [1 << (31 - k) for k in range(32)]
    vectors64 = [((k % 3 + 1) << (63 - k)) & ((1 << 64) - 1) for k in range(64)]

    lines = [line.split() for line in sequences if line.startswith("sobol ")]
    assert len(lines) == 3
    for fields in lines:
        offset, got = int(fields[1]), list(map(int, fields[2:]))
        want = sobol(vectors32, offset, 8) + sobol(vectors32, offset, 8, 0x12345678)
        want += sobol(vectors64, offset, 8) + sobol(vectors64, offset, 8, 0x123456789ABCDEF)
        assert got == want, (fields, want)


def test_curand_philox_vector_forms_continue_the_sequence(sequences):
    for line in (line for line in sequences if line.startswith("philox4 ")):
        fields = line.split()
        seed, skip = int(fields[1]), int(fields[2])
        bits = philox(seed, 0, skip, 12)
        assert list(map(int, fields[3:7])) == bits[:4], line
        reals = list(map(float, fields[7:]))
        assert [f32(x) for x in reals[:4]] == [uniform(x) for x in bits[4:8]], line
        want = normals(bits[8], bits[9]) + normals(bits[10], bits[11])
        assert reals[4:] == pytest.approx(want, rel=1e-5, abs=1e-6), line


def test_curand_each_lane_gets_its_subsequence(sequences, jumps):
    references = {
        "lanes ": lambda lane: xorwow(jumps, 1234, lane, 0, 1),
        "mrglanes ": lambda lane: mrg32k3a(1234, lane, 0, 1),
    }
    for prefix, reference in references.items():
        firsts = list(map(int, next(line for line in sequences if line.startswith(prefix)).split()[2:]))
        assert len(firsts) == 96
        for lane in (0, 1, 2, 31, 32, 95):
            assert firsts[lane] == reference(lane)[0], (prefix, lane)


def test_curand_poisson_and_log_normal_means(sequences):
    """Means over 32 x 1000 draws (deterministic seeds) for each generator."""
    means = {}
    for fields in (line.split() for line in sequences if line.startswith("moments ")):
        means[fields[1], float(fields[2])] = (float(fields[3]), float(fields[4]))
    assert {name for name, _ in means} == {"xorwow", "philox", "mrg32k3a"}
    for (name, lambda_), (poisson, log_normal) in means.items():
        # Poisson: the mean's standard error is sqrt(lambda / 32000).
        assert poisson == pytest.approx(lambda_, abs=5 * math.sqrt(lambda_ / 32000)), name
        assert log_normal == pytest.approx(math.exp(0.125), abs=0.015), name  # e^(sigma^2 / 2)
