"""The view of the program and the simulated runtime's state: the debugger
interface's records, the program's kernels as the symbols library reads
them, and the names of kernels, stubs and handles at addresses."""
