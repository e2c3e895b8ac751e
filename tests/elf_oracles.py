"""Reading binaries with independent tools (LLVM 19's readelf, objcopy and
offload bundler, binutils' c++filt), never with gpusym's own code, so that
the tests that use them check gpusym against an outside opinion."""

from __future__ import annotations

import re
import struct
import subprocess
from dataclasses import dataclass
from pathlib import Path

READELF = "llvm-readelf-19"
OBJCOPY = "llvm-objcopy-19"
BUNDLER = "clang-offload-bundler-19"
CXXFILT = "c++filt"
LLVM_CXXFILT = "llvm-cxxfilt-19"

_SECTION = re.compile(r"^\s*\[\s*(\d+)\]\s+(\S+)\s+(\S+)")
_SYMBOL = re.compile(r"^\s*\d+:\s+([0-9a-f]+)\s+(\S+)\s+(\w+)\s+(\w+)\s+(\w+)\s+(\w+)\s+(\S+)\s*$")


def check_output(command: list[str | Path]) -> str:
    result = subprocess.run([str(c) for c in command], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, (
        f"$ {' '.join(map(str, command))}\nexit status {result.returncode}\n{result.stdout}{result.stderr}"
    )
    return result.stdout


@dataclass(frozen=True)
class Symbol:
    name: str
    type: str  # FUNC, OBJECT, ...
    bind: str  # GLOBAL, WEAK, LOCAL
    section: str  # section name, or UND / ABS


def sections(path: Path) -> dict[int, str]:
    """Section index -> name, from ``llvm-readelf -S``."""
    table = {}
    for line in check_output([READELF, "-SW", path]).splitlines():
        match = _SECTION.match(line)
        if match and match.group(1) != "0":
            table[int(match.group(1))] = match.group(2)
    return table


def section_names(path: Path) -> set[str]:
    return set(sections(path).values())


def symbols(path: Path) -> dict[str, Symbol]:
    """Every named symbol of `path` (.symtab preferred over .dynsym), by name."""
    by_index = sections(path)
    found: dict[str, Symbol] = {}
    table = None
    for line in check_output([READELF, "-sW", path]).splitlines():
        if line.startswith("Symbol table"):
            table = ".symtab" if "'.symtab'" in line else ".dynsym"
            continue
        match = _SYMBOL.match(line)
        if not match:
            continue
        _, _, type_, bind, _, ndx, name = match.groups()
        name = name.split("@")[0]
        section = by_index.get(int(ndx), f"#{ndx}") if ndx.isdigit() else ndx
        if name and (name not in found or table == ".symtab"):
            found[name] = Symbol(name, type_, bind, section)
    return found


def elf_header(path: Path) -> dict[str, str]:
    """``llvm-readelf -h`` as field -> value (``Type``, ``Machine``, ``Class``...)."""
    header = {}
    for line in check_output([READELF, "-hW", path]).splitlines():
        key, sep, value = line.partition(":")
        if sep:
            header[key.strip()] = value.strip()
    return header


def demangle(names, tool: str = CXXFILT) -> dict[str, str]:
    """Mangled name -> what c++filt (or `tool`: LLVM_CXXFILT) makes of it."""
    names = list(names)
    result = subprocess.run([tool], input="\n".join(names) + "\n", capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return dict(zip(names, result.stdout.splitlines()))


def dump_fatbin(program: Path, out: Path) -> Path:
    """The bytes of `program`'s .hip_fatbin section, written to `out`."""
    check_output([OBJCOPY, f"--dump-section=.hip_fatbin={out}", program, out.with_suffix(".unused")])
    return out


def bundle_ids(bundle: Path) -> list[str]:
    """The entry ids ``clang-offload-bundler --list`` reports, in its order."""
    return check_output([BUNDLER, "--list", "--type=o", f"--input={bundle}"]).split()


def unbundle(bundle: Path, target: str, out: Path) -> subprocess.CompletedProcess:
    """``clang-offload-bundler --unbundle`` of one entry into `out`."""
    command = [BUNDLER, "--unbundle", "--type=o", f"--targets={target}", f"--input={bundle}", f"--output={out}"]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def bundle_entry_bytes(bundle: Path, target: str) -> bytes:
    """One entry of a clang offload bundle, read by this test suite's own
    parser of the documented layout (clang's ClangOffloadBundler docs, "Bundled
    Binary File Layout": magic, u64 count, then per entry u64 offset, u64 size,
    u64 id length and the id; all little-endian)."""
    data = bundle.read_bytes()
    magic = b"__CLANG_OFFLOAD_BUNDLE__"
    assert data.startswith(magic), f"{bundle} is not a clang offload bundle"
    (count,) = struct.unpack_from("<Q", data, len(magic))
    cursor = len(magic) + 8
    for _ in range(count):
        offset, size, id_size = struct.unpack_from("<QQQ", data, cursor)
        cursor += 24
        entry_id = data[cursor : cursor + id_size].decode()
        cursor += id_size
        if entry_id == target:
            return data[offset : offset + size]
    raise AssertionError(f"{bundle} has no entry {target}")


OBJDUMP = "objdump"
_REGISTRATION_CODE = re.compile(r"__nv_cudaEntityRegisterCallback|__sti____cudaRegisterAll|__cuda_register_globals")
#: An instruction of ``objdump -d --no-show-raw-insn -w``: mnemonic, operands, the address in its comment.
_INSTRUCTION = re.compile(r"^\s*[0-9a-f]+:\s+(\w+)\s+([^#<]*?)\s*(?:<[^>]*>)?\s*(?:#\s*([0-9a-f]+)\b.*)?$")
_ARGUMENT = {"%rsi": "rsi", "%esi": "rsi", "%rdx": "rdx", "%edx": "rdx", "%rcx": "rcx", "%ecx": "rcx"}


def registered_functions(path: Path) -> dict[str, int]:
    """Device name -> the host address registered for it, for each call to
    __cudaRegisterFunction in the registration code of a linked x86-64 file:
    binutils' objdump disassembles it, and %rsi and %rdx are followed through
    lea, loads from the GOT (pyelftools reads its relocations), moves of an
    immediate or from another register, and calls that clobber them."""
    from elftools.elf.elffile import ELFFile
    from elftools.elf.relocation import RelocationSection

    with path.open("rb") as stream:
        elf = ELFFile(stream)
        symtab = elf.get_section_by_name(".symtab").iter_symbols()
        functions = {
            (s["st_value"], s["st_value"] + s["st_size"])
            for s in symtab
            if s["st_info"]["type"] == "STT_FUNC" and s["st_size"] and _REGISTRATION_CODE.search(s.name)
        }
        dynsym = elf.get_section_by_name(".dynsym")
        got = {}
        for section in elf.iter_sections():
            if isinstance(section, RelocationSection):
                for r in section.iter_relocations():
                    symbol = dynsym.get_symbol(r["r_info_sym"]) if r["r_info_sym"] else None
                    got[r["r_offset"]] = symbol["st_value"] + r["r_addend"] if symbol else r["r_addend"]
        loaded = [(s["sh_addr"], s["sh_offset"], s["sh_size"]) for s in elf.iter_sections() if s["sh_addr"]]
    data = path.read_bytes()

    def at(address: int, size: int) -> bytes:
        (offset,) = [o + address - a for a, o, n in loaded if a <= address < a + n]
        return data[offset : offset + size]

    found = {}
    for start, stop in sorted(functions):
        registers: dict[str, int | None] = {}
        command = [
            OBJDUMP,
            "-d",
            "--no-show-raw-insn",
            "-w",
            f"--start-address={start}",
            f"--stop-address={stop}",
            path,
        ]
        for line in check_output(command).splitlines():
            match = _INSTRUCTION.match(line)
            if not match:
                continue
            mnemonic, operands, comment = match.groups()
            source, _, destination = operands.rpartition(",")
            register = _ARGUMENT.get(destination)
            if mnemonic == "call":
                if "__cudaRegisterFunction" in line:
                    string = at(registers["rdx"], 4096)
                    found[string[: string.index(b"\0")].decode()] = registers["rsi"]
                registers = {}
            elif register and mnemonic == "lea" and "(%rip)" in source:
                registers[register] = int(comment, 16)
            elif register and mnemonic == "mov" and "(%rip)" in source:
                slot = int(comment, 16)
                registers[register] = got[slot] if slot in got else struct.unpack("<Q", at(slot, 8))[0]
            elif register and mnemonic == "mov" and source.startswith("$"):
                registers[register] = int(source[1:], 16)
            elif register and mnemonic == "mov" and source in _ARGUMENT:
                registers[register] = registers.get(_ARGUMENT[source])
            elif register:
                registers[register] = None
    return found
