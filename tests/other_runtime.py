"""tests/programs/other_runtime.hip, built against do-nothing HIP entry
points (other_runtime_entry_points.c) instead of gpusym's runtime: what the
gdb extension and capture do with another HIP runtime."""

from __future__ import annotations

from pathlib import Path

from conftest import REPO, TEST_PROGRAMS, describe, run

from native import toolchain


def build(directory: Path, *, shared: bool) -> Path:
    """The program, in `directory`, linked against the entry points as a
    shared library (as HIP runtimes are), or as an object of its own."""
    program, entry_points = directory / "program", TEST_PROGRAMS / "other_runtime_entry_points.c"
    compile_hip = [toolchain.tool("clang++"), "-x", "hip", "-nogpuinc", "-nogpulib", "--offload-arch=gfx90a"]
    compile_hip += [f"-I{REPO / 'device/include'}", "-g", "-c", TEST_PROGRAMS / "other_runtime.hip"]
    if shared:
        runtime = directory / "libotherhip.so"
        commands = [
            [toolchain.tool("clang"), "-shared", "-fPIC", entry_points, "-o", runtime],
            [*compile_hip, "-o", directory / "program.o"],
            [toolchain.tool("clang++"), directory / "program.o", f"-L{directory}", "-lotherhip"]
            + [f"-Wl,-rpath,{directory}", "-o", program],
        ]
    else:
        objects = [directory / "program.o", directory / "runtime.o"]
        commands = [
            [*compile_hip, "-o", objects[0]],
            [toolchain.tool("clang"), "-c", entry_points, "-o", objects[1]],
            [toolchain.tool("clang++"), *objects, "-o", program],
        ]
    for command in commands:
        built = run(command)
        assert built.returncode == 0, describe(built)
    return program
