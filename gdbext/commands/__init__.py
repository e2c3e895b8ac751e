"""gpusym's gdb commands and convenience functions: ``kbreak``, ``info
kernels``/``dispatches``/``devices``, ``gpu focus``, ``set gpusym ...``,
``threadIdx`` and friends, ``$_gpusym_lane_is`` and the others."""
