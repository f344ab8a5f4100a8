"""The ``redline`` command line (also ``python -m redline``).

Each subcommand is one ``add_*`` function registered with :func:`command`: it
adds its parser and sets ``handler`` to a function ``(args) -> exit code``. The
handlers are thin: they read files, call an engine and write files. Errors are
mapped once, in :func:`main`: refused input exits 2 with one line
``error: <code>: <message>``; anything unexpected exits 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

from redline.ooxml.errors import DocxError

CommandAdder = Callable[[argparse._SubParsersAction], None]
_COMMANDS: list[CommandAdder] = []

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
    _COMMANDS.append(adder)
    return adder


def read_input(path: str) -> bytes:
    """Read an input file, turning a missing or unreadable file into :class:`InputError`."""
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise InputError("unreadable_input", f"cannot read {path}: {exc.strerror or exc}") from None


# -- read ----------------------------------------------------------------------
@command
def add_read(sub: argparse._SubParsersAction) -> None:
    """``redline read``: anchor a .docx and write its Markdown and sidecar."""
    p = sub.add_parser("read", help="read a .docx: anchored copy, Markdown and sidecar JSON")
    p.add_argument("--input", required=True, help=".docx to read")
    p.add_argument("--out-md", help="write the Markdown view here")
    p.add_argument("--sidecar", help="write the anchor sidecar JSON here")
    p.add_argument("--out-bookmarked", help="write the anchored .docx here")
    p.set_defaults(handler=run_read)


def run_read(args: argparse.Namespace) -> int:
    """Anchor the input and write whichever outputs were asked for."""
    from redline.ooxml.markdown import to_markdown, to_sidecar
    from redline.ooxml.paragraphs import read_document

    result = read_document(read_input(args.input), anchor=True)
    if args.out_md:
        Path(args.out_md).write_text(to_markdown(result.paragraphs), encoding="utf-8")
    if args.sidecar:
        sidecar = json.dumps(to_sidecar(result.paragraphs), ensure_ascii=False, indent=1)
        Path(args.sidecar).write_text(sidecar + "\n", encoding="utf-8")
    if args.out_bookmarked and result.docx is not None:
        Path(args.out_bookmarked).write_bytes(result.docx)
    return EXIT_OK


# -- entry point -----------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    """The top-level parser with every registered subcommand."""
    parser = argparse.ArgumentParser(prog="redline", description="Redline: AI contract review for Word files.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for adder in _COMMANDS:
        adder(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit code (0 ok, 2 bad input, 1 internal error)."""
    args = build_parser().parse_args(argv)
    try:
        return args.handler(args)
    except (DocxError, InputError) as exc:
        print(f"error: {exc.code}: {_one_line(exc.message)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except Exception as exc:
        print(f"error: internal: {type(exc).__name__}: {_one_line(str(exc))}", file=sys.stderr)
        return EXIT_INTERNAL


def _one_line(message: str) -> str:
    return " ".join(message.split())
