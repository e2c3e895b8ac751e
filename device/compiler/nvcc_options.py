"""The command line of ``gpusym-nvcc``: nvcc's options, translated into those
of ``gpusym build`` (options.py), with the CUDA architecture the device code
is compiled for.  CUDA sources are compiled as HIP is, with gpusym's CUDA
headers (device/include/cuda), so every tool sees one kind of program."""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

from device import cuda_toolkit_prefix
from device.compiler import options as build_options

USAGE = """\
usage: gpusym-nvcc [nvcc options] SOURCES... [-o OUT]

An nvcc-compatible compiler driver for the gpusym simulated device: .cu
sources are CUDA (each sees cuda_runtime.h, as under nvcc), .c and .cpp
sources plain host C and C++, and .o, .a and .so files go to the link, which
always takes the simulated runtime (in place of -lcudart and -lcuda).

  -arch=ARCH, -gencode arch=compute_XX,code=sm_XX, -code=sm_XX
                    the architecture __CUDA_ARCH__ names in device code, and
                    the compute capability the device reports: of several,
                    the one an sm_80 device runs (the highest up to sm_80,
                    else the lowest); sm_80 for native, all or none given
  -c, -o FILE, -shared, -lib
                    compile only, name the output, link a shared library,
                    write a static library
  -rdc=true, -dc    relocatable device code (-dc is -c -rdc=true); device
                    code is linked when the program is
  -dlink            link the device code of -dc objects into one object (-o,
                    default a_dlink.o), for a link by another compiler
  -cubin, -fatbin, -ptx
                    the device code of one source alone, as a module for
                    cuModuleLoad (STEM.cubin, .fatbin, .ptx by default; there
                    is no PTX: -ptx writes the module too, with a note)
  -G, -g, -lineinfo debug information (-G also turns device code's
                    optimization off)
  -O<n>             host code's optimization; device code is optimized
                    (-O3) unless -G, as nvcc's is, whatever the host's
  --use_fast_math, -std=c++NN, -I, -D, -U, -L, -l, -x cu|c|c++
                    as nvcc has them
  -Xcompiler A,B    host compiler options; -Xlinker A,B linker options
  -M, -MD, -MMD, -MF FILE, -MT T
                    dependencies, as the host compiler writes them
  -keep             keep the intermediate files (as -save-temps)
  --expt-relaxed-constexpr, --extended-lambda
                    accepted: clang allows both always
  -ccbin, -maxrregcount, -Xptxas, -Wno-deprecated-gpu-targets, -m64
                    accepted and ignored (-Xptxas with a note: there is no
                    PTX on the simulated device)
"""

#: The architecture device code is compiled for when none is named.
DEFAULT_ARCH = 80
#: The AMDGPU target of CUDA sources' code objects: a 32-lane wavefront, as a
#: CUDA warp is.
CUDA_OFFLOAD_ARCH = "gfx1030"
#: Device code's optimization unless -G, whatever the host's -O: nvcc's
#: device compiles optimize by default (NVVM's and ptxas's -O3).
DEVICE_OPTIMIZATION = "-O3"
#: The CUDA release the headers declare (CUDART_VERSION 12040).
CUDA_VERSION = (12, 4)

# nvcc's long spellings of the options gpusym build shares.
_ALIASES = {
    "--compiler-options": "-Xcompiler",
    "--linker-options": "-Xlinker",
    "--ptxas-options": "-Xptxas",
    "--compiler-bindir": "-ccbin",
    "--gpu-architecture": "-arch",
    "--gpu-code": "-code",
    "--generate-code": "-gencode",
    "--output-file": "-o",
    "--compile": "-c",
    "--shared": "-shared",
    "--lib": "-lib",
    "--device-c": "-dc",
    "--device-link": "-dlink",
    "--relocatable-device-code": "-rdc",
    "--debug": "-g",
    "--device-debug": "-G",
    "--generate-line-info": "-lineinfo",
    "--include-path": "-I",
    "--define-macro": "-D",
    "--undefine-macro": "-U",
    "--library-path": "-L",
    "--library": "-l",
    "--pre-include": "-include",
    "--system-include": "-isystem",
    "--x": "-x",
    "--std": "-std",
    "--use-fast-math": "-use_fast_math",
    "--use_fast_math": "-use_fast_math",
    "--maxrregcount": "-maxrregcount",
    "--keep": "-keep",
    "--cudart": "-cudart",
    "--cudadevrt": "-cudadevrt",
    "--threads": "-t",
    "--machine": "-m",
    "--dependency-output": "-MF",
    "--generate-dependencies": "-M",
    "--generate-nonsystem-dependencies": "-MM",
    "--output-directory": "-odir",
    "--default-stream": "-default-stream",
    "--expt-extended-lambda": "--extended-lambda",
    "-optf": "--options-file",
}
#: Options taking a value (joined with '=' or the next argument) that change
#: nothing on the simulated device.
_IGNORED_WITH_VALUE = {
    "-ccbin",
    "-maxrregcount",
    "-t",
    "-cudadevrt",
    "-Xcudafe",
    "-Xnvlink",
    "-Xarchive",
    "--keep-dir",
    "-keep-dir",
}
#: Flags that change nothing on the simulated device.
_IGNORED = {
    "-Wno-deprecated-gpu-targets",
    "-Wno-deprecated-declarations",
    "--expt-relaxed-constexpr",
    "--extended-lambda",
    "-forward-unknown-to-host-compiler",
    "-forward-unknown-to-host-linker",
    "--forward-unknown-to-host-compiler",
    "--forward-unknown-to-host-linker",
    "-res-usage",
    "--resource-usage",
    "-m64",
    "--restrict",
    "-restrict",
    "--fmad=true",
    "-fmad=true",
    "-lcudart",
    "-lcudart_static",
    "-lcuda",
    "-lcudadevrt",
    "--display-error-number",
    "-src-in-ptx",
    "--source-in-ptx",
}
#: Options whose value follows as the next argument unless joined.
_WITH_VALUE = {
    "--options-file",
    "-arch",
    "-code",
    "-gencode",
    "-o",
    "-x",
    "-Xcompiler",
    "-Xlinker",
    "-Xptxas",
    "-rdc",
    "-cudart",
    "-I",
    "-D",
    "-U",
    "-L",
    "-l",
    "-include",
    "-isystem",
    "-std",
    "-MF",
    "-MT",
    "-MQ",
    "-odir",
    "-default-stream",
    "-m",
} | _IGNORED_WITH_VALUE
#: nvcc's flags that a joined -l or -I would otherwise take.
_LOOKALIKES = {"-lib", "-lineinfo"}
#: nvcc's outputs of device code alone, with their default suffix: each is
#: the module cuModuleLoad takes (as gpusym build --genco writes it).
_MODULE_OUTPUTS = {
    "-cubin": ".cubin",
    "--cubin": ".cubin",
    "-fatbin": ".fatbin",
    "--fatbin": ".fatbin",
    "-ptx": ".ptx",
    "--ptx": ".ptx",
}
#: The runtime libraries the simulated runtime replaces.
_CUDA_LIBRARIES = {"cudart", "cudart_static", "cuda", "cudadevrt"}
#: The kinds of warning nvcc's -Werror takes as its value.
_WERROR_KINDS = re.compile(
    r"(all-warnings|cross-execution-space-call|reorder|default-stream-launch|missing-launch-bounds"
    r"|ext-lambda-captures-this|deprecated-declarations)(,.*)?"
)
_LANGUAGES = {"cu": "hip", "cuda": "hip", "c": "c", "c++": "c++", "cpp": "c++", "none": "none"}


@dataclass
class NvccCommand:
    """`argv` as gpusym build's arguments, the CUDA architecture of device
    code, and notes to print of what was ignored."""

    build_argv: list[str] = field(default_factory=list)
    cuda_archs: list[int] = field(default_factory=list)  # each one named
    notes: list[str] = field(default_factory=list)
    dependencies_only: str | None = None  # -M or -MM: print dependencies instead of compiling
    device_link: bool = False  # -dlink: the device code of -dc objects, linked into one object
    module_suffix: str | None = None  # -cubin, -fatbin, -ptx: a module for cuModuleLoad, STEM<suffix> by default
    device_debug: bool = False  # -G: device code unoptimized


def _architecture(text: str) -> int | None:
    """The number XX of sm_XX / compute_XX / lto_XX (sm_90a: 90), None for
    native, all, all-major and the like."""
    found = re.fullmatch(r"(?:sm|compute|lto)_(\d+)[af]?", text.strip())
    return int(found[1]) if found else None


def _gencode_architecture(value: str) -> int | None:
    """The architecture of ``arch=compute_XX,code=[sm_XX,...]``: its arch."""
    for part in re.split(r",(?=\w+=)", value):
        key, _, text = part.partition("=")
        if key.strip() == "arch":
            return _architecture(text)
    return None


def chosen_architecture(archs: list[int]) -> int:
    """The one of `archs` device code is compiled for: the code a device of
    DEFAULT_ARCH runs, the highest up to it, else the lowest (a program
    built for newer devices only); DEFAULT_ARCH if none."""
    runnable = [arch for arch in archs if arch <= DEFAULT_ARCH]
    return max(runnable) if runnable else min(archs, default=DEFAULT_ARCH)


def _split(value: str) -> list[str]:
    """-Xcompiler's and -Xlinker's value: options separated by commas."""
    return [part for part in value.split(",") if part]


def _normalise(argv: list[str]) -> list[tuple[str, str | None]]:
    """Each option with its value (None for a flag or an input), nvcc's long
    spellings and joined values ('-arch=sm_80', '-Ifoo') taken apart."""
    out: list[tuple[str, str | None]] = []
    index = 0
    while index < len(argv):
        arg = argv[index]
        index += 1
        name, equals, joined = arg.partition("=")
        name = _ALIASES.get(name, name)
        if name in _WITH_VALUE:
            if not equals and index == len(argv):
                raise build_options.UsageError(f"{arg} needs a value")
            out.append((name, joined if equals else argv[index]))
            index += 0 if equals else 1
        elif arg[:2] in ("-I", "-D", "-U", "-L", "-l") and len(arg) > 2 and name not in _LOOKALIKES:
            out.append((arg[:2], arg[2:]))
        elif name == "-Werror":  # nvcc's takes kinds of warning: all of them are errors here
            index += 1 if not equals and index < len(argv) and _WERROR_KINDS.fullmatch(argv[index]) else 0
            out.append(("-Werror", None))
        else:
            out.append((arg if equals else name, None))
    return out


def _expand_options_files(argv: list[str]) -> list[str]:
    """`argv` with each ``--options-file FILE`` (``-optf``) replaced by the
    arguments FILE holds (shell-quoted, as CMake writes them)."""
    expanded: list[str] = []
    for name, value in _normalise(argv):
        if name != "--options-file":
            expanded += [name] if value is None else [name, value]
            continue
        for path in value.split(","):
            try:
                expanded += _expand_options_files(shlex.split(Path(path).read_text()))
            except (OSError, ValueError) as error:
                raise build_options.UsageError(f"--options-file {path}: {error}") from None
    return expanded


def translate(argv: list[str]) -> NvccCommand:
    """`argv`, nvcc's command line, as gpusym build's; raises UsageError."""
    command = NvccCommand()
    build = command.build_argv
    for name, value in _normalise(_expand_options_files(argv)):
        if name in _IGNORED or name in _IGNORED_WITH_VALUE or (name == "-l" and value in _CUDA_LIBRARIES):
            continue
        if name == "-arch" or name == "-code":
            command.cuda_archs += [arch] if (arch := _architecture(value)) else []
        elif name == "-gencode":
            command.cuda_archs += [arch] if (arch := _gencode_architecture(value)) else []
        elif name == "-Xcompiler":
            build += _split(value)
        elif name == "-Xlinker":
            build += [f"-Wl,{part}" for part in _split(value)]
        elif name == "-Xptxas":
            command.notes.append(f"-Xptxas {value} ignored: the simulated device has no PTX")
        elif name == "-x":
            if value not in _LANGUAGES:
                raise build_options.UsageError(f"unsupported language '-x {value}' (use cu, c or c++)")
            build += ["-x", _LANGUAGES[value]]
        elif name == "-rdc":
            build.append("-fgpu-rdc" if value.lower() in ("true", "1") else "-fno-gpu-rdc")
        elif name == "-dc":
            build += ["-c", "-fgpu-rdc"]
        elif name == "-dlink":
            command.device_link = True
        elif name in _MODULE_OUTPUTS:
            command.module_suffix = _MODULE_OUTPUTS[name]
            build.append("--genco")
            if name in ("-ptx", "--ptx"):
                command.notes.append(f"{name}: there is no PTX on the simulated device: writing its module instead")
        elif name == "-lib":
            build.append("--emit-static-lib")
        elif name == "-G":
            build.append("-g")
            command.device_debug = True
        elif name == "-lineinfo":
            build.append("-g")
        elif name == "-keep":
            build.append("-save-temps")
        elif name == "-cudart":
            if value not in ("none", "shared", "static"):
                raise build_options.UsageError(f"-cudart {value}: use none, shared or static")
        elif name == "-default-stream":
            if value == "per-thread":
                build.append("-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1")
        elif name == "-std":
            build.append(f"-std={value}")
        elif name == "-m":
            continue
        elif name == "-odir":
            raise build_options.UsageError("-odir is not supported: name each output with -o")
        elif name in ("-M", "-MM"):
            command.dependencies_only = name
        elif value is not None:
            build += [name, value]
        else:
            build.append(name)
    return command


def parse(argv: list[str]) -> tuple[build_options.BuildOptions, NvccCommand]:
    """`argv`, nvcc's command line, as gpusym build's options in CUDA mode;
    raises UsageError."""
    command = translate(argv)
    build_argv = command.build_argv
    if command.module_suffix and "-o" not in build_argv:
        sources = [arg for arg in build_argv if arg.endswith(".cu")]
        if len(sources) == 1:
            build_argv = [*build_argv, "-o", Path(sources[0]).with_suffix(command.module_suffix).name]
    options = build_options.parse(build_argv)
    options.cuda_arch = chosen_architecture(command.cuda_archs)
    options.offload_archs = options.offload_archs or [CUDA_OFFLOAD_ARCH]
    options.device_link_only = command.device_link
    options.device_optimization = "-O0" if command.device_debug else DEVICE_OPTIMIZATION
    if command.device_link and options.sources:
        raise build_options.UsageError("-dlink takes the objects of -dc compiles, not sources")
    toolkit = os.environ.get(cuda_toolkit_prefix.TOOLKIT_VARIABLE)
    options.cuda_toolkit = Path(toolkit) if toolkit else None
    return options, command


def compile_macros(options: build_options.BuildOptions) -> list[str]:
    """The macros nvcc defines in every compile of a CUDA source, host and
    device, as -D options; and GPUSYM_CUDA_ARCH, the architecture compiled
    for, which the host runtime reports as the compute capability."""
    major, minor = CUDA_VERSION
    return [
        "-D__NVCC__=1",
        "-D__CUDACC__=1",
        f"-D__CUDACC_VER_MAJOR__={major}",
        f"-D__CUDACC_VER_MINOR__={minor}",
        "-D__CUDACC_VER_BUILD__=0",
        "-D__CUDACC_RELAXED_CONSTEXPR__=1",
        "-D__CUDACC_EXTENDED_LAMBDA__=1",
        f"-DGPUSYM_CUDA_ARCH={options.cuda_arch * 10}",
    ]


#: What nvcc's host compiler (g++) only warns of and clang rejects: C++17's
#: removed `register` storage class, which older CUDA code still writes.
HOST_COMPILER_LENIENCE = ["-Wno-error=register"]


def device_flags(options: build_options.BuildOptions) -> list[str]:
    """What device compiles alone take: __CUDA_ARCH__ (XX0 for sm_XX) and
    device code's own optimization, over the host's -O."""
    if not options.cuda_arch:
        return []
    optimization = [options.device_optimization] if options.device_optimization else []
    return [f"-D__CUDA_ARCH__={options.cuda_arch * 10}", *optimization]
