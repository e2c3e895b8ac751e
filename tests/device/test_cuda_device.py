"""CUDA's device language on the simulated device, compiled by gpusym-nvcc:
the warp functions with 32-bit masks, block votes and warp-synchronous code
(tests/programs/cuda/device_warp.cu), atomics and cache-hinted memory access
(device_atomics.cu), cooperative groups with reduce and scans
(device_groups.cu), math, intrinsics and the half types (device_numerics.cu),
each at -O0 and -O2; and cuRAND's device generators against references
computed here from the algorithms' definitions (curand_sequences.cu)."""

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
    "device_groups.cu": 9,
    "device_numerics.cu": 8,
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
        want = (
            xorwow(jumps, seed, subsequence, offset, len(got))
            if name == "xorwow"
            else philox(seed, subsequence, offset, len(got))
        )
        assert got == want, (line, want)
        compared += 1
    assert compared == 16


def test_curand_distributions_follow_the_algorithms(sequences, jumps):
    lines = {line.split()[0]: line.split() for line in sequences if " reals " in line}
    for name, bits in (("xorwow", xorwow(jumps, 1234, 0, 0, 16)), ("philox", philox(1234, 0, 0, 16))):
        got = list(map(float, lines[name][5:]))
        want = [uniform(bits[0]), uniform(bits[1]), uniform_double(bits[2], bits[3]), uniform_double(bits[4], bits[5])]
        want += list(normals(bits[6], bits[7])) + list(normals_double(*bits[8:12]))[:1]
        want += [normals_double(*bits[8:12])[1]]
        assert got[:4] == want[:4], (name, got, want)  # uniforms: exact
        assert got[4:] == pytest.approx(want[4:], rel=1e-5, abs=1e-6), (name, got, want)


def test_philox_vector_forms_continue_the_sequence(sequences):
    for line in (line for line in sequences if line.startswith("philox4 ")):
        fields = line.split()
        seed, skip = int(fields[1]), int(fields[2])
        bits = philox(seed, 0, skip, 12)
        assert list(map(int, fields[3:7])) == bits[:4], line
        reals = list(map(float, fields[7:]))
        assert [f32(x) for x in reals[:4]] == [uniform(x) for x in bits[4:8]], line
        want = list(normals(bits[8], bits[9])) + list(normals(bits[10], bits[11]))
        assert reals[4:] == pytest.approx(want, rel=1e-5, abs=1e-6), line


def test_each_lane_gets_its_subsequence(sequences, jumps):
    firsts = list(map(int, next(line for line in sequences if line.startswith("lanes ")).split()[2:]))
    assert len(firsts) == 96
    for lane in (0, 1, 2, 31, 32, 95):
        assert firsts[lane] == xorwow(jumps, 1234, lane, 0, 1)[0], lane


def test_poisson_and_log_normal_means(sequences):
    means = {float(f[1]): (float(f[2]), float(f[3])) for f in (line.split() for line in sequences) if f[0] == "moments"}
    assert means[4.0][0] == pytest.approx(4.0, abs=0.05)
    assert means[100.0][0] == pytest.approx(100.0, abs=0.3)
    for _, log_normal in means.values():
        assert log_normal == pytest.approx(math.exp(0.125), abs=0.01)  # e^(sigma^2 / 2)
