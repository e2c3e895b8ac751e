"""Runs a whole ``gpusym build``: compiles each source, then links."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

from device import cuda_toolkit_prefix, host_libraries, runtime_library
from device.compiler import device_link, hip_source, nvcc_options, openmp, signatures
from device.compiler import options as build_options
from native import toolchain

EXIT_USAGE = 2


def _object_path(source: Path, options: build_options.BuildOptions, workdir: Path, index: int) -> Path:
    if options.compile_only:
        return options.output or Path(source.with_suffix(".o").name)
    return workdir / f"{index}-{source.stem}.o"


def _is_cxx_standard(flag: str) -> bool:
    """Whether `flag` names a C++ dialect (-std=c++17, -std=gnu++20): one
    command line's -std= is for its C++ and CUDA sources, and a C source
    keeps its compiler's own C dialect, as under nvcc and g++."""
    return flag.startswith("-std=") and "++" in flag


def _compile(source: build_options.Source, options: build_options.BuildOptions, output: Path, workdir: Path) -> None:
    if source.language == "hip":
        hip_source.compile_hip(source.path, options, output, workdir)
        return
    compiler = toolchain.tool("clang" if source.language == "c" else "clang++")
    compile_flags = options.compile_flags
    if source.language == "c":
        compile_flags = [flag for flag in compile_flags if not _is_cxx_standard(flag)]
    command = [
        compiler,
        "-x",
        source.language,
        *hip_source.include_flags(options),
        *compile_flags,
        *options.host_flags,
        *options.dependency_flags,
        "-c",
        str(source.path),
        "-o",
        str(output),
    ]
    hip_source.check_compile(toolchain.run(command, verbose=options.verbose, capture=True), source.path)


def _save_temps(source: Path, workdir: Path, options: build_options.BuildOptions) -> None:
    """-save-temps: `source`'s intermediate files (device assembly, code
    objects, the offload bundle) kept as SOURCE-STEM-gpusym-NAME, in the
    working directory (cwd) or beside the output (obj)."""
    if not workdir.is_dir():
        return
    where = Path.cwd()
    if options.save_temps == "obj" and options.output is not None:
        where = options.output.parent
    for temp in sorted(workdir.iterdir()):
        if temp.is_file():
            shutil.copyfile(temp, where / f"{source.stem}-gpusym-{temp.name}")


def _archive(objects: list[Path], options: build_options.BuildOptions) -> None:
    """--emit-static-lib: the objects as one static library."""
    output = options.output or Path("a.out")
    output.unlink(missing_ok=True)
    command = [toolchain.tool("llvm-ar"), "rcsD", str(output), *map(str, objects)]
    result = toolchain.run(command, verbose=options.verbose)
    if result.returncode != 0:
        raise hip_source.CompileError(result.returncode)


def _parallel_algorithms_flags() -> list[str]:
    """What the host's parallel algorithms need at the link: oneTBB where it
    is installed, since libstdc++ then runs them over it."""
    found = toolchain.run([toolchain.tool("clang++"), "-print-file-name=libtbb.so"], capture=True).stdout.strip()
    return ["-ltbb"] if Path(found).is_absolute() else []


def _link(objects: list[Path], options: build_options.BuildOptions, workdir: Path) -> None:
    runtime = runtime_library.runtime_path(options.verbose)
    openmp_flags = openmp.link_flags(options.openmp_runtime, options.link_flags)
    device = device_link.scan(objects, options.link_flags)
    device_objects, device_flags = device_link.link_inputs(device, options, workdir / "device-link")
    command = [
        toolchain.tool("clang++"),
        *(["-shared"] if options.shared else []),
        *map(str, objects + device_objects),
        *device_flags,
        *host_libraries.resolve_link_flags(options.link_flags, options.verbose),
        *openmp_flags,
        *(_parallel_algorithms_flags() if options.parallel_algorithms else []),
        str(runtime),
        "-o",
        str(options.output or "a.out"),
    ]
    if options.verbose and options.cuda_toolkit:
        print(cuda_toolkit_prefix.verbose_link_line(options.cuda_toolkit, command), file=sys.stderr)
    result = toolchain.run(command, verbose=options.verbose)
    if result.returncode != 0:
        raise hip_source.CompileError(result.returncode)


def _device_link_only(objects: list[Path], options: build_options.BuildOptions, workdir: Path) -> None:
    """nvcc's -dlink: the object defining the fat binaries and registration
    handles of `objects`' relocatable device code (empty when they need
    none), for a host link by another compiler with those objects."""
    for path in objects:
        _require_object(path)
    device = device_link.scan(objects, options.link_flags)
    linked, flags = device_link.link_inputs(device, options, workdir / "device-link")
    if flags:
        raise device_link.DeviceLinkError("-dlink of a hand-made fat binary: link the program with gpusym-nvcc")
    output = options.output or Path("a_dlink.o")
    if linked:
        shutil.copyfile(linked[0], output)
        return
    empty = workdir / "empty.s"
    empty.write_text('\t.section .note.GNU-stack,"",@progbits\n')
    assemble = [toolchain.tool("clang++"), f"--target={hip_source.HOST_TRIPLE}", "-c", str(empty), "-o", str(output)]
    hip_source.check(toolchain.run(assemble, verbose=options.verbose, capture=True))


def _require_object(path: Path) -> None:
    """Raises DeviceLinkError unless `path` is an ELF object or an archive,
    as nvlink refuses anything else."""
    try:
        with path.open("rb") as file:
            magic = file.read(8)
    except OSError as error:
        raise device_link.DeviceLinkError(f"{path}: cannot read: {error.strerror}") from error
    if not magic.startswith(b"\x7fELF") and magic != b"!<arch>\n":
        raise device_link.DeviceLinkError(f"{path}: not an object file or archive, which -dlink takes")


def _answer(options: build_options.BuildOptions, hipcc: bool, nvcc: bool) -> int:
    """``--version``, ``-print-...``, a lone ``-v``: clang-19's answers, and
    the HIP installation as clang names it (CMake reads that line)."""
    if nvcc and "--version" in options.information:
        major, minor = nvcc_options.CUDA_VERSION
        # The second and third lines are those build tools (CMake) read.
        print("gpusym-nvcc: CUDA for the gpusym simulated device, compiled by clang-19")
        print("nvcc: NVIDIA (R) Cuda compiler driver compatible command line")
        print(f"Cuda compilation tools, release {major}.{minor}, V{major}.{minor}.0")
        return 0
    if hipcc and "--version" in options.information:
        print(f"HIP version: {runtime_library.HIP_VERSION}-gpusym (the gpusym simulated device)", flush=True)
    verbose = ["-v"] if options.verbose else []
    if not (options.verbose and options.rocm_path):
        return toolchain.run([toolchain.tool("clang++"), *verbose, *options.information]).returncode
    # clang's own line names any ROCm it finds (Debian's in /usr), and CMake
    # reads the first such line: only the prefix's is kept.
    result = toolchain.run([toolchain.tool("clang++"), *verbose, *options.information], capture=True)
    print(result.stdout, end="")
    found = "Found HIP installation:"
    print(
        "".join(line for line in result.stderr.splitlines(True) if not line.startswith(found)), end="", file=sys.stderr
    )
    print(f"{found} {options.rocm_path}, version {runtime_library.HIP_VERSION}", file=sys.stderr)
    return result.returncode


def _parse(argv: list[str], command: str, *, hipcc: bool, nvcc: bool) -> build_options.BuildOptions:
    """`argv` as `command` reads it (nvcc's notes printed); raises UsageError."""
    if not nvcc:
        return build_options.parse(argv, hipcc=hipcc)
    options, translated = nvcc_options.parse(argv)
    for note in translated.notes:
        print(f"{command}: note: {note}", file=sys.stderr)
    if translated.dependencies_only:
        options.dependency_flags.append(translated.dependencies_only)
    if options.verbose and options.cuda_toolkit:
        print("\n".join(cuda_toolkit_prefix.verbose_preamble(options.cuda_toolkit, options.cuda_arch)), file=sys.stderr)
    return options


def build(argv: list[str], *, hipcc: bool = False, nvcc: bool = False) -> int:
    """``gpusym build ARGS`` (or ``gpusym-hipcc ARGS`` when `hipcc`,
    ``gpusym-nvcc ARGS`` when `nvcc`); returns the exit status."""
    command = "gpusym-nvcc" if nvcc else "gpusym-hipcc" if hipcc else "gpusym build"
    if any(arg in ("-h", "--help") for arg in argv):
        usage = nvcc_options.USAGE if nvcc else build_options.HIPCC_USAGE if hipcc else build_options.USAGE
        print(usage, end="")
        return 0
    try:
        options = _parse(argv, command, hipcc=hipcc, nvcc=nvcc)
    except build_options.UsageError as error:
        print(f"{command}: {error} ({command} --help shows the usage)", file=sys.stderr)
        return EXIT_USAGE
    if options.foreign_target:  # no ROCm device libraries here: -nogpulib
        command = [toolchain.tool("clang++"), *argv, "-nogpulib"]
        return toolchain.run(command, verbose=options.verbose).returncode
    if not options.sources and not options.objects:
        return _answer(options, hipcc, nvcc)
    options.verbose = options.verbose or (hipcc and os.environ.get("HIPCC_VERBOSE", "0") not in ("", "0"))
    for source in options.sources:
        if not source.path.is_file():
            print(f"{command}: {source.path}: no such file", file=sys.stderr)
            return 1
    try:
        if any(flag in ("-M", "-MM") for flag in options.dependency_flags):
            for source in options.sources:
                hip_source.write_dependencies(source, options)
            return 0
        with tempfile.TemporaryDirectory(prefix="gpusym-build-") as scratch:
            workdir = Path(scratch)
            if options.device_only and "-emit-llvm" in options.compile_flags:
                hip_source.amdgpu_ir(options.sources[0].path, options)
                return 0
            if options.genco:
                bundle = hip_source.device_bundle(options.sources[0].path, options, workdir)
                options.output.write_bytes(bundle)
                return 0
            objects = []
            for index, source in enumerate(options.sources):
                output = _object_path(source.path, options, workdir, index)
                _compile(source, options, output, workdir / f"{index}-{source.path.stem}")
                if options.save_temps:
                    _save_temps(source.path, workdir / f"{index}-{source.path.stem}", options)
                objects.append(output)
            if options.device_link_only:
                _device_link_only(options.objects, options, workdir)
            elif options.static_lib:
                _archive(objects + options.objects, options)
            elif not options.compile_only:
                _link(objects + options.objects, options, workdir)
    except hip_source.CompileError as error:
        return error.returncode
    except signatures.UnsupportedKernel as error:
        for line in str(error).splitlines():
            print(f"{command}: {line}", file=sys.stderr)
        return 1
    except (
        toolchain.ToolMissing,
        runtime_library.RuntimeBuildError,
        host_libraries.LibraryBuildError,
        device_link.DeviceLinkError,
        openmp.OpenMPMissing,
    ) as error:
        print(f"{command}: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"{command}: cannot write {error.filename}: {error.strerror}", file=sys.stderr)
        return 1
    return 0
