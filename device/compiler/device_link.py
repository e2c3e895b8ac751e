"""The device side of a link, as clang's ``--hip-link`` does it, for the
simulated device too.

A host object compiled with -fgpu-rdc (or --cuda-host-only) does not carry
its fat binary: its registration refers to ``__hip_fatbin_CUID`` and
``__hip_gpubin_handle_CUID``, which the link defines.  With -fgpu-rdc the
device code travels in the object's offload bundle sections (clang's
bitcode for each AMDGPU target, and the simulated device's relocatable
object, see hip_source.py), from objects and from the members of static
libraries.  This module links each target's device code, bundles the
results and writes the object that defines those symbols for every
compilation unit of the link.  A fat binary built by hand (an object
defining ``__hip_fatbin``, as ROCm's examples of hand-written device code
make) stands for all of them instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from device.compiler import archives, hip_source
from device.compiler.options import BuildOptions
from native import toolchain
from symbols import elf, offload_bundle
from symbols.demangling.gnu import demangle

FATBIN = "__hip_fatbin"
_FATBIN_PREFIX = "__hip_fatbin_"
_HANDLE_PREFIX = "__hip_gpubin_handle_"
_SIM_SECTION = offload_bundle.SECTION_PREFIX + offload_bundle.SIM_RDC_ID
_AMDGPU_SECTION = offload_bundle.SECTION_PREFIX + offload_bundle.AMDGPU_RDC_PREFIX
_DEVICE_LIBRARY_PREFIXES = ("__ocml_", "__ockl_", "__oclc_", "__llvm_")
#: What a vtable of device code names for a pure virtual or deleted function:
#: the C++ runtime's, which the simulated device's code gets from the process.
_CXX_RUNTIME = {"__cxa_pure_virtual", "__cxa_deleted_virtual"}


class DeviceLinkError(Exception):
    """The device code of the link cannot be linked; the message says why."""


@dataclass
class DeviceInputs:
    """What the inputs of a link need and hold for the device side."""

    sim_objects: list[bytes] = field(default_factory=list)
    bitcode: dict[str, list[bytes]] = field(default_factory=dict)  # AMDGPU target -> modules
    wanted: set[str] = field(default_factory=set)  # __hip_fatbin_*/__hip_gpubin_handle_* referred to
    defined: set[str] = field(default_factory=set)
    debug: bool = False  # some host object has DWARF: it was compiled with -g

    @property
    def cuids(self) -> list[str]:
        """Compilation units whose fat binary the link must define."""
        return sorted(
            name[len(_FATBIN_PREFIX) :] for name in self.wanted - self.defined if name.startswith(_FATBIN_PREFIX)
        )


def _scan_object(data: bytes, inputs: DeviceInputs) -> None:
    if not data.startswith(b"\x7fELF"):
        return
    try:
        image = elf.ElfFile(data)
        sections = image.sections
        symbols = image.symtab
    except elf.FormatError:
        return  # not ours to judge: the linker reports it
    for section in sections:
        inputs.debug = inputs.debug or section.name == ".debug_info"
        if section.name == _SIM_SECTION:
            inputs.sim_objects.append(bytes(image.contents(section)))
        elif section.name.startswith(_AMDGPU_SECTION):
            arch = section.name[len(_AMDGPU_SECTION) :]
            inputs.bitcode.setdefault(arch, []).append(bytes(image.contents(section)))
    for symbol in symbols:
        if symbol.name.startswith((_FATBIN_PREFIX, _HANDLE_PREFIX)) or symbol.name == FATBIN:
            (inputs.defined if symbol.defined else inputs.wanted).add(symbol.name)


def _library(name: str, search: list[Path]) -> Path | None:
    """The static library ``-lNAME`` names, unless a shared one comes first."""
    for directory in search:
        if (directory / f"lib{name}.so").exists():
            return None
        if (candidate := directory / f"lib{name}.a").exists():
            return candidate
    return None


def scan(objects: list[Path], link_flags: list[str]) -> DeviceInputs:
    """Reads the objects and static libraries of a link (``-lNAME`` found
    through the ``-L`` directories) for their device code and references."""
    search = [Path(flag[2:]) for flag in link_flags if flag.startswith("-L")]
    paths = list(objects)
    paths += [lib for flag in link_flags if flag.startswith("-l") and (lib := _library(flag[2:], search))]
    inputs = DeviceInputs()
    for path in paths:
        try:
            data = path.read_bytes()
        except OSError:
            continue  # the linker names a missing input
        if archives.is_archive(data):
            try:
                for _, member in archives.members(data, path):
                    _scan_object(member, inputs)
            except archives.ArchiveError as error:
                raise DeviceLinkError(str(error)) from None
        else:
            _scan_object(data, inputs)
    return inputs


def _amdgpu_code_object(arch: str, modules: list[bytes], options: BuildOptions, workdir: Path) -> Path:
    """One AMDGPU target's device code linked (LTO over clang's bitcode)."""
    inputs = []
    for index, module in enumerate(modules):
        inputs.append(workdir / f"{arch}-{index}.bc")
        inputs[-1].write_bytes(module)
    output = workdir / f"{arch}.co"
    command = [
        toolchain.tool("ld.lld"),
        "-m",
        "elf64_amdgpu",
        "-shared",
        # The ROCm device library's functions stay undefined, as in the
        # compile of a source without -fgpu-rdc (hip_source.py).
        "--noinhibit-exec",
        "-plugin-opt=-amdgpu-internalize-symbols",
        f"-plugin-opt=mcpu={arch}",
        "-o",
        str(output),
        *map(str, inputs),
    ]
    hip_source.check(toolchain.run(command, verbose=options.verbose, capture=True), echo=False)
    # The ROCm device library's functions and the C++ runtime's are the
    # only undefined names expected: anything else is device code no input
    # defines.
    image = elf.ElfFile(output.read_bytes())
    undefined = {s.name for s in image.dynsym + image.symtab if not s.defined and s.name}
    expected = {name for name in undefined if name.startswith(_DEVICE_LIBRARY_PREFIXES) or name in _CXX_RUNTIME}
    if missing := sorted(undefined - expected):
        named = ", ".join(demangle(name) or name for name in missing)
        raise DeviceLinkError(f"relocatable device code refers to {named}, which no input defines")
    return output


def _bundle(inputs: DeviceInputs, options: BuildOptions, workdir: Path) -> bytes:
    """The fat binary of the link's relocatable device code."""
    # The targets the objects were compiled for, or those of them the link
    # names with --offload-arch.
    archs = [arch for arch in options.offload_archs if arch in inputs.bitcode] or sorted(inputs.bitcode)
    if not archs:
        raise DeviceLinkError("relocatable device code has no AMDGPU target: compile it with gpusym build -fgpu-rdc")
    code_objects = {arch: _amdgpu_code_object(arch, inputs.bitcode[arch], options, workdir) for arch in archs}
    kernels = hip_source.kernel_names(code_objects[archs[0]])
    sim_objects = []
    for index, image in enumerate(inputs.sim_objects):
        sim_objects.append(workdir / f"sim-{index}.o")
        sim_objects[-1].write_bytes(image)
    entries = [(offload_bundle.HOST_ID, b"")]
    entries += [(offload_bundle.amdgpu_id(arch), code_objects[arch].read_bytes()) for arch in archs]
    if sim_objects:
        # The simulated device's objects always carry DWARF (their parameters
        # are read from it): the code object keeps it if the sources were
        # compiled with -g, which their host objects' DWARF tells.
        image = hip_source.sim_code_object(sim_objects, kernels, options, workdir, debug=options.debug or inputs.debug)
        entries.append((offload_bundle.SIM_ID, image))
    return offload_bundle.write(entries)


def link_inputs(inputs: DeviceInputs, options: BuildOptions, workdir: Path) -> tuple[list[Path], list[str]]:
    """The extra objects and linker flags that define every compilation
    unit's fat binary and registration handle; nothing if none is needed."""
    cuids = inputs.cuids
    if not cuids:
        return [], []
    workdir.mkdir(parents=True, exist_ok=True)
    lines = ['\t.section .hip_gpubin_handle,"aw"', "\t.p2align 3"]
    lines += [f"\t.globl {_HANDLE_PREFIX}{cuid}\n\t.hidden {_HANDLE_PREFIX}{cuid}" for cuid in cuids]
    lines += [f"{_HANDLE_PREFIX}{cuid}:" for cuid in cuids]
    lines.append("\t.zero 8")
    flags = []
    if inputs.sim_objects or inputs.bitcode:
        bundle = workdir / "device.hipfb"
        bundle.write_bytes(_bundle(inputs, options, workdir))
        lines += ['\t.section .hip_fatbin,"a",@progbits', "\t.p2align 12"]
        lines += [f"\t.globl {_FATBIN_PREFIX}{cuid}\n\t.hidden {_FATBIN_PREFIX}{cuid}" for cuid in cuids]
        lines += [f"{_FATBIN_PREFIX}{cuid}:" for cuid in cuids]
        lines.append(f'\t.incbin "{bundle}"')
    elif FATBIN in inputs.defined:
        flags = [f"-Wl,--defsym={_FATBIN_PREFIX}{cuid}={FATBIN}" for cuid in cuids]
    else:
        return [], []  # the linker names the undefined fat binary
    lines.append('\t.section .note.GNU-stack,"",@progbits')
    source = workdir / "device_link.s"
    source.write_text("\n".join(lines) + "\n")
    output = workdir / "device_link.o"
    assemble = [toolchain.tool("clang++"), f"--target={hip_source.HOST_TRIPLE}", "-c", str(source), "-o", str(output)]
    hip_source.check(toolchain.run(assemble, verbose=options.verbose, capture=True))
    return [output], flags
