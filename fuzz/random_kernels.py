"""Random kernels for differential testing of the simulated device's two
forms of a kernel (the debuggable form, a lane per stack, and the fast form,
a block's threads as one loop): programs of kernels without barriers or
warp functions whose every result a host loop computes too.

Each kernel's body is a ``__host__ __device__`` function of the thread's
coordinates, always inlined: the kernel calls it with ``threadIdx`` and its
friends, the host reference with its loops' counters.  Bodies use unsigned
arithmetic only (no undefined behaviour an optimiser could exploit
differently in the two builds), branches, loops with data-dependent trip
counts, early returns, reads of an input array, atomic additions to
counters (order-independent) and one write per thread to its own output
slot.  Each kernel runs under several launch shapes, 1D to 3D, partial
wavefronts included.  The program prints ``CASE: ok`` or ``CASE: N wrong``
a case, then ``random kernels: C cases, W wrong``.

    python -m fuzz.random_kernels [--seconds N] [--kernels K] [--seed S]

builds and runs programs of new seeds until the time is up, each in both
forms (GPUSYM_FORM), and stops at the first difference, printing its seed
and kernel (``make fuzz`` runs it after the parsers).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: (grid, block) shapes each kernel runs under.
SHAPES = [
    ((3, 1, 1), (64, 1, 1)),
    ((2, 1, 1), (100, 1, 1)),
    ((1, 1, 1), (1, 1, 1)),
    ((2, 2, 1), (8, 4, 2)),
    ((2, 1, 3), (5, 3, 2)),
    ((1, 2, 2), (32, 2, 1)),
    ((4, 1, 1), (96, 1, 1)),
    ((1, 1, 2), (7, 1, 9)),
]
INPUT_SIZE = 257
COUNTERS = 8
COORDINATES = ["tx", "ty", "tz", "bx", "by", "bz", "nx", "ny", "nz", "gx", "gy", "gz"]
LOCALS = ["v0", "v1", "v2", "v3"]


class KernelWriter:
    """Writes random kernel bodies from one seeded generator."""

    def __init__(self, seed: int):
        self.random = random.Random(seed)
        self.leaves = COORDINATES  # the locals join once they are declared

    def expression(self, depth: int = 0) -> str:
        pick = self.random.random()
        if depth >= 3 or pick < 0.3:
            return self.random.choice([*self.leaves, f"{self.random.randrange(1, 50)}u"])
        if pick < 0.45:
            return f"in[({self.expression(depth + 1)}) % {INPUT_SIZE}u]"
        if pick < 0.55:
            return f"(({self.condition(depth + 1)}) ? {self.expression(depth + 1)} : {self.expression(depth + 1)})"
        if pick < 0.62:
            return f"(({self.expression(depth + 1)}) >> {self.random.randrange(0, 31)})"
        if pick < 0.68:
            return f"(({self.expression(depth + 1)}) / (({self.expression(depth + 1)}) | 1u))"
        if pick < 0.74:
            return f"(({self.expression(depth + 1)}) % {self.random.randrange(1, 13)}u)"
        operator = self.random.choice(["+", "-", "*", "^", "&", "|"])
        return f"({self.expression(depth + 1)} {operator} {self.expression(depth + 1)})"

    def condition(self, depth: int = 0) -> str:
        operator = self.random.choice(["<", ">", "==", "!=", "<=", ">="])
        return f"{self.expression(depth + 1)} {operator} {self.expression(depth + 1)}"

    def statements(self, depth: int, count: int) -> list[str]:
        lines: list[str] = []
        for _ in range(count):
            pick = self.random.random()
            if depth < 2 and pick < 0.15:
                lines.append(f"if ({self.condition()}) {{")
                lines += ["  " + line for line in self.statements(depth + 1, self.random.randrange(1, 4))]
                lines.append("} else {")
                lines += ["  " + line for line in self.statements(depth + 1, self.random.randrange(1, 3))]
                lines.append("}")
            elif depth < 2 and pick < 0.27:
                loop = f"k{depth}"
                lines.append(f"for (unsigned {loop} = 0; {loop} < (({self.expression()}) & 7u); {loop}++) {{")
                lines.append(f"  v{depth} += {loop};")
                lines += ["  " + line for line in self.statements(depth + 1, self.random.randrange(1, 3))]
                lines.append("}")
            elif pick < 0.35:
                lines.append(f"if ({self.condition()}) {{ out[id] = {self.expression()}; return; }}")
            elif pick < 0.45:
                lines.append(
                    f"atomic_add(&counters[({self.expression()}) % {COUNTERS}u], ({self.expression()}) & 255u);"
                )
            else:
                lines.append(f"{self.random.choice(LOCALS)} = {self.expression()};")
        return lines

    def body(self) -> list[str]:
        self.leaves = COORDINATES
        declarations = [f"unsigned {name} = {self.expression()};" for name in LOCALS]
        self.leaves = [*COORDINATES, *LOCALS, *LOCALS]
        return [
            *declarations,
            *self.statements(0, self.random.randrange(3, 8)),
            "out[id] = v0 ^ (v1 * 3u) ^ (v2 * 5u) ^ (v3 * 7u);",
        ]


PRELUDE = """\
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstring>
#include <vector>

#define COORDINATES unsigned tx, unsigned ty, unsigned tz, unsigned bx, unsigned by, unsigned bz, \\
  unsigned nx, unsigned ny, unsigned nz, unsigned gx, unsigned gy, unsigned gz
#define BODY(name) \\
  __host__ __device__ __attribute__((always_inline)) inline void name( \\
      COORDINATES, const unsigned *in, unsigned *out, unsigned *counters)

__host__ __device__ inline void atomic_add(unsigned *p, unsigned v) {
#ifdef __HIP_DEVICE_COMPILE__
  atomicAdd(p, v);
#else
  *p += v;
#endif
}

// The thread's slot in the output: blocks in order, threads in order in each.
__host__ __device__ inline unsigned slot(COORDINATES) {
  return ((bz * gy + by) * gx + bx) * (nx * ny * nz) + (tz * ny + ty) * nx + tx;
}
"""

MAIN = """\
struct Shape {
  dim3 grid, block;
};

typedef void (*Host)(COORDINATES, const unsigned *, unsigned *, unsigned *);
typedef void (*Device)(const unsigned *, unsigned *, unsigned *);

static int cases = 0, wrong_cases = 0;

static void check(const char *name, Device kernel, Host body, const Shape &shape, const unsigned *in_host,
                  const unsigned *in_device) {
  unsigned lanes = shape.grid.x * shape.grid.y * shape.grid.z * shape.block.x * shape.block.y * shape.block.z;
  std::vector<unsigned> out(lanes, 0xdeadbeefu), counters(COUNTERS, 0), expected(lanes, 0xdeadbeefu),
      expected_counters(COUNTERS, 0);
  unsigned *out_device, *counters_device;
  hipMalloc(&out_device, lanes * sizeof(unsigned));
  hipMalloc(&counters_device, COUNTERS * sizeof(unsigned));
  hipMemcpy(out_device, out.data(), lanes * sizeof(unsigned), hipMemcpyHostToDevice);
  hipMemcpy(counters_device, counters.data(), COUNTERS * sizeof(unsigned), hipMemcpyHostToDevice);
  hipLaunchKernelGGL(kernel, shape.grid, shape.block, 0, 0, in_device, out_device, counters_device);
  hipMemcpy(out.data(), out_device, lanes * sizeof(unsigned), hipMemcpyDeviceToHost);
  hipMemcpy(counters.data(), counters_device, COUNTERS * sizeof(unsigned), hipMemcpyDeviceToHost);
  hipFree(out_device);
  hipFree(counters_device);
  const dim3 &g = shape.grid, &n = shape.block;
  for (unsigned bz = 0; bz < g.z; bz++)
    for (unsigned by = 0; by < g.y; by++)
      for (unsigned bx = 0; bx < g.x; bx++)
        for (unsigned tz = 0; tz < n.z; tz++)
          for (unsigned ty = 0; ty < n.y; ty++)
            for (unsigned tx = 0; tx < n.x; tx++)
              body(tx, ty, tz, bx, by, bz, n.x, n.y, n.z, g.x, g.y, g.z, in_host, expected.data(),
                   expected_counters.data());
  int wrong = 0;
  for (unsigned i = 0; i < lanes; i++) wrong += out[i] != expected[i];
  for (unsigned i = 0; i < COUNTERS; i++) wrong += counters[i] != expected_counters[i];
  printf("%s <<<(%u,%u,%u), (%u,%u,%u)>>>: ", name, g.x, g.y, g.z, n.x, n.y, n.z);
  if (wrong)
    printf("%d wrong\\n", wrong);
  else
    printf("ok\\n");
  cases++;
  wrong_cases += wrong != 0;
}

int main() {
  std::vector<unsigned> in(INPUT_SIZE);
  for (unsigned i = 0; i < INPUT_SIZE; i++) in[i] = i * 2654435761u;
  unsigned *in_device;
  hipMalloc(&in_device, INPUT_SIZE * sizeof(unsigned));
  hipMemcpy(in_device, in.data(), INPUT_SIZE * sizeof(unsigned), hipMemcpyHostToDevice);
  const Shape shapes[] = {SHAPES};
  for (const Shape &shape : shapes) {
CHECKS  }
  printf("random kernels: %d cases, %d wrong\\n", cases, wrong_cases);
  return wrong_cases != 0;
}
"""


def program(seed: int, kernels: int) -> str:
    """The source of a program of `kernels` random kernels from `seed`."""
    writer = KernelWriter(seed)
    parts = [f"// Random kernels, seed {seed} (fuzz/random_kernels.py).\n", PRELUDE]
    parts.append(f"#define INPUT_SIZE {INPUT_SIZE}u\n#define COUNTERS {COUNTERS}u\n")
    for index in range(kernels):
        body = "\n".join("  " + line for line in writer.body())
        parts.append(
            f"\nBODY(body{index}) {{\n  unsigned id = slot(tx, ty, tz, bx, by, bz, nx, ny, nz, gx, gy, gz);\n"
            f"{body}\n}}\n"
            f"__global__ void kernel{index}(const unsigned *in, unsigned *out, unsigned *counters) {{\n"
            f"  body{index}(threadIdx.x, threadIdx.y, threadIdx.z, blockIdx.x, blockIdx.y, blockIdx.z, blockDim.x,\n"
            f"              blockDim.y, blockDim.z, gridDim.x, gridDim.y, gridDim.z, in, out, counters);\n}}\n"
        )
    shapes = ", ".join(f"{{dim3{grid}, dim3{block}}}" for grid, block in SHAPES)
    checks = "".join(
        f'    check("kernel{index}", kernel{index}, body{index}, shape, in.data(), in_device);\n'
        for index in range(kernels)
    )
    parts.append(MAIN.replace("SHAPES", shapes).replace("CHECKS", checks))
    return "".join(parts)


def build(source: Path, output: Path, gpusym: str) -> subprocess.CompletedProcess:
    """`source` built at -O2 with -v (which names kernels without a fast form)."""
    return subprocess.run(
        [gpusym, "build", "-O2", "-v", str(source), "-o", str(output)], capture_output=True, text=True, timeout=900
    )


def run(program_path: Path, form: str) -> subprocess.CompletedProcess:
    environment = dict(os.environ, GPUSYM_FORM=form)
    return subprocess.run([str(program_path)], capture_output=True, text=True, timeout=600, env=environment)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m fuzz.random_kernels", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--seconds",
        type=float,
        default=float(os.environ.get("FUZZ_SECONDS", 300)),
        help="time to spend (default: $FUZZ_SECONDS or 300)",
    )
    parser.add_argument("--kernels", type=int, default=40, help="kernels per program (default 40)")
    parser.add_argument("--seed", type=int, default=None, help="first seed (default: from the time)")
    arguments = parser.parse_args(argv)
    gpusym = str(Path(sys.executable).parent / "gpusym")
    seed = arguments.seed if arguments.seed is not None else int(time.time())
    deadline = time.monotonic() + arguments.seconds
    cases = 0
    with tempfile.TemporaryDirectory(prefix="gpusym-random-kernels-") as directory:
        while True:
            source, output = Path(directory) / f"random{seed}.hip", Path(directory) / f"random{seed}"
            source.write_text(program(seed, arguments.kernels))
            built = build(source, output, gpusym)
            if built.returncode != 0:
                print(f"seed {seed}: the build failed:\n{built.stderr}", file=sys.stderr)
                return 1
            if "has no fast form" in built.stderr:
                print(f"seed {seed}: a kernel has no fast form:\n{built.stderr}", file=sys.stderr)
                return 1
            for form in ("fast", "debug"):
                result = run(output, form)
                summary = re.search(r"^random kernels: (\d+) cases, (\d+) wrong$", result.stdout, re.M)
                if result.returncode != 0 or not summary:
                    failing = [line for line in result.stdout.splitlines() if "wrong" in line]
                    print(f"seed {seed}, GPUSYM_FORM={form}: {failing or result.stderr}", file=sys.stderr)
                    return 1
                cases += int(summary.group(1))
            print(f"seed {seed}: {arguments.kernels} kernels, both forms agree with the host")
            seed += 1
            if time.monotonic() >= deadline:
                break
    print(f"random kernels: {cases} cases in both forms, no difference")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
