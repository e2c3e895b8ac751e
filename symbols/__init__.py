"""Symbol resolution for GPU programs: roles of host and device symbols, the
containers that hold device code, and their correlation.

A pure library: nothing here imports gdb.
"""
