"""Random kernels for differential testing of the simulated device's two
forms of a kernel (the debuggable form, a lane per stack, and the fast form,
a block's threads as loops): programs of kernels, every other one with
barriers and warp functions, whose every result a host reference computes
too.

A kernel without barriers has a body that is a ``__host__ __device__``
function of the thread's coordinates, always inlined: the kernel calls it
with ``threadIdx`` and its friends, the host reference in loops over a
block's threads.  Bodies use unsigned arithmetic only (no undefined
behaviour an optimiser could exploit differently in the two builds),
branches, loops with data-dependent trip counts, block-stride loops (from
``threadIdx.x`` by a stride and to a bound the same for the block), early
returns, reads of an input array, atomic additions to counters
(order-independent) and one write per thread to its own output slot.  A
barrier kernel's steps have the same statements.

A kernel with barriers (half of them without warp steps, whose fast form is
a loop over the block's threads between each two barriers) keeps each
thread's state (its locals and whether it has returned) in a struct, and a
``__shared__`` array ``s`` with a slot for each thread of the largest block.
It runs *steps*, ``__host__ __device__`` functions of the state, the
coordinates, ``s`` and the block's uniform values, each followed by a
barrier: a step either reads and writes the thread's own slot ``s[t]`` only
or reads any slot and writes none, so however a block's threads interleave
between two barriers the program has no race. Steps may return early (the
thread writes its output first); such a thread no longer takes part in
barriers and the others go on without it, as on a GPU of sm_70 or later, and
its slot keeps its last value. The barriers sit in straight code, in loops
whose trip count and in ``if``/``else`` whose condition are uniform across
the block (expressions of the block's coordinates, the counters of such
loops, the last reduction's result and the input array read at those), and a
branch may end with every thread returning; ``__syncthreads_count``,
``__syncthreads_and`` and ``__syncthreads_or`` of a per-thread predicate add
their result to a local. A *warp step* has every live thread of the block
run one warp function at once: ``vX = __shfl(vY, (e) % warpSize)``,
``__shfl_xor``, ``__shfl_up`` or ``__shfl_down`` of a constant, or ``vX +=
__popcll(__ballot(p))``, ``__any(p)`` or ``__all(p)`` of a per-thread
predicate ``p``; the host models a wavefront as ``WAVE`` (64) consecutive
threads of the block, the last one partial, whose active lanes are its
threads that have not returned (a shuffle from a lane that is not active
reads 0), and computes a wavefront's results from its lanes' values before
the step. The host reference runs the same control flow once for a block,
each step for every thread of the block that has not returned before the
next: kernel and reference are written from the same list of steps.

Each kernel runs under several launch shapes, 1D to 3D, partial wavefronts
included.  The program prints ``CASE: ok`` or ``CASE: N wrong`` a case,
then ``random kernels: C cases, W wrong``.

    python -m fuzz.random_kernels [--seconds N] [--kernels K] [--seed S]

builds and runs programs of new seeds until the time is up, each in both
forms (GPUSYM_FORM), and stops at the first difference, printing its seed
and kernel, or at a kernel without a fast form (``make fuzz`` runs it after
the parsers).
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
#: The threads of the largest block: the size of a barrier kernel's __shared__ array.
MAX_BLOCK = max(x * y * z for _, (x, y, z) in SHAPES)
COORDINATES = ["tx", "ty", "tz", "bx", "by", "bz", "nx", "ny", "nz", "gx", "gy", "gz"]
LOCALS = ["v0", "v1", "v2", "v3"]
#: What the threads of a block have alike in a barrier kernel: the block's
#: coordinates, the counters of the loops around barriers and the last
#: reduction's result.
UNIFORM = ["bx", "by", "bz", "nx", "ny", "nz", "gx", "gy", "gz", "j0", "j1", "r"]
#: The coordinates the threads of a block have alike.
BLOCK_LEAVES = ["bx", "by", "bz", "nx", "ny", "nz", "gx", "gy", "gz"]
#: What a barrier kernel's steps read: the thread's coordinates and flat
#: index, the uniform values and the thread's locals.
STEP_LEAVES = [*COORDINATES, "t", "j0", "j1", "r", *LOCALS, *LOCALS]
REDUCTIONS = {"count": ("0u", "+="), "and": ("1u", "&="), "or": ("0u", "|=")}
#: A warp step's warp functions: the kernel's call (of the local read, the
#: argument), and how the local written takes the result.
WARP_FUNCTIONS = {
    "SHFL": ("__shfl({}, {} % warpSize)", "="),
    "SHFL_XOR": ("__shfl_xor({}, {})", "="),
    "SHFL_UP": ("__shfl_up({}, {})", "="),
    "SHFL_DOWN": ("__shfl_down({}, {})", "="),
    "BALLOT": ("__popcll(__ballot({1}))", "+="),
    "ANY": ("__any({1})", "+="),
    "ALL": ("__all({1})", "+="),
}


class KernelWriter:
    """Writes random kernel bodies from one seeded generator."""

    def __init__(self, seed: int):
        self.random = random.Random(seed)
        self.leaves = COORDINATES  # the locals join once they are declared
        # How code may touch the __shared__ array s: None, not at all (or not
        # here); "own", read and write the thread's own slot s[t]; "any",
        # read any slot and write none.
        self.shared: str | None = None
        self.returned = ""  # what an early return does before it returns (a barrier kernel's mark)
        self.steps: list[str] = []  # a barrier kernel's functions
        self.warps = True  # whether a barrier kernel has warp steps
        self.name = ""

    def expression(self, depth: int = 0) -> str:
        if self.shared and depth < 3 and self.random.random() < 0.1:
            return "s[t]" if self.shared == "own" else f"s[({self.expression(depth + 1)}) % nt]"
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

    def scattered(self) -> str:
        """A condition that holds for about one thread in m of a block, where
        conditions of random leaves (of which many are uniform) tend to hold
        for all or none: a barrier kernel's threads return early and
        reductions count with it."""
        return (
            f"(t * {self.random.randrange(1, 32, 2)}u + ({self.expression()})) % {self.random.randrange(2, 9)}u == 0u"
        )

    def statements(self, depth: int, count: int) -> list[str]:
        lines: list[str] = []
        for _ in range(count):
            if self.shared == "own" and self.random.random() < 0.2:
                lines.append(f"s[t] {self.random.choice(['=', '+=', '^='])} {self.expression()};")
                continue
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
            elif depth == 0 and pick < 0.31:
                lines += self.stride_loop()
            elif pick < 0.35:
                condition = self.scattered() if self.returned and self.random.random() < 0.7 else self.condition()
                lines.append(f"if ({condition}) {{ out[id] = {self.expression()};{self.returned} return; }}")
            elif pick < 0.45:
                lines.append(
                    f"atomic_add(&counters[({self.expression()}) % {COUNTERS}u], ({self.expression()}) & 255u);"
                )
            else:
                lines.append(f"{self.random.choice(LOCALS)} = {self.expression()};")
        return lines

    def stride_loop(self) -> list[str]:
        """A block-stride loop (from threadIdx.x, by a stride the same for
        the block, up to such a bound), which the fast form runs a trip of
        the block's threads at a time where every thread reaches it."""
        leaves, shared = self.leaves, self.shared
        self.leaves, self.shared = BLOCK_LEAVES, None
        base, bound, stride = (
            self.random.choice([*BLOCK_LEAVES, f"{self.random.randrange(1, 300)}u", self.expression()])
            for _ in range(3)
        )
        self.leaves, self.shared = leaves, shared
        return [
            f"for (unsigned i0 = ({base}) % 64u + tx; i0 < ({bound}) % 200u; i0 += (({stride}) & 15u) + 1u) {{",
            f"  v0 += in[i0 % {INPUT_SIZE}u] ^ i0;",
            *("  " + line for line in self.statements(1, self.random.randrange(1, 3))),
            "}",
        ]

    def body(self) -> list[str]:
        """The body of a kernel without barriers."""
        self.shared, self.returned = None, ""
        self.leaves = COORDINATES
        declarations = [f"unsigned {name} = {self.expression()};" for name in LOCALS]
        self.leaves = [*COORDINATES, *LOCALS, *LOCALS]
        return [
            *declarations,
            *self.statements(0, self.random.randrange(3, 8)),
            "out[id] = v0 ^ (v1 * 3u) ^ (v2 * 5u) ^ (v3 * 7u);",
        ]

    # Kernels with barriers.  Their control flow around barriers is uniform
    # across the block; between two barriers a thread runs at most one step,
    # a function that either reads and writes the thread's own slot of s
    # ("own") or reads any slot and writes none ("any"), so the program is
    # race-free however the threads of a block interleave between barriers.

    def step(self, kind: str, lines: list[str], result: str = "void") -> str:
        """The name of a new step of the kernel, doing `lines`."""
        name = f"{self.name}_step{len(self.steps)}"
        body = "\n".join("  " + line for line in ["STEP_LOCALS;", *lines])
        self.steps.append(f"// {kind}\nSTEP({result}, {name}) {{\n{body}\n}}\n")
        return name

    def work(self, shared: str, count: int) -> str:
        self.shared, self.leaves = shared, STEP_LEAVES
        kind = "reads and writes the thread's own slot" if shared == "own" else "reads any slot"
        return self.step(kind, self.statements(0, count))

    def uniform(self, leaves: list[str]) -> tuple[str, str]:
        """A uniform expression and a uniform condition of `leaves`."""
        self.shared, self.leaves = None, leaves
        return self.expression(), self.condition()

    def items(self, depth: int, count: int, branch: bool = False) -> list[tuple]:
        """The kernel's uniform control flow: ("work", step), ("reduce",
        kind, predicate, local), ("warp", function, written, read, argument),
        ("loop", counter, trips, items), ("if", condition, items, items) and
        ("return",) (every thread returns)."""
        items: list[tuple] = []
        for _ in range(count):
            pick = self.random.random()
            if depth < 2 and pick < 0.2:
                counter = f"j{depth}"
                trips, _ = self.uniform([leaf for leaf in UNIFORM if leaf != counter])
                items.append(("loop", counter, trips, self.items(depth + 1, self.random.randrange(1, 3))))
            elif depth < 2 and pick < 0.4:
                _, condition = self.uniform(UNIFORM)
                then = self.items(depth + 1, self.random.randrange(0, 3), branch=True)
                otherwise = self.items(depth + 1, self.random.randrange(0, 3), branch=True)
                items.append(("if", condition, then, otherwise))
            elif pick < 0.55:
                self.shared, self.leaves = "any", STEP_LEAVES
                condition = self.scattered() if self.random.random() < 0.5 else self.condition()
                predicate = self.step("a reduction's predicate", [f"return {condition};"], "int")
                items.append(("reduce", self.random.choice(list(REDUCTIONS)), predicate, self.random.choice(LOCALS)))
            elif pick < 0.7 and self.warps:
                items.append(("warp", *self.warp()))
            else:
                items.append(("work", self.work(self.random.choice(["own", "any"]), self.random.randrange(1, 5))))
        if branch and self.random.random() < 0.15:
            items.append(("return",))
        return items

    def warp(self) -> tuple[str, str, str, str]:
        """A warp step: its warp function, the local it writes, the local it
        reads and its argument (a step's call, or a constant)."""
        function = self.random.choice(list(WARP_FUNCTIONS))
        written, read = self.random.choice(LOCALS), self.random.choice(LOCALS)
        if function == "SHFL_XOR":
            return function, written, read, f"{self.random.randrange(1, 33)}u"
        if function in ("SHFL_UP", "SHFL_DOWN"):
            return function, written, read, f"{self.random.randrange(1, 65)}u"
        self.shared, self.leaves = "any", STEP_LEAVES
        if function == "SHFL":
            return (
                function,
                written,
                read,
                self.step("a shuffle's source lane", [f"return {self.expression()};"], "unsigned") + "(STEP_ARGS)",
            )
        condition = self.scattered() if self.random.random() < 0.5 else self.condition()
        predicate = self.step("a vote's predicate", [f"return {condition};"], "int")
        return function, written, read, predicate + "(STEP_ARGS)"

    def emit(self, items: list[tuple], device: bool, finish: str) -> list[str]:
        """`items` as the kernel's code (`device`) or the host reference's,
        which runs each step for every thread of the block that has not
        returned (EACH_LIVE_THREAD) before it goes on."""
        lines: list[str] = []
        for item in items:
            if item[0] == "work":
                if device:
                    lines += [f"{item[1]}(STEP_ARGS);", "if (state.returned) return;", "__syncthreads();"]
                else:
                    lines.append(f"EACH_LIVE_THREAD({item[1]}(STEP_ARGS));")
            elif item[0] == "reduce":
                _, kind, predicate, local = item
                if device:
                    lines.append(f"r = __syncthreads_{kind}({predicate}(STEP_ARGS));")
                    lines.append(f"state.{local} += r;")
                else:
                    # (the predicates read r, the last reduction's result, until all have run)
                    start, operator = REDUCTIONS[kind]
                    lines.append(f"reduced = {start};")
                    lines.append(f"EACH_LIVE_THREAD(reduced {operator} ({predicate}(STEP_ARGS) != 0));")
                    lines.append("r = reduced;")
                    lines.append(f"EACH_LIVE_THREAD(state.{local} += r);")
            elif item[0] == "warp":
                _, function, written, read, argument = item
                call, assign = WARP_FUNCTIONS[function]
                if device:
                    lines.append(f"state.{written} {assign} {call.format(f'state.{read}', argument)};")
                    lines.append("__syncthreads();")
                else:
                    if function == "SHFL":
                        argument += " % WAVE"
                    elif function in ("BALLOT", "ANY", "ALL"):
                        argument += " != 0"
                    lines.append(f"EACH_LIVE_THREAD(arguments[(tz * ny + ty) * nx + tx] = {argument});")
                    lines.append(
                        f"warp_step(states, nx * ny * nz, {function}, arguments, &State::{written}, &State::{read});"
                    )
            elif item[0] == "loop":
                _, counter, trips, body = item
                lines.append(f"for ({counter} = 0u; {counter} < (({trips}) & 3u); {counter}++) {{")
                lines += ["  " + line for line in self.emit(body, device, finish)]
                lines.append("}")
            elif item[0] == "if":
                _, condition, then, otherwise = item
                lines.append(f"if ({condition}) {{")
                lines += ["  " + line for line in self.emit(then, device, finish)]
                lines.append("} else {")
                lines += ["  " + line for line in self.emit(otherwise, device, finish)]
                lines.append("}")
            else:
                lines.append(f"{finish}(STEP_ARGS);" if device else f"EACH_LIVE_THREAD({finish}(STEP_ARGS));")
                lines.append("return;")
        return lines

    def barrier_kernel(self, index: int) -> str:
        """Kernel `index` with barriers, its steps and its host reference."""
        self.name, self.steps, self.returned = f"kernel{index}", [], " state.returned = 1u;"
        # Half have no warp steps: kernels with barriers alone have a fast
        # form of their own (a loop over the block's threads between barriers).
        self.warps = index % 4 == 1
        self.shared, self.leaves = None, [*COORDINATES, "t"]
        start = [
            f"s[t] = {self.expression()};",
            *(f"{name} = {self.expression()};" for name in LOCALS),
            "state.returned = 0u;",
        ]
        self.shared, self.leaves = "own", STEP_LEAVES
        start = self.step("starts the thread", start + self.statements(0, self.random.randrange(0, 3)))
        items = self.items(0, self.random.randrange(2, 5))
        self.shared, self.leaves = "any", STEP_LEAVES
        last = "out[id] = v0 ^ (v1 * 3u) ^ (v2 * 5u) ^ (v3 * 7u)"
        finish = self.step("ends the thread", [f"{last} ^ {self.expression()};"])
        kernel = [
            "__shared__ unsigned s[MAX_BLOCK];",
            "unsigned tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z, bx = blockIdx.x, by = blockIdx.y,",
            "         bz = blockIdx.z, nx = blockDim.x, ny = blockDim.y, nz = blockDim.z, gx = gridDim.x,",
            "         gy = gridDim.y, gz = gridDim.z;",
            "State state;",
            "unsigned j0 = 0u, j1 = 0u, r = 0u;",
            *self.emit([("work", start)], True, finish),
            *self.emit(items, True, finish),
            f"{finish}(STEP_ARGS);",
        ]
        host = [
            "unsigned s[MAX_BLOCK];",
            "State states[MAX_BLOCK] = {};",
            "unsigned j0 = 0u, j1 = 0u, r = 0u, reduced, arguments[MAX_BLOCK];",
            *self.emit([("work", start)], False, finish),
            *self.emit(items, False, finish),
            f"EACH_LIVE_THREAD({finish}(STEP_ARGS));",
        ]
        return (
            "\n" + "".join(self.steps) + f"__global__ void kernel{index}(const unsigned *in, unsigned *out, "
            "unsigned *counters) {\n" + "".join(f"  {line}\n" for line in kernel) + "}\n"
            f"HOST(host{index}) {{\n" + "".join(f"  {line}\n" for line in host) + "}\n"
        )

    def plain_kernel(self, index: int) -> str:
        """Kernel `index` without barriers, its body and its host reference."""
        body = "\n".join("  " + line for line in self.body())
        return (
            f"\nBODY(body{index}) {{\n  unsigned id = slot(tx, ty, tz, bx, by, bz, nx, ny, nz, gx, gy, gz);\n"
            f"{body}\n}}\n"
            f"__global__ void kernel{index}(const unsigned *in, unsigned *out, unsigned *counters) {{\n"
            f"  body{index}(threadIdx.x, threadIdx.y, threadIdx.z, blockIdx.x, blockIdx.y, blockIdx.z, blockDim.x,\n"
            f"              blockDim.y, blockDim.z, gridDim.x, gridDim.y, gridDim.z, in, out, counters);\n}}\n"
            f"HOST(host{index}) {{\n  EACH_THREAD body{index}(tx, ty, tz, BLOCK, in, out, counters);\n}}\n"
        )


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

// The host reference of a kernel: it computes a block's results.
#define BLOCK bx, by, bz, nx, ny, nz, gx, gy, gz
#define HOST(name) \\
  static void name(unsigned bx, unsigned by, unsigned bz, unsigned nx, unsigned ny, unsigned nz, unsigned gx, \\
                   unsigned gy, unsigned gz, const unsigned *in, unsigned *out, unsigned *counters)
#define EACH_THREAD \\
  for (unsigned tz = 0; tz < nz; tz++) \\
    for (unsigned ty = 0; ty < ny; ty++) \\
      for (unsigned tx = 0; tx < nx; tx++)

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

// Kernels with barriers: a thread's state between two barriers, and its
// steps from one to the next (with the loop counters j0 and j1 and the last
// reduction's result r, the same for the whole block, and the block's
// __shared__ array s, whose slot t is the thread's).  The kernel runs a
// step and waits at a barrier; the host reference runs the step for each
// thread of the block that has not returned, then goes on.
struct State {
  unsigned v0, v1, v2, v3, returned;
};
#define STEP(result, name) \\
  __host__ __device__ __attribute__((always_inline)) inline result name( \\
      State &state, COORDINATES, unsigned j0, unsigned j1, unsigned r, unsigned *s, const unsigned *in, \\
      unsigned *out, unsigned *counters)
#define STEP_ARGS state, tx, ty, tz, BLOCK, j0, j1, r, s, in, out, counters
#define STEP_LOCALS \\
  [[maybe_unused]] unsigned &v0 = state.v0, &v1 = state.v1, &v2 = state.v2, &v3 = state.v3; \\
  [[maybe_unused]] unsigned id = slot(tx, ty, tz, BLOCK), t = (tz * ny + ty) * nx + tx, nt = nx * ny * nz
#define EACH_LIVE_THREAD(...) \\
  EACH_THREAD { \\
    State &state = states[(tz * ny + ty) * nx + tx]; \\
    if (!state.returned) { \\
      __VA_ARGS__; \\
    } \\
  }

// The host's warp step: every live thread of the block runs warp function
// `op` at once, with its argument (a source lane, a constant or a
// predicate), writing local `x` from the values of local `y` before the step.
// A wavefront is WAVE consecutive threads of the block (the last one may
// have fewer), its active lanes those that have not returned; a shuffle from
// a lane that is not active reads 0.
#define WAVE 64u
enum { SHFL, SHFL_XOR, SHFL_UP, SHFL_DOWN, BALLOT, ANY, ALL };
static void warp_step(State *states, unsigned nt, int op, const unsigned *arguments, unsigned State::*x,
                      unsigned State::*y) {
  for (unsigned first = 0; first < nt; first += WAVE) {
    unsigned count = nt - first < WAVE ? nt - first : WAVE;
    State *lanes = states + first;
    const unsigned *argument = arguments + first;
    unsigned long long active = 0, voted = 0;
    unsigned values[WAVE], results[WAVE];
    for (unsigned lane = 0; lane < count; lane++) {
      values[lane] = lanes[lane].*y;
      if (lanes[lane].returned) continue;
      active |= 1ull << lane;
      if (argument[lane]) voted |= 1ull << lane;
    }
    for (unsigned lane = 0; lane < count; lane++) {
      if (!(active >> lane & 1)) continue;
      unsigned a = argument[lane], source = lane, before = lanes[lane].*x;
      switch (op) {
        case SHFL: source = a % WAVE; break;
        case SHFL_XOR: source = lane ^ a; break;  // (a <= WAVE / 2: in the wavefront)
        case SHFL_UP: source = lane >= a ? lane - a : lane; break;
        case SHFL_DOWN: source = lane + a < WAVE ? lane + a : lane; break;
      }
      unsigned shuffled = source < count && (active >> source & 1) ? values[source] : 0u;
      switch (op) {
        case BALLOT: results[lane] = before + (unsigned)__builtin_popcountll(voted); break;
        case ANY: results[lane] = before + (voted != 0); break;
        case ALL: results[lane] = before + ((active & ~voted) == 0); break;
        default: results[lane] = shuffled; break;
      }
    }
    for (unsigned lane = 0; lane < count; lane++)
      if (active >> lane & 1) lanes[lane].*x = results[lane];
  }
}
"""

MAIN = """\
struct Shape {
  dim3 grid, block;
};

typedef void (*Host)(unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                     const unsigned *, unsigned *, unsigned *);
typedef void (*Device)(const unsigned *, unsigned *, unsigned *);

static int cases = 0, wrong_cases = 0;

static void check(const char *name, Device kernel, Host host, const Shape &shape, const unsigned *in_host,
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
        host(bx, by, bz, n.x, n.y, n.z, g.x, g.y, g.z, in_host, expected.data(), expected_counters.data());
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
  hipDeviceProp_t properties;
  hipGetDeviceProperties(&properties, 0);
  if (properties.warpSize != (int)WAVE) {
    printf("random kernels: the device's wavefronts have %d lanes, not %u\\n", properties.warpSize, WAVE);
    return 1;
  }
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
    """The source of a program of `kernels` random kernels from `seed`,
    every other one (the odd ones) with barriers."""
    writer = KernelWriter(seed)
    parts = [f"// Random kernels, seed {seed} (fuzz/random_kernels.py).\n", PRELUDE]
    parts.append(f"#define INPUT_SIZE {INPUT_SIZE}u\n#define COUNTERS {COUNTERS}u\n#define MAX_BLOCK {MAX_BLOCK}u\n")
    for index in range(kernels):
        parts.append(writer.barrier_kernel(index) if index % 2 else writer.plain_kernel(index))
    shapes = ", ".join(f"{{dim3{grid}, dim3{block}}}" for grid, block in SHAPES)
    checks = "".join(
        f'    check("kernel{index}", kernel{index}, host{index}, shape, in.data(), in_device);\n'
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
                try:
                    result = run(output, form)
                except subprocess.TimeoutExpired as timeout:
                    last = (timeout.stdout or b"").decode(errors="replace").strip().splitlines()[-1:]
                    print(
                        f"seed {seed}, GPUSYM_FORM={form}: no end in {timeout.timeout:.0f} s after {last}",
                        file=sys.stderr,
                    )
                    return 1
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
