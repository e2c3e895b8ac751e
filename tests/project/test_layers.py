"""The layering of the top-level packages (README, "Layout"): a package
imports only packages of a lower layer, never one of its own layer or
above; no test, fuzz or bench module imports a test module (``test_*``);
and everything in gdbext/ runs in gdb."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import REPO

pytestmark = []  # no toolchain, no gdb: seconds (make check)

#: Each top-level package's layer, lowest first.
LAYERS = {
    "native": 0,
    "real_binaries": 0,
    "text_tables": 0,
    "symbols": 1,
    "crafted": 2,
    "device": 2,
    "capture": 2,
    "sample_apps": 3,
    "gdbext": 3,
    "gpusym": 4,
    "fuzz": 4,
}
#: Scripts and tests: any package, but no test module.
USERS = ("tests", "fuzz", "bench")
#: gdbext/ modules that need no gdb: the loader, the packages' __init__.py,
#: and the pure parsers of commands' arguments, tested without gdb.
GDB_FREE = {"gpusym_gdb.py", "lane_coordinates.py", "commands/kbreak_arguments.py"}


def imported(path: Path) -> Iterator[tuple[int, str]]:
    """(line, module) of every absolute import in `path`, nested ones too."""
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.lineno, node.module


def layer_violations(package: str) -> list[str]:
    """Imports in `package` of a package of its own layer or above."""
    found = []
    for path in sorted((REPO / package).rglob("*.py")):
        for line, module in imported(path):
            top = module.split(".")[0]
            if top != package and top in LAYERS and LAYERS[top] >= LAYERS[package]:
                found.append(f"{path.relative_to(REPO)}:{line}: {package} imports {module}")
    return found


def test_every_top_level_package_has_a_layer():
    packages = {path.parent.name for path in REPO.glob("*/__init__.py")}
    assert packages == set(LAYERS)


@pytest.mark.parametrize("package", sorted(LAYERS))
def test_a_package_imports_only_lower_layers(package):
    assert layer_violations(package) == []


@pytest.mark.parametrize("folder", USERS)
def test_no_module_imports_a_test_module(folder):
    found = [
        f"{path.relative_to(REPO)}:{line}: imports {module}"
        for path in sorted((REPO / folder).rglob("*.py"))
        for line, module in imported(path)
        if module.split(".")[-1].startswith("test_")
    ]
    assert found == []


def test_everything_in_gdbext_runs_in_gdb():
    modules = [
        path
        for path in sorted((REPO / "gdbext").rglob("*.py"))
        if path.name != "__init__.py" and str(path.relative_to(REPO / "gdbext")) not in GDB_FREE
    ]
    pure = [
        str(path.relative_to(REPO))
        for path in modules
        if "gdb" not in {module.split(".")[0] for _, module in imported(path)}
    ]
    assert pure == []


def test_the_checks_see_an_upward_import(tmp_path, monkeypatch):
    """A module of symbols/ importing gdbext is caught."""
    (tmp_path / "symbols").mkdir()
    (tmp_path / "symbols" / "upward.py").write_text("def f():\n    from gdbext.commands import kbreak\n")
    monkeypatch.setattr(f"{__name__}.REPO", tmp_path)
    assert layer_violations("symbols") == ["symbols/upward.py:2: symbols imports gdbext.commands"]


def test_every_test_module_declares_its_markers():
    """Each test module says what it needs in its own ``pytestmark``
    (pyproject.toml's markers: toolchain, gdb, slow; ``[]`` for none, which
    ``make check`` runs), and every module that drives gdb through
    gdb_batch or gdb_terminal is marked gdb (the module, or the tests that
    drive it)."""
    undeclared, unmarked = [], []
    for path in sorted((REPO / "tests").rglob("test_*.py")):
        tree = ast.parse(path.read_text())
        marks = [
            node.value
            for node in tree.body
            if isinstance(node, ast.Assign)
            and any(getattr(target, "id", "") == "pytestmark" for target in node.targets)
        ]
        name, text = str(path.relative_to(REPO)), path.read_text()
        if not marks:
            undeclared.append(name)
        elif re.search(r"^from gdb_(batch|terminal) import", text, re.M) and "mark.gdb" not in text:
            unmarked.append(name)
    assert undeclared == [] and unmarked == []


def test_tests_mirror_the_packages():
    """tests/ has a folder per package (and project/ for the whole), so a
    contributor knows where a test goes; no test module sits at its top."""
    folders = {path.name for path in (REPO / "tests").iterdir() if path.is_dir() and any(path.glob("test_*.py"))}
    assert folders <= set(LAYERS) | {"project"}
    assert sorted((REPO / "tests").glob("test_*.py")) == []
