#!/usr/bin/env python3
"""Lists the public identifiers of ROCm's HIP headers, for the coverage test.

Usage: list_hip_api.py HIP_DIR CLR_DIR [-o OUT]

HIP_DIR is a checkout of ROCm/hip (its include/hip/*.h are read), CLR_DIR one
of ROCm/clr (hipamd/include/hip/amd_detail/*.h).  Writes one identifier a
line, ``KIND NAME`` or, for an enumerator with a known value, ``KIND NAME
VALUE``, sorted by name, to tests/device/hip_api/rocm_identifiers.txt unless
-o says otherwise.  The headers are read as text, for the AMD platform in C++:
declarations marked deprecated, names that begin with ``_`` other than device
functions, and device-library internals are left out.
"""

from __future__ import annotations

import argparse
import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO / "tests/device/hip_api/rocm_identifiers.txt"

#: Public headers of ROCm/hip, under include/hip.
HIP_HEADERS = [
    "hip_runtime_api.h",
    "driver_types.h",
    "texture_types.h",
    "hip_texture_types.h",
    "surface_types.h",
    "library_types.h",
    "hip_vector_types.h",
    "channel_descriptor.h",
    "hip_ext.h",
    "hip_common.h",
    "hip_math_constants.h",
]

#: Headers of ROCm/clr, under hipamd/include/hip/amd_detail, that declare the
#: device side and the host helpers hip_runtime.h brings in.
AMD_DETAIL_HEADERS = [
    "host_defines.h",
    "amd_hip_runtime.h",
    "amd_device_functions.h",
    "amd_warp_functions.h",
    "amd_warp_sync_functions.h",
    "amd_hip_atomic.h",
    "amd_hip_unsafe_atomics.h",
    "amd_hip_fp16.h",
    "amd_hip_bf16.h",
    "amd_hip_complex.h",
    "amd_math_functions.h",
    "amd_hip_vector_types.h",
    "amd_channel_descriptor.h",
    "amd_hip_math_constants.h",
]

#: amd_detail headers of host functions: their kinds of function.
HOST_DETAIL_HEADERS = {"amd_channel_descriptor.h": "inline-is-cxx"}

#: Macros whose definedness the headers are read under (absent: unknown,
#: and both branches are read).
PLATFORM = {
    "__HIP_PLATFORM_AMD__": 1,
    "__HIP_PLATFORM_HCC__": 1,
    "__HIP_PLATFORM_NVIDIA__": 0,
    "__HIP_PLATFORM_NVCC__": 0,
    "__cplusplus": 201703,
    "__clang__": 1,
    "__HIP__": 1,
    "__HIPCC__": 1,
    "_MSC_VER": 0,
    "_WIN32": 0,
    "__HIPCC_RTC__": 0,
    "__HIP_DISABLE_CPP_FUNCTIONS__": 0,
    "__HIP_NO_HALF_CONVERSIONS__": 0,
    "__HIP_NO_HALF_OPERATORS__": 0,
    "__HIP_NO_BF16_CONVERSIONS__": 0,
    "__HIP_NO_BF16_OPERATORS__": 0,
    "USE_PROF_API": 0,
    "__HIP_ROCclr__": 1,
}

#: Prefixes of names that are implementation details even though they do not
#: begin with an underscore, or that do and are still internal.
INTERNAL_PREFIXES = (
    "__ocml",
    "__ockl",
    "__llvm",
    "__builtin",
    "__hip_",
    "__amdgcn",
    "__ihip",
    "ihip",
    "__HIP",
    "__device_",
    "__host_",
    "__hipPush",
    "__hipPop",
    "__hipRegister",
    "__hipUnregister",
    "__local",
    "__to_",
    "__d2",
    "__lastbit",
    "__bitscan",
    "__u32_as",
    "__u64_as",
    "__shfl_xor_",
    "__internal",
)
#: Helpers and macro plumbing of the AMD headers that carry no underscore.
INTERNAL_NAMES = {
    "pArgs",
    "hip_cas_expander",
    "hip_cas_extrema_expander",
    "c_assert",
    "amd_dbgapi_get_build_id",
    "amd_dbgapi_get_build_name",
    "amd_dbgapi_get_git_hash",
    "hc_get_workitem_absolute_id",
    "amd_mixed_dot",
    "select_impl_",
    "launch_bounds_impl0",
    "launch_bounds_impl1",
    "MASK1",
    "MASK2",
    "ICMP_NE",
    "GETREG_IMMED",
    "MAYBE_UNDEF",
    "Enable_if_t",
    "uchar2Holder",
    "HIP_vector_type",
    "hipLaunchKernelGGLInternal",
    "USE_PEER_NON_UNIFIED",
    "HIP_BF16_AVX512_OP",
    "HIP_DBL2INT_CVT",
    "DECLOP_MAKE_ONE_COMPONENT",
    "DECLOP_MAKE_TWO_COMPONENT",
    "DECLOP_MAKE_THREE_COMPONENT",
    "DECLOP_MAKE_FOUR_COMPONENT",
    "normalized",
    "validateArgsCountType",
    "assert",
    "__named_sync",
    "__work_group_barrier",
    "__barrier",
    "__attribute",
    "__clamp_01",
}
#: Names the headers use that are keywords, attributes or qualifiers.
NOT_NAMES = {
    "sizeof",
    "decltype",
    "alignas",
    "__attribute__",
    "__declspec",
    "static_assert",
    "return",
    "if",
    "for",
    "while",
    "switch",
    "operator",
    "defined",
    "typedef",
    "template",
    "extern",
    "noexcept",
}
#: Macros that only guard or decorate declarations.
DECORATION_MACRO = re.compile(
    r"^(HIP_DEPRECATED\w*|DEPRECATED\w*|HIP_PUBLIC_API|HIP_INTERNAL_EXPORTED_API|"
    r"HIP_DYNAMIC_SHARED_ATTRIBUTE|GENERIC_GRID_LAUNCH|HIP_INCLUDE_\w+|\w+_H_?|\w+_HPP_?)$"
)
DECORATIONS = re.compile(
    r"__attribute__\s*\(\((?:[^()]|\([^()]*(?:\([^()]*\)[^()]*)*\))*\)\)|__declspec\([^)]*\)|"
    r"\b(?:HIP_PUBLIC_API|HIP_INTERNAL_EXPORTED_API|__host__|__device__|__global__|__forceinline__|__noinline__|"
    r"__HOST_DEVICE__|__DEVICE__|__FP16_DECL__|__BF16_HOST_DEVICE_STATIC__|__BF16_DEVICE_STATIC__|"
    r"__HIP_OVERLOAD1|static|inline|constexpr|extern|__CG_QUALIFIER__|__CG_STATIC_QUALIFIER__)\b|\[\[[^\]]*\]\]"
)


def strip_comments(text: str) -> str:
    """`text` without comments and line continuations (string literals kept)."""
    text = re.sub(r"\\\n", " ", text)
    pattern = re.compile(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|/\*.*?\*/|//[^\n]*', re.DOTALL)
    return pattern.sub(lambda m: m[0] if m[0][0] in "\"'" else " " * m[0].count("\n") or " ", text)


def condition_value(expression: str) -> bool | None:
    """The value of an #if expression under PLATFORM, or None when unknown."""
    expression = re.sub(
        r"defined\s*\(?\s*(\w+)\s*\)?", lambda m: str(PLATFORM[m[1]] != 0) if m[1] in PLATFORM else "None", expression
    )
    expression = re.sub(
        r"\b[A-Za-z_]\w*\b",
        lambda m: m[0] if m[0] in ("True", "False", "None") else str(PLATFORM.get(m[0], "None")),
        expression,
    )
    expression = expression.replace("&&", " and ").replace("||", " or ").replace("!=", " ~= ")
    expression = expression.replace("!", " not ").replace(" ~= ", " != ")
    expression = re.sub(r"(\d+)[uUlL]+\b", r"\1", expression)
    if re.search(r"None\s*\(", expression):  # a function-like macro this reading does not know
        return None
    try:
        value = eval(expression, {"__builtins__": {}})  # a header's own constant expression
    except Exception:
        return None
    return None if value is None else bool(value)


def active_lines(text: str) -> str:
    """`text` with the branches PLATFORM rules out blanked."""
    stack: list[tuple[bool, bool, bool, bool]] = []  # (enclosing active, active, a branch taken, unknown seen)
    out = []
    for line in text.split("\n"):
        directive = re.match(r"\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b\s*(.*)", line)
        active = not stack or stack[-1][1]
        if not directive:
            out.append(line if active else "")
            continue
        word, rest = directive[1], directive[2]
        if word in ("if", "ifdef", "ifndef"):
            value = condition_value(rest if word == "if" else f"defined({rest.strip()})")
            value = (not value) if word == "ifndef" and value is not None else value
            stack.append((active, active and value is not False, value is True, value is None))
        elif word in ("elif", "else") and stack:
            enclosing, _, taken, unknown = stack.pop()
            value = False if taken else (condition_value(rest) if word == "elif" else (None if unknown else True))
            stack.append(
                (enclosing, enclosing and value is not False, taken or value is True, unknown or value is None)
            )
        elif word == "endif" and stack:
            stack.pop()
        out.append("")
    return "\n".join(out)


def macros(text: str) -> set[str]:
    """Public macros #defined in `text`."""
    names = set(re.findall(r"^\s*#\s*define\s+([A-Za-z]\w*)", text, re.MULTILINE))
    return {name for name in names if not DECORATION_MACRO.match(name)}


def top_level_declarations(text: str) -> list[tuple[str, str]]:
    """(namespace, declaration) for each declaration outside function and
    class bodies; extern "C" and namespace blocks are looked into."""
    declarations: list[tuple[str, str]] = []
    namespaces: list[str | None] = []  # one per open transparent brace: a namespace name or None
    start, depth, index = 0, 0, 0
    while index < len(text):
        char = text[index]
        if char == "{":
            head = text[start:index]
            opener = re.search(r'(?:extern\s+"C"|namespace\s*(\w*))\s*$', head)
            if depth == 0 and opener:
                namespaces.append(opener[1] if opener[1] else None)
                start = index + 1
            else:
                depth += 1
        elif char == "}":
            if depth == 0:
                namespaces and namespaces.pop()
                start = index + 1
            else:
                depth -= 1
                if depth == 0 and not re.search(
                    r"\b(?:struct|union|enum|class)\b[^(]*$|=\s*$|typedef", text[start:index].split("{")[0]
                ):
                    declarations.append(("::".join(n for n in namespaces if n), text[start : index + 1]))
                    start = index + 1
        elif char == ";" and depth == 0:
            declarations.append(("::".join(n for n in namespaces if n), text[start : index + 1]))
            start = index + 1
        index += 1
    return declarations


def enumerators(body: str) -> list[tuple[str, int | None]]:
    """(name, value) of each enumerator in an enum body; None when the value
    is no integer this reading can compute."""
    result: list[tuple[str, int | None]] = []
    known: dict[str, int] = {}
    previous: int | None = -1
    for item in body.split(","):
        match = re.match(r"\s*([A-Za-z_]\w*)\s*(?:=\s*(.+))?$", item.strip(), re.DOTALL)
        if not match:
            continue
        value: int | None
        if match[2]:
            expression = re.sub(r"\b(0[xX][0-9a-fA-F]+|\d+)[uUlL]+\b", r"\1", " ".join(match[2].split()))
            expression = re.sub(r"\b[A-Za-z_]\w*\b", lambda m: str(known.get(m[0], m[0])), expression)
            try:
                value = int(eval(expression, {"__builtins__": {}}))  # a header's own constant expression
            except Exception:
                value = None
        else:
            value = None if previous is None else previous + 1
        known[match[1]] = value if value is not None else 0
        result.append((match[1], value))
        previous = value
    return result


def classify(declaration: str, kind_of_function: str) -> list[tuple[str, str, int | None]]:
    """(kind, name, value) for what `declaration` declares."""
    if re.search(r"\bDEPRECATED\b|HIP_DEPRECATED|\bdeprecated\b", declaration):
        return []
    found: list[tuple[str, str, int | None]] = []
    for body in re.findall(r"\benum\b[^{;]*\{([^}]*)\}", declaration):
        found += [("enumerator", name, value) for name, value in enumerators(body)]
    head = declaration.split("{")[0]
    found += [
        ("type", tag, None)
        for tag in re.findall(
            r"\b(?:struct|union|enum|class)\s+(?:alignas\([^)]*\)\s*)?"
            r"([A-Za-z_]\w*)\s*(?::[^{]*)?\{",
            declaration[: len(head) + 1],
        )
    ]
    if re.match(r"\s*(?:template\s*<[^{;]*>\s*)?(?:typedef|using)\b", declaration):
        found += [("type", name, None) for name in typedef_names(declaration)]
    elif not re.match(r"\s*(?:template\s*<[^{;]*>\s*)?(?:struct|union|enum|class)\b", head):
        name = function_name(head)
        if name:
            found.append((cxx_only(declaration, kind_of_function), name, None))
    return found


def cxx_only(declaration: str, kind: str) -> str:
    """`kind`, or ``cxx-function`` for a host function C cannot see: a
    template, or an inline helper of a C++-only header."""
    if kind == "function" and re.match(r"\s*template\b", declaration):
        return "cxx-function"
    return (
        "cxx-function" if kind == "inline-is-cxx" and "{" in declaration else kind.replace("inline-is-cxx", "function")
    )


def typedef_names(declaration: str) -> list[str]:
    """The name a typedef or alias declaration introduces."""
    using = re.match(r"\s*(?:template\s*<[^{;]*>\s*)?using\s+(\w+)\s*=", declaration)
    if using:
        return [using[1]]
    tail = re.sub(r"\{.*\}", " ", declaration, flags=re.DOTALL)
    pointer = re.search(r"\(\s*(?:\w+\s+)?\*\s*(\w+)\s*\)\s*\(", tail)
    if pointer:
        return [pointer[1]]
    words = re.findall(r"\w+", DECORATIONS.sub(" ", tail).split("[")[0])
    return words[-1:]


def function_name(head: str) -> str | None:
    """The name a function declaration or definition declares, if it is one."""
    head = re.sub(r"^\s*template\s*<(?:[^<>]|<[^<>]*>)*>", " ", head)
    head = DECORATIONS.sub(" ", head)
    match = re.search(r"\b([A-Za-z_]\w*)\s*\(", head)
    while match and match[1] in NOT_NAMES:
        match = re.search(r"\b([A-Za-z_]\w*)\s*\(", head[match.end() :]) if match[1] != "operator" else None
    if not match or "=" in head[: match.start()] or re.search(r"\boperator\b", head):
        return None
    return match[1]


def public(kind: str, name: str) -> bool:
    """Whether `name` belongs to HIP's public API rather than its implementation."""
    if name in INTERNAL_NAMES or name.startswith(INTERNAL_PREFIXES) or name.endswith(("_impl", "_internal")):
        return False
    if kind == "device-function" and name.isupper() or kind == "macro" and name.startswith(("HW_ID", "XCC_ID")):
        return False
    if name.startswith("_"):
        return kind == "device-function" and name.startswith("__") and not name.startswith("___")
    return not (kind == "macro" and name.startswith(("HIP_INCLUDE_", "HIP_IMPLEMENTATION")))


def identifiers(path: Path, function_kind: str) -> dict[str, tuple[str, int | None]]:
    """name -> (kind, value) for the public identifiers of one header."""
    text = active_lines(strip_comments(path.read_text(errors="replace")))
    found: dict[str, tuple[str, int | None]] = {name: ("macro", None) for name in macros(text) if public("macro", name)}
    body = re.sub(r"^\s*#[^\n]*", "", text, flags=re.MULTILINE)
    for namespace, declaration in top_level_declarations(body):
        for kind, name, value in classify(declaration, function_kind):
            qualified = f"{namespace}::{name}" if namespace else name
            if namespace.startswith(("_", "hip_impl")):
                continue
            if public(kind, name) and (qualified not in found or found[qualified][0] in ("macro", "cxx-function")):
                found[qualified] = (kind, value)
    return found


def source_revision(name: str, directory: Path) -> str:
    """``NAME describe (commit)`` for the git checkout `directory`."""

    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(directory), *args], capture_output=True, text=True).stdout.strip()

    return f"{name} {git('describe', '--tags', '--always') or 'unknown'} ({git('rev-parse', 'HEAD') or '?'})"


def collect(hip_dir: Path, clr_dir: Path) -> dict[str, tuple[str, int | None]]:
    """Every public identifier of both checkouts' headers: name -> (kind, value)."""
    found: dict[str, tuple[str, int | None]] = {}
    sources = [(hip_dir / "include/hip" / name, "function") for name in HIP_HEADERS]
    sources += [
        (clr_dir / "hipamd/include/hip/amd_detail" / name, HOST_DETAIL_HEADERS.get(name, "device-function"))
        for name in AMD_DETAIL_HEADERS
    ]
    for path, kind in sources:
        for name, entry in identifiers(path, kind).items():
            if name not in found or found[name][0] == "cxx-function" and entry[0] == "function":
                found[name] = entry
    return found


def write(found: dict[str, tuple[str, int | None]], out: Path, origin: list[str]) -> None:
    """Writes the list, a header comment first."""
    lines = [
        "# Public identifiers of ROCm's HIP headers: KIND NAME [ENUMERATOR VALUE]",
        "# Generated by scripts/list_hip_api.py from " + "; ".join(origin),
    ]
    for name in sorted(found):
        kind, value = found[name]
        lines.append(f"{kind} {name}" + (f" {value}" if value is not None else ""))
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("hip_dir", type=Path, help="checkout of ROCm/hip")
    parser.add_argument("clr_dir", type=Path, help="checkout of ROCm/clr")
    parser.add_argument("-o", "--output", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    found = collect(args.hip_dir, args.clr_dir)
    write(found, args.output, [source_revision("ROCm/hip", args.hip_dir), source_revision("ROCm/clr", args.clr_dir)])
    print(f"{len(found)} identifiers -> {args.output}")


if __name__ == "__main__":
    main()
