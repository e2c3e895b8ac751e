"""What `gpusym build` puts in a HIP program, as outside tools see it.

A kernel's host side is a stub (the function <<<>>> calls) and a handle (an
object named with the kernel's mangled name, whose address identifies the
kernel); ``__hip_module_ctor`` registers both.  The device code travels in
``.hip_fatbin``, a clang offload bundle holding a real AMDGPU code object per
--offload-arch and an x86-64 shared object for the simulated device.
"""

from __future__ import annotations

from pathlib import Path

import elf_oracles as elf
import pytest

from symbols import offload_bundle

pytestmark = [pytest.mark.toolchain]

HOST_ID = "host-x86_64-unknown-linux--"
GFX90A_ID = "hipv4-amdgcn-amd-amdhsa--gfx90a"
GFX942_ID = "hipv4-amdgcn-amd-amdhsa--gfx942"
# The simulated device's entry as stored (and listed), and the --targets
# value that extracts it: the bundler stores that target with a trailing dash.
SIM_ID = "hipv4-x86_64-unknown-linux-gnu-gpusym-"
SIM_TARGET = "hipv4-x86_64-unknown-linux-gnu-gpusym"

# Each kernel as c++filt demangles its handle and its stub.
KERNELS = {
    "vector_add": [
        (
            "vector_add(float const*, float const*, float*, float, int)",
            "__device_stub__vector_add(float const*, float const*, float*, float, int)",
        ),
    ],
    "templates": [
        ("void ns::fill<float>(float*, float, int)", "void ns::__device_stub__fill<float>(float*, float, int)"),
        ("void ns::fill<int>(int*, int, int)", "void ns::__device_stub__fill<int>(int*, int, int)"),
        ("void ns::fill<double>(double*, double, int)", "void ns::__device_stub__fill<double>(double*, double, int)"),
        ("twice(float*, int)", "__device_stub__twice(float*, int)"),
        ("twice(int*, int)", "__device_stub__twice(int*, int)"),
        ("apply(Params, double*)", "__device_stub__apply(Params, double*)"),
        ("grid2d(int*, int, int)", "__device_stub__grid2d(int*, int, int)"),
        ("grid3d(int*, dim3)", "__device_stub__grid3d(int*, dim3)"),
    ],
}
PROGRAMS = sorted(KERNELS)


class Binary:
    """One built program with its symbols, their demanglings and its bundle."""

    def __init__(self, path: Path, workdir: Path):
        self.path = path
        self.symbols = elf.symbols(path)
        self.demangled = elf.demangle(self.symbols)
        self.by_demangled = {}
        for name, pretty in self.demangled.items():
            self.by_demangled.setdefault(pretty, []).append(self.symbols[name])
        workdir.mkdir(parents=True, exist_ok=True)
        self.bundle = elf.dump_fatbin(path, workdir / "hip_fatbin.bundle")
        self.workdir = workdir

    def only(self, demangled: str) -> elf.Symbol:
        matches = self.by_demangled.get(demangled, [])
        assert len(matches) == 1, f"{self.path.name}: expected one symbol demangling to {demangled!r}, got {matches}"
        return matches[0]

    def amdgpu_object(self, entry_id: str = GFX90A_ID) -> Path:
        out = self.workdir / f"{entry_id}.co"
        if not out.exists():
            result = elf.unbundle(self.bundle, entry_id, out)
            assert result.returncode == 0, result.stderr
        return out

    def sim_object(self) -> Path:
        """The simulated device's entry, cut out by this suite's own bundle parser
        (checked against the bundler by test_suites_bundle_parser_matches_the_bundler),
        so that the checks of its contents do not hinge on the bundler's unbundling,
        which test_bundler_unbundles_the_simulated_entry checks on its own."""
        out = self.workdir / "sim-entry.so"
        if not out.exists():
            out.write_bytes(elf.bundle_entry_bytes(self.bundle, SIM_ID))
        return out


@pytest.fixture(scope="module")
def binaries(samples, vector_add_nodebug, tmp_path_factory) -> dict[str, Binary]:
    root = tmp_path_factory.mktemp("binary-roles")
    built = {name: Binary(samples[name], root / name) for name in PROGRAMS}
    built["vector_add-nodebug"] = Binary(vector_add_nodebug, root / "vector_add-nodebug")
    return built


@pytest.fixture(scope="module")
def multi_arch(sample_builds, tmp_path_factory) -> Binary:
    """vector_add built for two AMDGPU targets."""
    program = sample_builds.get("vector_add", ("-g", "--offload-arch", "gfx90a", "--offload-arch", "gfx942"))
    return Binary(program, tmp_path_factory.mktemp("multi-arch"))


# ---- host side: stubs, handles, registration -------------------------------------------


def test_demangler_agrees_with_the_expected_vector_add_names():
    # The oracle itself: the handle's name is the kernel's mangled name.
    names = elf.demangle(["_Z10vector_addPKfS0_Pffi", "_Z25__device_stub__vector_addPKfS0_Pffi"])
    assert names["_Z10vector_addPKfS0_Pffi"] == KERNELS["vector_add"][0][0]
    assert names["_Z25__device_stub__vector_addPKfS0_Pffi"] == KERNELS["vector_add"][0][1]


@pytest.mark.parametrize("program", PROGRAMS)
def test_every_kernel_has_a_stub_function_in_text(binaries, program):
    binary = binaries[program]
    for _, stub_name in KERNELS[program]:
        stub = binary.only(stub_name)
        assert stub.name.startswith("_Z") and "__device_stub__" in stub.name, stub
        assert stub.type == "FUNC", stub
        assert stub.section == ".text", stub


@pytest.mark.parametrize("program", PROGRAMS)
def test_every_kernel_has_a_handle_object_named_like_the_kernel(binaries, program):
    binary = binaries[program]
    for handle_name, _ in KERNELS[program]:
        handle = binary.only(handle_name)
        assert handle.name.startswith("_Z"), handle
        assert handle.type == "OBJECT", handle
        assert handle.section not in (".text", "UND"), handle


def test_vector_add_handle_has_the_kernels_exact_mangled_name(binaries):
    handle = binaries["vector_add"].symbols.get("_Z10vector_addPKfS0_Pffi")
    assert handle is not None, "no symbol _Z10vector_addPKfS0_Pffi in vector_add"
    assert handle.type == "OBJECT"
    stub = binaries["vector_add"].symbols.get("_Z25__device_stub__vector_addPKfS0_Pffi")
    assert stub is not None and stub.type == "FUNC" and stub.section == ".text", stub


@pytest.mark.parametrize("program", PROGRAMS)
def test_handles_are_named_like_the_amdgpu_kernels(binaries, program):
    # The handle's name is the name the device code object gives the kernel.
    binary = binaries[program]
    device = elf.symbols(binary.amdgpu_object())
    for handle_name, _ in KERNELS[program]:
        handle = binary.only(handle_name)
        assert handle.name in device, f"{handle.name} is not a kernel of the gfx90a code object"


@pytest.mark.parametrize("program", PROGRAMS)
def test_module_constructor_registers_the_fat_binary_and_kernels(binaries, program):
    symbols = binaries[program].symbols
    ctor = symbols.get("__hip_module_ctor")
    assert ctor is not None, "no __hip_module_ctor"
    assert ctor.type == "FUNC" and ctor.section == ".text", ctor
    for runtime_entry in ("__hipRegisterFatBinary", "__hipRegisterFunction"):
        assert runtime_entry in symbols and symbols[runtime_entry].section == "UND", runtime_entry


def test_device_variables_are_registered(samples):
    # reduction has a __constant__ and a __device__ variable: clang registers them.
    symbols = elf.symbols(samples["reduction"])
    assert "__hipRegisterVar" in symbols and symbols["__hipRegisterVar"].section == "UND"
    for variable in ("weights", "blocks_done"):  # the host shadows of the device variables
        assert variable in symbols and symbols[variable].type == "OBJECT", variable


# ---- the fat binary ----------------------------------------------------------------------


@pytest.mark.parametrize("program", PROGRAMS)
def test_program_has_a_hip_fatbin_section(binaries, program):
    assert ".hip_fatbin" in elf.section_names(binaries[program].path)


@pytest.mark.parametrize("program", PROGRAMS)
def test_bundler_lists_host_gfx90a_and_simulated_entries(binaries, program):
    ids = elf.bundle_ids(binaries[program].bundle)
    assert sorted(ids) == sorted([HOST_ID, GFX90A_ID, SIM_ID])


def test_each_offload_arch_gets_its_amdgpu_entry(multi_arch):
    ids = elf.bundle_ids(multi_arch.bundle)
    assert sorted(ids) == sorted([HOST_ID, GFX90A_ID, GFX942_ID, SIM_ID])
    for entry_id in (GFX90A_ID, GFX942_ID):
        header = elf.elf_header(multi_arch.amdgpu_object(entry_id))
        assert header["Machine"] == "EM_AMDGPU", (entry_id, header)
    assert "gfx942" in elf.check_output([elf.READELF, "-hW", multi_arch.amdgpu_object(GFX942_ID)]).lower()


@pytest.mark.parametrize("program", [*PROGRAMS, "vector_add-nodebug"])
def test_read_entries_agrees_with_the_bundler(binaries, program):
    bundle = binaries[program].bundle
    ours = [entry.id for entry in offload_bundle.read_entries(bundle.read_bytes())]
    assert sorted(ours) == sorted(elf.bundle_ids(bundle))


def test_read_entries_agrees_with_the_bundler_for_two_archs(multi_arch):
    ours = [entry.id for entry in offload_bundle.read_entries(multi_arch.bundle.read_bytes())]
    assert sorted(ours) == sorted(elf.bundle_ids(multi_arch.bundle))


def test_suites_bundle_parser_matches_the_bundler(binaries):
    # The tests below cut the simulated entry out with elf.bundle_entry_bytes;
    # it must give exactly the bytes the bundler extracts for an entry.
    binary = binaries["vector_add"]
    assert elf.bundle_entry_bytes(binary.bundle, GFX90A_ID) == binary.amdgpu_object().read_bytes()


# ---- the AMDGPU entry -----------------------------------------------------------------------


@pytest.mark.parametrize("program", PROGRAMS)
def test_amdgpu_entry_defines_each_kernel_and_its_descriptor(binaries, program):
    binary = binaries[program]
    code_object = binary.amdgpu_object()
    assert elf.elf_header(code_object)["Machine"] == "EM_AMDGPU"
    device = elf.symbols(code_object)
    for handle_name, _ in KERNELS[program]:
        kernel = binary.only(handle_name).name
        assert kernel in device and device[kernel].type == "FUNC", (kernel, device.get(kernel))
        descriptor = device.get(f"{kernel}.kd")
        assert descriptor is not None and descriptor.type == "OBJECT", f"{kernel}.kd: {descriptor}"


# ---- the simulated device's entry -------------------------------------------------------


def test_bundler_unbundles_the_simulated_entry(binaries, tmp_path):
    # The documented way to get the simulated code object out of a program.
    out = tmp_path / "sim.so"
    result = elf.unbundle(binaries["vector_add"].bundle, SIM_TARGET, out)
    assert result.returncode == 0, f"clang-offload-bundler --unbundle failed: {result.stderr.strip()}"
    assert out.read_bytes() == elf.bundle_entry_bytes(binaries["vector_add"].bundle, SIM_ID)


@pytest.mark.parametrize("program", PROGRAMS)
def test_simulated_entry_is_an_x86_64_shared_object_defining_the_kernels(binaries, program):
    binary = binaries[program]
    sim = binary.sim_object()
    header = elf.elf_header(sim)
    assert header["Class"] == "ELF64"
    assert header["Type"].startswith("DYN"), header["Type"]
    assert header["Machine"] == "Advanced Micro Devices X86-64", header["Machine"]
    device = elf.symbols(sim)
    for handle_name, _ in KERNELS[program]:
        kernel = binary.only(handle_name).name
        symbol = device.get(kernel)
        assert symbol is not None, f"the simulated code object lacks {kernel}"
        assert symbol.type == "FUNC" and symbol.section not in ("UND", "ABS"), symbol


def test_simulated_entry_keeps_dwarf_with_g(binaries):
    assert ".debug_info" in elf.section_names(binaries["vector_add"].sim_object())


def test_simulated_entry_has_no_dwarf_without_g(binaries):
    sim = binaries["vector_add-nodebug"].sim_object()
    names = elf.section_names(sim)
    assert ".debug_info" not in names, sorted(names)
    # Stripped of DWARF, not of the kernel it must still export.
    assert elf.symbols(sim).get("_Z10vector_addPKfS0_Pffi") is not None
