# Thin entry points; the work is done by scripts/setup.sh and the gpusym CLI.
.PHONY: setup demo test bench fuzz

setup:
	@scripts/setup.sh

demo: setup
	.venv/bin/gpusym demo

test: setup
	.venv/bin/python -m pytest

bench: setup
	.venv/bin/python bench/run.py

# Every parser fuzzed for FUZZ_SECONDS each (default 300); findings go to
# build/fuzz/findings/ (see fuzz/run.py). `make test` fuzzes a few seconds.
fuzz: setup
	.venv/bin/python -m fuzz.run
