"""device/compiler/options.py reads a compiler driver's command line: each kind
of argument into its field, and every combination it refuses, from plain argv
lists (no toolchain)."""

from __future__ import annotations

from pathlib import Path

import pytest

from device.compiler.options import BuildOptions, Source, UsageError, parse

pytestmark = []  # no toolchain, no gdb: seconds (make check)


def usage_error(*argv: str, hipcc: bool = False) -> str:
    """The message of the UsageError that parsing `argv` raises."""
    with pytest.raises(UsageError) as error:
        parse(list(argv), hipcc=hipcc)
    return str(error.value)


# ---- inputs ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "language"),
    [
        ("k.hip", "hip"),
        ("k.cu", "hip"),
        ("k.c", "c"),
        ("k.cpp", "c++"),
        ("k.cc", "c++"),
        ("k.cxx", "c++"),
        ("k.C", "c++"),
        ("k.c++", "c++"),
    ],
)
def test_a_source_gets_its_suffixs_language(name, language):
    assert parse([name]).sources == [Source(Path(name), language)]


@pytest.mark.parametrize(("name", "language"), [("k.cpp", "hip"), ("k.cc", "hip"), ("k.cu", "hip"), ("k.c", "c")])
def test_hipcc_compiles_cxx_sources_as_hip(name, language):
    assert parse([name], hipcc=True).sources == [Source(Path(name), language)]


@pytest.mark.parametrize("name", ["main.o", "libk.a", "libk.so", "program", "-"])
def test_other_inputs_are_objects_for_the_link(name):
    options = parse([name])
    assert options.objects == [Path(name)]
    assert options.sources == []
    assert options.compile_flags == options.link_flags == []


def test_inputs_keep_their_order():
    options = parse(["b.cu", "x.o", "a.c", "y.a"])
    assert options.sources == [Source(Path("b.cu"), "hip"), Source(Path("a.c"), "c")]
    assert options.objects == [Path("x.o"), Path("y.a")]


# ---- -x ----------------------------------------------------------------------------------


def test_x_sets_the_language_of_the_sources_after_it():
    options = parse(["a.c", "-x", "hip", "b.c", "c.o", "-x", "none", "d.c"])
    assert options.sources == [
        Source(Path("a.c"), "c"),
        Source(Path("b.c"), "hip"),
        Source(Path("c.o"), "hip"),
        Source(Path("d.c"), "c"),
    ]
    assert options.objects == []


@pytest.mark.parametrize("argv", [["-xc++", "k.hip"], ["-x", "c++", "k.hip"], ["-x=c++", "k.hip"]])
def test_x_value_joined_or_separate(argv):
    assert parse(argv).sources == [Source(Path("k.hip"), "c++")]


def test_x_is_no_compile_flag():
    options = parse(["-x", "hip", "k.cpp"])
    assert options.compile_flags == options.link_flags == []


def test_x_refuses_an_unknown_language():
    assert usage_error("-x", "fortran", "k.f") == "unsupported language '-x fortran' (use hip, c, c++ or none)"


# ---- output and what is built --------------------------------------------------------------


@pytest.mark.parametrize("argv", [["k.hip", "-o", "out"], ["k.hip", "-oout"], ["-o", "out", "k.hip"]])
def test_o_names_the_output(argv):
    assert parse(argv).output == Path("out")


def test_the_last_o_wins():
    assert parse(["k.hip", "-o", "first", "-o", "second"]).output == Path("second")


def test_no_o_leaves_the_output_to_the_driver():
    options = parse(["k.hip"])
    assert options.output is None
    assert not (options.compile_only or options.shared or options.static_lib or options.genco)


def test_c_compiles_only():
    options = parse(["-c", "k.hip", "-o", "k.o"])
    assert options.compile_only
    assert options.output == Path("k.o")


def test_c_with_several_sources_and_no_o():
    options = parse(["-c", "a.hip", "b.hip"])
    assert options.compile_only
    assert [s.path for s in options.sources] == [Path("a.hip"), Path("b.hip")]


def test_shared_links_a_library():
    options = parse(["-shared", "k.hip", "-o", "libk.so"])
    assert options.shared
    assert not options.compile_only


def test_emit_static_lib():
    assert parse(["--emit-static-lib", "a.hip", "b.hip", "-o", "libk.a"]).static_lib


@pytest.mark.parametrize(
    "argv, where", [(["-save-temps"], "cwd"), (["-save-temps=obj"], "obj"), (["--save-temps=cwd"], "cwd"), ([], None)]
)
def test_save_temps_says_where_the_intermediate_files_go(argv, where):
    options = parse([*argv, "-c", "k.hip"])
    assert options.save_temps == where
    assert not any("save-temps" in flag for flag in options.compile_flags + options.link_flags)


def test_save_temps_refuses_another_place():
    with pytest.raises(UsageError, match="-save-temps takes cwd or obj"):
        parse(["-save-temps=somewhere", "-c", "k.hip"])


def test_genco_with_one_hip_source_and_o():
    options = parse(["--genco", "k.hip", "-o", "k.co"])
    assert options.genco
    assert options.output == Path("k.co")


@pytest.mark.parametrize(
    ("argv", "rdc"),
    [
        (["k.hip"], False),
        (["-fgpu-rdc", "k.hip"], True),
        (["-fno-gpu-rdc", "k.hip"], False),
        (["-fgpu-rdc", "-fno-gpu-rdc", "k.hip"], False),
        (["-fno-gpu-rdc", "-fgpu-rdc", "k.hip"], True),
    ],
)
def test_gpu_rdc_the_last_one_wins(argv, rdc):
    options = parse(argv)
    assert options.rdc is rdc
    assert options.compile_flags == options.link_flags == []


@pytest.mark.parametrize("flag", ["--cuda-host-only", "--offload-host-only"])
def test_host_only(flag):
    options = parse([flag, "-c", "k.hip"])
    assert options.host_only
    assert not options.device_only


@pytest.mark.parametrize("flag", ["--cuda-device-only", "--offload-device-only"])
def test_device_only_with_c_is_genco_to_the_sources_object(flag):
    options = parse([flag, "-c", "src/k.hip"])
    assert options.device_only and options.genco
    assert not options.compile_only
    assert options.output == Path("k.o")


def test_device_only_keeps_its_o():
    assert parse(["--cuda-device-only", "--genco", "k.hip", "-o", "k.co"]).output == Path("k.co")


# ---- --offload-arch --------------------------------------------------------------------


def test_the_default_arch_is_gfx90a():
    options = parse(["k.hip"])
    assert options.offload_archs == []
    assert options.archs == ["gfx90a"]


@pytest.mark.parametrize(
    ("argv", "archs"),
    [
        (["--offload-arch=gfx942"], ["gfx942"]),
        (["--offload-arch", "gfx942"], ["gfx942"]),
        (["--offload-arch=gfx90a,gfx942"], ["gfx90a", "gfx942"]),
        (["--offload-arch=gfx90a,,gfx942,"], ["gfx90a", "gfx942"]),
        (["--offload-arch=gfx90a", "--offload-arch", "gfx1100"], ["gfx90a", "gfx1100"]),
        (["--offload-arch=gfx90a:xnack+"], ["gfx90a:xnack+"]),
        (["--offload-arch=", "gfx942"], ["gfx942"]),
    ],
)
def test_offload_arch_spellings(argv, archs):
    options = parse([*argv, "k.hip"])
    assert options.offload_archs == archs
    assert options.archs == archs
    assert options.compile_flags == options.link_flags == []


def test_offload_arch_needs_a_value():
    assert usage_error("k.hip", "--offload-arch") == "--offload-arch needs a value"


@pytest.mark.parametrize(
    ("argv", "wave_size"),
    [
        ([], 64),
        (["--offload-arch=gfx1100"], 32),
        (["--offload-arch=gfx1030", "--offload-arch=gfx90a"], 32),
        (["--offload-arch=gfx90a", "--offload-arch=gfx1030"], 64),
        (["-mno-wavefrontsize64"], 32),
        (["--offload-arch=gfx1100", "-mwavefrontsize64"], 64),
        (["-mwavefrontsize64", "-mno-wavefrontsize64"], 32),
    ],
)
def test_wave_size_follows_the_first_arch_and_the_last_wavefrontsize_flag(argv, wave_size):
    assert parse([*argv, "k.hip"]).wave_size == wave_size


# ---- compile and link flags ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "flags"),
    [
        (["-I", "inc"], ["-I", "inc"]),
        (["-Iinc"], ["-I", "inc"]),
        (["-D", "N=1"], ["-D", "N=1"]),
        (["-DN=1"], ["-D", "N=1"]),
        (["-UNDEBUG"], ["-U", "NDEBUG"]),
        (["-isystem", "sys"], ["-isystem", "sys"]),
        (["-isystemsys"], ["-isystem", "sys"]),
        (["-include", "pre.h"], ["-include", "pre.h"]),
        (["-iquote", "q"], ["-iquote", "q"]),
        (["-idirafter", "after"], ["-idirafter", "after"]),
    ],
)
def test_preprocessor_options_are_compile_flags_with_their_value_apart(argv, flags):
    options = parse([*argv, "k.hip"])
    assert options.compile_flags == flags
    assert options.link_flags == []
    assert options.sources == [Source(Path("k.hip"), "hip")]


@pytest.mark.parametrize("flag", ["-I", "-D", "-isystem"])
def test_a_preprocessor_option_needs_a_value(flag):
    assert usage_error("k.hip", flag) == f"{flag} needs a value"


@pytest.mark.parametrize(
    ("argv", "flags"),
    [
        (["-L", "lib"], ["-Llib"]),
        (["-Llib"], ["-Llib"]),
        (["-l", "m"], ["-lm"]),
        (["-lm"], ["-lm"]),
        (["-Wl,--as-needed"], ["-Wl,--as-needed"]),
        (["-rdynamic"], ["-rdynamic"]),
        (["-static-libstdc++"], ["-static-libstdc++"]),
        (["-static-libgcc"], ["-static-libgcc"]),
    ],
)
def test_link_options_are_link_flags_only(argv, flags):
    options = parse(["k.hip", *argv])
    assert options.link_flags == flags
    assert options.compile_flags == []
    assert options.objects == []


@pytest.mark.parametrize("argv", [["-lamdhip64"], ["-l", "amdhip64"]])
def test_rocms_hip_runtime_is_not_linked(argv):
    options = parse(["k.hip", "-lm", *argv])
    assert options.link_flags == ["-lm"]


@pytest.mark.parametrize("flag", ["-L", "-l"])
def test_a_link_option_needs_a_value(flag):
    assert usage_error("k.hip", flag) == f"{flag} needs a value"


def test_xlinker_is_passed_to_both_steps_and_its_value_read_on_its_own():
    """-Xlinker has no rule of its own: it goes to the compiles and the link
    like any other flag, and its value is the next argument's own kind."""
    options = parse(["k.hip", "-Xlinker", "--no-undefined", "-Xlinker", "script.ld"])
    assert options.compile_flags == ["-Xlinker", "--no-undefined", "-Xlinker"]
    assert options.link_flags == ["-Xlinker", "--no-undefined", "-Xlinker"]
    assert options.objects == [Path("script.ld")]


@pytest.mark.parametrize("flag", ["-fPIC", "-pthread", "-march=native", "--frobnicate", "-emit-llvm"])
def test_other_flags_go_to_the_compiles_and_the_link(flag):
    options = parse(["k.hip", flag])
    assert options.compile_flags == [flag]
    assert options.link_flags == [flag]
    assert options.objects == []


@pytest.mark.parametrize("flag", ["-fopenmp", "-fopenmp=libomp", "-fno-openmp"])
def test_openmp_goes_to_the_host_compiles_and_the_link_not_device_code(flag):
    options = parse(["k.hip", flag])
    assert options.host_flags == [flag]
    assert options.link_flags == [flag]
    assert options.compile_flags == []
    assert options.objects == []


@pytest.mark.parametrize(
    ("argv", "runtime"),
    [
        ([], None),
        (["-fopenmp"], "libomp"),
        (["-fopenmp=libomp"], "libomp"),
        (["-fopenmp=libgomp"], "libgomp"),
        (["-fopenmp", "-fno-openmp"], None),
        (["-fno-openmp", "-fopenmp"], "libomp"),
    ],
)
def test_the_last_openmp_flag_names_the_runtime_the_link_takes(argv, runtime):
    assert parse(["k.o", *argv]).openmp_runtime == runtime


@pytest.mark.parametrize("hipcc", [False, True])
def test_openmp_on_a_link_line_is_a_link_flag(hipcc):
    options = parse(["a.o", "b.o", "-fopenmp", "-o", "prog"], hipcc=hipcc)
    assert options.objects == [Path("a.o"), Path("b.o")]
    assert options.link_flags == ["-fopenmp"]


@pytest.mark.parametrize("flag", ["-O0", "-O2", "-O3", "-Os", "-Ofast", "-O"])
def test_optimization_levels_are_compile_flags(flag):
    options = parse(["k.hip", flag])
    assert options.compile_flags == [flag]
    assert options.link_flags == []
    assert not options.debug


@pytest.mark.parametrize(
    ("argv", "debug"),
    [
        (["-g"], True),
        (["-gdwarf-4"], True),
        (["-ggdb"], True),
        (["-g0"], False),
        (["-g", "-g0"], False),
        (["-g0", "-g"], True),
    ],
)
def test_g_asks_for_debug_information_and_is_a_compile_flag(argv, debug):
    options = parse(["k.hip", *argv])
    assert options.debug is debug
    assert options.compile_flags == argv
    assert options.link_flags == []


@pytest.mark.parametrize("flag", ["-std=c++17", "-Wall", "-Wno-unused", "-pedantic", "-pedantic-errors", "-w"])
def test_warning_and_standard_options_are_compile_flags_only(flag):
    options = parse(["k.hip", flag])
    assert options.compile_flags == [flag]
    assert options.link_flags == []


@pytest.mark.parametrize("flag", ["-Xclang", "-mllvm", "-Xoffload-linker"])
def test_paired_options_take_the_next_argument_whatever_it_is(flag):
    options = parse(["k.hip", flag, "-c"])
    assert options.compile_flags == [flag, "-c"]
    assert not options.compile_only


def test_a_paired_option_needs_a_value():
    assert usage_error("k.hip", "-Xclang") == "-Xclang needs a value"


def test_use_fast_math_is_clangs_ffast_math():
    options = parse(["k.hip", "-use_fast_math"])
    assert options.compile_flags == ["-ffast-math"]
    assert options.link_flags == []


@pytest.mark.parametrize(
    ("argv", "flags"),
    [
        (["-MD"], ["-MD"]),
        (["-MMD", "-MP"], ["-MMD", "-MP"]),
        (["-MD", "-MF", "k.d"], ["-MD", "-MF", "k.d"]),
        (["-MT", "target", "-MQ", "quoted"], ["-MT", "target", "-MQ", "quoted"]),
    ],
)
def test_dependency_options_are_for_the_host_compile(argv, flags):
    options = parse(["-c", "k.hip", *argv])
    assert options.dependency_flags == flags
    assert options.compile_flags == options.link_flags == []


def test_mf_needs_a_value():
    assert usage_error("-c", "k.hip", "-MD", "-MF") == "-MF needs a value"


@pytest.mark.parametrize("flag", ["-M", "-MM"])
def test_dependencies_without_a_compile_are_refused(flag):
    message = f"{flag} (dependencies only, no compile) is not supported: use -MD or -MMD with -c"
    assert usage_error("k.hip", flag) == message


def test_flags_keep_their_order():
    options = parse(["-O2", "-Iinc", "k.hip", "-fPIC", "-Wall", "-lm", "-fopenmp", "-L", "lib"])
    assert options.compile_flags == ["-O2", "-I", "inc", "-fPIC", "-Wall"]
    assert options.host_flags == ["-fopenmp"]
    assert options.link_flags == ["-fPIC", "-lm", "-fopenmp", "-Llib"]


# ---- the toolchain, questions and hipcc's flags -------------------------------------------


def test_v_prints_the_commands():
    options = parse(["-v", "k.hip"])
    assert options.verbose
    assert options.compile_flags == options.link_flags == []


def test_v_alone_is_a_question():
    assert parse(["-v"]) == BuildOptions(verbose=True)


@pytest.mark.parametrize("flag", ["--version", "-dumpversion", "-dumpmachine", "-print-resource-dir"])
def test_questions_to_the_compiler_need_no_input(flag):
    assert parse([flag]) == BuildOptions(information=[flag])


def test_questions_keep_their_order():
    assert parse(["--version", "-v", "-print-search-dirs"]).information == ["--version", "-print-search-dirs"]


@pytest.mark.parametrize("flag", ["--rocm-path", "--hip-path"])
def test_rocm_path(flag):
    options = parse([f"{flag}=/opt/rocm", "-v"])
    assert options.rocm_path == Path("/opt/rocm")
    assert options.compile_flags == options.link_flags == []


@pytest.mark.parametrize(
    "flag", ["--hip-link", "-nogpulib", "-nogpuinc", "--hip-device-lib-path=/lib", "--rocm-device-lib-path=/lib"]
)
def test_hipccs_device_library_flags_are_dropped(flag):
    options = parse(["k.hip", flag])
    assert options == parse(["k.hip"])


@pytest.mark.parametrize("argv", [["-target", "amdgcn-amd-amdhsa"], ["--target=amdgcn-amd-amdhsa"]])
def test_a_foreign_target_is_clangs_whole_command(argv):
    """Nothing after the target is read: not even a refused option."""
    options = parse(["-c", "-O2", *argv, "-M", "-x", "fortran", "-o"])
    assert options.foreign_target == "amdgcn-amd-amdhsa"
    assert options.compile_only
    assert options.compile_flags == ["-O2"]


def test_a_foreign_target_needs_no_input():
    assert parse(["-target", "amdgcn-amd-amdhsa"]).foreign_target == "amdgcn-amd-amdhsa"


def test_a_foreign_target_skips_the_conflict_checks():
    assert parse(["-c", "-shared", "--target=amdgcn-amd-amdhsa"]).foreign_target == "amdgcn-amd-amdhsa"


@pytest.mark.parametrize("argv", [["-target", "x86_64-linux-gnu"], ["--target=x86_64-linux-gnu"]])
def test_an_x86_64_target_is_passed_to_both_steps(argv):
    options = parse([*argv, "k.hip"])
    assert options.foreign_target is None
    assert options.compile_flags == ["--target=x86_64-linux-gnu"]
    assert options.link_flags == ["--target=x86_64-linux-gnu"]


@pytest.mark.parametrize("flag", ["-target", "--target"])
def test_target_needs_a_value(flag):
    assert usage_error("k.hip", flag) == f"{flag} needs a value"


# ---- missing inputs and values ------------------------------------------------------------


@pytest.mark.parametrize("argv", [[], ["-o", "program"], ["-c", "-O2"], ["-x", "hip"]])
def test_no_input_files(argv):
    assert usage_error(*argv) == "no input files"


def test_o_needs_a_value():
    assert usage_error("k.hip", "-o") == "-o needs a value"


def test_x_needs_a_value():
    assert usage_error("k.hip", "-x") == "-x needs a value"


def test_a_value_may_look_like_an_option():
    assert parse(["k.hip", "-o", "-c"]) == BuildOptions(sources=[Source(Path("k.hip"), "hip")], output=Path("-c"))


# ---- options that exclude each other ------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["-c", "a.hip", "b.hip", "-o", "x.o"], "cannot specify -o with -c and several sources"),
        (["-c", "-shared", "k.hip"], "-c and -shared exclude each other"),
        (["--emit-static-lib", "-c", "k.hip"], "--emit-static-lib excludes -c, -shared and --genco"),
        (["--emit-static-lib", "-shared", "k.hip"], "--emit-static-lib excludes -c, -shared and --genco"),
        (["--emit-static-lib", "--genco", "k.hip", "-o", "k"], "--emit-static-lib excludes -c, -shared and --genco"),
        (
            ["--cuda-host-only", "--cuda-device-only", "-c", "k.hip"],
            "--cuda-host-only and --cuda-device-only exclude each other",
        ),
        (
            ["--offload-host-only", "--offload-device-only", "-c", "k.hip"],
            "--cuda-host-only and --cuda-device-only exclude each other",
        ),
        (
            ["--cuda-device-only", "-fgpu-rdc", "-c", "k.hip"],
            "--cuda-device-only with -fgpu-rdc is not supported: compile with -c -fgpu-rdc",
        ),
        (["--cuda-device-only", "k.hip"], "--cuda-device-only needs -c (or --genco): it writes a device bundle"),
        (["--cuda-device-only", "-c", "a.hip", "b.hip"], "--genco takes exactly one HIP source"),
        (["--cuda-device-only", "--genco", "-shared", "k.hip"], "--genco excludes -c and -shared"),
        (["--genco", "-c", "k.hip", "-o", "k.co"], "--genco excludes -c and -shared"),
        (["--genco", "-shared", "k.hip", "-o", "k.co"], "--genco excludes -c and -shared"),
        (["--genco", "a.hip", "b.hip", "-o", "k.co"], "--genco takes exactly one HIP source"),
        (["--genco", "k.c", "-o", "k.co"], "--genco takes exactly one HIP source"),
        (["--genco", "k.hip", "x.o", "-o", "k.co"], "--genco takes exactly one HIP source"),
        (["--genco", "x.o", "-o", "k.co"], "--genco takes exactly one HIP source"),
        (["--genco", "k.hip"], "--genco needs -o FILE"),
    ],
)
def test_conflicting_options_are_refused(argv, message):
    assert usage_error(*argv) == message


def test_the_first_conflict_is_reported():
    assert usage_error("-c", "-shared", "--emit-static-lib", "a.hip", "b.hip", "-o", "x") == (
        "cannot specify -o with -c and several sources"
    )


def test_questions_skip_the_conflict_checks():
    assert parse(["-v", "-c", "-shared"]) == BuildOptions(verbose=True, compile_only=True, shared=True)


def test_c_with_o_and_one_source_is_fine():
    assert parse(["-c", "k.hip", "x.o", "-o", "k.o"]).output == Path("k.o")


def test_the_device_only_compile_checks_genco_with_the_source_as_it_is():
    """--cuda-device-only -c of a C source: a device bundle needs HIP."""
    assert usage_error("--cuda-device-only", "-c", "k.c") == "--genco takes exactly one HIP source"


def test_hipcc_device_only_compile_of_a_cpp_source():
    options = parse(["--cuda-device-only", "-c", "k.cpp"], hipcc=True)
    assert options.genco
    assert options.output == Path("k.o")
