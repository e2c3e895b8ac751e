"""`gpusym build` behaves like a compiler driver: diagnostics, exit statuses,
separate compilation, shared libraries and macros."""

from __future__ import annotations

import re

import elf_oracles as elf
import pytest
from conftest import TEST_PROGRAMS, describe, run, run_gpusym

from device.compiler.driver import build
from sample_apps.samples import PROGRAMS_DIR

pytestmark = [pytest.mark.toolchain]

VECTOR_ADD_SOURCE = PROGRAMS_DIR / "vector_add" / "vector_add.hip"
EXIT_USAGE = 2


# ---- compile errors ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def compile_error(tmp_path_factory):
    out = tmp_path_factory.mktemp("compile-error") / "compile_error"
    return out, run_gpusym("build", "-g", TEST_PROGRAMS / "compile_error.hip", "-o", out)


def test_compile_error_gives_a_nonzero_exit_status(compile_error):
    out, result = compile_error
    assert result.returncode != 0, describe(result)
    assert not out.exists(), "a program was written despite the error"


def test_compile_error_shows_the_compilers_diagnostic_with_the_file_name(compile_error):
    _, result = compile_error
    source = TEST_PROGRAMS / "compile_error.hip"
    line = next(n for n, text in enumerate(source.read_text().splitlines(), 1) if "undeclared_variable" in text)
    diagnostic = re.compile(
        rf"^\S*compile_error\.hip:{line}:\d+: error: use of undeclared identifier 'undeclared_variable'$", re.MULTILINE
    )
    assert len(diagnostic.findall(result.stderr)) == 1, f"expected the error once\n{describe(result)}"


def test_compile_error_is_not_a_python_traceback(compile_error):
    _, result = compile_error
    assert "Traceback" not in result.stderr + result.stdout, describe(result)
    assert "internal error" not in result.stderr, describe(result)


# ---- usage errors --------------------------------------------------------------------------

USAGE_ERRORS = {
    "compile-only-and-shared": (["-c", "-shared", str(VECTOR_ADD_SOURCE)], "-c and -shared"),
    "no-inputs": ([], "no input files"),
    "no-inputs-only-output": (["-o", "program"], "no input files"),
    "unknown-language": (["-x", "fortran", str(VECTOR_ADD_SOURCE)], "fortran"),
    "dependencies-only": (["-M", str(VECTOR_ADD_SOURCE)], "-M (dependencies only"),
    "device-only-without-output-kind": (["--cuda-device-only", str(VECTOR_ADD_SOURCE)], "--cuda-device-only needs -c"),
    "static-lib-and-shared": (["--emit-static-lib", "-shared", str(VECTOR_ADD_SOURCE)], "--emit-static-lib excludes"),
}


@pytest.mark.parametrize("case", USAGE_ERRORS)
def test_usage_error_exits_2_with_a_one_line_message(case, tmp_path):
    argv, mentioned = USAGE_ERRORS[case]
    result = run_gpusym("build", *argv, cwd=tmp_path)
    assert result.returncode == EXIT_USAGE, describe(result)
    assert "Traceback" not in result.stderr, describe(result)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, f"expected one line\n{describe(result)}"
    assert lines[0].startswith("gpusym build: ") and mentioned in lines[0], lines[0]
    assert list(tmp_path.iterdir()) == [], "a usage error left files behind"


@pytest.mark.parametrize("case", USAGE_ERRORS)
def test_usage_error_status_from_the_python_entry_point(case, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    argv, _ = USAGE_ERRORS[case]
    assert build(argv) == EXIT_USAGE


# ---- separate compilation ----------------------------------------------------------------


def test_compile_only_object_links_into_a_working_program(tmp_path):
    obj = tmp_path / "vector_add.o"
    compiled = run_gpusym("build", "-c", "-g", VECTOR_ADD_SOURCE, "-o", obj)
    assert compiled.returncode == 0, describe(compiled)
    assert elf.elf_header(obj)["Type"].startswith("REL"), "-c did not produce a relocatable object"
    assert ".hip_fatbin" in elf.section_names(obj)

    program = tmp_path / "vector_add"
    linked = run_gpusym("build", obj, "-o", program)
    assert linked.returncode == 0, describe(linked)
    result = run([program])
    assert result.returncode == 0, describe(result)
    assert result.stdout.rstrip().endswith(" 0 wrong"), describe(result)


def test_save_temps_keeps_the_device_assembly_and_code_objects_in_the_working_directory(tmp_path):
    (tmp_path / "out").mkdir()
    compiled = run_gpusym("build", "-save-temps", "-c", VECTOR_ADD_SOURCE, "-o", tmp_path / "out" / "v.o", cwd=tmp_path)
    assert compiled.returncode == 0, describe(compiled)
    kept = {path.name for path in tmp_path.glob("vector_add-gpusym-*")}
    assert {"vector_add-gpusym-sim.s", "vector_add-gpusym-gfx90a.co", "vector_add-gpusym-fatbin.bundle"} <= kept
    assert ".globl" in (tmp_path / "vector_add-gpusym-sim.s").read_text("latin-1")


# ---- shared libraries ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def kernel_library(build_program):
    return build_program("shared_kernels.hip", flags=("-g", "-shared"), output="libshared_kernels.so")


def test_shared_library_of_kernels_is_a_shared_object_with_a_fat_binary(kernel_library):
    assert elf.elf_header(kernel_library)["Type"].startswith("DYN")
    assert ".hip_fatbin" in elf.section_names(kernel_library)
    exported = elf.symbols(kernel_library)
    assert exported.get("_Z7add_onePii") is not None and exported["_Z7add_onePii"].type == "OBJECT"


@pytest.mark.parametrize("blocking", ["0", "1"])
def test_cxx_main_runs_kernels_of_a_shared_library(build_program, kernel_library, blocking):
    directory = kernel_library.parent
    program = build_program(
        "shared_main.cpp",
        flags=("-g", f"-L{directory}", "-lshared_kernels", f"-Wl,-rpath,{directory}"),
    )
    result = run([program], env={"GPUSYM_LAUNCH_BLOCKING": blocking})
    assert result.returncode == 0, describe(result)
    assert result.stdout.strip() == (
        "shared_main: library_square hipSuccess, hipLaunchKernel(add_one) hipSuccess: 0 wrong"
    ), describe(result)


# ---- macros --------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["42", "-7"])
def test_define_reaches_device_code(build_program, value):
    program = build_program("macro_value.hip", flags=(f"-DDEVICE_VALUE={value}",), output=f"macro_value{value}")
    result = run([program])
    assert result.returncode == 0, describe(result)
    assert result.stdout.strip() == f"device wrote {value}", describe(result)


# ---- optimised device code -----------------------------------------------------------------


@pytest.mark.parametrize("level", ["-O0", "-O1", "-O2", "-O3"])
def test_inlined_device_function_with_parameters_builds_and_runs(build_program, level):
    program = build_program("inlined_device_function.hip", flags=("-g", level), output=f"inlined{level}")
    result = run([program])
    assert result.returncode == 0, describe(result)
    assert result.stdout.strip() == "twice(20) = 41", describe(result)


def test_kernel_parameter_that_cannot_be_passed_is_a_build_error_naming_it(tmp_path):
    out = tmp_path / "overaligned_kernel"
    result = run_gpusym("build", TEST_PROGRAMS / "overaligned_kernel.hip", "-o", out)
    assert result.returncode == 1, describe(result)
    assert result.stderr.strip() == (
        "gpusym build: kernel take_wide(int*, Wide): parameter 2 (wide) cannot be passed on the simulated device: "
        "aggregate aligned to 128 bytes (at most 64)"
    ), describe(result)
    assert not out.exists(), "a program was written despite the error"
