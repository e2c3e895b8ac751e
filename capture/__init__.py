"""What ``gpusym capture`` does outside gdb: the launch-recording interposer
(interposer.c, built by interposer.py) preloaded into the program, its
records (records.py; gdb writes the same ones for a CUDA runtime linked into
the program: gdbext/capture/static_launches.py), a process's module map,
the launches made into events, and the report.  gpusym/capture_under_gdb.py
runs gdb; gdbext/capture/ is what it runs there."""

#: The interposer's library name (lib<name>.so), which backtraces skip.
INTERPOSER = "gpusym_capture"
