"""``gpusym capture``: a program run under gdb with every kernel launch
recorded in the program itself by a preloaded interposer (interposer.c,
read back by records.py), and crashes and failing calls seen by gdb."""
