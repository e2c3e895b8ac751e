"""Real GPU binaries from outside the repository, for the benchmarks and the
integration tests: CuPy's wheels, fetched into the cache (wheels.py).
Imports nothing of gpusym's."""
