"""gdb driven as a person drives it: on a terminal (a pty), one command at a
time, reading up to each prompt.  What only an interactive session does
(prompt hooks, confirmations, a terminal's job control) shows here."""

from __future__ import annotations

import os
import pty
import re
import select
import signal
import time
from pathlib import Path

from conftest import REPO

EXTENSION = REPO / "gdbext" / "gpusym_gdb.py"
PROMPT = re.compile(rb"\(gdb\) (?:\x1b\[[0-9;?]*[a-zA-Z])*$")
#: Terminal control sequences (styles, bracketed paste): what a person sees is the text.
CONTROL = re.compile(r"\x1b\[[0-9;?]*[a-zA-Z]")


class GdbTerminal:
    """gdb with the extension on a pty, `program` given with --args."""

    def __init__(self, program: Path, *args: str):
        argv = [
            "gdb",
            "-nx",
            "-q",
            "-iex",
            "set height 0",
            "-iex",
            "set width 0",
            "-iex",
            "set confirm off",
            "-iex",
            f"source {EXTENSION}",
            "--args",
            str(program),
            *args,
        ]
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: gdb on the terminal
            os.execvp("gdb", argv)
        self.transcript = ""
        self.read_to_prompt()

    def read_to_prompt(self, timeout: float = 120) -> str:
        """What gdb printed up to its next prompt."""
        output = b""
        deadline = time.monotonic() + timeout
        while not PROMPT.search(output):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"no gdb prompt after {timeout} s; so far:\n{output.decode(errors='replace')}")
            ready, _, _ = select.select([self.fd], [], [], remaining)
            if ready:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:  # gdb has exited
                    break
                if not chunk:
                    break
                output += chunk
        text = CONTROL.sub("", output.decode(errors="replace")).replace("\r\n", "\n").replace("\r", "")
        self.transcript += text
        return text

    def command(self, line: str, timeout: float = 120) -> str:
        """Types `line` and returns what gdb printed in answer (without the
        echoed line and the next prompt)."""
        os.write(self.fd, line.encode() + b"\n")
        text = self.read_to_prompt(timeout)
        text = text.split("\n", 1)[1] if "\n" in text else ""
        return text[: -len("(gdb) ")] if text.endswith("(gdb) ") else text

    def close(self) -> None:
        try:
            os.write(self.fd, b"kill\nquit\n")
        except OSError:
            pass
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if os.waitpid(self.pid, os.WNOHANG)[0]:
                break
            time.sleep(0.05)
        else:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        os.close(self.fd)

    def __enter__(self) -> GdbTerminal:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
