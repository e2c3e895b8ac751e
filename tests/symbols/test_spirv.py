"""SPIR-V modules (HIP on SPIR-V: chipStar, clang's HIPSPV toolchain): their
kernels and arguments, read by symbols/spirv.py, in every container that
holds them, and through ``gpusym query`` and gdb's ``info kernels``.

Modules are written word by word (crafted/spirv.py) in either byte order,
and, where Debian's spirv-tools are installed, assembled by ``spirv-as``
from the text below, bundled by clang-offload-bundler-19 as clang's HIPSPV
toolchain bundles them and embedded in a host program by clang-19 (its
``-fcuda-include-gpubinary``, as the driver does).  clang-19 compiles HIP
to SPIR-V itself only where the SPIR-V translator it runs, ``llvm-spirv``,
is installed.
"""

from __future__ import annotations

import json
import shutil
import struct
import subprocess
from pathlib import Path

import pytest
from conftest import TEST_PROGRAMS, describe, run, run_gpusym
from gdb_batch import gdb

import crafted
import crafted.spirv as words
from symbols import compressed_bundle, device_code, offload_binary, spirv
from symbols.errors import FormatError

#: The reader and the queries of written modules need no toolchain; the
#: tests of programs are marked each.
pytestmark = []

SPIRV_ID = "hip-spirv64----generic"  # as clang-19's HIPSPV toolchain names its entry
AXPY = "_Z4axpyPfif"
AXPY_ARGS = [
    ("out", "float*", 8, 0, "global_buffer"),
    ("n", "int", 4, 8, "by_value"),
    ("a", "float", 4, 12, "by_value"),
]
PLAIN_ARGS = [("p", "Params", 32, 0, "by_value"), ("tile", "__local float*", 8, 32, "dynamic_shared_pointer")]


def params(kernel: spirv.Kernel) -> list[tuple]:
    return [tuple(param) for param in kernel.params]


def json_args(kernel: dict) -> list[tuple]:
    return [(a["name"], a["type"], a["size"], a["offset"], a["value_kind"]) for a in kernel["args"]]


# The reader.


@pytest.mark.parametrize("little", [True, False], ids=["little-endian", "big-endian"])
def test_kernels_are_the_kernel_entry_points_with_their_parameters(little):
    module = spirv.read(words.two_kernels(little=little))
    assert module.version == (1, 1) and module.addressing_model == "Physical64" and module.triple == "spirv64"
    # Not the GLCompute entry point, nor the plain function.
    assert [kernel.name for kernel in module.kernels] == [AXPY, "plain"]
    axpy, plain = module.kernels
    assert params(axpy) == AXPY_ARGS
    # A struct passed ByVal: its own type and size (float, int, double, float4 at 16).
    assert params(plain) == PLAIN_ARGS


def test_a_wrapper_entry_point_takes_the_wrapped_function_s_parameter_names():
    module = spirv.read(words.two_kernels(wrapper=True))
    assert params(module.kernels[0]) == AXPY_ARGS


def test_unnamed_parameters_and_types_in_opencl_c_form():
    a = words.Assembler()
    a(words.OP_MEMORY_MODEL, 1, words.OPENCL)  # Physical32: 4-byte pointers
    a(words.OP_ENTRY_POINT, words.KERNEL, "%k", "k")
    a(words.OP_TYPE_VOID, "%void")
    a(words.OP_TYPE_INT, "%char", 8, 0)
    a(words.OP_TYPE_INT, "%long", 64, 0)
    a(words.OP_TYPE_FLOAT, "%half", 16)
    a(words.OP_TYPE_INT, "%int", 32, 0)
    a(words.OP_TYPE_VECTOR, "%int3", "%int", 3)
    a(words.OP_CONSTANT, "%int", "%four", 4)
    a(words.OP_TYPE_ARRAY, "%chars", "%char", "%four")
    a(words.OP_TYPE_STRUCT, "%anonymous", "%char", "%long")
    a(words.OP_TYPE_POINTER, "%constant_half", 0, "%half")
    a(words.OP_TYPE_POINTER, "%generic_long", 8, "%long")
    a(
        words.OP_TYPE_FUNCTION,
        "%type",
        "%void",
        "%char",
        "%int3",
        "%chars",
        "%anonymous",
        "%constant_half",
        "%generic_long",
    )
    parameters = ["%char", "%int3", "%chars", "%anonymous", "%constant_half", "%generic_long"]
    words.function(a, "%k", "%type", [(f"%p{index}", kind) for index, kind in enumerate(parameters)])
    (kernel,) = spirv.read(a.module()).kernels
    assert params(kernel) == [
        (None, "char", 1, 0, "by_value"),
        (None, "int3", 16, 16, "by_value"),  # a 3-vector takes a 4-vector's room
        (None, "char[4]", 4, 32, "by_value"),
        (None, "struct", 16, 40, "by_value"),
        (None, "__constant half*", 4, 56, "global_buffer"),
        (None, "long*", 4, 60, "global_buffer"),
    ]


def test_device_code_gives_the_kernels_at_address_zero_and_their_arguments():
    contents = device_code.read(words.two_kernels(), "spirv")
    assert contents.kernels == [(AXPY, 0, 0), ("plain", 0, 0)]
    assert contents.functions == contents.variables == []
    args = device_code.read_args(contents.args_source)
    assert [(a.name, a.type_name, a.size, a.offset, a.value_kind) for a in args[AXPY]] == AXPY_ARGS


def _instruction(opcode: int, *operands: int) -> bytes:
    return struct.pack(f"<{len(operands) + 1}I", (len(operands) + 1) << 16 | opcode, *operands)


GOOD = words.two_kernels()
HEADER = GOOD[:20]
BOUND = struct.unpack_from("<I", GOOD, 12)[0]


def _with_function_parameter_first() -> bytes:
    return HEADER + _instruction(words.OP_FUNCTION_PARAMETER, 1, 2)


def _undefined_function() -> bytes:
    a = words.Assembler()
    a(words.OP_ENTRY_POINT, words.KERNEL, "%nowhere", "k")
    return a.module()


def _wrong_parameter_count() -> bytes:
    a = words.Assembler()
    a(words.OP_ENTRY_POINT, words.KERNEL, "%k", "k")
    a(words.OP_TYPE_VOID, "%void")
    a(words.OP_TYPE_FUNCTION, "%type", "%void", "%void")
    words.function(a, "%k", "%type", [])
    return a.module()


MALFORMED = {
    "bad-magic": (b"\x7fELF" + bytes(28), "not a SPIR-V module (bad magic 0x464c457f)"),
    "empty": (b"", "truncated SPIR-V module: 0 bytes, less than its 20-byte header"),
    "truncated-header": (GOOD[:12], "truncated SPIR-V module: 12 bytes, less than its 20-byte header"),
    "partial-word": (GOOD[:-2], f"truncated SPIR-V module: {len(GOOD) - 2} bytes, not a whole number of 32-bit words"),
    "truncated-instruction": (
        GOOD[:24],
        "SPIR-V opcode 17 at word 5 (2 words) runs past the end of the module (6 words)",
    ),
    "word-count-0": (HEADER + struct.pack("<I", words.OP_TYPE_VOID), "SPIR-V instruction at word 5 has word count 0"),
    "id-out-of-range": (
        words.kernels().module(bound=10),
        "SPIR-V OpName at word 65: id 10 is out of range (bound 10)",
    ),
    "id-0": (
        HEADER + _instruction(words.OP_NAME, 0, 0),
        f"SPIR-V OpName at word 5: id 0 is out of range (bound {BOUND})",
    ),
    "string-without-nul": (
        HEADER + _instruction(words.OP_NAME, 1, int.from_bytes(b"abcd", "little")),
        "SPIR-V OpName at word 5: literal string not NUL-terminated",
    ),
    "too-short": (
        HEADER + _instruction(words.OP_TYPE_POINTER, 1, 5),
        "SPIR-V OpTypePointer at word 5 is too short (3 words)",
    ),
    "parameter-outside-function": (
        _with_function_parameter_first(),
        "SPIR-V OpFunctionParameter at word 5 does not follow an OpFunction",
    ),
    "undefined-function": (_undefined_function(), "SPIR-V entry point 'k' names function 1, which is not defined"),
    "wrong-parameter-count": (_wrong_parameter_count(), "SPIR-V kernel 'k': 0 parameters for a function type of 1"),
}


@pytest.mark.parametrize("name", MALFORMED)
def test_malformed_modules_raise_one_line_format_errors(name):
    data, message = MALFORMED[name]
    with pytest.raises(FormatError) as raised:
        spirv.read(data)
    assert str(raised.value) == message
    assert "\n" not in message


# gpusym query on modules, alone and in containers; no toolchain needed.


def query(*paths: Path) -> tuple[subprocess.CompletedProcess, dict]:
    result = run_gpusym("query", "--json", *paths)
    assert "Traceback" not in result.stderr, describe(result)
    return result, json.loads(result.stdout)


def write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def check_two_kernels(report: dict, target: str = "spirv64") -> None:
    kernels = {kernel["name"]: kernel for kernel in report["kernels"]}
    assert sorted(kernels) == [AXPY, "plain"]
    assert kernels[AXPY]["demangled"] == "axpy(float*, int, float)"
    assert json_args(kernels[AXPY]) == AXPY_ARGS
    assert json_args(kernels["plain"]) == PLAIN_ARGS
    for kernel in kernels.values():
        assert [(d["target"], d["address"], d["size"]) for d in kernel["device"]] == [(target, 0, 0)]


def test_query_reads_modules_alone_and_names_each_bad_one_in_one_line(tmp_path):
    good = write(tmp_path / "good.spv", GOOD)
    big = write(tmp_path / "big-endian.spv", words.two_kernels(little=False))
    # Those that start as a module does (an empty file, or an ELF one, is no SPIR-V module).
    malformed = {name: data for name, (data, _) in MALFORMED.items() if spirv.has_magic(data)}
    bad = {name: write(tmp_path / f"{name}.spv", data) for name, data in malformed.items()}
    result, document = query(good, *bad.values(), big)
    assert result.returncode == 1, describe(result)
    lines = result.stderr.splitlines()
    assert lines == [f"gpusym query: {path}: {MALFORMED[name][1]}" for name, path in bad.items()]
    assert [binary["path"] for binary in document["binaries"]] == [str(good), str(big)]
    for report in document["binaries"]:
        assert report["format"] == "container"
        assert [(c["target"], c["triple"], c["container"], c["format"]) for c in report["code_objects"]] == [
            ("spirv64", "spirv64", "file", "spirv")
        ]
        check_two_kernels(report)


def test_query_reads_modules_in_bundles_compressed_bundles_and_offload_binaries(tmp_path):
    bundle = crafted.bundle({SPIRV_ID: GOOD})
    offload = offload_binary.write(GOOD, 6, 4, {"triple": "spirv64-unknown-unknown", "arch": "generic"})
    paths = [
        write(tmp_path / "bundle", bundle),
        write(tmp_path / "compressed", compressed_bundle.write(bundle, 3, "zstd")),
        write(tmp_path / "offload-binary", offload),
    ]
    result, document = query(*paths)
    assert result.returncode == 0, describe(result)
    expected = [
        ("offload-bundle", "spirv64"),
        ("compressed-offload-bundle", "spirv64"),
        ("offload-binary", "spirv64-unknown-unknown"),
    ]
    for report, (container, triple) in zip(document["binaries"], expected):
        assert [(c["target"], c["triple"], c["container"], c["format"]) for c in report["code_objects"]] == [
            ("spirv64", triple, container, "spirv")
        ]
        check_two_kernels(report)
        assert report["notes"] == []


def test_a_bad_module_in_a_bundle_is_a_note_and_the_other_entries_are_read(tmp_path):
    bundle = crafted.bundle({SPIRV_ID: GOOD, "hip-spirv64-unknown-unknown--generic": GOOD[:24]})
    path = write(tmp_path / "bundle", bundle)
    result, document = query(path)
    assert result.returncode == 0, describe(result)
    (report,) = document["binaries"]
    assert [(c["target"], c["triple"]) for c in report["code_objects"]] == [
        ("spirv64", "spirv64"),
        ("spirv64", "spirv64-unknown-unknown"),
    ]
    check_two_kernels(report)
    assert report["notes"] == [
        "code object 1 (spirv64): SPIR-V opcode 17 at word 5 (2 words) runs past the end of the module (6 words)"
    ]


def test_an_entry_naming_a_processor_keeps_it_as_its_target(tmp_path):
    path = write(tmp_path / "bundle", crafted.bundle({"hipv4-spirv64-amd-amdhsa--amdgcnspirv": GOOD}))
    result, document = query(path)
    assert result.returncode == 0, describe(result)
    (report,) = document["binaries"]
    assert [(c["target"], c["triple"]) for c in report["code_objects"]] == [("amdgcnspirv", "spirv64-amd-amdhsa")]
    check_two_kernels(report, "amdgcnspirv")


# Programs built with the toolchain.

#: The module chipStar's compile of this source would give, as spirv-as
#: reads it, with a GLCompute entry point and a plain function that are no
#: kernels.
SOURCE = """\
#define __global__ __attribute__((global))
typedef struct { unsigned x, y, z; } dim3;
extern "C" int hipLaunchKernel(const void *, dim3, dim3, void **, unsigned long, void *);
struct Params { float scale; int offset; double bias; };
__global__ void axpy(float *out, int n, float a) { if (n > 0) out[0] = a; }
extern "C" __global__ void plain(Params p, float *out) { out[0] = p.scale; }
"""
ASSEMBLY = """\
OpCapability Addresses
OpCapability Kernel
OpCapability Linkage
OpCapability Float64
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %axpy "_Z4axpyPfif"
OpEntryPoint Kernel %plain "plain"
OpEntryPoint GLCompute %compute "compute_main"
OpName %axpy "_Z4axpyPfif"
OpName %out "out"
OpName %n "n"
OpName %a "a"
OpName %Params "struct.Params"
OpName %p "p"
OpDecorate %p FuncParamAttr ByVal
%void = OpTypeVoid
%float = OpTypeFloat 32
%double = OpTypeFloat 64
%int = OpTypeInt 32 0
%Params = OpTypeStruct %float %int %double
%global_float = OpTypePointer CrossWorkgroup %float
%private_Params = OpTypePointer Function %Params
%axpy_type = OpTypeFunction %void %global_float %int %float
%plain_type = OpTypeFunction %void %private_Params %global_float
%void_type = OpTypeFunction %void
%axpy = OpFunction %void None %axpy_type
%out = OpFunctionParameter %global_float
%n = OpFunctionParameter %int
%a = OpFunctionParameter %float
%axpy_body = OpLabel
OpReturn
OpFunctionEnd
%plain = OpFunction %void None %plain_type
%p = OpFunctionParameter %private_Params
%plain_out = OpFunctionParameter %global_float
%plain_body = OpLabel
OpReturn
OpFunctionEnd
%compute = OpFunction %void None %void_type
%compute_body = OpLabel
OpReturn
OpFunctionEnd
%helper = OpFunction %void None %void_type
%helper_body = OpLabel
OpReturn
OpFunctionEnd
"""
HOST_FLAGS = ["clang++-19", "-x", "hip", "--offload=spirv64", "-nogpuinc", "-nogpulib"]


def _needs(*tools: str) -> None:
    missing = [tool for tool in tools if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"{', '.join(missing)} not installed (Debian: spirv-tools, clang-19)")


def _translator_for_llvm_19() -> bool:
    """Whether the ``llvm-spirv`` clang-19 runs (beside clang, else on the
    PATH) is built on LLVM 19: one for another LLVM cannot read its bitcode."""
    beside = Path("/usr/lib/llvm-19/bin/llvm-spirv")
    translator = str(beside) if beside.exists() else shutil.which("llvm-spirv")
    if translator is None:
        return False
    result = run([translator, "--version"])
    return result.returncode == 0 and "version 19." in result.stdout + result.stderr


def _checked(command: list) -> None:
    result = run(command)
    assert result.returncode == 0, describe(result)


@pytest.fixture(scope="module")
def program(tmp_path_factory) -> Path:
    """A HIP host program whose .hip_fatbin holds the assembled module, as
    clang-19's HIPSPV toolchain bundles and embeds it."""
    _needs("spirv-as", "clang++-19", "clang-19", "clang-offload-bundler-19")
    root = tmp_path_factory.mktemp("spirv")
    (root / "module.spvasm").write_text(ASSEMBLY)
    (root / "kernels.hip").write_text(SOURCE)
    module, fatbin = root / "module.spv", root / "kernels.hipfb"
    _checked(["spirv-as", "--target-env", "spv1.1", root / "module.spvasm", "-o", module])
    bundle = ["clang-offload-bundler-19", "-type=o", "-bundle-align=4096"]
    targets = f"-targets=host-x86_64-unknown-linux,{SPIRV_ID}"
    _checked([*bundle, targets, "-input=/dev/null", f"-input={module}", f"-output={fatbin}"])
    embed = ["-Xclang", "-fcuda-include-gpubinary", "-Xclang", fatbin]
    _checked([*HOST_FLAGS, "--cuda-host-only", *embed, "-c", root / "kernels.hip", "-o", root / "kernels.o"])
    stubs = TEST_PROGRAMS / "containers" / "hip_stubs.c"
    _checked(["clang-19", "-c", stubs, "-o", root / "stubs.o"])
    _checked(["clang++-19", root / "kernels.o", root / "stubs.o", "-o", root / "program"])
    return root / "program"


@pytest.mark.toolchain
def test_query_lists_the_kernels_of_an_assembled_module_in_a_hip_program(program):
    result, document = query(program)
    assert result.returncode == 0, describe(result)
    (report,) = document["binaries"]
    assert [(c["target"], c["triple"], c["container"], c["format"]) for c in report["code_objects"]] == [
        ("spirv64", "spirv64", "offload-bundle", "spirv")
    ]
    kernels = {kernel["name"]: kernel for kernel in report["kernels"]}
    assert sorted(kernels) == [AXPY, "plain"]
    assert json_args(kernels[AXPY]) == AXPY_ARGS
    # A struct passed ByVal; a parameter without an OpName.
    assert json_args(kernels["plain"]) == [("p", "Params", 16, 0, "by_value"), (None, "float*", 8, 16, "global_buffer")]
    assert kernels[AXPY]["stub"]["symbol"] == "_Z19__device_stub__axpyPfif"
    assert kernels[AXPY]["handle"] == {
        "symbol": AXPY,
        "address": kernels[AXPY]["handle"]["address"],
        "kind": "variable",
    }
    assert kernels["plain"]["stub"]["symbol"] == "__device_stub__plain"
    for kernel in kernels.values():
        assert [d["target"] for d in kernel["device"]] == ["spirv64"] and kernel["missing_targets"] == []
    assert report["notes"] == []
    table = run_gpusym("query", "--table", "--target", "spirv64", program)
    assert table.returncode == 0, describe(table)
    assert "axpy(float*, int, float)  [spirv64]" in table.stdout and "plain  [spirv64]" in table.stdout


@pytest.mark.toolchain
def test_clang_compiles_hip_to_spirv_where_the_translator_is_installed(tmp_path):
    _needs("clang++-19")
    if not _translator_for_llvm_19():
        pytest.skip(
            "clang-19's HIPSPV toolchain runs llvm-spirv, the SPIR-V translator, and none for LLVM 19 is"
            " installed (Debian 12 packages it for LLVM 14 and 15 only)"
        )
    source = tmp_path / "kernels.hip"
    source.write_text(SOURCE)
    objects = [tmp_path / "kernels.o", tmp_path / "stubs.o"]
    _checked([*HOST_FLAGS, "-c", source, "-o", objects[0]])
    _checked(["clang-19", "-c", TEST_PROGRAMS / "containers" / "hip_stubs.c", "-o", objects[1]])
    _checked(["clang++-19", *objects, "-o", tmp_path / "program"])
    result, document = query(tmp_path / "program")
    assert result.returncode == 0, describe(result)
    (report,) = document["binaries"]
    assert [(c["target"], c["format"]) for c in report["code_objects"]] == [("spirv64", "spirv")]
    kernels = {kernel["name"]: kernel for kernel in report["kernels"]}
    assert sorted(kernels) == [AXPY, "plain"]
    assert [a["type"] for a in kernels[AXPY]["args"]] == ["float*", "int", "float"]
    assert all(kernel["stub"] and kernel["device"] for kernel in kernels.values())


@pytest.mark.toolchain
@pytest.mark.gdb
def test_info_kernels_in_gdb_lists_the_spirv_kernels(program):
    output = gdb(program, "info kernels")
    for kernel in ("axpy(float*, int, float)", "plain"):
        assert any(line.startswith(f"{kernel} ") and "spirv64" in line for line in output.splitlines()), output
