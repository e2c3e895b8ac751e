"""``gpusym build``: a compiler driver over clang-19 for the simulated device."""
