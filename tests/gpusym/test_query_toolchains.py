"""``gpusym query`` on what each toolchain produces: clang-19 HIP with two
targets, plain and compressed; the new offload driver, as objects and
linked; nvcc, plain and compressed; clang-19 CUDA.  The same four kernels
(tests/programs/containers) must come out each time, with the stub, handle
and device instances that toolchain's convention gives them."""

from __future__ import annotations

import json
import shutil

import pytest
from clang_cuda import CLANG_CUDA, HEADERLESS
from conftest import TEST_PROGRAMS, describe, run, run_gpusym
from container_builds import (
    ARCHS,
    KERNELS,
    OTHER_KERNELS,
    builds,  # noqa: F401 (fixture)
    new_driver_object,
    new_driver_program,
)

from symbols import nv_fatbin

pytestmark = [pytest.mark.toolchain]

NVCC_TARGETS = ["sm_90", "sm_80", "compute_80"]  # two cubins and the PTX


def query(path) -> dict:
    result = run_gpusym("query", "--json", "--ptx", path)  # every code object read
    assert result.returncode == 0, describe(result)
    document = json.loads(result.stdout)
    assert document["errors"] == []
    return document["binaries"][0]


def kernels_by_name(report: dict) -> dict[str, dict]:
    return {kernel["name"]: kernel for kernel in report["kernels"]}


def check_kernels(report: dict, targets: list[str], stub_convention: str, handle_kind: str) -> None:
    kernels = kernels_by_name(report)
    assert set(kernels) == set(KERNELS)
    for name in KERNELS:
        kernel = kernels[name]
        assert sorted(d["target"] for d in kernel["device"]) == sorted(targets), name
        assert kernel["missing_targets"] == []
        stub = kernel["stub"]["symbol"]
        assert "__device_stub__" in stub
        if stub_convention == "nvcc":
            assert f"__device_stub_{name}" in stub, stub  # the whole mangled name embedded
        assert kernel["handle"]["kind"] == handle_kind


@pytest.mark.parametrize("compressed", [False, True])
def test_clang_hip_with_two_targets(builds, compressed):
    flags = ["--offload-compress"] if compressed else []
    report = query(builds.hip(f"query-{compressed}.o", "kernels.hip", *flags))
    assert [(c["target"], c["compressed"]) for c in report["code_objects"]] == [(a, compressed) for a in ARCHS]
    container = "compressed-offload-bundle" if compressed else "offload-bundle"
    assert {c["container"] for c in report["code_objects"]} == {container}
    check_kernels(report, list(ARCHS), "clang", "variable")
    assert {v["name"] for v in report["device_variables"]} == {"device_counter"}


def test_new_driver_linked_program(builds):
    # The linker wrapper links the device images and bundles them into
    # .hip_fatbin for the runtime, as the old driver does.
    report = query(new_driver_program(builds))
    assert sorted((c["target"], c["container"], c["format"]) for c in report["code_objects"]) == [
        (arch, "offload-bundle", "elf") for arch in ARCHS
    ]
    check_kernels(report, list(ARCHS), "clang", "variable")


def test_new_driver_object_holds_bitcode_whose_kernels_come_from_the_stubs(builds):
    report = query(new_driver_object(builds))
    assert {c["format"] for c in report["code_objects"]} == {"unknown"}
    kernels = kernels_by_name(report)
    assert set(kernels) == set(KERNELS)
    for kernel in kernels.values():
        assert kernel["device"] == [] and kernel["stub"] and kernel["handle"]["kind"] == "variable"


@pytest.mark.parametrize(
    "flags", [[], ["-Xfatbin", "-compress-all"], ["-Xfatbin", "-compress-all", "-Xfatbin", "-compress-mode=speed"]]
)
def test_nvcc(builds, flags):
    if shutil.which("nvcc") is None:
        pytest.skip("nvcc is not installed")
    report = query(builds.nvcc(f"query{len(flags)}.o", "-c", *flags))
    assert [(c["target"], c["format"]) for c in report["code_objects"]] == [
        ("sm_90", "elf"),
        ("sm_80", "elf"),
        ("compute_80", "ptx"),
    ]
    check_kernels(report, NVCC_TARGETS, "nvcc", "function")


def test_clang_cuda_stub_is_the_handle(tmp_path):
    """clang-19 cannot drive CUDA 13's fatbinary tool, so the fat binary is
    made here from clang's own cubin and embedded as clang would embed it."""
    if shutil.which("nvcc") is None:
        pytest.skip("no CUDA toolkit for ptxas")
    source = TEST_PROGRAMS / "containers" / "kernels.cu"
    clang_cuda = [*CLANG_CUDA, *HEADERLESS, "-D__shared__=__attribute__((shared))"]
    cubin, fatbin, host = tmp_path / "kernels.cubin", tmp_path / "kernels.fatbin", tmp_path / "kernels.o"
    result = run([*clang_cuda, "--cuda-device-only", "-c", source, "-o", cubin])
    assert result.returncode == 0, describe(result)
    fatbin.write_bytes(nv_fatbin.write([(2, 90, cubin.read_bytes(), False)]))
    embed = ["-Xclang", "-fcuda-include-gpubinary", "-Xclang", str(fatbin)]
    result = run([*clang_cuda, "--cuda-host-only", *embed, "-c", source, "-o", host])
    assert result.returncode == 0, describe(result)
    report = query(host)
    check_kernels(report, ["sm_90"], "clang", "stub")
    for kernel in report["kernels"]:
        assert kernel["handle"]["symbol"] == kernel["stub"]["symbol"]


def test_missing_targets_are_counted_over_every_bundle_of_a_library(builds):
    """Two translation units compiled for different targets, one bundle
    each in the library's .hip_fatbin: a kernel misses only the targets that
    the other unit's bundle adds."""
    other_archs = ["gfx90a", "gfx1100"]
    first = builds.hip("pic-kernels.o", "kernels.hip", "-fPIC")
    second = builds.hip("pic-other.o", "other.hip", "-fPIC", "--no-offload-arch=gfx942", "--offload-arch=gfx1100")
    report = query(builds("two-bundles.so", ["clang++-19", "-shared", first, second]))
    assert sorted(c["target"] for c in report["code_objects"]) == sorted([*ARCHS, *other_archs])
    kernels = kernels_by_name(report)
    assert set(kernels) == set(KERNELS + OTHER_KERNELS)
    for name, kernel in kernels.items():
        archs, elsewhere = (other_archs, ARCHS) if name in OTHER_KERNELS else (ARCHS, other_archs)
        assert sorted(d["target"] for d in kernel["device"]) == sorted(archs), name
        assert kernel["missing_targets"] == [arch for arch in elsewhere if arch not in archs], name
