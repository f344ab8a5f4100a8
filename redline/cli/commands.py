"""The registry of ``redline`` subcommands, and what their handlers share.

Each subcommand is one ``add_*`` function registered with :func:`command`: it
adds its parser and sets ``handler`` to a function ``(args) -> exit code``. The
handlers are thin: they read files, call an engine and write files. Errors are
mapped once, in :func:`redline.cli.main.main`: refused input exits 2 with one line
``error: <code>: <message>``; anything unexpected exits 1.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

CommandAdder = Callable[[argparse._SubParsersAction], None]
COMMANDS: list[CommandAdder] = []

EXIT_OK = 0
EXIT_INTERNAL = 1
EXIT_BAD_INPUT = 2


class InputError(Exception):
    """Bad input the user can fix (a missing file…), reported like :class:`DocxError`."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def command(adder: CommandAdder) -> CommandAdder:
    """Register a subcommand adder (decorator)."""
    COMMANDS.append(adder)
    return adder


def read_input(path: str) -> bytes:
    """Read an input file, turning a missing or unreadable file into :class:`InputError`."""
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise InputError("unreadable_input", f"cannot read {path}: {exc.strerror or exc}") from None


def one_line(message: str) -> str:
    """A message on one line (an error is reported as a single ``error: code: message`` line)."""
    return " ".join(message.split())
