# Thin entry points; the work is done by scripts/setup.sh and the gpusym CLI.
.PHONY: setup demo test check bench fuzz

setup:
	@scripts/setup.sh

demo: setup
	.venv/bin/gpusym demo

test: setup
	.venv/bin/python -m pytest

# The inner loop: the tests that need no toolchain, no gdb and no minutes.
check: setup
	.venv/bin/python -m pytest -q -m "not toolchain and not gdb and not slow"

bench: setup
	.venv/bin/python bench/run.py

# Every parser fuzzed for FUZZ_SECONDS each (default 300); findings go to
# build/fuzz/findings/ (see fuzz/run.py). `make test` fuzzes a few seconds.
# Then random kernels in both forms against the host, as long again
# (fuzz/random_kernels.py).
fuzz: setup
	.venv/bin/python -m fuzz.run
	.venv/bin/python -m fuzz.random_kernels
