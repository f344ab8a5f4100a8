"""``redline review``: review a .docx against a playbook with no server, and write the redlined file."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .commands import EXIT_INTERNAL, EXIT_OK, InputError, command, one_line, read_input


# -- review ----------------------------------------------------------------------
@command
def add_review(sub: argparse._SubParsersAction) -> None:
    """``redline review``: review a .docx against a playbook with no server and no network."""
    p = sub.add_parser("review", help="review a .docx against a playbook and write the redlined file")
    p.add_argument("--input", required=True, help=".docx to review")
    p.add_argument("--out-redline", required=True, help="write the redlined .docx here")
    p.add_argument("--playbook", help="playbook file (YAML or JSON); default: the built-in commercial playbook")
    p.add_argument("--provider", choices=["offline", "openai"], default="offline",
                   help="offline rule engine (default) or an OpenAI-compatible server (OPENAI_API_KEY, "
                        "OPENAI_BASE_URL, REDLINE_OPENAI_MODEL from the environment)")
    p.add_argument("--json", dest="json_out", help="write suggestions, clause reports and stats here")
    p.add_argument("--author", default="Redline AI", help="revision and comment author")
    p.add_argument("--for", dest="acting_for", default="", metavar="PARTY",
                   help="the party you act for: its defined name, legal name or role (\"Distributor\"); without "
                        "it, findings that depend on a side are comments that ask, never edits")
    p.set_defaults(handler=run_review)


def run_review(args: argparse.Namespace) -> int:
    """Read → review → write, reporting progress on a terminal."""
    from redline.analysis.cache import MemoryCache
    from redline.analysis.clauses import clauses_from_paragraphs
    from redline.analysis.pipeline import ReviewError, review
    from redline.analysis.playbook.io import default_playbook, load_playbook
    from redline.analysis.playbook.model import PlaybookError
    from redline.ooxml.ops import op_from_json
    from redline.ooxml.paragraphs import read_document
    from redline.ooxml.writer import redline_document
    from redline.retrieval.graph import ContractGraph

    try:
        playbook = load_playbook(read_input(args.playbook)) if args.playbook else default_playbook()
    except PlaybookError as exc:
        raise InputError(exc.code, str(exc)) from None
    read = read_document(read_input(args.input))
    progress = _ProgressBar(sys.stderr)
    try:
        result = review(clauses_from_paragraphs(read.paragraphs), playbook, _provider(args.provider),
                        cache=MemoryCache(), progress=progress, graph=ContractGraph.from_paragraphs(read.paragraphs),
                        acting_for=args.acting_for)
    except ReviewError as exc:
        progress.close()
        if exc.code in ("empty_document", "no_rules", "unknown_party"):
            raise InputError(exc.code, exc.message) from None
        print(f"error: {exc.code}: {one_line(exc.message)}", file=sys.stderr)
        return EXIT_INTERNAL
    progress.close()
    ops = [op_from_json(i, s.to_op()) for i, s in enumerate(result.suggestions)]
    out = redline_document(read.docx or read_input(args.input), ops, author=args.author)
    Path(args.out_redline).write_bytes(out.docx)
    if args.json_out:
        report = {**result.to_dict(), "document_id": out.document_id, "ops": [r.to_log() for r in out.results]}
        Path(args.json_out).write_text(json.dumps(report, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    applied = sum(1 for r in out.results if r.status == "applied")
    print(f"{len(result.suggestions)} suggestions, {applied} written to {args.out_redline}", file=sys.stderr)
    return EXIT_OK


def _provider(name: str) -> object:
    import os

    from redline.analysis.providers.offline import OfflineProvider

    if name == "offline":
        return OfflineProvider()
    if not os.environ.get("OPENAI_API_KEY"):
        raise InputError("provider_not_configured", "--provider openai needs OPENAI_API_KEY in the environment")
    from redline.analysis.providers.openai import OpenAIProvider

    return OpenAIProvider(model=os.environ.get("REDLINE_OPENAI_MODEL", "gpt-4o-mini"),
                          api_key=os.environ["OPENAI_API_KEY"], base_url=os.environ.get("OPENAI_BASE_URL") or None)


class _ProgressBar:
    """A one-line progress bar on a terminal; silent when stderr is not one (logs, CI)."""

    def __init__(self, stream: object) -> None:
        self.stream = stream
        self.live = bool(getattr(stream, "isatty", lambda: False)())
        self.drawn = False

    def __call__(self, kind: str, data: dict) -> None:
        if not self.live or kind != "progress" or not data.get("total"):
            return
        done, total = data.get("done", 0), data["total"]
        filled = int(30 * done / total)
        self.stream.write(f"\r{data.get('stage', ''):<10} [{'#' * filled}{'.' * (30 - filled)}] {done}/{total}")
        self.stream.flush()
        self.drawn = True

    def close(self) -> None:
        if self.drawn:
            self.stream.write("\n")
            self.stream.flush()
