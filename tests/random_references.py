"""Reference sequences of the random-number algorithms that cuRAND and
rocRAND (hipRAND) implement, computed from their published definitions:
Marsaglia's XORWOW with jumps by powers of its matrix over GF(2),
Philox4x32-10, L'Ecuyer's MRG32k3a with jumps by its matrices' powers, and
Sobol's Gray-code sequence; with the float rounding and the Box-Muller
transform their conversions share. What the libraries do differently (the
seeding constants, the conversions to reals) is passed in by the tests."""

from __future__ import annotations

import math
import struct

MASK32 = 0xFFFFFFFF


def f32(value: float) -> float:
    """`value` rounded to a float."""
    return struct.unpack("f", struct.pack("f", value))[0]


# ---- XORWOW ----


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
        bits = as_bits(v)
        for k in range(steps.bit_length()):
            if (steps >> k) & 1:
                bits = self.apply(self.powers[k], bits)
        return as_words(bits)


def xorwow_outputs(
    jumps: XorwowJumps, seeding: tuple[int, int, int, int], seed: int, subsequence: int, offset: int, count: int
) -> list[int]:
    """XORWOW seeded as both libraries do, with their own constants
    `seeding` (multiplier and mask of the seed's low word, then of its high
    word); 2^67 steps a subsequence, 1 an offset."""
    low_multiplier, low_mask, high_multiplier, high_mask = seeding
    t0 = (low_multiplier * ((seed & MASK32) ^ low_mask)) & MASK32
    t1 = (high_multiplier * ((seed >> 32) ^ high_mask)) & MASK32
    d = (6615241 + t1 + t0) & MASK32
    v = [(123456789 + t0) & MASK32, 362436069 ^ t0, (521288629 + t1) & MASK32, 88675123 ^ t1, (5783321 + t0) & MASK32]
    v = jumps.skip(v, (subsequence << 67) + offset)
    d = (d + 362437 * offset) & MASK32
    out = []
    for _ in range(count):
        v = xorwow_step(v)
        d = (d + 362437) & MASK32
        out.append((v[4] + d) & MASK32)
    return out


# ---- Philox4x32-10 ----


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
    """Philox4x32-10 as both libraries seed it: key = seed, counter =
    (offset / 4, subsequence)."""
    out = []
    for position in range(offset, offset + count):
        counter = ((subsequence << 64) + position // 4) % (1 << 128)
        out.append(philox_block(counter, seed)[position % 4])
    return out


# ---- MRG32k3a ----

M1, M2 = 4294967087, 4294944443
MRG_STEPS = (((0, 1, 0), (0, 0, 1), (-810728 % M1, 1403580, 0)), ((0, 1, 0), (0, 0, 1), (-1370589 % M2, 0, 527612)))


def mat_mul(a, b, m: int):
    return tuple(tuple(sum(a[i][k] * b[k][j] for k in range(3)) % m for j in range(3)) for i in range(3))


def mat_pow(a, n: int, m: int):
    result = ((1, 0, 0), (0, 1, 0), (0, 0, 1))
    while n:
        if n & 1:
            result = mat_mul(result, a, m)
        a, n = mat_mul(a, a, m), n >> 1
    return result


def mrg32k3a_seeding(seed: int, multiplier: int) -> tuple[list[int], list[int]]:
    """The two components' states as both libraries seed them: the seed's
    halves, scrambled, times `multiplier` (modulo m1, m2)."""
    a, b = (seed & MASK32) ^ 0x55555555, (seed >> 32) ^ 0xAAAAAAAA
    return (
        [a * multiplier % M1, b * multiplier % M1, a * multiplier % M1],
        [b * multiplier % M2, a * multiplier % M2, b * multiplier % M2],
    )


def mrg32k3a_outputs(state: tuple[list[int], list[int]], steps: int, count: int) -> list[int]:
    """L'Ecuyer's MRG32k3a from `state` after `steps` steps (a jump by the
    matrices' powers): its combined outputs z, in [1, m1]."""
    states = []
    for words, step, m in zip(state, MRG_STEPS, (M1, M2)):
        jump = mat_pow(step, steps, m)
        states.append([sum(jump[i][k] * words[k] for k in range(3)) % m for i in range(3)])
    s1, s2 = states
    out = []
    for _ in range(count):
        p1 = (1403580 * s1[1] - 810728 * s1[0]) % M1
        p2 = (527612 * s2[2] - 1370589 * s2[0]) % M2
        s1, s2 = [s1[1], s1[2], p1], [s2[1], s2[2], p2]
        out.append(p1 - p2 if p1 > p2 else p1 - p2 + M1)
    return out


# ---- Sobol ----


def sobol(vectors: list[int], first: int, count: int, scramble: int = 0) -> list[int]:
    """Sobol's points `first`... of one dimension's direction `vectors`, by
    the Gray code, XORed with `scramble`."""
    out = []
    for n in range(first, first + count):
        value, gray = scramble, n ^ (n >> 1)
        for k, vector in enumerate(vectors):
            if gray >> k & 1:
                value ^= vector
        out.append(value)
    return out


# ---- conversions ----

#: 2^-32 as both libraries write it, rounded to a float.
UNIT32 = f32(2.3283064e-10)


def float_uniform(x: int, offset: float) -> float:
    """32 bits to a float uniform, in float arithmetic: x * 2^-32 + `offset`."""
    return f32(f32(f32(x) * UNIT32) + offset)


def box_muller(u: float, angle: float) -> list[float]:
    """Two normals of a uniform `u` in (0, 1] and an angle in radians."""
    s = math.sqrt(-2 * math.log(u))
    return [s * math.sin(angle), s * math.cos(angle)]
