"""One HIP source through the real toolchain: AMDGPU code objects, the
simulated device's code object, the offload bundle, and the host object that
embeds it.

The simulated device is compiled by clang's own HIP device front end for
x86-64.  Its -cc1 command is derived from the one clang's driver would run for
the host side of the same source (``-###``), so that include paths, language
options and the user's flags stay identical; only the device switches change.
"""

from __future__ import annotations

import hashlib
import shlex
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from device import runtime_library
from device.compiler import (
    amdgpu_code,
    breakpoint_sites,
    device_launches,
    foreign_headers,
    nvcc_options,
    openmp,
    ptx_constraints,
    shared_alignment,
    signatures,
    spaced_launches,
)
from device.compiler.options import BuildOptions, Source
from device.passes import plugins as pass_plugins
from native import toolchain
from symbols import device_code, offload_bundle

HOST_TRIPLE = "x86_64-pc-linux-gnu"


class CompileError(Exception):
    """A compiler step failed; its diagnostics were already printed."""

    def __init__(self, returncode: int):
        super().__init__(f"compiler exited with {returncode}")
        self.returncode = returncode


def check(result, *, echo: bool = True) -> None:
    """Prints a step's diagnostics (always when it failed) and raises on failure."""
    if result.stderr and (echo or result.returncode != 0):
        print(result.stderr, end="", file=sys.stderr)
    if result.returncode != 0:
        raise CompileError(result.returncode)


def check_compile(result, source: Path, *, device: bool = False) -> None:
    """check() for a compile of `source`: a failure gets one line more saying
    why where the reason is known (code only an AMDGPU can run, in the
    simulated device's compile; no OpenMP header; another HIP installation's
    header)."""
    if result.returncode != 0:
        reason = (
            (device and amdgpu_code.explain(result.stderr))
            or openmp.explain(result.stderr)
            or foreign_headers.explain(result.stderr)
        )
        if reason:
            result.stderr += f"{source}: {reason}\n"
    check(result)


def compilation_id(source: Path, options: BuildOptions) -> str:
    """The CUID shared by every compile of one source, as clang's driver
    derives it: static kernels' externalised names depend on it."""
    key = f"{source.resolve()}\0{' '.join(options.compile_flags)}"
    return hashlib.sha256(key.encode()).hexdigest()[:16]


#: AMDGPU flags that host compiles would warn of as unused: the simulated
#: device gets their meaning as options.wave_size.
_AMDGPU_ONLY_FLAGS = ("-mwavefrontsize64", "-mno-wavefrontsize64")


#: Nothing of a ROCm installation clang may find (Debian's libamdhip64-dev
#: puts one in /usr): neither its headers and device library nor clang's
#: cuda_wrappers (<new>, <cmath>, ...), which clang adds whenever it finds a
#: HIP installation; so that a build is the same with and without one, clang
#: is pointed at this folder, which is none.
NO_ROCM_INCLUDES = ["-nogpuinc", "-nogpulib", f"--rocm-path={Path(__file__).resolve().parent}"]
#: What clang's HIP wrapper would give every source (-nogpuinc drops it).
PRELUDE = ["-include", "hip/gpusym_detail/language_prelude.h"]
#: What nvcc gives every CUDA source.
CUDA_PRELUDE = ["-include", "cuda_runtime.h"]


def include_flags(options: BuildOptions) -> list[str]:
    """The header search path of gpusym's HIP (and, for CUDA, CUDA) headers."""
    cuda = [f"-I{runtime_library.CUDA_INCLUDE_DIR}"] if options.cuda_arch else []
    return [*cuda, f"-I{runtime_library.INCLUDE_DIR}"]


def _common_flags(options: BuildOptions, *, host: bool = False) -> list[str]:
    """The flags of every compile of a HIP source; `host` leaves out those for
    AMDGPU alone.  Host-only flags (-fopenmp) are not among them: the
    simulated device's -cc1 line is derived from a host compile's."""
    rdc = ["-fgpu-rdc"] if options.rdc else []
    flags = [flag for flag in options.compile_flags if not (host and flag in _AMDGPU_ONLY_FLAGS)]
    language = (
        [*nvcc_options.compile_macros(options), *nvcc_options.HOST_COMPILER_LENIENCE, *CUDA_PRELUDE]
        if options.cuda_arch
        else PRELUDE
    )
    return ["-x", "hip", *NO_ROCM_INCLUDES, *rdc, *include_flags(options), *language, *flags]


def _amdgpu_plugin_flags(options: BuildOptions) -> list[str]:
    """The pass plugins of the AMDGPU compiles: the one of relocatable device
    code, and inline_ptx for a CUDA source, whose inline PTX is translated
    for AMDGPU too (-Xclang: the driver's own -fpass-plugin stops at the
    host compile)."""
    names = [pass_plugins.RDC_PLUGIN] if options.rdc else []
    names += ["inline_ptx"] if options.cuda_arch else []
    return [
        flag
        for name in names
        for flag in ("-Xclang", f"-fpass-plugin={pass_plugins.plugin_path(name, options.verbose)}")
    ]


def _amdgpu_object(source: Path, arch: str, cuid: str, options: BuildOptions, out: Path):
    command = [
        toolchain.tool("clang++"),
        *_common_flags(options),
        "--cuda-device-only",
        *nvcc_options.device_flags(options),
        *_amdgpu_plugin_flags(options),
        "--no-gpu-bundle-output",
        f"--offload-arch={arch}",
        f"-cuid={cuid}",
        "-fhip-kernel-arg-name",  # parameter names in the kernel metadata
        # Without ROCm's device library, its functions (__ocml_*, __ockl_*)
        # stay undefined references in the code object instead of failing.
        "-Xoffload-linker",
        "--noinhibit-exec",
        "-c",
        str(source),
        "-o",
        str(out),
    ]
    result = toolchain.run(command, verbose=options.verbose, capture=True)
    if result.returncode == 0 or not _portable_would_help(result.stderr, source, options):
        return result
    # Preprocessed for host and device, as a text bundle: a device-only
    # compile of preprocessed input takes its device part from a bundle (of
    # plain text it would find none, and make a code object without kernels).
    bundled = [
        arg for arg in command[: command.index("-c")] if arg not in ("--cuda-device-only", "--no-gpu-bundle-output")
    ]
    preprocess = [*bundled, "-E", str(source), "-o", str(out.with_suffix(".cui"))]
    return _compile_portable(command, preprocess, source, out.with_suffix(".cui"), options, "hip-cpp-output")


def _portable_would_help(stderr: str, source: Path, options: BuildOptions) -> bool:
    """Whether a compile of `source` failed on what _compile_portable
    rewrites (a launch in device code: in CUDA, which has them)."""
    return (
        ptx_constraints.failed_on_constraints(stderr)
        or shared_alignment.failed_on_shared_alignment(stderr)
        or spaced_launches.failed_on_spaced_launch(stderr, source)
        or bool(options.cuda_arch and device_launches.failed_on_device_launch(stderr))
    )


def _compile_portable(
    command: list[str],
    preprocess: list[str],
    source: Path,
    preprocessed: Path,
    options: BuildOptions,
    kind: str,
    environment: dict[str, str] | None = None,
):
    """`command` run again on `source` preprocessed by `preprocess` into
    `preprocessed`, its PTX asm statements' constraints made acceptable to
    the target (ptx_constraints.py), its alignas after __shared__ moved
    (shared_alignment.py), its launches' brackets unbroken
    (spaced_launches.py) and its launches in device code made calls
    (device_launches.py).  `kind` is the preprocessed language."""
    result = toolchain.run(preprocess, verbose=options.verbose, capture=True)
    if result.returncode != 0:
        return result
    text = preprocessed.read_text("latin-1")
    text = device_launches.portable(spaced_launches.portable(shared_alignment.portable(text)))
    preprocessed.write_text(ptx_constraints.portable(text), "latin-1")
    compile_command, skip = [], False
    for arg in command:
        if skip:
            skip = False
        elif arg == "-include":  # already in the preprocessed text
            skip = True
        elif arg == str(source):
            compile_command += ["-x", kind, str(preprocessed)]
        else:
            compile_command.append(arg)
    result = toolchain.run(compile_command, verbose=options.verbose, capture=True, environment=environment)
    if result.returncode != 0:
        result.stderr = device_launches.explained(result.stderr)
    return result


def amdgpu_ir(source: Path, options: BuildOptions) -> None:
    """``--cuda-device-only -emit-llvm``: clang's AMDGPU IR, as asked.  It is
    for a pipeline of the user's own (hand-made code objects), which has no
    simulated device: the program's launches will say so."""
    command = [
        toolchain.tool("clang++"),
        *_common_flags(options),
        "--cuda-device-only",
        *[f"--offload-arch={arch}" for arch in options.archs],
        "-c",
        str(source),
        "-o",
        str(options.output),
    ]
    check(toolchain.run(command, verbose=options.verbose, capture=True))


def target_macros(target_id: str) -> list[str]:
    """The macros clang defines for the AMDGPU target `target_id` (``gfx90a``,
    ``gfx90a:sramecc+:xnack-``, ``gfx10-3-generic``), as -D options for the
    simulated device's compile: it is for x86-64, where clang defines none of
    them, and code chooses its paths by them (rocPRIM its kernel
    configurations by ``__amdgcn_processor__``).  The headers keep the target
    id in the code object for the runtime's ``gcnArchName``
    (hip/hip_common.h), so that host and device code see one target."""
    processor, *features = target_id.split(":")
    name = processor.replace("-", "_")
    macros = [
        f'-D__amdgcn_processor__="{name}"',
        f'-D__amdgcn_target_id__="{target_id}"',
        f"-D__{name}__=1",
    ]
    # The family: gfx90a and gfx9-4-generic are GFX9, gfx1030 GFX10.
    number = processor.removeprefix("gfx")
    family = number.split("-")[0] if "-" in number else number[:-2]
    if processor.startswith("gfx") and family.isdigit():
        macros.append(f"-D__GFX{family}__=1")
    for feature in features:
        if feature[-1:] in ("+", "-") and feature[:-1].isidentifier():
            macros.append(f"-D__amdgcn_feature_{feature[:-1]}__={int(feature[-1] == '+')}")
    return macros


def _sim_plugins(options: BuildOptions) -> tuple[str, ...]:
    """The pass plugins of the simulated device's compile, in order."""
    first = (pass_plugins.RDC_PLUGIN,) if options.rdc else ()
    first += (pass_plugins.MODULE_PLUGIN,) if options.genco and options.cuda_arch else ()
    return (*first, *pass_plugins.PLUGINS)


def _sim_cc1(source: Path, cuid: str, options: BuildOptions, out: Path) -> list[str]:
    """The -cc1 command compiling `source`'s device code for the simulated device."""
    probe = [
        toolchain.tool("clang++"),
        "-###",
        *_common_flags(options, host=True),
        *[flag for flag in nvcc_options.device_flags(options) if flag.startswith("-O")],
        "--cuda-host-only",
        "-c",
        str(source),
        "-o",
        str(out),
    ]
    result = toolchain.run(probe, capture=True)
    check(result, echo=False)
    cc1 = next(shlex.split(line) for line in result.stderr.splitlines() if '"-cc1"' in line)
    command, skip = [], False
    for arg in cc1:
        if skip:
            skip = False
        elif arg == "-aux-triple":
            command += ["-aux-triple", HOST_TRIPLE]
            skip = True
        elif arg == "-pic-is-pie" or arg.startswith("-debug-info-kind="):
            pass  # a shared object, with full type information for signatures
        elif arg == "-fmath-errno":
            pass  # device math sets no errno, as on a GPU: math calls stay pure (fast forms)
        else:
            command.append(arg)
    insert_at = command.index("-cc1") + 1
    command[insert_at:insert_at] = [
        "-fcuda-is-device",
        f"-cuid={cuid}",
        "-debug-info-kind=standalone",
        # A wavefront's lanes access __shared__ memory in lockstep; device
        # memory accesses are checked when the runtime turns checks on.
        *(f"-fpass-plugin={pass_plugins.plugin_path(name, options.verbose)}" for name in _sim_plugins(options)),
        f"-DGPUSYM_WAVE_SIZE={options.wave_size}",
        *target_macros(options.archs[0]),
        *nvcc_options.device_flags(options),
    ]
    if "-dwarf-version=5" not in command:
        command[insert_at:insert_at] = ["-dwarf-version=5", "-debugger-tuning=gdb"]
    return command


def _link_shared(inputs: list[Path], output: Path, options: BuildOptions, *, strip: bool) -> None:
    link = [
        toolchain.tool("clang++"),
        "-shared",
        "-fuse-ld=lld",
        "-Wl,-Bsymbolic",
        "-Wl,--build-id",
        *map(str, inputs),
        "-o",
        str(output),
    ]
    if strip:
        link.append("-Wl,--strip-debug")
    check(toolchain.run(link, verbose=options.verbose, capture=True))


def _sim_assembly(source: Path, cuid: str, options: BuildOptions, workdir: Path) -> Path:
    """The simulated device's assembly (its compile reports the source's diagnostics)."""
    assembly = workdir / "sim.s"
    command = ["-S" if arg == "-emit-obj" else arg for arg in _sim_cc1(source, cuid, options, assembly)]
    # Under -v, the fast-form pass says which kernels have no fast form, and why.
    explain = {"GPUSYM_EXPLAIN_FAST_FORMS": "1"} if options.verbose else None
    result = toolchain.run(command, verbose=options.verbose, capture=True, environment=explain)
    if result.returncode != 0 and _portable_would_help(result.stderr, source, options):
        preprocessed = workdir / "sim.cui"
        output = command.index("-o") + 1
        preprocess = ["-E" if arg == "-S" else arg for arg in command]
        preprocess[output] = str(preprocessed)
        # -cc1 names the input's language just before it.
        language = command.index(str(source)) - 2
        compile_command = command[:language] + command[language + 2 :]
        result = _compile_portable(
            compile_command, preprocess, source, preprocessed, options, "hip-cpp-output", explain
        )
    check_compile(result, source, device=True)
    return assembly


def _sim_object(assembly: Path, kernels: set[str] | None, options: BuildOptions, workdir: Path) -> Path:
    """The simulated device's object file, the breakpoint sites of `kernels`
    (of every function when None) marked (breakpoint_sites.py)."""
    marked = workdir / "sim-marked.s"
    # Latin-1 keeps every byte: LLVM's comments may hold raw bytes (the
    # operands of DW_OP_implicit_value), which are not UTF-8.
    marked.write_text(breakpoint_sites.mark(assembly.read_text("latin-1"), kernels), "latin-1")
    device_object = workdir / "sim.o"
    assemble = [
        toolchain.tool("clang++"),
        f"--target={HOST_TRIPLE}",
        "-Wa,--no-warn",
        "-c",
        str(marked),
        "-o",
        str(device_object),
    ]
    check(toolchain.run(assemble, verbose=options.verbose, capture=True))
    return device_object


def sim_code_object(
    device_objects: list[Path], kernels: list[str], options: BuildOptions, workdir: Path, *, debug: bool
) -> bytes:
    """The simulated device's code object: an x86-64 shared object linked
    from `device_objects`, carrying its parameter descriptors and its kernel
    list (see signatures.py), with its DWARF if `debug`.

    Parameters are read from the DWARF of a first, linked copy: a linked
    object needs no relocations (a relocatable one has TLS relocations DWARF
    readers do not apply)."""
    described = workdir / "sim-described.so"
    _link_shared(device_objects, described, options, strip=False)
    functions, shared = signatures.describe(described)
    signatures.check_kernels(functions, kernels)
    generated = workdir / "sim_signatures.s"
    generated.write_text(signatures.assembly(functions, shared, kernels, options.wave_size))
    shared_object = workdir / "sim.so"
    _link_shared([*device_objects, generated], shared_object, options, strip=not debug)
    return shared_object.read_bytes()


def kernel_names(amdgpu_object: Path) -> list[str]:
    """The kernels clang made of the source: an AMDGPU code object marks each
    one with a kernel descriptor, which the x86-64 compile has no notion of."""
    return [name for name, _, _ in device_code.read(amdgpu_object.read_bytes(), "elf").kernels]


def device_bundle(source: Path, options: BuildOptions, workdir: Path) -> bytes:
    """The clang offload bundle of `source`'s device code: the AMDGPU code
    objects of every --offload-arch and the simulated device's."""
    cuid = compilation_id(source, options)
    workdir.mkdir(parents=True, exist_ok=True)
    # The simulated device first and alone: a source with errors reports them
    # once, as the first device compile of clang's own driver does.
    assembly = _sim_assembly(source, cuid, options, workdir)
    with ThreadPoolExecutor(max_workers=len(options.archs)) as pool:
        outputs = {arch: workdir / f"{arch}.co" for arch in options.archs}
        results = list(pool.map(lambda a: _amdgpu_object(source, a, cuid, options, outputs[a]), options.archs))
    for result in results:
        # The simulated device's compile already showed the source's
        # diagnostics; the AMDGPU link warns of every library reference.
        check(result, echo=False)
    kernels = kernel_names(outputs[options.archs[0]])
    device_object = _sim_object(assembly, set(kernels), options, workdir)
    sim_image = sim_code_object([device_object], kernels, options, workdir, debug=options.debug)
    entries = [(offload_bundle.HOST_ID, b"")]
    entries += [(offload_bundle.amdgpu_id(arch), outputs[arch].read_bytes()) for arch in options.archs]
    entries.append((offload_bundle.SIM_ID, sim_image))
    return offload_bundle.write(entries)


def _dependency_flags(options: BuildOptions, output: Path) -> list[str]:
    """-MD and the like for a compile that writes its object elsewhere before
    `output`: the dependency file and its target named after `output`, as
    for a compile straight into it."""
    flags = list(options.dependency_flags)
    if flags and "-MF" not in flags:
        flags += ["-MF", str(output.with_suffix(".d"))]
    if flags and "-MT" not in flags and "-MQ" not in flags:
        flags += ["-MT", str(output)]
    return flags


def _compile_rdc(source: Path, options: BuildOptions, output: Path, workdir: Path) -> None:
    """Compiles one HIP source with relocatable device code into `output`:
    clang's own -fgpu-rdc object (host code and each target's bitcode), with
    the simulated device's relocatable object added as one more offload
    bundle section.  The device code is linked with the program
    (device_link.py)."""
    cuid = compilation_id(source, options)
    workdir.mkdir(parents=True, exist_ok=True)
    assembly = _sim_assembly(source, cuid, options, workdir)
    # The kernels are known once the device code is linked: every function
    # gets a breakpoint site.
    device_object = _sim_object(assembly, None, options, workdir)
    plain = workdir / "rdc.o"
    # Host code and AMDGPU bitcode: clang's driver gives -fopenmp to the host
    # compile alone.
    compile_flags = [
        toolchain.tool("clang++"),
        *_common_flags(options),
        *options.host_flags,
        *[f"--offload-arch={arch}" for arch in options.archs],
        *_amdgpu_plugin_flags(options),
        *[arg for flag in nvcc_options.device_flags(options) for arg in ("-Xarch_device", flag)],
        f"-cuid={cuid}",
    ]
    dependencies = _dependency_flags(options, output)
    command = [*compile_flags, *dependencies, "-c", str(source), "-o", str(plain)]
    result = toolchain.run(command, verbose=options.verbose, capture=True)
    if result.returncode != 0 and _portable_would_help(result.stderr, source, options):
        # Host and AMDGPU preprocessed as one text bundle (which also writes
        # the dependencies, of the real source), then compiled again.
        preprocessed = workdir / "rdc.cui"
        preprocess = [*compile_flags, *dependencies, "-E", str(source), "-o", str(preprocessed)]
        again = [*compile_flags, "-c", str(source), "-o", str(plain)]
        result = _compile_portable(again, preprocess, source, preprocessed, options, "hip-cpp-output")
    check(result, echo=False)
    add = [
        toolchain.tool("llvm-objcopy"),
        f"--add-section={offload_bundle.SECTION_PREFIX}{offload_bundle.SIM_RDC_ID}={device_object}",
        f"--set-section-flags={offload_bundle.SECTION_PREFIX}{offload_bundle.SIM_RDC_ID}=exclude,readonly",
        str(plain),
        str(output),
    ]
    check(toolchain.run(add, verbose=options.verbose, capture=True))


def write_dependencies(source: Source, options: BuildOptions) -> None:
    """-M or -MM (nvcc's dependencies only): the host compile's view of
    `source`'s includes, to standard output or -o, with no compile."""
    if source.language == "hip":
        language = [*_common_flags(options, host=True), "--cuda-host-only"]
    else:
        language = ["-x", source.language, *include_flags(options), *options.compile_flags]
    output = ["-o", str(options.output)] if options.output else []
    command = [toolchain.tool("clang++"), *language, *options.host_flags, *options.dependency_flags, str(source.path)]
    check(toolchain.run(command + output, verbose=options.verbose))


def compile_hip(source: Path, options: BuildOptions, output: Path, workdir: Path) -> None:
    """Compiles one HIP source into the host object `output`: with its fat
    binary embedded, with relocatable device code (-fgpu-rdc), or the host
    side alone (--cuda-host-only: a bundle the user passes with
    -fcuda-include-gpubinary is embedded, else the link provides one)."""
    if options.rdc and not options.host_only:
        _compile_rdc(source, options, output, workdir)
        return
    cuid = compilation_id(source, options)
    embed = []
    if not options.host_only:
        bundle = workdir / "fatbin.bundle"
        bundle.write_bytes(device_bundle(source, options, workdir))
        embed = ["-Xclang", "-fcuda-include-gpubinary", "-Xclang", str(bundle)]
    flags = [
        toolchain.tool("clang++"),
        *_common_flags(options, host=True),
        *options.host_flags,
        *[f"--offload-arch={arch}" for arch in options.archs],
        "-Xclang",
        f"-cuid={cuid}",
    ]
    host_only = [
        "--cuda-host-only",
        *embed,
        # clang's own -v names the header search path, from which CMake
        # learns the implicit include directories (and drops /usr/include).
        *(["-v"] if options.verbose else []),
    ]
    host = [*flags, *host_only, *options.dependency_flags, "-c", str(source), "-o", str(output)]
    result = toolchain.run(host, verbose=options.verbose, capture=True)
    if result.returncode != 0 and (
        shared_alignment.failed_on_shared_alignment(result.stderr)
        or spaced_launches.failed_on_spaced_launch(result.stderr, source)
        or bool(options.cuda_arch and device_launches.failed_on_device_launch(result.stderr))
    ):
        # The host side preprocessed (writing the dependencies, of the real
        # source), then compiled again as HIP: clang's driver compiles
        # preprocessed HIP for the device too, --cuda-host-only or not.
        preprocessed = workdir / "host.hip"
        preprocess = [*flags, "--cuda-host-only", *options.dependency_flags, "-E", str(source), "-o", str(preprocessed)]
        again = [*flags, *host_only, "-c", str(source), "-o", str(output)]
        result = _compile_portable(again, preprocess, source, preprocessed, options, "hip")
    check_compile(result, source)
