"""``gpusym capture``: a program run under gdb with every kernel launch
recorded in the program itself by a preloaded interposer (interposer.c,
read back by records.py; through a CUDA runtime linked into the program, by
gdb breakpoints: static_launches.py), and crashes and failing calls seen by
gdb."""

#: The interposer's library name (lib<name>.so), which backtraces skip.
INTERPOSER = "gpusym_capture"
