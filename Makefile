# Thin entry points; the work is done by scripts/setup.sh and the gpusym CLI.
.PHONY: setup demo test bench

setup:
	@scripts/setup.sh

demo: setup
	.venv/bin/gpusym demo

test: setup
	.venv/bin/python -m pytest

bench: setup
	.venv/bin/python bench/run.py
