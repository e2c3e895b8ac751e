"""The simulated GPU device: programs' device code compiled for the CPU and
run on CPU threads, with a debugger interface the gdb extension reads.

- ``runtime/``: the runtime (C++), the host ABI clang emits and the HIP API,
  built as ``libgpusym_runtime.so`` (``runtime_library.py``);
- ``include/``: the headers device builds compile against, one folder per
  face of the device (``hip/``) and the debugger interface (``gpusym/``),
  which ``debug_interface.py`` mirrors with the facts the runtime and the
  debugger share;
- ``compiler/``: the compiler driver (``gpusym build``, ``gpusym-hipcc``);
- ``passes/``: the clang pass plugins of the device compile;
- ``rocm_prefix.py``: a ROCm-shaped prefix over all of it for existing builds;
- ``fault_description.py``: a device fault in the runtime's words."""
