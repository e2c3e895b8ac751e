"""gpusym-nvcc builds CUDA programs as nvcc does: sources compiled apart
(.cu as CUDA, .cpp as host C++), relocatable device code linked with the
program, dependency rules, nvcc's answers, and gpusym query on the result."""

from __future__ import annotations

import json

import pytest
from conftest import GPUSYM_NVCC, TEST_PROGRAMS, describe, run

from device import runtime_library
from native import toolchain

pytestmark = [pytest.mark.toolchain]

SEPARATE = TEST_PROGRAMS / "cuda" / "separate"


#: statics_a.cu's kernel writes 3*i, statics_b.cu's 10+i.
STATICS_EXPECTED = "0 3 6 9 10 11 12 13"


def nvcc(*args, cwd=None):
    return run([GPUSYM_NVCC, *map(str, args)], cwd=cwd)


def test_separately_compiled_cuda_and_cxx_sources_link_into_a_program(tmp_path):
    steps = [
        ["-dc", "-O2", "-arch=sm_80", SEPARATE / "scale.cu", "-o", tmp_path / "scale.o"],
        ["-dc", "-O2", "-Xptxas", "-v", SEPARATE / "kernels.cu", "-o", tmp_path / "kernels.o"],
        ["-O2", "-c", SEPARATE / "main.cpp", "-o", tmp_path / "main.o"],
        [tmp_path / "scale.o", tmp_path / "kernels.o", tmp_path / "main.o", "-o", tmp_path / "scale", "-lcudart"],
    ]
    for step in steps:
        built = nvcc(*step)
        assert built.returncode == 0, describe(built)
    result = run([tmp_path / "scale"])
    # main.cpp is host C++: nvcc does not define __CUDACC__ there.
    assert result.stdout == "status 0, 0 wrong\n", describe(result)


def test_dlink_gives_the_device_code_for_a_link_by_the_host_compiler(tmp_path):
    # As CMake's separable compilation: -dc objects, one -dlink object, and
    # the program linked by the host compiler with the runtime.
    objects = []
    for source in ("scale.cu", "kernels.cu", "main.cpp"):
        objects.append(tmp_path / f"{source}.o")
        built = nvcc("-dc" if source.endswith(".cu") else "-c", SEPARATE / source, "-o", objects[-1])
        assert built.returncode == 0, describe(built)
    linked = nvcc("-dlink", *objects, "-o", tmp_path / "dlink.o")
    assert linked.returncode == 0, describe(linked)
    program = tmp_path / "scale"
    host_link = [
        toolchain.tool("clang++"),
        *objects,
        tmp_path / "dlink.o",
        runtime_library.runtime_path(),
        "-o",
        program,
    ]
    assert run(host_link).returncode == 0
    assert run([program]).stdout == "status 0, 0 wrong\n"


def test_static_device_variables_host_code_copies_link_as_relocatable_device_code(tmp_path):
    # Each source's kernel uses its statics before the host code names them,
    # and both sources have statics of the same names.
    sources = [SEPARATE / "statics_a.cu", SEPARATE / "statics_b.cu"]
    built = nvcc("-rdc=true", "-O2", *sources, "-o", tmp_path / "statics")
    assert built.returncode == 0, describe(built)
    assert run([tmp_path / "statics"]).stdout.split() == STATICS_EXPECTED.split()


def test_relocatable_device_code_with_pure_virtual_functions_links(tmp_path):
    objects = tmp_path / "shapes.o"
    compiled = nvcc("-dc", SEPARATE / "shapes.cu", "-o", objects)
    assert compiled.returncode == 0, describe(compiled)
    linked = nvcc(objects, "-o", tmp_path / "shapes")
    assert linked.returncode == 0, describe(linked)
    assert run([tmp_path / "shapes"]).stdout == "shapes: 0 wrong\n"


def test_relocatable_device_code_defines_cuda_arch_in_device_compiles_alone(tmp_path):
    # Thrust and CUB choose their device paths by __CUDA_ARCH__: an -rdc
    # compile's device side must see it, and its host side must not.
    source = tmp_path / "arch.cu"
    source.write_text(
        "#if defined(__HIP_DEVICE_COMPILE__) != defined(__CUDA_ARCH__)\n"
        "#error __CUDA_ARCH__ in the wrong compile\n"
        "#endif\n"
        "__global__ void kernel(int *out) { *out = 1; }\n"
        "int main() {}\n"
    )
    compiled = nvcc("-dc", "-arch=sm_80", "-MD", source, "-o", tmp_path / "arch.o")
    assert compiled.returncode == 0, describe(compiled)
    # The dependency rule names the object asked for, as without -dc.
    assert (tmp_path / "arch.d").read_text().startswith(f"{tmp_path / 'arch.o'}: "), describe(compiled)


OPTIMIZATION_CHECK = (
    "#if defined(__CUDA_ARCH__) && defined(__OPTIMIZE__) != DEVICE_OPTIMIZED\n"
    "#error device code optimized wrongly\n"
    "#endif\n"
    "#if !defined(__CUDA_ARCH__) && defined(__OPTIMIZE__) != HOST_OPTIMIZED\n"
    "#error host code optimized wrongly\n"
    "#endif\n"
    "__global__ void halves(float *values) {\n"
    "  __shared__ float tile[64];\n"
    "  tile[threadIdx.x] = values[threadIdx.x];\n"
    "  __syncthreads();\n"
    "  values[threadIdx.x] = tile[63 - threadIdx.x] / 2;\n"
    "}\n"
)


@pytest.mark.parametrize(
    "flags, device, host",
    [
        ((), True, False),
        (("-O0", "-g"), True, False),
        (("-O2", "-rdc=true"), True, True),
        (("-G",), False, False),
        (("-G", "-O3", "-rdc=true"), False, True),
    ],
    ids=["default", "O0", "O2-rdc", "G", "G-O3-rdc"],
)
def test_device_code_is_optimized_unless_g_whatever_the_host_optimization(tmp_path, flags, device, host):
    # As nvcc: -O is the host code's; device code is optimized (and so runs
    # in its fast form) unless -G.
    source = tmp_path / "halves.cu"
    source.write_text(OPTIMIZATION_CHECK)
    macros = [f"-DDEVICE_OPTIMIZED={int(device)}", f"-DHOST_OPTIMIZED={int(host)}"]
    built = nvcc("-v", "-c", *flags, *macros, source, "-o", tmp_path / "halves.o")
    assert built.returncode == 0, describe(built)
    fast_form = "gpusym: kernel halves(float*) keeps 0 bytes a thread across its barriers in its fast form"
    debuggable_only = "gpusym: -O0: every kernel has its debuggable form only"
    assert (fast_form in built.stderr, debuggable_only in built.stderr) == (device, not device), describe(built)


def test_dlink_refuses_what_is_not_an_object_in_one_line(tmp_path):
    (tmp_path / "notes.txt").write_text("not an object\n")
    for name, problem in (("notes.txt", "not an object file or archive"), ("absent.o", "cannot read")):
        linked = nvcc("-dlink", tmp_path / name, "-o", tmp_path / "dlink.o")
        assert linked.returncode == 1, describe(linked)
        assert linked.stderr.startswith(f"gpusym-nvcc: {tmp_path / name}: {problem}")
        assert linked.stderr.count("\n") == 1
    assert not (tmp_path / "dlink.o").exists()


def test_xptxas_is_noted_and_ignored(tmp_path):
    built = nvcc("-c", "-Xptxas", "-v", SEPARATE / "scale.cu", "-rdc=true", "-o", tmp_path / "scale.o")
    assert built.returncode == 0, describe(built)
    assert "gpusym-nvcc: note: -Xptxas -v ignored: the simulated device has no PTX" in built.stderr


def test_m_writes_the_dependency_rule_without_compiling(tmp_path):
    result = nvcc("-M", SEPARATE / "kernels.cu", cwd=tmp_path)
    assert result.returncode == 0, describe(result)
    assert result.stdout.startswith("kernels.o: "), describe(result)
    assert "cuda_runtime.h" in result.stdout  # every CUDA source includes it, as under nvcc
    assert list(tmp_path.iterdir()) == []


def test_version_answers_as_a_cuda_release():
    result = nvcc("--version")
    assert result.returncode == 0
    assert "Cuda compilation tools, release 12.4" in result.stdout


def test_a_compile_error_names_the_file_and_line(tmp_path):
    (tmp_path / "bad.cu").write_text("__global__ void k() { undeclared(); }\n")
    result = nvcc(tmp_path / "bad.cu", "-o", tmp_path / "bad")
    assert result.returncode != 0
    assert "bad.cu:1:23: error: use of undeclared identifier 'undeclared'" in result.stderr, describe(result)
    assert "Traceback" not in result.stderr


def test_a_bad_option_is_one_line_with_the_usage_exit_status():
    result = nvcc("-cudart=dynamic", SEPARATE / "scale.cu")
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "gpusym-nvcc: -cudart dynamic: use none, shared or static (gpusym-nvcc --help shows the usage)"
    ]


def test_gpusym_query_reads_what_gpusym_nvcc_builds(build_program):
    program = build_program("cuda/warp_sums.cu", flags=("-O2",), output="warp_sums_query")
    result = run([GPUSYM_NVCC.with_name("gpusym"), "query", "--json", program])
    assert result.returncode == 0, describe(result)
    (binary,) = json.loads(result.stdout)["binaries"]
    (kernel,) = binary["kernels"]
    assert kernel["demangled"] == "void warp_sums<float>(float const*, float*, int)"
    assert kernel["stub"]["symbol"] == "_Z24__device_stub__warp_sumsIfEvPKT_PS0_i" and kernel["handle"]
    assert [device["target"] for device in kernel["device"]] == ["gfx1030", "gpusym"]
    assert [arg["name"] for arg in kernel["args"]] == ["values", "sums", "past_the_end"]


def test_cuda_sources_may_name_their_own_int8_and_uint16(tmp_path):
    # HIP's 8- and 16-component vectors are HIP's alone; CUDA programs often
    # typedef these names themselves (NVIDIA's dct8x8 does).
    source = tmp_path / "types.cu"
    source.write_text(
        "typedef char int8;\ntypedef unsigned short uint16;\ncudaArray *array;\nint main() { return 0; }\n"
    )
    result = nvcc("-c", source, "-o", tmp_path / "types.o")
    assert result.returncode == 0, describe(result)
    # The program's C++ files too, compiled by the host compiler with the
    # CUDA headers on its search path (as CMake's CXX language does).
    host = tmp_path / "types.cpp"
    host.write_text("#include <cuda_runtime.h>\n" + source.read_text())
    compiled = run(
        [
            toolchain.tool("clang++"),
            f"-I{runtime_library.CUDA_INCLUDE_DIR}",
            f"-I{runtime_library.INCLUDE_DIR}",
            "-c",
            host,
            "-o",
            tmp_path / "h.o",
        ]
    )
    assert compiled.returncode == 0, describe(compiled)


def test_host_cxx_including_curand_kernel_for_its_types_compiles(tmp_path):
    # NVIDIA's MonteCarloMultiGPU keeps curandState in a struct its host
    # C++ files share with its .cu files.
    host = tmp_path / "states.cpp"
    host.write_text(
        "#include <curand_kernel.h>\n"
        "struct Plan { curandState *states; curandStatePhilox4_32_10_t philox; };\n"
        "int main() { return sizeof(Plan) > 0 ? 0 : 1; }\n"
    )
    compiled = run(
        [
            toolchain.tool("clang++"),
            f"-I{runtime_library.CUDA_INCLUDE_DIR}",
            f"-I{runtime_library.INCLUDE_DIR}",
            host,
            "-o",
            tmp_path / "states",
        ]
    )
    assert compiled.returncode == 0, describe(compiled)
    assert run([tmp_path / "states"]).returncode == 0


def test_cxx17_register_variables_are_a_warning_as_under_gcc(tmp_path):
    # C++17 removed `register`; g++, nvcc's host compiler, warns, clang errs.
    source = tmp_path / "old.cu"
    source.write_text("__global__ void k(int *p) { register int x = *p; *p = x + 1; }\nint main() { return 0; }\n")
    result = nvcc("-std=c++17", "-c", source, "-o", tmp_path / "old.o")
    assert result.returncode == 0, describe(result)
    assert "'register' storage class specifier" in result.stderr, describe(result)


def test_a_c_source_is_c_whatever_cxx_dialect_the_command_line_names(tmp_path):
    # Makefiles pass one CFLAGS, -std=c++17 among them, to .c and .cu
    # sources alike; nvcc gives the dialect to C++ compiles only.
    (tmp_path / "plain.c").write_text("int class_count(int new) { int class = new * 2; return class; }\n")
    (tmp_path / "main.cu").write_text(
        '#include <cstdio>\nextern "C" int class_count(int);\n'
        'int main() { if constexpr (sizeof(int) == 4) printf("%d\\n", class_count(21)); return 0; }\n'
    )
    for source in ("plain.c", "main.cu"):
        built = nvcc("-std=c++17", "-O2", "-c", tmp_path / source, "-o", tmp_path / f"{source}.o")
        assert built.returncode == 0, describe(built)
    linked = nvcc(tmp_path / "plain.c.o", tmp_path / "main.cu.o", "-o", tmp_path / "prog")
    assert linked.returncode == 0, describe(linked)
    assert run([tmp_path / "prog"]).stdout == "42\n"


SPACED_LAUNCHES = r"""
#include <cstdio>
template <typename T> struct Box { T value; __host__ __device__ Box(T v) : value(v) {} };
template <typename T> __global__ void fill(T *out, int scale) { out[threadIdx.x] = T(threadIdx.x * scale); }
int main() {
  int *out;
  cudaMallocManaged(&out, 64 * sizeof(int));
  fill<int> << < 1, (64 > 32 ? 64 : 32) >> > (out, 3);  // nvcc reads << < and >> > as <<< and >>>
  cudaDeviceSynchronize();
  Box<Box<Box<int>> > nested = Box<Box<Box<int>> >(Box<Box<int>>(Box<int>(out[63])));  // templates closed by >> >
  fill<int><<<1, 64>>>(out, 2);
  cudaDeviceSynchronize();
  printf("%d %d\n", nested.value.value.value, out[63]);
  return 0;
}
"""


@pytest.mark.parametrize("flags", [(), ("-rdc=true",)], ids=["whole", "rdc"])
def test_a_launch_spelled_with_its_brackets_apart_runs_as_nvcc_reads_it(tmp_path, flags):
    # Rodinia's particlefilter writes kernel << < grid, block >> > (args).
    source = tmp_path / "spaced.cu"
    source.write_text(SPACED_LAUNCHES)
    built = nvcc(*flags, source, "-o", tmp_path / "spaced")
    assert built.returncode == 0, describe(built)
    result = run([tmp_path / "spaced"])
    assert result.stdout == "189 126\n", describe(result)
