"""The clang pass plugin that makes a wavefront's lanes access ``__shared__``
memory in lockstep on the simulated device (wave_lockstep.cpp), built on
first use into the cache against LLVM 19's headers (Debian's llvm-19-dev)."""

from __future__ import annotations

import shlex
from functools import cache
from pathlib import Path

from native import native_build, toolchain

SOURCE = Path(__file__).with_name("wave_lockstep.cpp")


@cache
def plugin_path(verbose: bool = False) -> Path:
    """Path of the plugin, for ``-fpass-plugin=``.  Raises
    native_build.BuildError, toolchain.ToolMissing."""
    config = toolchain.run([toolchain.tool("llvm-config"), "--cxxflags"], capture=True)
    if config.returncode != 0:
        raise native_build.BuildError(f"llvm-config-19 --cxxflags failed: {config.stderr.strip()}")
    flags = [*shlex.split(config.stdout), "-O2", "-Wall"]
    return native_build.shared_library("gpusym_wave_lockstep", [SOURCE], flags=flags, verbose=verbose)
