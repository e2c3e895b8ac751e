"""Regressions of what the hardening found, read in this process but for one: each
input is the smallest that shows its bug (their costly versions are in
test_resource_bounds.py)."""

from __future__ import annotations

import subprocess
import sys
import time

import crafted
from crafted import SHT_NOBITS, Section
from symbols import demangle as demangling
from symbols import offload_bundle
from symbols.analysis import analyze, analyze_data
from symbols.demangle import demangle
from symbols.lookup import near_names

GFX90A, GFX942 = offload_bundle.amdgpu_id("gfx90a"), offload_bundle.amdgpu_id("gfx942")


def test_a_nobits_bundler_section_holds_no_code_object():
    """Found by the fuzzer: a NOBITS section named like clang-offload-
    bundler's was reported as a code object of the size it records."""
    data = crafted.write_elf([Section(f"__CLANG_OFFLOAD_BUNDLE__{GFX90A}", SHT_NOBITS, size=1 << 62, flags=2)],
                             type=crafted.ET_REL)  # fmt: skip
    assert analyze_data(data, "nobits").report.code_objects == []


def test_names_that_demangle_to_gigabytes_are_left_mangled_in_bounded_time():
    demangling.reset()
    started = time.monotonic()
    assert demangle(crafted.pairs_name(30)) is None  # 35 GB of text
    assert demangle(crafted.pairs_name(10)) is None  # 33,640 characters: over 64 times its 105
    assert time.monotonic() - started < 30
    assert demangle(crafted.pairs_name(3)) == "f(std::pair<int, int>, std::pair<std::pair<int, int>, std::pair<int, int> >, " \
        "std::pair<std::pair<std::pair<int, int>, std::pair<int, int> >, std::pair<std::pair<int, int>, std::pair<int, int> > >)"


def test_after_three_unanswered_names_the_child_is_not_asked_until_reset():
    demangling.reset()
    real = "_ZN2ns3barINS_3bazIfEEEEvPT_PNS_4quuxIS4_EEi"  # real-sized, with references: read by the child
    assert not demangling._bounded(real + "i")
    assert demangle(real + "i") == demangling._cxa(real + "i") != None  # noqa: E711
    for depth in (31, 32, 33):
        assert demangle(crafted.pairs_name(depth)) is None
    assert demangle(real + "ii") is None  # not asked: the limit is reached, and not cached
    demangling.reset()
    assert demangle(real + "ii") == demangling._cxa(real + "ii") != None  # noqa: E711


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


def test_the_demangling_child_reads_this_symbols_package_wherever_it_starts(tmp_path):
    """Started with python -c, the child imported the `symbols` of the
    current directory first: a project with a symbols/ folder of its own
    left every template name mangled."""
    (tmp_path / "symbols").mkdir()
    (tmp_path / "symbols" / "__init__.py").write_text("raise SystemExit('not gpusym')\n")
    script = tmp_path / "script" / "demangle_one.py"
    script.parent.mkdir()
    script.write_text("from symbols import demangle as d\nd.reset()\n"
                      "print(d.demangle('_ZN2ns3barINS_3bazIfEEEEvPT_PNS_4quuxIS4_EEii'))\n")  # fmt: skip
    result = subprocess.run([sys.executable, script], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert result.stdout == demangling._cxa("_ZN2ns3barINS_3bazIfEEEEvPT_PNS_4quuxIS4_EEii") + "\n", result.stderr
