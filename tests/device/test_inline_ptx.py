"""Inline PTX in CUDA device code, translated to IR by the inline_ptx pass:
each family of instructions (CUB's warp scan step, shuffles and votes in
partial and divergent warps, special registers, integer and float
arithmetic, conversions, bit fields, video instructions, vector loads and
stores, atomics, barriers, exit) against the same computation in plain CUDA
C++ (tests/programs/inline_ptx.cu), at -O0 and -O2 and with relocatable
device code, in both kernel forms; a vector load or store one access of the
whole, as a GPU makes it;
PTX's own constraint letters (h, f, l, d), which clang rejects for x86-64
and AMDGPU until the build rewrites them; and an instruction the simulated
device does not have (or a rounding mode it cannot honour), reported as one
error at its asm statement."""

from __future__ import annotations

import json
import re

import pytest
from conftest import BUILD_TIMEOUT, GPUSYM, GPUSYM_NVCC, TEST_PROGRAMS, describe, run
from elf_oracles import unbundle

pytestmark = [pytest.mark.toolchain]

FAMILIES = (
    "shfl",
    "vote",
    "special registers",
    "integer arithmetic",
    "bit fields",
    "floats and cvt",
    "memory",
    "exit",
)


@pytest.fixture(scope="module", params=["-O0", "-O2", "-rdc=true"])
def program(request, tmp_path_factory):
    target = tmp_path_factory.mktemp("inline-ptx") / "inline_ptx"
    result = run([GPUSYM_NVCC, request.param, TEST_PROGRAMS / "inline_ptx.cu", "-o", target], timeout=BUILD_TIMEOUT)
    assert result.returncode == 0, describe(result)
    return target


@pytest.mark.parametrize("form", ["fast", "debug"])
def test_every_family_matches_plain_cuda(program, form):
    result = run([program], env={"GPUSYM_FORM": form})
    verdicts = dict(re.findall(r"^inline_ptx: (.+?): (PASS|mismatch.*)$", result.stdout, re.M))
    assert set(verdicts) == set(FAMILIES), describe(result)
    failing = {family: verdict for family, verdict in verdicts.items() if verdict != "PASS"}
    assert not failing and result.returncode == 0, (failing, describe(result))


CONSTRAINTS = r"""
#include <cstdio>
__global__ void kernel(float *f, double *d, unsigned long long *l, unsigned short *h) {
  float doubled;
  asm("add.f32 %0, %1, %1;" : "=f"(doubled) : "f"(f[0]));
  f[1] = doubled;
  double squared;
  asm("mul.f64 %0, %1, %1;" : "=d"(squared) : "d"(d[0]));
  d[1] = squared;
  unsigned long long shifted;
  asm("shl.b64 %0, %1, 36;" : "=l"(shifted) : "l"(l[0]));
  l[1] = shifted;
  unsigned short next, half;
  asm("add.u16 %0, %1, 1;" : "=h"(next) : "h"(h[0]));
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(half) : "f"(f[0]));
  h[1] = next;
  h[2] = half;
  unsigned long long timer;  // one %, as nvcc takes it
  asm volatile("mov.u64 %0, %globaltimer;" : "=l"(timer));
  l[2] = timer != 0;
}
int main() {
  float *f; double *d; unsigned long long *l; unsigned short *h;
  cudaMallocManaged(&f, 8); cudaMallocManaged(&d, 16); cudaMallocManaged(&l, 24); cudaMallocManaged(&h, 6);
  f[0] = 1.25f; d[0] = 3.0; l[0] = 0x12; h[0] = 0x1234;
  kernel<<<1, 1>>>(f, d, l, h);
  cudaDeviceSynchronize();
  printf("%g %g %llx %x %x %llu\n", f[1], d[1], l[1], h[1], h[2], l[2]);
}
"""


@pytest.mark.parametrize("level", ["-O0", "-O2", "-rdc=true"])
def test_ptx_constraint_letters_build_and_compute(tmp_path, level):
    source = tmp_path / "constraints.cu"
    source.write_text(CONSTRAINTS)
    built = run([GPUSYM_NVCC, level, source, "-o", tmp_path / "constraints"], timeout=BUILD_TIMEOUT)
    assert built.returncode == 0, describe(built)
    result = run([tmp_path / "constraints"])
    # 1.25 doubled, 3 squared, 0x12 << 36, 0x1234 + 1, 1.25 as a half (0x3d00), a timer running.
    assert result.stdout.split() == ["2.5", "9", "12000000000", "1235", "3d00", "1"], describe(result)
    # The kernel is in the AMDGPU code object too, which the rewritten source was compiled into.
    query = run([GPUSYM, "query", tmp_path / "constraints"])
    (kernel,) = json.loads(query.stdout)["binaries"][0]["kernels"]
    assert sorted(place["target"] for place in kernel["device"]) == ["gfx1030", "gpusym"], query.stdout


UNSUPPORTED = "inline PTX instruction '{}' is not supported on the simulated device"


@pytest.mark.parametrize(
    ("statement", "message"),
    [
        ('asm volatile("foo.b32 %0, %0;" : "+r"(x));', UNSUPPORTED.format("foo.b32")),
        ('asm volatile("bra LBL; LBL:");', UNSUPPORTED.format("bra")),
        ('asm volatile("foo.b16 %0, %0;" : "+h"(x));', UNSUPPORTED.format("foo.b16")),
        # Directed rounding is refused, not rounded to nearest.
        (
            'asm volatile("mul.rz.f32 %0, %0, %0;" : "+f"(x));',
            "inline PTX rounding mode '.rz' of 'mul.rz.f32' is not supported on the simulated device",
        ),
    ],
    ids=["made-up", "branch", "ptx-constraint", "rounding-mode"],
)
def test_an_unsupported_instruction_is_one_error_at_its_line(tmp_path, statement, message):
    source = tmp_path / "unsupported.cu"
    source.write_text(
        "__global__ void kernel(int *out) {\n"
        "  int x = *out;\n"
        f"  {statement}\n"
        "  *out = x;\n"
        "}\n"
        "int main() { kernel<<<1, 1>>>(nullptr); }\n"
    )
    result = run([GPUSYM_NVCC, source, "-o", tmp_path / "unsupported"], timeout=BUILD_TIMEOUT)
    errors = [line for line in result.stderr.splitlines() if "error:" in line]
    assert result.returncode != 0, describe(result)
    assert errors == [f"{source}:3:{statement.index('(') + 4}: error: {message}"], describe(result)
    assert "Traceback" not in result.stderr, describe(result)


VECTORS = """
__global__ void publish(unsigned* slot, unsigned a, unsigned b) {
  asm volatile("st.global.cg.v4.u32 [%0], {%1, %2, %3, %4};"
               :: "l"(slot), "r"(a), "r"(b), "r"(a + 1), "r"(b + 1) : "memory");
}

__global__ void peek(const unsigned* slot, unsigned* out) {
  unsigned w, x, y, z;
  asm volatile("ld.global.cg.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(w), "=r"(x), "=r"(y), "=r"(z) : "l"(slot) : "memory");
  out[0] = w + x + y + z;
}
"""


@pytest.mark.parametrize("level", ["-O0", "-O2"])
def test_a_vector_load_or_store_is_one_access_of_the_whole(tmp_path, level):
    # CUB's decoupled look-back packs a tile's status and value in one
    # 16-byte word: a reader in another block must never see the status
    # stored without its value (thrust::reduce_by_key lost a tile's sum).
    source = tmp_path / "vectors.cu"
    source.write_text(VECTORS)
    module = tmp_path / "vectors.cubin"
    built = run([GPUSYM_NVCC, level, "-cubin", source, "-o", module], timeout=BUILD_TIMEOUT)
    assert built.returncode == 0, describe(built)
    image = tmp_path / "sim.so"
    unpacked = unbundle(module, "hipv4-x86_64-unknown-linux-gnu-gpusym", image)
    assert unpacked.returncode == 0, unpacked.stderr
    listing = run(["llvm-objdump-19", "-d", "--no-show-raw-insn", image]).stdout
    bodies = dict(re.findall(r"^[0-9a-f]+ <(\w+)>:\n(.*?)(?=\n\n|\Z)", listing, re.M | re.S))
    # The slot's 16 bytes move in one SSE instruction, never 4 bytes at a time.
    whole = r"\tmov(?:dq[au]|ap[sd]|up[sd])\t"
    assert re.search(whole + r"%xmm\d+, (?:-?0x[0-9a-f]+)?\(%r", bodies["_Z7publishPjjj"]), bodies["_Z7publishPjjj"]
    assert re.search(whole + r"(?:-?0x[0-9a-f]+)?\(%r\w+\), %xmm", bodies["_Z4peekPKjPj"]), bodies["_Z4peekPKjPj"]
    for name in ("_Z7publishPjjj", "_Z4peekPKjPj"):
        assert not re.search(r"\tmovl\t%\w+, (?:0x[0-9a-f]+)?\(%rdi\)", bodies[name]), bodies[name]
