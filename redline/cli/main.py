"""The ``redline`` command line (also ``python -m redline``): the parser of every registered subcommand.

The subcommands live by subject in this package and register themselves with
:func:`redline.cli.commands.command` when imported below.
"""

from __future__ import annotations

import argparse
import gc
import sys

from redline.ooxml.errors import DocxError

from . import bench, clauses, documents, evaluation, retrieval, review  # noqa: F401  (they register their subcommands)
from .commands import COMMANDS, EXIT_BAD_INPUT, EXIT_INTERNAL, InputError, one_line


def build_parser() -> argparse.ArgumentParser:
    """The top-level parser with every registered subcommand."""
    parser = argparse.ArgumentParser(prog="redline", description="Redline: AI contract review for Word files.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for adder in COMMANDS:
        adder(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit code (0 ok, 2 bad input, 1 internal error)."""
    # One command, then exit: what the imports built lives to the end, and a review allocates millions of small
    # objects that form few cycles. Collecting every 700 allocations (CPython's default) costs a few percent of
    # a long review for nothing; every 50,000, with the imports set aside, keeps memory where it was.
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)
    args = build_parser().parse_args(argv)
    try:
        return args.handler(args)
    except (DocxError, InputError) as exc:
        print(f"error: {exc.code}: {one_line(exc.message)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except Exception as exc:
        print(f"error: internal: {type(exc).__name__}: {one_line(str(exc))}", file=sys.stderr)
        return EXIT_INTERNAL
