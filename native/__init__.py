"""Native code for gpusym's own use: the LLVM 19 tools (toolchain.py) and
shared libraries built from C or C++ on first use into a cache
(native_build.py).  Imports nothing of gpusym's, so every package may use it."""
