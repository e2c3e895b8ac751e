"""gpusym's gdb extension.  In gdb: ``source /path/to/gdbext/gpusym_gdb.py``
(``gpusym gdbinit`` prints that line for ~/.gdbinit; ``gpusym gdb -- PROGRAM``
starts gdb with it), or ``python import gdbext.gpusym_gdb`` with the
repository on gdb's Python path.

Only registers commands and hooks here; nothing is read from the program
until a command needs it.  Loading it twice is harmless."""

import os
import sys


def _python_paths() -> list:
    """The repository and its .venv (made from gdb's own Python by make demo)."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    version = f"python{sys.version_info[0]}.{sys.version_info[1]}"
    return [root, os.path.join(root, ".venv", "lib", version, "site-packages")]


#: How the extension says, on gdb's output, that it did not load.
NOT_LOADED = "gpusym: not loaded: "
#: Packages the extension imports only when it first reads a program:
#: looked for (not imported) at load, so that a missing one is said at once.
_LATER_PACKAGES = ("elftools", "lz4", "msgpack", "zstandard")


def _missing_later() -> str | None:
    import importlib.util

    for name in _LATER_PACKAGES:
        try:
            if importlib.util.find_spec(name) is None:
                return name
        except (ImportError, ValueError, AttributeError):  # a package blocked in sys.modules
            return name
    return None


def _load() -> None:
    for path in _python_paths():
        if os.path.isdir(path) and path not in sys.path:
            sys.path.append(path)
    try:
        from gdbext import extension

        missing = _missing_later()
    except ImportError as error:
        missing = error.name or str(error)
    if missing is not None:
        print(
            f"{NOT_LOADED}the Python package '{missing}' is missing; run 'make demo' in "
            f"{_python_paths()[0]} (it installs gpusym for the Python gdb embeds)"
        )
        return
    extension.register()


if "gdb" in sys.modules:
    _load()
