"""One fuzz target under atheris (libFuzzer, coverage-guided):

    python -m fuzz.worker TARGET [LIBFUZZER-OPTIONS] [CORPUS-DIR | INPUT]...

from the repository's root.  fuzz/run.py starts these; run one by hand to
reproduce a finding (``python -m fuzz.worker elf crash-1234``) or to
minimize it (add ``-minimize_crash=1 -runs=10000``).  TARGET is a name of
fuzz.targets.PARSERS.
"""

from __future__ import annotations

import sys

import atheris

with atheris.instrument_imports(include=["symbols"]):
    from fuzz import targets


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] not in targets.PARSERS:
        sys.exit(f"usage: python -m fuzz.worker {{{','.join(targets.PARSERS)}}} [libFuzzer options] [corpus...]")
    target = sys.argv[1]

    def one_input(data: bytes) -> None:
        targets.run(target, data)

    atheris.Setup([sys.argv[0], *sys.argv[2:]], one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
