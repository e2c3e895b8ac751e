"""The gdb side of ``gpusym capture`` (session.py): crashes, failing calls and
named kernels seen by gdb, and the launches through a CUDA runtime linked into
the program, which gdb records itself (static_launches.py)."""
