"""The offline symbolizer on programs built at test time, loaded (on paper)
where a PIE executable and a shared library would be, and checked against
llvm-readelf (symbols, segments), llvm-objdump (calls) and llvm-symbolizer
(source positions)."""

from __future__ import annotations

import re
from pathlib import Path

import elf_oracles as elf
import pytest

from symbols.lines import LineTable
from symbols.symbolize import HostFrame, Symbolizer

pytestmark = [pytest.mark.toolchain]

PIE_BASE = 0x555555554000
LIBRARY_BASE = 0x7FFFF7A00000
VECTOR_ADD = "vector_add(float const*, float const*, float*, float, int)"

_READELF_SYMBOL = re.compile(r"^\s*\d+:\s+([0-9a-f]+)\s+(\d+|0x[0-9a-f]+)\s+(\w+)\s+\w+\s+\w+\s+(\S+)\s+(\S+)\s*$")
_LOAD = re.compile(r"^\s*LOAD\s+0x[0-9a-f]+\s+0x([0-9a-f]+)\s+0x[0-9a-f]+\s+0x[0-9a-f]+\s+0x([0-9a-f]+)")
_CALL = re.compile(r"^\s*([0-9a-f]+):\s+callq?\s+0x([0-9a-f]+)(?:\s+<([^>]+)>)?")
_INSTRUCTION = re.compile(r"^\s*([0-9a-f]+):\s")


def symbols(path: Path, kinds: tuple[str, ...] = ("FUNC", "OBJECT")) -> dict[str, tuple[int, int]]:
    """Defined symbols' (value, size) by name, from ``llvm-readelf -s``."""
    found = {}
    for line in elf.check_output([elf.READELF, "-sW", path]).splitlines():
        match = _READELF_SYMBOL.match(line)
        if match and match.group(3) in kinds and match.group(4) != "UND":
            found.setdefault(match.group(5).split("@")[0], (int(match.group(1), 16), int(match.group(2), 0)))
    return found


def segments(path: Path, base: int) -> list[tuple[int, int]]:
    """The PT_LOAD segments of `path` loaded at `base`: (start, size)."""
    lines = elf.check_output([elf.READELF, "-lW", path]).splitlines()
    loads = [(base + int(m.group(1), 16), int(m.group(2), 16)) for m in map(_LOAD.match, lines) if m]
    assert loads, f"no PT_LOAD in {path}"
    return loads


def calls(path: Path, function: str) -> list[tuple[int, int, str]]:
    """(call address, return address, callee) of each call in `function`."""
    listing = elf.check_output(
        ["llvm-objdump-19", "-d", "--no-show-raw-insn", f"--disassemble-symbols={function}", path]
    )
    instructions = [line for line in listing.splitlines() if _INSTRUCTION.match(line)]
    found = []
    for line, following in zip(instructions, instructions[1:]):
        if match := _CALL.match(line):
            found.append(
                (int(match.group(1), 16), int(_INSTRUCTION.match(following).group(1), 16), match.group(3) or "")
            )
    assert found, f"no calls in {function} of {path}"
    return found


def llvm_symbolizer(path: Path, addresses: list[int]) -> list[tuple[str | None, tuple[str, int] | None]]:
    """(function, (file, line)) of each ELF address as llvm-symbolizer says;
    None for ``??`` and for line 0."""
    output = elf.check_output(["llvm-symbolizer-19", "--no-inlines", f"--obj={path}", *map(hex, addresses)])
    answers = []
    for block in output.strip("\n").split("\n\n"):
        function, location = block.splitlines()
        file, line, _ = location.rsplit(":", 2)
        answers.append(
            (None if function == "??" else function, None if file == "??" or line == "0" else (file, int(line)))
        )
    assert len(answers) == len(addresses)
    return answers


def loaded(*modules: tuple[Path, int]) -> Symbolizer:
    symbolizer = Symbolizer()
    for path, base in modules:
        symbolizer.add_module(str(path), base, segments(path, base))
    return symbolizer


@pytest.fixture(scope="session")
def vector_add_dwarf4(sample_builds) -> Path:
    return sample_builds.get("vector_add", ("-gdwarf-4",))


@pytest.fixture(scope="session")
def shared_kernels(build_program) -> Path:
    return build_program("shared_kernels.hip", flags=("-g", "-shared"), output="libshared_kernels.so")


@pytest.mark.parametrize("build", ["vector_add", "vector_add_dwarf4", "templates"])
def test_positions_and_names_in_main_agree_with_llvm_symbolizer(build, request):
    program = request.getfixturevalue(build)
    start, size = symbols(program)["main"]
    addresses = list(range(start, start + size, 7))
    symbolizer = loaded((program, PIE_BASE))
    for address, (function, position) in zip(addresses, llvm_symbolizer(program, addresses)):
        frame = symbolizer.frame(PIE_BASE + address, return_address=False)
        assert (frame.function, frame.role, frame.function_offset) == ("main", "host-code", address - start)
        assert function == "main"
        assert (frame.file, frame.line) == (position or (None, None)), hex(address)
    assert symbolizer.frame(PIE_BASE + start, return_address=False).file.endswith(f"/{build.split('_dwarf')[0]}.hip")


@pytest.mark.parametrize("build", ["vector_add", "vector_add_dwarf4", "templates"])
def test_line_table_agrees_with_llvm_symbolizer_over_all_code(build, request):
    """Every 5th byte of .text and beyond: other functions, header code,
    stubs without lines, padding between functions."""
    program = request.getfixturevalue(build)
    functions = symbols(program, ("FUNC",)).values()
    start = min(value for value, size in functions)
    end = max(value + size for value, size in functions)
    addresses = list(range(start, end, 5))
    answers = [position for _, position in llvm_symbolizer(program, addresses)]
    assert sum(position is not None for position in answers) > len(addresses) // 3
    table = LineTable(program)
    assert [table.position(address) for address in addresses] == answers
    with open(program, "rb") as stream:
        from_stream = LineTable(stream)
        assert [from_stream.position(address) for address in addresses[::10]] == answers[::10]


def test_a_return_address_is_looked_up_in_its_call(vector_add):
    """Return addresses of main's calls: the line is the call's even where
    the next instruction starts another line; the address is as given."""
    symbolizer = loaded((vector_add, PIE_BASE))
    found = calls(vector_add, "main")
    answers = llvm_symbolizer(vector_add, [a for call, ret, _ in found for a in (call, ret)])
    next_line = 0
    for index, (call, ret, callee) in enumerate(found):
        at_call, at_return = answers[2 * index][1], answers[2 * index + 1][1]
        frame = symbolizer.frame(PIE_BASE + ret)
        assert (frame.address, frame.offset, frame.function) == (PIE_BASE + ret, ret, "main")
        assert (frame.file, frame.line) == at_call
        assert (symbolizer.frame(PIE_BASE + ret, return_address=False).line) == (at_return and at_return[1])
        next_line += at_call != at_return
        if "__device_stub__" in callee:
            assert frame.line == 42  # vector_add<<<grid, block>>>(...)
    assert next_line, "no call in main is followed by another line: the test shows nothing"


def test_the_stub_names_the_kernel_it_launches(vector_add):
    table = symbols(vector_add)
    stub = "_Z25__device_stub__vector_addPKfS0_Pffi"
    symbolizer = loaded((vector_add, PIE_BASE))
    launch = [ret for _, ret, callee in calls(vector_add, stub) if callee.startswith("hipLaunchKernel")]
    assert launch, "the stub calls no hipLaunchKernel"
    frame = symbolizer.frame(PIE_BASE + launch[0])
    assert frame == HostFrame(
        address=PIE_BASE + launch[0],
        module=str(vector_add),
        offset=launch[0],
        function=stub,
        demangled=f"__device_stub__{VECTOR_ADD}",
        function_offset=launch[0] - table[stub][0],
        role="kernel-stub",
        kernel=VECTOR_ADD,
    )
    assert llvm_symbolizer(vector_add, [launch[0] - 1])[0][1] is None  # clang gives stubs no lines


def test_the_handle_variable_names_its_kernel(vector_add):
    handle, size = symbols(vector_add)["_Z10vector_addPKfS0_Pffi"]
    symbolizer = loaded((vector_add, PIE_BASE))
    for offset in range(size):
        frame = symbolizer.data_symbol(PIE_BASE + handle + offset)
        assert (frame.function, frame.demangled, frame.function_offset) == (
            "_Z10vector_addPKfS0_Pffi",
            VECTOR_ADD,
            offset,
        )
        assert (frame.role, frame.kernel, frame.file, frame.line) == ("kernel-handle", VECTOR_ADD, None, None)
    # No byte before: data addresses are not return addresses.
    assert symbolizer.data_symbol(PIE_BASE + handle).function_offset == 0


def test_without_debug_information_functions_still_have_names(vector_add_nodebug):
    table = symbols(vector_add_nodebug)
    symbolizer = loaded((vector_add_nodebug, PIE_BASE))
    main, main_size = table["main"]
    stub = table["_Z25__device_stub__vector_addPKfS0_Pffi"][0]
    assert LineTable(vector_add_nodebug).position(main) is None
    for address in range(main + 1, main + main_size, 13):
        frame = symbolizer.frame(PIE_BASE + address)
        assert (frame.function, frame.role, frame.file, frame.line) == ("main", "host-code", None, None)
    frame = symbolizer.frame(PIE_BASE + stub + 4)
    assert (frame.role, frame.kernel, frame.file) == ("kernel-stub", VECTOR_ADD, None)


def test_a_shared_library_and_the_program_together(shared_kernels, build_program):
    program = build_program(
        "shared_main.cpp",
        flags=("-g", f"-L{shared_kernels.parent}", "-lshared_kernels", f"-Wl,-rpath,{shared_kernels.parent}"),
    )
    symbolizer = loaded((program, PIE_BASE), (shared_kernels, LIBRARY_BASE))
    library = symbols(shared_kernels)
    launches = [ret for _, ret, callee in calls(shared_kernels, "library_square") if "__device_stub__" in callee]
    assert len(launches) == 1
    frame = symbolizer.frame(LIBRARY_BASE + launches[0])
    assert (frame.module, frame.offset, frame.function, frame.demangled) == (
        str(shared_kernels),
        launches[0],
        "library_square",
        None,
    )
    assert (frame.line, frame.role) == (16, "host-code")  # square<<<...>>>(data, n)
    assert (frame.file, frame.line) == llvm_symbolizer(shared_kernels, [launches[0] - 1])[0][1]
    stub = symbolizer.frame(LIBRARY_BASE + library["_Z21__device_stub__squarePii"][0] + 1)
    assert (stub.role, stub.kernel) == ("kernel-stub", "square(int*, int)")
    handle = symbolizer.data_symbol(LIBRARY_BASE + library["_Z7add_onePii"][0])
    assert (handle.role, handle.kernel) == ("kernel-handle", "add_one(int*, int)")
    main = symbolizer.frame(PIE_BASE + symbols(program)["main"][0] + 1)
    assert (main.module, main.function, Path(main.file).name) == (str(program), "main", "shared_main.cpp")


def test_unreadable_modules_and_unmapped_addresses_give_bare_frames(vector_add, tmp_path):
    not_elf = tmp_path / "not-elf.so"
    not_elf.write_bytes(b"\x7fELF" + b"\xff" * 60)
    empty = tmp_path / "empty.so"
    empty.touch()
    symbolizer = loaded((vector_add, PIE_BASE))
    modules = [
        ("linux-vdso.so.1", 0x7FFFF7FC1000),
        (str(tmp_path / "gone.so"), 0x7FFFF7E00000),
        (str(not_elf), 0x7FFFF7D00000),
        (str(empty), 0x7FFFF7C00000),
        (str(tmp_path), 0x7FFFF7B00000),
    ]
    for path, base in modules:
        symbolizer.add_module(path, base, [(base, 0x2000)])
    for path, base in modules:
        for return_address in (True, False):
            frame = symbolizer.frame(base + 0x1234, return_address=return_address)
            assert frame == HostFrame(base + 0x1234, path, 0x1234)
        assert symbolizer.data_symbol(base + 8) == HostFrame(base + 8, path, 8)
    text = segments(vector_add, PIE_BASE)
    beyond = max(start + size for start, size in text)
    for address in (0, 1, PIE_BASE - 1, beyond, beyond + 1, 1 << 64, -5):
        assert symbolizer.frame(address, return_address=False) == HostFrame(address)
        assert symbolizer.data_symbol(address) == HostFrame(address)
    # A return address is in the module of the byte before it.
    assert symbolizer.frame(PIE_BASE) == HostFrame(PIE_BASE)
    assert symbolizer.frame(beyond).module == str(vector_add)
    for address in (0, beyond + 1, 1 << 64, -5):
        assert symbolizer.frame(address) == HostFrame(address)
        assert symbolizer.frame(address).to_json() == {
            "address": address,
            "module": None,
            "offset": None,
            "function": None,
            "demangled": None,
            "function_offset": None,
            "file": None,
            "line": None,
            "role": None,
            "kernel": None,
        }


def test_frames_are_cached_and_a_later_module_is_seen(vector_add):
    symbolizer = Symbolizer()
    main = symbols(vector_add)["main"][0]
    assert symbolizer.frame(PIE_BASE + main + 1) == HostFrame(PIE_BASE + main + 1)
    symbolizer.add_module(str(vector_add), PIE_BASE, segments(vector_add, PIE_BASE))
    frame = symbolizer.frame(PIE_BASE + main + 1)
    assert frame.function == "main" and frame.line == 24
    assert symbolizer.frame(PIE_BASE + main + 1) is frame
    assert frame.to_json()["function"] == "main"
