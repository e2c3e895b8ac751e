"""The clang pass plugins of the simulated device's compile, each built on
first use into the cache against LLVM 19's headers (Debian's llvm-19-dev):

- ``inline_ptx.cpp``: inline PTX assembly (CUDA's asm statements) becomes
  IR, before any other pass looks at the code, so that their passes see
  its loads, stores and warp functions as ordinary ones;
- ``wave_lockstep.cpp``: a wavefront's lanes access ``__shared__`` memory in
  lockstep, with ``lane_conflicts.cpp`` (whether one lane may read what
  another stored, their addresses compared);
- ``access_checks.cpp``: checks of device memory accesses, which the runtime
  turns on (``gpusym check``);
- ``fast_form.cpp``: the fast form of kernels, a block's threads as loops
  (one for each stretch of code between barriers and warp functions), with
  ``divergence.cpp`` (which values may differ between a block's threads),
  ``stretch_loops.cpp`` (kernels whose threads reach their barriers
  alike), ``stride_loops.cpp`` (grid- and block-stride loops, a trip
  of the block's threads at a time), ``lane_ranges.cpp`` (a loop over
  the threads runs the range of them its guards let in),
  ``lane_points.cpp`` (such a loop cut at the threads its equality tests
  single out), ``memory_spaces.cpp`` (its accesses marked with the
  memory they reach, which cannot overlap), ``lane_streams.cpp`` (a loop
  over the threads going through memory in several streams split, one
  loop a stream) and ``next_block_prefetch.cpp`` (its loads fetch early
  what the next block reads).  It comes before
  ``access_checks.cpp``, whose calls the fast forms do without;
- ``rdc_statics.cpp``: in compiles of relocatable device code, references
  to a static device variable that host code names reach its definition,
  which clang renames after some kernels already refer to it;
- ``module_statics.cpp``: in module compiles of CUDA sources, static device
  variables keep their names, by which programs find them in the module."""

from __future__ import annotations

import shlex
from functools import cache
from pathlib import Path

from native import native_build, toolchain

PLUGINS = ("inline_ptx", "wave_lockstep", "fast_form", "access_checks")
#: The plugin of compiles of relocatable device code, before the others.
RDC_PLUGIN = "rdc_statics"
#: The plugin of module compiles of CUDA sources, before the others.
MODULE_PLUGIN = "module_statics"
#: The sources of a plugin made of more than its own .cpp.
_MORE_SOURCES = {
    "wave_lockstep": ("lane_conflicts",),
    "fast_form": (
        "divergence",
        "stretch_loops",
        "stride_loops",
        "lane_ranges",
        "lane_points",
        "lane_streams",
        "next_block_prefetch",
        "memory_spaces",
    ),
}


@cache
def plugin_path(name: str, verbose: bool = False) -> Path:
    """Path of the plugin `name` (one of PLUGINS, RDC_PLUGIN or MODULE_PLUGIN), for ``-fpass-plugin=``.
    Raises native_build.BuildError, toolchain.ToolMissing."""
    config = toolchain.run([toolchain.tool("llvm-config"), "--cxxflags"], capture=True)
    if config.returncode != 0:
        raise native_build.BuildError(f"llvm-config-19 --cxxflags failed: {config.stderr.strip()}")
    flags = [*shlex.split(config.stdout), "-O2", "-Wall"]
    sources = [Path(__file__).with_name(f"{part}.cpp") for part in (name, *_MORE_SOURCES.get(name, ()))]
    return native_build.shared_library(f"gpusym_{name}", sources, flags=flags, verbose=verbose)
