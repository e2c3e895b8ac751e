"""CUDA's device language on the simulated device, compiled by gpusym-nvcc:
the warp functions with 32-bit masks, block votes and warp-synchronous code
(tests/programs/cuda/device_warp.cu), atomics and cache-hinted memory access
(device_atomics.cu), cooperative groups with reduce and scans
(device_groups.cu), math, intrinsics and the half types (device_numerics.cu),
the math functions CUDA gives host code too (host_math.cu), each at -O0 and
-O2; and cuRAND's device generators (XORWOW, Philox,
MRG32k3a, Sobol) against references computed here from the algorithms'
definitions (curand_sequences.cu)."""

from __future__ import annotations

import math
import re
import struct

import pytest
from conftest import describe, run

pytestmark = [pytest.mark.toolchain]

CHECKS = {
    "device_warp.cu": 17,
    "device_atomics.cu": 14,
    "device_groups.cu": 11,
    "device_numerics.cu": 8,
    "host_math.cu": 16,
}


@pytest.mark.parametrize("flags", [("-O0",), ("-O2",)], ids=["O0", "O2"])
@pytest.mark.parametrize("source", sorted(CHECKS))
def test_every_check_of_the_program_passes(build_program, source, flags):
    result = run([build_program(f"cuda/{source}", flags=flags)])
    lines = re.findall(r"^(.+): (ok|FAIL.*)$", result.stdout, re.M)
    failing = [name for name, verdict in lines if verdict != "ok"]
    assert len(lines) == CHECKS[source] and not failing, (failing, describe(result))
    assert result.returncode == 0, describe(result)


# ---- cuRAND: references from the algorithms' definitions ----

MASK32 = 0xFFFFFFFF


def xorwow_step(v: list[int]) -> list[int]:
    """Marsaglia's xorwow step on the five words (d is kept apart)."""
    t = v[0] ^ (v[0] >> 2)
    return [v[1], v[2], v[3], v[4], (v[4] ^ (v[4] << 4) ^ t ^ (t << 1)) & MASK32]


def as_bits(v: list[int]) -> int:
    return sum(word << (32 * i) for i, word in enumerate(v))


def as_words(bits: int) -> list[int]:
    return [(bits >> (32 * i)) & MASK32 for i in range(5)]


class XorwowJumps:
    """M^(2^k), M the step's 160x160 matrix over GF(2), as columns (ints)."""

    def __init__(self, count: int):
        columns = [as_bits(xorwow_step(as_words(1 << j))) for j in range(160)]
        self.powers = []
        for _ in range(count):
            self.powers.append(columns)
            columns = [self.apply(columns, column) for column in columns]

    @staticmethod
    def apply(columns: list[int], bits: int) -> int:
        result = 0
        while bits:
            low = bits & -bits
            result ^= columns[low.bit_length() - 1]
            bits ^= low
        return result

    def skip(self, v: list[int], steps: int) -> list[int]:
        bits, k = as_bits(v), 0
        while steps:
            if steps & 1:
                bits = self.apply(self.powers[k], bits)
            steps >>= 1
            k += 1
        return as_words(bits)


@pytest.fixture(scope="module")
def jumps():
    return XorwowJumps(67 + 64)


def xorwow(jumps, seed: int, subsequence: int, offset: int, count: int) -> list[int]:
    """cuRAND's XORWOW: its seeding, 2^67 steps per subsequence, 1 per offset."""
    t0 = (1099087573 * ((seed & MASK32) ^ 0xAAD26B49)) & MASK32
    t1 = (2591861531 * ((seed >> 32) ^ 0xF7DCEFDD)) & MASK32
    d = (6615241 + t1 + t0) & MASK32
    v = [(123456789 + t0) & MASK32, 362436069 ^ t0, (521288629 + t1) & MASK32, 88675123 ^ t1, (5783321 + t0) & MASK32]
    v = jumps.skip(v, subsequence << 67)
    v = jumps.skip(v, offset)
    d = (d + 362437 * offset) & MASK32
    out = []
    for _ in range(count):
        v = xorwow_step(v)
        d = (d + 362437) & MASK32
        out.append((v[4] + d) & MASK32)
    return out


def philox_block(counter: int, key: int) -> list[int]:
    """Philox4x32-10 (Salmon et al.) of a 128-bit counter and 64-bit key."""
    c = [(counter >> (32 * i)) & MASK32 for i in range(4)]
    k = [key & MASK32, key >> 32]
    for round_ in range(10):
        if round_:
            k = [(k[0] + 0x9E3779B9) & MASK32, (k[1] + 0xBB67AE85) & MASK32]
        p0, p1 = 0xD2511F53 * c[0], 0xCD9E8D57 * c[2]
        c = [(p1 >> 32) ^ c[1] ^ k[0], p1 & MASK32, (p0 >> 32) ^ c[3] ^ k[1], p0 & MASK32]
    return c


def philox(seed: int, subsequence: int, offset: int, count: int) -> list[int]:
    """cuRAND's Philox4x32-10: key = seed, counter = (offset / 4, subsequence)."""
    out, position = [], offset
    while len(out) < count:
        block = philox_block(((subsequence << 64) + position // 4) % (1 << 128), seed)
        out.append(block[position % 4])
        position += 1
    return out


M1, M2 = 4294967087, 4294944443
MRG_STEPS = (((0, 1, 0), (0, 0, 1), (-810728 % M1, 1403580, 0)), ((0, 1, 0), (0, 0, 1), (-1370589 % M2, 0, 527612)))
MRG_NORM = 2.3283065498378288e-10  # 1 / m1, as a double


def mat_mul(a, b, m: int):
    return tuple(tuple(sum(a[i][k] * b[k][j] for k in range(3)) % m for j in range(3)) for i in range(3))


def mat_pow(a, n: int, m: int):
    result = ((1, 0, 0), (0, 1, 0), (0, 0, 1))
    while n:
        if n & 1:
            result = mat_mul(result, a, m)
        a, n = mat_mul(a, a, m), n >> 1
    return result


def mrg32k3a_outputs(seed: int, steps: int, count: int) -> list[int]:
    """L'Ecuyer's MRG32k3a after cuRAND's seeding and `steps` steps (a jump by
    the matrices' powers): its combined outputs z, in [1, m1]."""
    s1, s2 = [12345] * 3, [12345] * 3
    if seed:
        a, b = (seed & MASK32) ^ 0x55555555, (seed >> 32) ^ 0xAAAAAAAA
        s1 = [12345 * a % M1, 12345 * b % M1, 12345 * a % M1]
        s2 = [12345 * b % M2, 12345 * a % M2, 12345 * b % M2]
    states = []
    for state, step, m in ((s1, MRG_STEPS[0], M1), (s2, MRG_STEPS[1], M2)):
        jump = mat_pow(step, steps, m)
        states.append([sum(jump[i][k] * state[k] for k in range(3)) % m for i in range(3)])
    s1, s2 = states
    out = []
    for _ in range(count):
        p1 = (1403580 * s1[1] - 810728 * s1[0]) % M1
        p2 = (527612 * s2[2] - 1370589 * s2[0]) % M2
        s1, s2 = [s1[1], s1[2], p1], [s2[1], s2[2], p2]
        out.append(p1 - p2 if p1 > p2 else p1 - p2 + M1)
    return out


def mrg32k3a(seed: int, subsequence: int, offset: int, count: int, sequence: int = 0) -> list[int]:
    """cuRAND's curand() of MRG32k3a: subsequences 2^76 steps apart,
    sequences 2^127; the output scaled by 1.000000048662 and truncated."""
    steps = (sequence << 127) + (subsequence << 76) + offset
    return [int(z * 1.000000048662) for z in mrg32k3a_outputs(seed, steps, count)]


def f32(value: float) -> float:
    return struct.unpack("f", struct.pack("f", value))[0]


def uniform(x: int) -> float:
    return f32(f32(f32(x) * f32(2.3283064e-10)) + f32(f32(2.3283064e-10) / 2))


def uniform_double(x: int, y: int) -> float:
    return (x ^ (y << 21)) * 2.0**-53 + 2.0**-54


def normals(x: int, y: int) -> tuple[float, float]:
    u, v = uniform(x), (y + 0.5) * 2.0**-32 * 2 * math.pi
    s = math.sqrt(-2 * math.log(u))
    return s * math.sin(v), s * math.cos(v)


def normals_double(x0: int, x1: int, y0: int, y1: int) -> tuple[float, float]:
    u = uniform_double(x0, x1)
    v = (y0 ^ (y1 << 21)) * 2.0**-52 + 2.0**-53
    s = math.sqrt(-2 * math.log(u))
    return s * math.sin(math.pi * v), s * math.cos(math.pi * v)


def mrg_normals(z0: int, z1: int) -> tuple[float, float]:
    """MRG32k3a's float Box-Muller on two float uniforms."""
    u, v = f32(z0 * MRG_NORM), f32(f32(z1 * MRG_NORM) * f32(2 * math.pi))
    s = math.sqrt(-2 * math.log(u))
    return s * math.sin(v), s * math.cos(v)


def mrg_normals_double(z0: int, z1: int) -> tuple[float, float]:
    u, v = z0 * MRG_NORM, z1 * MRG_NORM * 2
    s = math.sqrt(-2 * math.log(u))
    return s * math.sin(math.pi * v), s * math.cos(math.pi * v)


def log_normals(pair: tuple[float, float], mean: float, stddev: float) -> list[float]:
    return [math.exp(mean + stddev * n) for n in pair]


def expected_reals(name: str, seed: int, subsequence: int, jumps) -> list[float]:
    """What the program's `reals` kernel returns: two of each of uniform,
    uniform_double, normal, normal_double, log_normal(0.5, 0.25),
    log_normal_double(-1, 2), then normal2 and normal2_double."""
    if name == "mrg32k3a":
        z = mrg32k3a_outputs(seed, subsequence << 76, 16)
        want = [f32(z[0] * MRG_NORM), f32(z[1] * MRG_NORM), z[2] * MRG_NORM, z[3] * MRG_NORM]
        want += list(mrg_normals(z[4], z[5])) + list(mrg_normals_double(z[6], z[7]))
        want += log_normals(mrg_normals(z[8], z[9]), 0.5, 0.25) + log_normals(mrg_normals_double(z[10], z[11]), -1, 2)
        return want + list(mrg_normals(z[12], z[13])) + list(mrg_normals_double(z[14], z[15]))
    bits = xorwow(jumps, seed, subsequence, 0, 24) if name == "xorwow" else philox(seed, subsequence, 0, 24)
    want = [uniform(bits[0]), uniform(bits[1]), uniform_double(bits[2], bits[3]), uniform_double(bits[4], bits[5])]
    want += list(normals(bits[6], bits[7])) + list(normals_double(*bits[8:12]))
    want += log_normals(normals(bits[12], bits[13]), 0.5, 0.25) + log_normals(normals_double(*bits[14:18]), -1, 2)
    return want + list(normals(bits[18], bits[19])) + list(normals_double(*bits[20:24]))


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
        stepped = mrg32k3a_outputs(seed, 0, 1000 + 8)
        assert mrg32k3a_outputs(seed, 1000, 8) == stepped[1000:], seed
        assert mrg32k3a_outputs(seed, 1, 4) == stepped[1:5], seed
    # L'Ecuyer's first value from the default state (all 12345), as z / (m1 + 1).
    assert mrg32k3a_outputs(0, 0, 1)[0] / (M1 + 1) == pytest.approx(0.1270111220, abs=1e-10)


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

    def sobol(vectors, scramble, offset, count):
        out = []
        for n in range(offset, offset + count):
            value, gray = scramble, n ^ (n >> 1)
            for k, vector in enumerate(vectors):
                if gray >> k & 1:
                    value ^= vector
            out.append(value)
        return out

    lines = [line.split() for line in sequences if line.startswith("sobol ")]
    assert len(lines) == 3
    for fields in lines:
        offset, got = int(fields[1]), list(map(int, fields[2:]))
        want = sobol(vectors32, 0, offset, 8) + sobol(vectors32, 0x12345678, offset, 8)
        want += sobol(vectors64, 0, offset, 8) + sobol(vectors64, 0x123456789ABCDEF, offset, 8)
        assert got == want, (fields, want)


def test_curand_philox_vector_forms_continue_the_sequence(sequences):
    for line in (line for line in sequences if line.startswith("philox4 ")):
        fields = line.split()
        seed, skip = int(fields[1]), int(fields[2])
        bits = philox(seed, 0, skip, 12)
        assert list(map(int, fields[3:7])) == bits[:4], line
        reals = list(map(float, fields[7:]))
        assert [f32(x) for x in reals[:4]] == [uniform(x) for x in bits[4:8]], line
        want = list(normals(bits[8], bits[9])) + list(normals(bits[10], bits[11]))
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
