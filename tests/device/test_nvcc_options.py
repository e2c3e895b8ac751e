"""gpusym-nvcc's command line (device/compiler/nvcc_options.py): nvcc's
options as gpusym build's, read as nvcc reads them."""

from __future__ import annotations

from pathlib import Path

import pytest

from device.compiler.nvcc_options import CUDA_OFFLOAD_ARCH, DEFAULT_ARCH, parse, translate
from device.compiler.options import UsageError

pytestmark = []


@pytest.mark.parametrize(
    "argv, arch",
    [
        (["-arch=sm_70"], 70),
        (["-arch", "sm_86"], 86),
        (["--gpu-architecture=compute_75"], 75),
        (["-arch=sm_90a"], 90),
        (["-gencode", "arch=compute_80,code=sm_80", "-gencode", "arch=compute_90,code=sm_90"], 80),
        (["-gencode", "arch=compute_90,code=sm_90", "-gencode", "arch=compute_75,code=sm_75"], 75),
        (["-arch=sm_75", "-arch=sm_80", "-arch=sm_86"], 80),
        (["-gencode", "arch=compute_100,code=sm_100", "-gencode", "arch=compute_90,code=sm_90"], 90),
        (["--generate-code=arch=compute_61,code=[compute_61,sm_61]"], 61),
        (["-code=sm_72"], 72),
        (["-arch=native"], DEFAULT_ARCH),
        (["-arch=all"], DEFAULT_ARCH),
        ([], DEFAULT_ARCH),
    ],
)
def test_the_architecture_an_sm_80_runs_is_compiled_for(argv, arch):
    """Of several architectures, the highest up to sm_80, else the lowest."""
    options, _ = parse([*argv, "-c", "k.cu"])
    assert options.cuda_arch == arch
    assert options.archs == [CUDA_OFFLOAD_ARCH] and options.wave_size == 32


def test_cu_sources_are_cuda_and_cpp_sources_host_cxx():
    options, _ = parse(["a.cu", "b.cpp", "c.c", "d.o", "libe.a"])
    assert [(s.path.name, s.language) for s in options.sources] == [("a.cu", "hip"), ("b.cpp", "c++"), ("c.c", "c")]
    assert options.objects == [Path("d.o"), Path("libe.a")]


def test_x_cu_makes_any_source_cuda():
    options, _ = parse(["-x", "cu", "kernels.cpp", "-c"])
    assert options.sources[0].language == "hip"


@pytest.mark.parametrize(
    "argv, expected",
    [
        (["-Xcompiler", "-fopenmp,-Wall"], ["-fopenmp", "-Wall"]),
        (["--compiler-options=-fPIC"], ["-fPIC"]),
        (["-Xlinker", "-rpath,/opt/lib"], ["-Wl,-rpath", "-Wl,/opt/lib"]),
        (["-G"], ["-g"]),
        (["-lineinfo"], ["-g"]),
        (["-dc"], ["-c", "-fgpu-rdc"]),
        (["-rdc=true"], ["-fgpu-rdc"]),
        (["--relocatable-device-code", "false"], ["-fno-gpu-rdc"]),
        (["-lib"], ["--emit-static-lib"]),
        (["--std=c++17"], ["-std=c++17"]),
        (["-std", "c++14"], ["-std=c++14"]),
        (["-keep"], ["-save-temps"]),
        (["-I", "inc", "-Iother", "-DN=4", "-D", "M"], ["-I", "inc", "-I", "other", "-D", "N=4", "-D", "M"]),
        (["-L/opt/lib", "-lm", "-lcublas"], ["-L", "/opt/lib", "-l", "m", "-l", "cublas"]),
        (["-O3", "--use_fast_math"], ["-O3", "-use_fast_math"]),
        (["--use-fast-math"], ["-use_fast_math"]),
        (["-use_fast_math"], ["-use_fast_math"]),
        (["-MD", "-MF", "k.d"], ["-MD", "-MF", "k.d"]),
        (["--default-stream", "per-thread"], ["-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1"]),
        (["-Werror", "all-warnings"], ["-Werror"]),
    ],
)
def test_options_become_gpusym_builds(argv, expected):
    assert translate(argv).build_argv == expected


@pytest.mark.parametrize(
    "argv",
    [
        ["-ccbin", "g++-12"],
        ["-ccbin=/usr/bin/g++"],
        ["--compiler-bindir", "g++"],
        ["-maxrregcount=32"],
        ["-maxrregcount", "64"],
        ["-Wno-deprecated-gpu-targets"],
        ["--expt-relaxed-constexpr", "--extended-lambda", "--expt-extended-lambda"],
        ["-lcudart", "-lcuda", "-lcudart_static", "-cudart=shared", "-cudart", "static"],
        ["-m64", "-res-usage", "-t", "4", "-Xcudafe", "--diag_suppress=177"],
    ],
)
def test_options_without_meaning_here_are_dropped(argv):
    assert translate(argv).build_argv == []


def test_xptxas_is_dropped_with_a_note():
    command = translate(["-Xptxas", "-v", "-c", "k.cu"])
    assert command.build_argv == ["-c", "k.cu"]
    assert command.notes == ["-Xptxas -v ignored: the simulated device has no PTX"]


@pytest.mark.parametrize("flag", ["-M", "-MM", "--generate-dependencies"])
def test_dependencies_only(flag):
    assert translate([flag, "k.cu"]).dependencies_only == ("-MM" if flag == "-MM" else "-M")


@pytest.mark.parametrize(
    "argv, message",
    [
        (["-arch"], "-arch needs a value"),
        (["-x", "fortran", "k.f"], "unsupported language '-x fortran'"),
        (["-cudart=dynamic", "k.cu"], "-cudart dynamic: use none, shared or static"),
        (["-dlink", "k.cu", "-o", "link.o"], "-dlink takes the objects of -dc compiles, not sources"),
    ],
)
def test_bad_command_lines_say_why(argv, message):
    with pytest.raises(UsageError, match=message):
        parse(argv)


def test_dlink_links_only_the_device_code_of_objects():
    options, _ = parse(["-dlink", "a.o", "b.o", "-o", "link.o"])
    assert options.device_link_only and options.objects == [Path("a.o"), Path("b.o")]


def test_an_options_file_holds_more_of_the_command_line(tmp_path):
    (tmp_path / "includes.rsp").write_text('-I"dir with space" -DN=3\n-arch=sm_70')
    command = translate(["--options-file", str(tmp_path / "includes.rsp"), "-c", "k.cu"])
    assert command.build_argv == ["-I", "dir with space", "-D", "N=3", "-c", "k.cu"]
    assert command.cuda_archs == [70]


def test_a_missing_options_file_is_a_usage_error(tmp_path):
    with pytest.raises(UsageError, match="--options-file .*missing.rsp"):
        translate(["-optf", str(tmp_path / "missing.rsp")])


def test_cmakes_compiler_check_options_are_accepted():
    command = translate(["-forward-unknown-to-host-compiler", "--keep", "--keep-dir", "tmp", "-x", "cu", "-c", "k.cu"])
    assert command.build_argv == ["-save-temps", "-x", "hip", "-c", "k.cu"]


@pytest.mark.parametrize("flag, output", [("-cubin", "k.cubin"), ("--fatbin", "k.fatbin"), ("-ptx", "k.ptx")])
def test_module_outputs_are_the_device_code_for_cumoduleload(flag, output):
    options, command = parse([flag, "-arch=sm_86", "src/k.cu"])
    assert options.genco and options.output == Path(output)
    assert command.notes == (
        ["-ptx: there is no PTX on the simulated device: writing its module instead"] if flag == "-ptx" else []
    )
    assert parse([flag, "src/k.cu", "-o", "m.bin"])[0].output == Path("m.bin")
