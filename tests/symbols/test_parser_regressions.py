"""Regressions of what the hardening found, read in this process: each
input is the smallest that shows its bug (their costly versions are in
test_resource_bounds.py)."""

from __future__ import annotations

import time

import crafted
from crafted import SHT_NOBITS, Section
from symbols import offload_bundle
from symbols.analysis import analyze, analyze_data
from symbols.demangling.gnu import demangle
from symbols.lookup import near_names

pytestmark = []  # no toolchain, no gdb: seconds (make check)

GFX90A, GFX942 = offload_bundle.amdgpu_id("gfx90a"), offload_bundle.amdgpu_id("gfx942")


def test_a_nobits_bundler_section_holds_no_code_object():
    """Found by the fuzzer: a NOBITS section named like clang-offload-
    bundler's was reported as a code object of the size it records."""
    data = crafted.write_elf(
        [Section(f"__CLANG_OFFLOAD_BUNDLE__{GFX90A}", SHT_NOBITS, size=1 << 62, flags=2)], type=crafted.ET_REL
    )
    assert analyze_data(data, "nobits").report.code_objects == []


def test_names_that_demangle_to_gigabytes_are_left_mangled_in_bounded_time():
    started = time.monotonic()
    assert demangle(crafted.pairs_name(30)) is None  # 35 GB of text
    assert demangle(crafted.pairs_name(10)) is None  # 33,640 characters: over 64 times its 105
    assert time.monotonic() - started < 1
    assert (
        demangle(crafted.pairs_name(3))
        == "f(std::pair<int, int>, std::pair<std::pair<int, int>, std::pair<int, int> >, "
        "std::pair<std::pair<std::pair<int, int>, std::pair<int, int> >, "
        "std::pair<std::pair<int, int>, std::pair<int, int> > >)"
    )


def test_many_template_argument_lists_and_references_are_read_in_linear_time():
    """Each T_ was bounded by a scan of every argument list read before it."""
    started = time.monotonic()
    demangle("_Z1f" + "1AIiE" * 30_000 + "T_" * 30_000)
    assert time.monotonic() - started < 5


def test_kernels_with_a_single_name_have_near_names():
    """A kernel whose names are all one (extern "C", or left mangled) made
    kbreak's "did you mean" raise IndexError."""
    report = analyze_data(crafted.hip_program(["axpy", "scale"]), "program").report
    assert near_names(report, "axpi") == ["axpy"]


def test_missing_targets_name_each_target_once():
    with_kernel = crafted.amdgpu_code_object(["k"], "gfx90a", metadata=False)
    without = crafted.amdgpu_code_object(["other"], "gfx942", metadata=False)
    entries = [(offload_bundle.HOST_ID, b""), (GFX90A, with_kernel)] + [(GFX942, without)] * 3
    report = analyze_data(offload_bundle.write(entries), "bundle").report
    kernel = next(k for k in report.kernels if k.name == "k")
    assert kernel.missing_targets == ["gfx942"]


def test_missing_targets_are_not_listed_past_64_targets():
    image = crafted.amdgpu_code_object(["k"], metadata=False)
    code_objects = {offload_bundle.amdgpu_id(f"gfx{index}"): image for index in range(70)}
    code_objects[offload_bundle.amdgpu_id("gfx90a")] = crafted.amdgpu_code_object(["k", "only_here"], metadata=False)
    report = analyze_data(crafted.bundle(code_objects), "bundle").report
    assert all(kernel.missing_targets == [] for kernel in report.kernels)
    assert any("71 different targets" in note for note in report.notes)


def test_reading_bytes_is_reading_the_file(tmp_path):
    path = tmp_path / "program"
    path.write_bytes(crafted.hip_program(["axpy", "scale"], is64=False, little=False))
    assert analyze_data(path.read_bytes(), str(path)).report.to_json() == analyze(path).report.to_json()
