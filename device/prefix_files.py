"""The entries of gpusym's installation prefix (rocm_prefix.py and its
CUDA side, cuda_toolkit_prefix.py): scripts that run gpusym's commands and
links to gpusym's files, written again each time the prefix is."""

from __future__ import annotations

from pathlib import Path


def write_script(path: Path, body: str) -> None:
    """An executable shell script at `path` running `body`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n# Written by gpusym rocm-prefix.\n" + body)
    path.chmod(0o755)


def replace_with_link(path: Path, target: Path) -> None:
    """A symbolic link at `path` to `target`, in place of whatever was there."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.is_symlink() or path.exists():
        path.unlink()
    path.symlink_to(target)
