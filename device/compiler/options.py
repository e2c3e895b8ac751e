"""The command line of ``gpusym build``: a compiler driver's, parsed by hand
because its flags are clang's (joined or separate values, repeatable, order
sensitive ``-x``) rather than an argparse-shaped grammar."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

USAGE = """\
usage: gpusym build [-g] [-O<n>] [--offload-arch ARCH ...]
                    [-c | -shared | --genco | --emit-static-lib] [-fgpu-rdc]
                    [--cuda-host-only | --cuda-device-only] [-I DIR] [-D NAME[=VALUE]]
                    [-L DIR] [-l LIB] [-fopenmp] [-f...] [-x hip|c|c++] [-v] SOURCES... [-o OUT]

Compiles HIP, C and C++ sources with clang-19 and links them with the gpusym
simulated runtime.  Each HIP source gets a real host object (stubs, handles,
registration) and a fat binary holding real AMDGPU code objects for every
--offload-arch (default gfx90a) plus a code object for the simulated device.

  -c                compile only; -o names the object (one source)
  -shared           link a shared library
  --genco           write only the device code of one HIP source: a code-object
                    bundle for hipModuleLoad (as hipcc --genco does)
  --emit-static-lib write a static library (ar archive) of the objects
  -fgpu-rdc         relocatable device code: device functions and variables
                    shared across sources and static libraries, linked when
                    the program is (-fno-gpu-rdc: the default)
  --cuda-host-only  compile only the host side (no fat binary of gpusym's: a
                    bundle passed with -Xclang -fcuda-include-gpubinary is used)
  --cuda-device-only, --offload-device-only
                    compile only the device side: the bundle --genco writes
  --offload-arch A  AMDGPU target, repeatable (gfx90a, gfx942, ...)
  -fopenmp          OpenMP in host code (the host compiles and the link, with
                    LLVM's libomp); device code has none
  -x LANG           language of the following sources: hip, c, c++ or none
  -v                print each command before running it (alone: the versions)
  -save-temps[=cwd|obj]
                    keep each source's intermediate files (device assembly,
                    code objects, bundle) as STEM-gpusym-NAME
  --version, -print-..., -dumpmachine
                    clang-19's answer (with -v, the HIP installation too)
  -target T         a target other than x86_64 (amdgcn-amd-amdhsa): the whole
                    command is clang-19's (AMDGPU objects from assembly or IR)
  --rocm-path=DIR   the HIP installation -v names (gpusym rocm-prefix writes one)
Other options (-std=, -fPIC, -W..., -m..., -MD -MF FILE, -Xclang ARG) are
passed to clang unchanged.
"""

HIPCC_USAGE = """\
usage: gpusym-hipcc [hipcc options] SOURCES... [-o OUT]

A hipcc-compatible compiler driver for the gpusym simulated device (it is
`gpusym build` with hipcc's defaults): .cpp, .cc, .cxx and .cu sources are
compiled as HIP, .c as C; -x, -c, -o, -shared, -fPIC, --genco,
--emit-static-lib, -fgpu-rdc, --offload-arch and clang's own options work as
with hipcc.  HIPCC_VERBOSE=1 (or -v) prints each command it runs.
"""

HIP_SUFFIXES = {".hip", ".cu"}
C_SUFFIXES = {".c"}
CXX_SUFFIXES = {".cc", ".cpp", ".cxx", ".C", ".c++"}
#: hipcc's flags that only say where ROCm's device libraries are or that the
#: link is HIP's: the simulated device needs neither.
_HIPCC_IGNORED_PREFIXES = ("--hip-device-lib-path=", "--rocm-device-lib-path=", "--hipstdpar-path=")
#: Where the HIP installation is (``-v`` names it, as clang does).
_ROCM_PATH_PREFIXES = ("--rocm-path=", "--hip-path=")
#: Questions to the compiler rather than builds: answered by clang-19.
_INFORMATION = {"--version", "-dumpversion", "-dumpmachine"}
_INFORMATION_PREFIXES = ("-print-",)
_HIPCC_IGNORED = {"--hip-link", "-nogpulib", "-nogpuinc", "--hipstdpar-interpose-alloc"}
#: ROCm's HIP runtime, which the simulated runtime (always linked) replaces.
_HIP_RUNTIME_LIBRARIES = {"-lamdhip64"}
LANGUAGES = {"hip", "c", "c++", "none"}

# Options whose value may come as the next argument (none is another's prefix).
_COMPILE_WITH_VALUE = ("-I", "-D", "-U", "-isystem", "-include", "-iquote", "-idirafter")
#: Dependency-file options: the host compile writes the file (device compiles
#: would only write it again).
_DEPENDENCY_WITH_VALUE = {"-MF", "-MT", "-MQ"}
_DEPENDENCY_FLAGS = {"-MD", "-MMD", "-MP"}
#: Dependencies alone, instead of compiling: no output of this driver.
_DEPENDENCIES_ONLY = {"-M", "-MM"}
#: Options whose value is always the next argument, passed on as a pair.
_PAIRED = {"-Xclang", "-mllvm", "-Xoffload-linker"}
_LINK_WITH_VALUE = ("-L", "-l")
_COMPILE_ONLY_PREFIXES = ("-std=", "-W", "-pedantic", "-w")
#: Host OpenMP, as clang's HIP driver passes it: to the host compile and the
#: link, never to device code (which has no OpenMP).
_OPENMP = ("-fopenmp", "-fno-openmp")


class UsageError(Exception):
    """The command line is wrong; the message says how."""


@dataclass
class Source:
    path: Path
    language: str  # "hip", "c" or "c++"


@dataclass
class BuildOptions:
    sources: list[Source] = field(default_factory=list)
    objects: list[Path] = field(default_factory=list)  # .o/.a/.so given to the link
    output: Path | None = None
    compile_only: bool = False
    shared: bool = False
    static_lib: bool = False
    genco: bool = False
    rdc: bool = False
    host_only: bool = False
    device_only: bool = False
    debug: bool = False
    verbose: bool = False
    rocm_path: Path | None = None
    foreign_target: str | None = None  # -target amdgcn-...: a job for clang-19 alone
    information: list[str] = field(default_factory=list)  # --version, -print-...: no build
    save_temps: str | None = None  # -save-temps[=cwd|obj]: where the intermediate files are kept
    cuda_arch: int | None = None  # CUDA sources (gpusym-nvcc), compiled for sm_<cuda_arch>
    cuda_toolkit: Path | None = None  # the toolkit prefix gpusym-nvcc runs as (its -v describes it)
    device_link_only: bool = False  # nvcc -dlink: only the device side of the link, as an object
    device_optimization: str | None = None  # nvcc's device code -O (over the host's), None: as the host's
    offload_archs: list[str] = field(default_factory=list)
    compile_flags: list[str] = field(default_factory=list)
    host_flags: list[str] = field(default_factory=list)  # host compiles and the link, not device code
    dependency_flags: list[str] = field(default_factory=list)  # host compile only
    link_flags: list[str] = field(default_factory=list)
    # --hipstdpar offloads the standard library's parallel algorithms to the
    # GPU; on the simulated device, whose memory is the host's, they run as
    # the host's standard library runs them (driver.py links what it needs).
    parallel_algorithms: bool = False

    @property
    def archs(self) -> list[str]:
        return self.offload_archs or ["gfx90a"]

    @property
    def wave_size(self) -> int:
        """Lanes of a wavefront of the simulated device's code (warpSize): as
        on the GPU compiled for, 32 with -mno-wavefrontsize64 or an RDNA first
        --offload-arch (gfx10-12) without -mwavefrontsize64, else 64."""
        for flag in reversed(self.compile_flags):
            if flag in ("-mwavefrontsize64", "-mno-wavefrontsize64"):
                return 64 if flag == "-mwavefrontsize64" else 32
        return 32 if self.archs[0].startswith(("gfx10", "gfx11", "gfx12")) else 64

    @property
    def openmp_runtime(self) -> str | None:
        """The OpenMP runtime the link takes: that of the last -fopenmp
        (libomp, clang-19's default, or -fopenmp=RUNTIME's), None after
        -fno-openmp or without -fopenmp."""
        for flag in reversed(self.link_flags):
            if flag == "-fno-openmp":
                return None
            if flag == "-fopenmp" or flag.startswith("-fopenmp="):
                return flag.partition("=")[2] or "libomp"
        return None


def _language_of(path: Path, forced: str, hipcc: bool) -> str | None:
    if forced != "none":
        return forced
    if path.suffix in HIP_SUFFIXES:
        return "hip"
    if path.suffix in C_SUFFIXES:
        return "c"
    if path.suffix in CXX_SUFFIXES:
        return "hip" if hipcc else "c++"
    return None


def parse(argv: list[str], *, hipcc: bool = False) -> BuildOptions:
    """`argv` as ``gpusym build`` reads it, or with hipcc's defaults."""
    options = _classify_arguments(argv, hipcc=hipcc)
    if options.foreign_target is None:
        _check_conflicts(options)
    return options


class _Arguments:
    """The arguments of a command line still to classify: an option takes its
    value from them when it is not joined to the option."""

    def __init__(self, argv: list[str]) -> None:
        self._rest = iter(argv)

    def __iter__(self) -> Iterator[str]:
        return self._rest

    def value(self, arg: str, flag: str) -> str:
        """The value of `flag`, given as `arg`: what follows the flag in `arg`
        (less any '='), else the next argument."""
        joined = arg[len(flag) :].lstrip("=")
        if joined:
            return joined
        try:
            return next(self._rest)
        except StopIteration:
            raise UsageError(f"{flag} needs a value") from None


def _classify_arguments(argv: list[str], *, hipcc: bool) -> BuildOptions:
    """Walks `argv` into the fields of BuildOptions, without checking how they
    combine; a -target other than x86_64 ends the walk (the command is clang-19's)."""
    options = BuildOptions()
    language = "none"  # of the sources that follow: the last -x's
    arguments = _Arguments(argv)
    for arg in arguments:
        if arg.startswith("-x"):
            language = _language_named(arguments.value(arg, "-x"))
        elif not any(take(arg, arguments, options) for take in _OPTION_KINDS):
            _take_flag_or_input(arg, options, language, hipcc)
        if options.foreign_target is not None:
            break
    return options


def _language_named(language: str) -> str:
    """`language`, the value of -x, if the driver compiles it."""
    if language not in LANGUAGES:
        raise UsageError(f"unsupported language '-x {language}' (use hip, c, c++ or none)")
    return language


def _take_build_kind(arg: str, arguments: _Arguments, options: BuildOptions) -> bool:
    """-o and the options saying what is built (-c, -shared, --genco, -fgpu-rdc,
    --cuda-host-only, ...); whether `arg` is one."""
    if arg.startswith("-o"):
        options.output = Path(arguments.value(arg, "-o"))
    elif arg == "-c":
        options.compile_only = True
    elif arg == "-shared":
        options.shared = True
    elif arg == "--emit-static-lib":
        options.static_lib = True
    elif arg == "--genco":
        options.genco = True
    elif arg in ("-fgpu-rdc", "-fno-gpu-rdc"):
        options.rdc = arg == "-fgpu-rdc"
    elif arg in ("--cuda-host-only", "--offload-host-only"):
        options.host_only = True
    elif arg in ("--cuda-device-only", "--offload-device-only"):
        options.device_only = True
    else:
        return False
    return True


def _take_driver_option(arg: str, arguments: _Arguments, options: BuildOptions) -> bool:
    """The options about the toolchain rather than a compile (-target,
    --offload-arch, --rocm-path, -v, --version, hipcc's ignored ones); whether
    `arg` is one."""
    if arg in _HIPCC_IGNORED or arg.startswith(_HIPCC_IGNORED_PREFIXES):
        pass
    elif arg == "--hipstdpar":
        options.parallel_algorithms = True
    elif arg in ("-target", "--target") or arg.startswith(("--target=", "-target=")):
        _take_target(arguments.value(arg, arg.split("=")[0]), options)
    elif arg.startswith(_ROCM_PATH_PREFIXES):
        options.rocm_path = Path(arg.split("=", 1)[1])
    elif arg in _INFORMATION or arg.startswith(_INFORMATION_PREFIXES):
        options.information.append(arg)
    elif arg == "-v":
        options.verbose = True
    elif arg in ("-save-temps", "--save-temps") or arg.startswith(("-save-temps=", "--save-temps=")):
        where = arg.partition("=")[2] or "cwd"
        if where not in ("cwd", "obj"):
            raise UsageError(f"{arg}: -save-temps takes cwd or obj")
        options.save_temps = where
    elif arg.startswith("--offload-arch"):
        options.offload_archs += [a for a in arguments.value(arg, "--offload-arch").split(",") if a]
    else:
        return False
    return True


def _take_target(target: str, options: BuildOptions) -> None:
    """-target `target`: x86_64 passed to clang, another the whole command's."""
    if target.startswith("x86_64"):
        options.compile_flags.append(f"--target={target}")
        options.link_flags.append(f"--target={target}")
    else:
        options.foreign_target = target


def _take_dependency_option(arg: str, arguments: _Arguments, options: BuildOptions) -> bool:
    """-MD, -MF FILE and the like, for the host compile; whether `arg` is one
    (-M and -MM, dependencies without a compile, are refused)."""
    if arg in _DEPENDENCIES_ONLY:
        raise UsageError(f"{arg} (dependencies only, no compile) is not supported: use -MD or -MMD with -c")
    if arg in _DEPENDENCY_FLAGS:
        options.dependency_flags.append(arg)
    elif arg in _DEPENDENCY_WITH_VALUE:
        options.dependency_flags += [arg, arguments.value(arg, arg)]
    else:
        return False
    return True


def _take_link_option(arg: str, arguments: _Arguments, options: BuildOptions) -> bool:
    """-L DIR, -l LIB (not ROCm's HIP runtime), -Wl,... and the link's own
    flags; whether `arg` is one."""
    if arg.startswith(_LINK_WITH_VALUE):
        flag = arg[:2]
        linked = flag + arguments.value(arg, flag)
        if linked not in _HIP_RUNTIME_LIBRARIES:
            options.link_flags.append(linked)
    elif arg.startswith("-Wl,") or arg in ("-rdynamic", "-static-libstdc++", "-static-libgcc"):
        options.link_flags.append(arg)
    else:
        return False
    return True


def _take_openmp_option(arg: str, arguments: _Arguments, options: BuildOptions) -> bool:
    """-fopenmp, -fopenmp=RUNTIME and -fno-openmp, for the host compiles and
    the link (device code has no OpenMP); whether `arg` is one."""
    if arg in _OPENMP or arg.startswith("-fopenmp="):
        options.host_flags.append(arg)
        options.link_flags.append(arg)
        return True
    return False


def _take_compile_option(arg: str, arguments: _Arguments, options: BuildOptions) -> bool:
    """-g, -O, -I DIR, -D NAME, -Xclang ARG, -std=, -W... and the like, for the
    compiles alone; whether `arg` is one."""
    if arg == "-use_fast_math":  # hipcc's spelling, from nvcc
        options.compile_flags.append("-ffast-math")
    elif arg in _PAIRED:
        options.compile_flags += [arg, arguments.value(arg, arg)]
    elif arg.startswith("-g"):
        options.debug = arg != "-g0"
        options.compile_flags.append(arg)
    elif arg.startswith(_COMPILE_WITH_VALUE):
        flag = next(f for f in _COMPILE_WITH_VALUE if arg.startswith(f))
        options.compile_flags += [flag, arguments.value(arg, flag)]
    elif arg.startswith(("-O", *_COMPILE_ONLY_PREFIXES)):
        options.compile_flags.append(arg)
    else:
        return False
    return True


#: The kinds of option, each taking its own (a link option before a compile
#: option: -Wl,... is not a -W warning).
_OPTION_KINDS: tuple[Callable[[str, _Arguments, BuildOptions], bool], ...] = (
    _take_build_kind,
    _take_driver_option,
    _take_dependency_option,
    _take_link_option,
    _take_openmp_option,
    _take_compile_option,
)


def _take_flag_or_input(arg: str, options: BuildOptions, language: str, hipcc: bool) -> None:
    """Another flag (-f..., -m..., -pthread), for the compiles and the link; or
    an input: a source in `language` (or its suffix's), else an object."""
    if arg.startswith("-") and arg != "-":
        options.compile_flags.append(arg)
        options.link_flags.append(arg)
        return
    path = Path(arg)
    source_language = _language_of(path, language, hipcc)
    if source_language:
        options.sources.append(Source(path, source_language))
    else:
        options.objects.append(path)


def _check_conflicts(options: BuildOptions) -> None:
    """Raises UsageError where no input is named (but for a question such as
    --version) or options exclude each other; --cuda-device-only becomes the
    --genco it means."""
    if not options.sources and not options.objects:
        if options.information or options.verbose:
            return
        raise UsageError("no input files")
    _check_build_kinds(options)
    if options.device_only:
        _device_only_as_genco(options)
    if options.genco:
        _check_genco(options)


def _check_build_kinds(options: BuildOptions) -> None:
    """Raises UsageError where -c, -o, -shared, --emit-static-lib, --genco and
    the host-only and device-only compiles exclude each other."""
    if options.compile_only and options.output and len(options.sources) > 1:
        raise UsageError("cannot specify -o with -c and several sources")
    if options.compile_only and options.shared:
        raise UsageError("-c and -shared exclude each other")
    if options.static_lib and (options.shared or options.compile_only or options.genco):
        raise UsageError("--emit-static-lib excludes -c, -shared and --genco")
    if options.host_only and options.device_only:
        raise UsageError("--cuda-host-only and --cuda-device-only exclude each other")


def _device_only_as_genco(options: BuildOptions) -> None:
    """--cuda-device-only with -c (or --genco): --genco, to the source's .o
    without -o; raises UsageError otherwise or with -fgpu-rdc."""
    if options.rdc:
        raise UsageError("--cuda-device-only with -fgpu-rdc is not supported: compile with -c -fgpu-rdc")
    options.genco = options.compile_only or options.genco
    options.compile_only = False
    if not options.genco:
        raise UsageError("--cuda-device-only needs -c (or --genco): it writes a device bundle")
    if not options.output and len(options.sources) == 1:
        options.output = Path(options.sources[0].path.with_suffix(".o").name)


def _check_genco(options: BuildOptions) -> None:
    """Raises UsageError unless --genco has one HIP source, -o and neither -c nor -shared."""
    if options.compile_only or options.shared:
        raise UsageError("--genco excludes -c and -shared")
    if options.objects or any(s.language != "hip" for s in options.sources) or len(options.sources) != 1:
        raise UsageError("--genco takes exactly one HIP source")
    if not options.output:
        raise UsageError("--genco needs -o FILE")
