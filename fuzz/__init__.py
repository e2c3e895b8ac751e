"""Coverage-guided fuzzing of the parsers of ``symbols/`` with atheris:
targets.py (one per parser, and the whole analysis), seeds.py (made at run
time from the toolchains and the writers of symbols/), worker.py (one target
under atheris), run.py (all of them, ``make fuzz``), regressions/ (inputs
kept from earlier findings)."""
