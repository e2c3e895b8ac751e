"""C++ names demangled three ways: as gdb and the GNU tools print them
(``gnu.py``, libstdc++'s ``__cxa_demangle``), as LLVM 19's ``llvm-cxxfilt``
prints them (``cxxfilt.py``, the tool itself for many names at once, with
its printer ported in ``llvm_*.py``), each held to the same bound on how
long a name may print (``limits.py``, ``printed_length.py``)."""
