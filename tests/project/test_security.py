"""What gpusym does with binaries nobody vetted and with the user's files:
the runtime's code objects are private to the user and removed, reading a
binary never runs it, and neither the extension nor capture widens what gdb
auto-loads."""

from __future__ import annotations

import os
import stat
import subprocess

import pytest
from conftest import GPUSYM, describe, run, run_gpusym
from gdb_batch import EXTENSION

pytestmark = [pytest.mark.toolchain, pytest.mark.gdb]


@pytest.fixture(scope="module")
def stress(build_program):
    return build_program("stress.hip")


def test_code_objects_are_private_and_removed_even_after_a_kill(stress, tmp_path):
    """${TMPDIR}/gpusym-UID is 0700, each process's directory too, each code
    object 0600; an exit removes its directory and the next start removes
    those of processes that were killed."""
    env = dict(os.environ, TMPDIR=str(tmp_path))
    base = tmp_path / f"gpusym-{os.getuid()}"
    process = subprocess.Popen([str(stress), "spin", "60"], stdout=subprocess.PIPE, text=True, env=env)
    try:
        pid = int(process.stdout.readline().split()[1])
        directory = base / str(pid)
        files = list(directory.iterdir())
        assert [f.name for f in files] == [f"{stress.name}.gpusym.0.so"], files
        for path, mode in [(base, 0o700), (directory, 0o700), (files[0], 0o600)]:
            info = path.lstat()
            assert (stat.S_IMODE(info.st_mode), info.st_uid) == (mode, os.getuid()), path
    finally:
        process.kill()
        process.wait()
    assert directory.is_dir(), "a killed process cannot remove its directory"
    finished = run([stress, "spin", "0"], env={"TMPDIR": str(tmp_path)})
    assert "spin: timed out after 0 rounds" in finished.stdout, describe(finished)
    assert list(base.iterdir()) == [], "the next start removes the killed process's directory, the exit its own"


def test_a_directory_others_can_write_is_refused(stress, tmp_path):
    base = tmp_path / f"gpusym-{os.getuid()}"
    base.mkdir(mode=0o777)
    base.chmod(0o777)
    result = run([stress, "spin", "0"], env={"TMPDIR": str(tmp_path)})
    assert f"{base} is not a private directory of this user; not loading device code" in result.stderr, describe(result)
    assert list(base.iterdir()) == []


def test_the_extension_leaves_auto_load_as_it_was():
    shows = [
        arg
        for setting in ("safe-path", "scripts-directory", "python-scripts", "gdb-scripts")
        for arg in ("-ex", f"show auto-load {setting}")
    ]
    result = run(["gdb", "-nx", "-batch", *shows, "-ex", f"source {EXTENSION}", *shows])
    lines = result.stdout.splitlines()
    assert len(lines) == 8 and lines[:4] == lines[4:], describe(result)


PLANTED = r"""
#include <stdio.h>
#include <stdlib.h>
__attribute__((constructor)) static void planted(void) {
  const char *path = getenv("MARKER");
  FILE *marker = path ? fopen(path, "w") : NULL;
  if (marker) fclose(marker);
}
int main(void) { return 0; }
"""


def test_reading_a_binary_never_runs_it_nor_a_script_beside_it(tmp_path):
    """`gpusym query` reads a program whose constructor would leave a marker;
    `gpusym capture` runs one with a PROGRAM-gdb.py beside it, which gdb's
    default safe-path keeps from loading (the capture's own run of the
    program is the only thing that leaves the marker)."""
    source = tmp_path / "planted.c"
    source.write_text(PLANTED)
    program = tmp_path / "planted"
    subprocess.run(["clang-19", "-g", str(source), "-o", str(program)], check=True)
    script_marker = tmp_path / "script-ran"
    (tmp_path / "planted-gdb.py").write_text(f"open({str(script_marker)!r}, 'w').close()\n")
    marker = tmp_path / "constructor-ran"
    env = {"MARKER": str(marker)}
    query = run([GPUSYM, "query", program], env=env)
    assert query.returncode == 0 and not marker.exists(), describe(query)
    capture = run_gpusym("capture", "--report", "--", program, cwd=tmp_path)
    assert capture.returncode == 0, describe(capture)
    assert not script_marker.exists(), "gdb loaded the script beside the program"
