"""device/fault_description.py says each fault in the runtime's words
(runtime/faults.cpp, memory.cpp): every branch, from plain data."""

from __future__ import annotations

import re

import pytest

from device.debug_interface import Access, AllocationState, FaultKind, FreedBy, MadeBy
from device.fault_description import (
    NEAR,
    SI_KERNEL,
    STACK_REACH,
    Allocation,
    Assertion,
    Instruction,
    MemorySignal,
    classify,
    describe_address,
    memory_fault,
    recorded_fault,
)
from device.runtime_library import RUNTIME_DIR

pytestmark = []  # no toolchain, no gdb: seconds (make check)

BASE = 0x7F0000000000
DEVICE_MEMORY = (BASE - (1 << 30), BASE + (1 << 30))
LIVE = Allocation(BASE, 256, AllocationState.LIVE)
FREED = Allocation(BASE + 0x1000, 64, AllocationState.FREED)
RESET = Allocation(BASE + 0x2000, 64, AllocationState.FREED, FreedBy.RESET)
TABLE = [LIVE, FREED, RESET]
FAR = NEAR + 4096


def test_near_and_the_stack_reach_are_the_runtimes():
    def constant(source: str, name: str) -> int:
        (value,) = re.findall(rf"constexpr \w+ {name} = ([^;]+);", (RUNTIME_DIR / source).read_text())
        return eval(value, {"__builtins__": {}})  # an integer expression: 1 << 20, 64 * 1024

    assert (constant("memory.cpp", "kNear"), constant("faults.cpp", "kStackReach")) == (NEAR, STACK_REACH)


@pytest.mark.parametrize(
    ("address", "table", "text", "named"),
    [
        (BASE + 20, TABLE, f"20 bytes into a 256-byte allocation at {BASE:#x} (hipMalloc)", LIVE),
        (BASE + 1, TABLE, f"1 byte into a 256-byte allocation at {BASE:#x} (hipMalloc)", LIVE),
        (
            BASE + 0x1008,
            TABLE,
            f"8 bytes into a freed 64-byte allocation at {BASE + 0x1000:#x} (hipMalloc, then hipFree)",
            FREED,
        ),
        (
            BASE + 0x2000,
            TABLE,
            f"0 bytes into a freed 64-byte allocation at {BASE + 0x2000:#x} (hipMalloc, then hipDeviceReset)",
            RESET,
        ),
        (BASE + 256, TABLE, f"0 bytes past the end of a 256-byte allocation at {BASE:#x} (hipMalloc)", LIVE),
        (
            BASE + 0x1000 - 16,
            TABLE,
            f"16 bytes before a freed 64-byte allocation at {BASE + 0x1000:#x} (hipMalloc, then hipFree)",
            FREED,
        ),
        (BASE + 256 + 1920, TABLE, f"1920 bytes past the end of a 256-byte allocation at {BASE:#x} (hipMalloc)", LIVE),
        (
            BASE + 0x2000 + 64 + FAR,
            TABLE,
            f"far from any allocation: {FAR} bytes past the end of the nearest, a freed 64-byte allocation at "
            f"{BASE + 0x2000:#x}",
            None,
        ),
        (
            BASE - FAR,
            TABLE,
            f"far from any allocation: {FAR} bytes before the nearest, a 256-byte allocation at {BASE:#x}",
            None,
        ),
        (BASE, [], "far from any allocation (there are none)", None),
        (8, [], "not device memory: 8 bytes from a null pointer", None),
        (1, TABLE, "not device memory: 1 byte from a null pointer", None),
        (0x10000, TABLE, "not device memory", None),
        (0x10000, [], "not device memory", None),
        (DEVICE_MEMORY[1] + FAR, TABLE, "not device memory", None),
    ],
)
def test_an_address_is_described_by_the_allocation_it_is_in_or_near(address, table, text, named):
    assert describe_address(address, table, DEVICE_MEMORY) == (text, named)


@pytest.mark.parametrize(
    ("made_by", "state", "freed_by", "origin"),
    [
        (MadeBy.CUDA_MALLOC, AllocationState.LIVE, FreedBy.FREE, "cudaMalloc"),
        (MadeBy.CUDA_MALLOC, AllocationState.FREED, FreedBy.FREE, "cudaMalloc, then cudaFree"),
        (MadeBy.CUDA_MALLOC_MANAGED, AllocationState.FREED, FreedBy.RESET, "cudaMallocManaged, then cudaDeviceReset"),
        (MadeBy.HIP_MALLOC_MANAGED, AllocationState.LIVE, FreedBy.FREE, "hipMallocManaged"),
        (MadeBy.CUDA_MALLOC_ASYNC, AllocationState.LIVE, FreedBy.FREE, "cudaMallocAsync"),
        (MadeBy.CUDA_MALLOC_ASYNC, AllocationState.FREED, FreedBy.FREE, "cudaMallocAsync, then cudaFreeAsync"),
        (MadeBy.HIP_MALLOC_ASYNC, AllocationState.FREED, FreedBy.RESET, "hipMallocAsync, then hipDeviceReset"),
        (MadeBy.HIP_MEM_MAP, AllocationState.FREED, FreedBy.FREE, "hipMemMap, then hipMemUnmap"),
        (MadeBy.CU_MEM_MAP, AllocationState.FREED, FreedBy.FREE, "cuMemMap, then cuMemUnmap"),
        (MadeBy.CU_MEM_MAP, AllocationState.FREED, FreedBy.RESET, "cuMemMap, then cudaDeviceReset"),
    ],
)
def test_an_allocation_is_named_by_the_call_that_made_it(made_by, state, freed_by, origin):
    allocation = Allocation(BASE, 256, state, freed_by, made_by)
    assert describe_address(BASE + 4, [allocation], DEVICE_MEMORY)[0].endswith(f"at {BASE:#x} ({origin})")


def test_the_nearer_allocation_is_named_and_a_tie_goes_to_the_one_before():
    first, second = Allocation(BASE, 16, AllocationState.LIVE), Allocation(BASE + 48, 16, AllocationState.LIVE)
    assert describe_address(BASE + 32, [first, second], DEVICE_MEMORY)[1] == first
    assert describe_address(BASE + 33, [first, second], DEVICE_MEMORY)[1] == second


@pytest.mark.parametrize(
    ("instruction", "intel", "near_destination", "access"),
    [
        ("mov    %eax,(%rdx)", False, None, Access.WRITE),
        ("mov    (%rdx),%eax", False, None, Access.READ),
        ("movss  %xmm0,0x4(%rax,%rcx,4)", False, None, Access.WRITE),
        ("addl   $0x1,(%rax)", False, None, Access.WRITE),
        ("lock xadd %eax,(%rdx)", False, None, Access.WRITE),
        ("cmpl   $0x0,(%rax)", False, None, Access.READ),
        ("push   (%rax)", False, None, Access.READ),
        ("call   *0x8(%rax)", False, None, Access.READ),
        ("mov    %eax,%ebx", False, None, None),
        ("ret    ", False, None, None),
        ("lock", False, None, None),
        ("", False, None, None),
        ("mov    0x10(%rip),%eax        # 0x4010 <data>", False, None, Access.READ),
        ("rep movsb %ds:(%rsi),%es:(%rdi)", False, True, Access.WRITE),
        ("rep movsb %ds:(%rsi),%es:(%rdi)", False, False, Access.READ),
        ("rep movsb %ds:(%rsi),%es:(%rdi)", False, None, Access.WRITE),
        ("mov    DWORD PTR [rdx],eax", True, None, Access.WRITE),
        ("mov    eax,DWORD PTR [rdx+rcx*4]", True, None, Access.READ),
        ("mov    eax,(%rdx)", True, None, None),
    ],
)
def test_an_instruction_faults_as_a_read_or_a_write(instruction, intel, near_destination, access):
    assert classify(instruction, intel=intel, near_destination=near_destination) == access


@pytest.mark.parametrize(("address", "access"), [(0x1000, Access.WRITE), (0x2000, Access.READ)])
def test_a_string_move_faults_at_the_nearer_of_its_registers(address, access):
    assert Instruction("movsq  %ds:(%rsi),%es:(%rdi)", False, rdi=0x1008, rsi=0x2008).access(address) == access


SP = 0x7E0000100000


def signal(
    address: int = BASE + 256,
    *,
    name: str = "SIGSEGV",
    code: int = 1,
    recorded: Access | None = None,
    instruction: str | None = "mov    %eax,(%rdx)",
    allocations: list[Allocation] | None = TABLE,
) -> MemorySignal:
    """A memory fault's signal as gdb would gather it."""
    return MemorySignal(
        name,
        code,
        address,
        SP,
        262144,
        recorded,
        None if instruction is None else Instruction(instruction, False, 0, 0),
        allocations,
        DEVICE_MEMORY,
    )


PAST_THE_END = f"0 bytes past the end of a 256-byte allocation at {BASE:#x} (hipMalloc)"


@pytest.mark.parametrize(
    ("seen", "description"),
    [
        (signal(), f"invalid write at {BASE + 256:#x}: {PAST_THE_END}"),
        (signal(name="SIGBUS"), f"invalid write at {BASE + 256:#x}: {PAST_THE_END}"),
        (signal(instruction="mov    (%rdx),%eax"), f"invalid read at {BASE + 256:#x}: {PAST_THE_END}"),
        (signal(recorded=Access.READ), f"invalid read at {BASE + 256:#x}: {PAST_THE_END}"),
        (signal(recorded=Access.UNKNOWN), f"invalid access at {BASE + 256:#x}: {PAST_THE_END}"),
        (signal(code=0), f"invalid access at {BASE + 256:#x}: {PAST_THE_END}"),
        (signal(instruction=None), f"invalid access at {BASE + 256:#x}: {PAST_THE_END}"),
        (signal(instruction="ret    "), f"invalid access at {BASE + 256:#x}: {PAST_THE_END}"),
        (signal(allocations=None), f"invalid write at {BASE + 256:#x}: the runtime keeps no allocation table"),
        (
            signal(0, code=SI_KERNEL),
            "invalid memory access at an unknown address (a general protection fault: a non-canonical pointer?)",
        ),
        (
            signal(SP - 8),
            f"stack overflow at {SP - 8:#x}: the lane's stack of 262144 bytes is exhausted (GPUSYM_STACK_SIZE)",
        ),
        (
            signal(SP - STACK_REACH),
            f"stack overflow at {SP - STACK_REACH:#x}: the lane's stack of 262144 bytes is "
            "exhausted (GPUSYM_STACK_SIZE)",
        ),
        (
            signal(SP + 4095),
            f"stack overflow at {SP + 4095:#x}: the lane's stack of 262144 bytes is exhausted (GPUSYM_STACK_SIZE)",
        ),
        (signal(SP - STACK_REACH - 1), f"invalid write at {SP - STACK_REACH - 1:#x}: not device memory"),
        (signal(SP + 4096, name="SIGBUS", code=SI_KERNEL), f"invalid write at {SP + 4096:#x}: not device memory"),
    ],
)
def test_a_memory_fault_is_described_as_the_runtime_reports_it(seen, description):
    assert memory_fault(seen).description == description


def test_a_memory_fault_is_recorded_with_its_allocation_and_offset():
    assert memory_fault(signal()).json() == {
        "kind": "memory",
        "address": BASE + 256,
        "access": "write",
        "allocation": {"base": BASE, "size": 256, "state": "live"},
        "offset": 256,
        "description": f"invalid write at {BASE + 256:#x}: {PAST_THE_END}",
    }
    far = memory_fault(signal(BASE - FAR, recorded=Access.READ)).json()
    assert (far["access"], far["allocation"], far["offset"]) == ("read", None, None)
    freed = memory_fault(signal(BASE + 0x1004)).json()
    assert (freed["allocation"], freed["offset"]) == ({"base": BASE + 0x1000, "size": 64, "state": "freed"}, 4)


def test_a_stack_overflow_and_a_general_protection_fault_are_recorded_without_an_allocation():
    stack = memory_fault(signal(SP - 8)).json()
    assert {key: stack[key] for key in ("kind", "address", "access", "allocation", "offset")} == {
        "kind": "stack",
        "address": SP - 8,
        "access": None,
        "allocation": None,
        "offset": None,
    }
    protection = memory_fault(signal(0, code=SI_KERNEL)).json()
    assert (protection["kind"], protection["address"], protection["access"]) == ("memory", None, None)


ASSERTION = Assertion("data[i] == 0", "fault.hip", 12, "void fault::check(const int *)")


@pytest.mark.parametrize(
    ("kind", "assertion", "fault"),
    [
        (FaultKind.ABORT, None, {"kind": "abort", "description": "abort() called in device code"}),
        (
            FaultKind.ASSERTION,
            ASSERTION,
            {
                "kind": "assertion",
                "assertion": "data[i] == 0",
                "file": "fault.hip",
                "line": 12,
                "function": "void fault::check(const int *)",
                "description": "fault.hip:12: void fault::check(const int *): "
                "Device-side assertion `data[i] == 0' failed.",
            },
        ),
    ],
)
def test_a_device_assert_or_abort_is_described_as_the_runtime_reports_it(kind, assertion, fault):
    assert recorded_fault(kind, assertion).json() == fault


@pytest.mark.parametrize("kind", [FaultKind.NONE, FaultKind.MEMORY, FaultKind.STACK, 99])
def test_other_records_are_no_assert_or_abort(kind):
    assert recorded_fault(kind, ASSERTION) is None


def test_an_assertion_record_without_its_text_is_none():
    assert recorded_fault(FaultKind.ASSERTION, None) is None
