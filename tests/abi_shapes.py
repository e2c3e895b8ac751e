"""A HIP source checking that kernels receive every parameter shape intact.

``source()`` generates one kernel per case (a list of parameter types).  Each
lane of a kernel copies the bytes of each parameter it received into a device
buffer and folds their values into a checksum; the host fills each argument
with random values (a fixed seed), launches the kernel, and compares: the
meaningful bytes (padding excluded) and the checksums.  It prints one line per
difference, naming the case, the parameter and the byte, then
``abi: N cases, M failed``.
"""

from __future__ import annotations

from dataclasses import dataclass

SEED = 0x5EED_AB1
LANES = 2  # a second lane runs the same call image on another stack


@dataclass(frozen=True)
class Leaf:
    """One scalar value inside a type: `path` from the object (".a", "[2]")."""

    path: str
    scalar: str
    bits: int = 0  # width of a bit-field, else 0
    vector: str | None = None  # path of the vector this is element `index` of
    index: int = 0


@dataclass(frozen=True)
class Type:
    name: str
    leaves: tuple[Leaf, ...]
    definition: str = ""


# Scalars: C++ spelling, meaningful bytes (None: all), and how a random value is made.
_SCALARS = {
    "bool": "r.next() & 1",
    "char": "(char)r.next()",
    "signed char": "(signed char)r.next()",
    "unsigned char": "(unsigned char)r.next()",
    "short": "(short)r.next()",
    "unsigned short": "(unsigned short)r.next()",
    "int": "(int)r.next()",
    "unsigned": "(unsigned)r.next()",
    "long long": "(long long)r.next()",
    "unsigned long long": "r.next()",
    "__int128": "(__int128)r.next() << 64 | r.next()",
    "float": "(float)((long long)(r.next() % 2000001) - 1000000) / 64",
    "double": "(double)((long long)(r.next() % 2000000001) - 1000000000) / 1024",
    "long double": "(long double)((long long)(r.next() % 2000000001) - 1000000000) / 3",
    "_Float16": "(_Float16)((float)((int)(r.next() % 4001) - 2000) / 8)",
}
_MEANINGFUL = {"long double": 10}  # the x87 value; the rest is padding


def scalar(name: str) -> Type:
    return Type(name, (Leaf("", name),))


def vector(element: str, count: int) -> Type:
    """A clang ext_vector_type, as HIP's vector types wrap."""
    name = f"{element.replace(' ', '_')}_v{count}"
    definition = f"typedef {element} {name} __attribute__((ext_vector_type({count})));"
    return Type(name, tuple(Leaf(f"[{i}]", element, vector="", index=i) for i in range(count)), definition)


def record(name: str, *fields: tuple, keyword: str = "struct", head: str = "", base: str = "", body: str = "") -> Type:
    """A record of `fields`: (Type, name), (Type, name, count) for an array,
    (Type, name, 0, bits) for a bit-field; "[[no_unique_address]]" may prefix
    a name; `head` goes before the name (alignas), `base` is an empty base.
    A union's value is that of its first member."""
    declarations, leaves = [], []
    for type_, member, *rest in fields:
        count = rest[0] if rest else None
        bits = rest[1] if len(rest) > 1 else 0
        attribute, _, member = member.rpartition(" ")
        suffix = f"[{count}]" if count else f" : {bits}" if bits else ""
        declarations.append(f"{attribute} {type_.name} {member}{suffix};".strip())
        if keyword == "union" and leaves:
            continue
        for index in range(count or 1):
            element = f".{member}" + (f"[{index}]" if count else "")
            for leaf in type_.leaves:
                vector_path = None if leaf.vector is None else element + leaf.vector
                leaves.append(Leaf(element + leaf.path, leaf.scalar, leaf.bits or bits, vector_path, leaf.index))
    definition = f"{keyword} {head}{name}{' : ' + base if base else ''} {{ {' '.join(declarations)} {body}}};"
    return Type(name, tuple(leaves), definition)


def _catalog() -> list[Type]:
    s = {name: scalar(name) for name in _SCALARS}
    i, f, d, c, ll = s["int"], s["float"], s["double"], s["char"], s["long long"]
    uc, h, us = s["unsigned char"], s["_Float16"], s["unsigned"]
    fv4, fv3, fv2 = vector("float", 4), vector("float", 3), vector("float", 2)
    dv2, cv4, iv2, hv4 = vector("double", 2), vector("char", 4), vector("int", 2), vector("_Float16", 4)
    empty = record("Empty")
    functor = record("Functor", body="__host__ __device__ int operator()(int x) const { return x + 1; } ")
    int_float = record("IntFloat", (i, "a"), (f, "b"))
    floats3 = record("HipFloat3", (f, "x"), (f, "y"), (f, "z"))
    xyzw = record("Xyzw", (f, "x"), (f, "y"), (f, "z"), (f, "w"))
    types = [
        *s.values(),
        fv4,
        fv3,
        fv2,
        dv2,
        cv4,
        iv2,
        hv4,
        empty,
        functor,
        record("EmptyBase", base="Empty"),
        record("TwoEmpties", (empty, "a"), (empty, "b")),
        record("EmptyThenInt", (empty, "e"), (i, "x")),
        record("UniqueEmpty", (empty, "[[no_unique_address]] e"), (i, "x")),
        record("EmptyBaseFields", (i, "a"), (f, "b"), base="Empty"),
        record("EmptiesThenLong", (empty, "e", 8), (ll, "x")),
        record("EmptiesThenDouble", (empty, "e", 8), (d, "x")),
        record("ManyEmpties", (empty, "e", 32)),
        *(record(f"Bytes{n}", (uc, "b", n)) for n in range(1, 65)),
        int_float,
        record("FloatInt", (f, "a"), (i, "b")),
        record("DoubleInt", (d, "a"), (i, "b")),
        record("IntDouble", (i, "a"), (d, "b")),
        record("FloatsInt", (f, "a"), (f, "b"), (i, "c")),
        record("CharDouble", (c, "a"), (d, "b")),
        record("Doubles2", (d, "x", 2)),
        record("Longs2", (ll, "x", 2)),
        record("Floats3Array", (f, "x", 3)),
        record("Ints3Array", (i, "x", 3)),
        record("Pairs", (int_float, "p", 2)),
        record("Small", (s["bool"], "a"), (c, "b"), (s["short"], "c"), (s["signed char"], "d")),
        record("Halves3", (h, "x", 3)),
        record("HalfInt", (h, "a"), (i, "b")),
        record("HalfFloatDouble", (h, "a"), (f, "b"), (d, "c")),
        record("Bits", (us, "a", 0, 3), (us, "b", 0, 5), (us, "c", 0, 12), (i, "d", 0, 7)),
        record("WideBits", (ll, "a", 0, 40), (us, "b", 0, 20), (s["short"], "c", 0, 4), (c, "d")),
        record("FloatBits", (f, "x"), (us, "a", 0, 9)),
        record("IntOrDouble", (ll, "i"), (d, "d"), keyword="union"),
        record("DoubleOrFloats", (d, "d"), (s["float"], "f", 2), keyword="union"),
        record("CharsOrFloats", (c, "c", 12), (f, "f", 3), keyword="union"),
        record("LongDouble", (s["long double"], "x")),
        record("LongDoubleInt", (s["long double"], "x"), (i, "y")),
        record("Int128", (s["__int128"], "x")),
        record("CharInt128", (c, "c"), (s["__int128"], "x")),
        record("Vec4", (fv4, "v")),
        record("Vec3", (fv3, "v")),
        record("Vec2Int", (fv2, "v"), (i, "n")),
        record("IntVec2", (iv2, "v")),
        record("HalfVec4", (hv4, "v")),
        # Shaped as HIP's vector types: float4 and double2 (16 bytes, aligned
        # to 16), float3 (12 bytes, aligned to 4), char4 (4 bytes).
        xyzw,
        record("HipFloat4", (fv4, "data"), (xyzw, "xyzw"), keyword="union"),
        record("HipFloat4Struct", (fv4, "data")),
        floats3,
        record("HipDouble2", (dv2, "data")),
        record("HipChar4", (cv4, "data")),
        record("HipInt2", (iv2, "data")),
        record("Vec4Big", (fv4, "v", 2)),
        record("Aligned32", (i, "x"), (f, "y"), head="alignas(32) "),
        record("Aligned64", (d, "d"), (c, "c", 5), head="alignas(64) "),
        record("AlignedMember32", (i, "alignas(32) x"), (c, "c")),
        record(
            "Copyable",
            (i, "a"),
            (d, "b"),
            (c, "c", 3),
            body="__host__ __device__ Copyable() {} __host__ __device__ Copyable(const Copyable& o) "
            ": a(o.a), b(o.b) { for (int k = 0; k < 3; k++) c[k] = o.c[k]; } ",
        ),
        record(
            "SmallCopyable",
            (i, "x"),
            body="__host__ __device__ SmallCopyable() {} "
            "__host__ __device__ SmallCopyable(const SmallCopyable& o) : x(o.x) {} ",
        ),
        record("Destructible", (ll, "x", 3), body="__host__ __device__ ~Destructible() {} "),
        record(
            "AlignedCopyable",
            (i, "x"),
            (f, "y"),
            head="alignas(32) ",
            body="__host__ __device__ AlignedCopyable() {} "
            "__host__ __device__ AlignedCopyable(const AlignedCopyable& o) : x(o.x), y(o.y) {} ",
        ),
    ]
    return types


_MEMORY_BYTES = {f"Bytes{n}" for n in range(17, 65)}  # passed in memory like Bytes16 and up: fewer cases


def _cases(types: list[Type]) -> list[tuple[str, list[Type]]]:
    """(description, parameter types) of each kernel."""
    by_name = {t.name: t for t in types}
    i, d, c = by_name["int"], by_name["double"], by_name["char"]
    ll, f = by_name["long long"], by_name["float"]
    cases = []
    for t in types:
        cases.append(("alone", [t]))
        if t.name not in _MEMORY_BYTES:
            cases.append(("between", [c, t, d, t, i]))
        # one integer and one SSE register left: a two-register value goes on the stack
        cases.append(("late", [*[ll] * 5, *[d] * 7, t, i, f, t]))
    empty, e2 = by_name["Empty"], by_name["Functor"]
    cases += [
        ("empty first", [empty, i, d]),
        ("empty last", [i, d, empty]),
        ("empties in a row", [empty, e2, i, empty, empty, by_name["TwoEmpties"], d, empty]),
        (
            "many integers",
            [
                by_name[n]
                for n in (
                    "char",
                    "short",
                    "int",
                    "long long",
                    "bool",
                    "unsigned char",
                    "signed char",
                    "unsigned short",
                    "unsigned",
                    "__int128",
                    "short",
                )
            ],
        ),
        ("many floats", [f, d, by_name["_Float16"], f, d, f, d, f, d, by_name["_Float16"], f, d, i, f]),
        (
            "stack mix",
            [*[d] * 8, *[i] * 6]
            + [
                by_name[n]
                for n in (
                    "char",
                    "float",
                    "long double",
                    "__int128",
                    "_Float16",
                    "short",
                    "HipFloat3",
                    "IntFloat",
                    "bool",
                    "Aligned32",
                    "double",
                    "Bytes3",
                    "Copyable",
                    "Empty",
                    "Aligned64",
                    "HipFloat4",
                    "int",
                )
            ],
        ),
        ("two left one", [*[i] * 5, by_name["Longs2"], i, *[d] * 7, by_name["Doubles2"], d]),
    ]
    return cases


_PRELUDE = r"""#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstring>

typedef unsigned long long u64;
struct Rng {  // splitmix64
  u64 state;
  u64 next() {
    u64 z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
};
__host__ __device__ inline u64 mix(u64 h, u64 v) { return (h ^ v) * 0x100000001b3ull + (h >> 29); }
template <class T> __host__ __device__ u64 fold_scalar(T value, unsigned size) {
  const unsigned char *bytes = (const unsigned char *)&value;
  u64 h = 0xcbf29ce484222325ull;
  for (unsigned k = 0; k < size; k++) h = mix(h, bytes[k]);
  return h;
}
static void mark_bytes(unsigned char *mask, long at, unsigned size) { memset(mask + at, 0xff, size); }
static void or_bytes(unsigned char *mask, const void *object, unsigned size) {
  for (unsigned k = 0; k < size; k++) mask[k] |= ((const unsigned char *)object)[k];
}
"""


def _functions(t: Type) -> str:
    """fill (host), mark (host: its meaningful bytes) and fold (both) for `t`."""
    fill, mark, fold = [], [], []
    for leaf in t.leaves:
        value = f"v{leaf.path}"
        width = _MEANINGFUL.get(leaf.scalar, f"sizeof({leaf.scalar})")
        fill.append(f"  {value} = ({leaf.scalar})({_SCALARS[leaf.scalar]});")
        fold.append(f"  h = mix(h, fold_scalar(({leaf.scalar})({value}), {width}));")
        if leaf.bits:
            mark.append(
                f"  {{ {t.name} z; memset((void *)&z, 0, sizeof z); z{leaf.path} = ({leaf.scalar})~(u64)z{leaf.path};"
                f" or_bytes(m, &z, sizeof z); }}"
            )
        elif leaf.vector is not None:
            mark.append(
                f"  mark_bytes(m, (const char *)&v{leaf.vector} - (const char *)&v"
                f" + {leaf.index} * sizeof({leaf.scalar}), sizeof({leaf.scalar}));"
            )
        else:
            mark.append(f"  mark_bytes(m, (const char *)&{value} - (const char *)&v, {width});")
    tag = t.name.replace(" ", "_")
    return "\n".join(
        [
            f"static void fill({t.name} &v, Rng &r) {{",
            "  for (unsigned k = 0; k < sizeof v; k++) ((unsigned char *)&v)[k] = (unsigned char)r.next();",
            *fill,
            "}",
            f"static void mark(const {t.name} *, unsigned char *m) {{",
            f"  static {t.name} v_{tag};",
            f"  {t.name} &v = v_{tag};",
            *mark,
            "}",
            f"__host__ __device__ u64 fold(const {t.name} &v) {{",
            "  u64 h = 0x84222325cbf29ce4ull;",
            *fold,
            "  return h;",
            "}",
        ]
    )


def source() -> tuple[str, int]:
    """The HIP source, and how many cases it checks."""
    types = _catalog()
    cases = _cases(types)
    most_params = max(len(params) for _, params in cases)
    out = [_PRELUDE]
    out += [t.definition for t in types if t.definition]
    sizes = ", ".join("+".join(f"sizeof({t.name})" for t in params) for _, params in cases)
    out.append(f"#define LANES {LANES}\n#define ECHO_PARAMS {most_params}")
    out.append(f"constexpr unsigned case_bytes[] = {{{sizes}}};")
    out.append(
        "constexpr unsigned most_bytes() {\n  unsigned most = 0;\n"
        "  for (unsigned b : case_bytes) most = b > most ? b : most;\n  return most;\n}"
    )
    out.append("#define ECHO_BYTES most_bytes()")
    out.append("__device__ unsigned char echo_bytes[LANES][ECHO_BYTES];")
    out.append("__device__ u64 echo_folds[LANES][ECHO_PARAMS];")
    out += [_functions(t) for t in types]
    out.append(_ECHO)
    for number, (label, params) in enumerate(cases):
        out.append(_case(number, label, params))
    out.append("int main() {\n  Rng r{%#x};\n  int failed = 0;" % SEED)
    out += [f"  failed += case_{number}(r);" for number in range(len(cases))]
    out.append(f'  printf("abi: {len(cases)} cases, %d failed\\n", failed);\n  return failed != 0;\n}}')
    return "\n".join(out) + "\n", len(cases)


_ECHO = r"""
template <class T> __device__ void echo(unsigned &at, unsigned k, const T &value) {
  const unsigned char *bytes = (const unsigned char *)&value;
  for (unsigned i = 0; i < sizeof(T); i++) echo_bytes[threadIdx.x][at + i] = bytes[i];
  at += sizeof(T);
  echo_folds[threadIdx.x][k] = fold(value);
}
static unsigned char got[LANES][ECHO_BYTES];
static u64 got_folds[LANES][ECHO_PARAMS];
// Compares parameter k (sent: `value`) with what each lane echoed.
template <class T> int compare(const char *shape, unsigned &at, unsigned k, const char *type, const T &value) {
  unsigned char mask[sizeof(T)] = {};
  mark((const T *)nullptr, mask);
  int wrong = 0;
  for (unsigned lane = 0; lane < LANES; lane++) {
    for (unsigned i = 0; i < sizeof(T); i++) {
      unsigned char sent = ((const unsigned char *)&value)[i] & mask[i], received = got[lane][at + i] & mask[i];
      if (sent != received && wrong++ < 4)
        printf("FAIL %s: parameter %u (%s), lane %u: byte %u sent 0x%02x received 0x%02x\n", shape, k, type, lane,
               i, sent, received);
    }
    if (got_folds[lane][k] != fold(value) && wrong++ < 4)
      printf("FAIL %s: parameter %u (%s), lane %u: value checksum sent %016llx received %016llx\n", shape, k,
             type, lane, fold(value), got_folds[lane][k]);
  }
  at += sizeof(T);
  return wrong != 0;
}
static int launched(const char *shape) {
  hipError_t error = hipGetLastError();
  if (error == hipSuccess) error = hipDeviceSynchronize();
  if (error == hipSuccess) error = hipMemcpyFromSymbol(got, HIP_SYMBOL(echo_bytes), sizeof got, 0, hipMemcpyDeviceToHost);
  if (error == hipSuccess)
    error = hipMemcpyFromSymbol(got_folds, HIP_SYMBOL(echo_folds), sizeof got_folds, 0, hipMemcpyDeviceToHost);
  if (error != hipSuccess) printf("FAIL %s: %s\n", shape, hipGetErrorString(error));
  return error == hipSuccess;
}
static void clear_echo() {
  memset(got, 0, sizeof got);
  memset(got_folds, 0, sizeof got_folds);
  hipMemcpyToSymbol(HIP_SYMBOL(echo_bytes), got, sizeof got, 0, hipMemcpyHostToDevice);
  hipMemcpyToSymbol(HIP_SYMBOL(echo_folds), got_folds, sizeof got_folds, 0, hipMemcpyHostToDevice);
}
"""  # noqa: E501 (C++ written as it reads)


def _case(number: int, label: str, params: list[Type]) -> str:
    shape = f"case {number} {label} ({', '.join(t.name for t in params)})"
    names = [f"p{k}" for k in range(len(params))]
    kernel = [
        f"__global__ void kernel_{number}({', '.join(f'{t.name} {n}' for t, n in zip(params, names))}) {{",
        "  unsigned at = 0;",
        *(f"  echo(at, {k}, {n});" for k, n in enumerate(names)),
        "}",
    ]
    host = [
        f"static int case_{number}(Rng &r) {{",
        f'  const char *shape = "{shape}";',
        *(f"  static {t.name} {n};\n  fill({n}, r);" for t, n in zip(params, names)),
        "  clear_echo();",
        f"  hipLaunchKernelGGL(kernel_{number}, dim3(1), dim3(LANES), 0, 0{''.join(', ' + n for n in names)});",
        "  if (!launched(shape)) return 1;",
        "  unsigned at = 0;",
        "  int wrong = 0;",
        *(f'  wrong |= compare(shape, at, {k}, "{t.name}", {n});' for k, (t, n) in enumerate(zip(params, names))),
        "  return wrong;",
        "}",
    ]
    return "\n".join(kernel + host)


if __name__ == "__main__":
    print(source()[0], end="")
