"""Subcommands on Word files: ``read``, ``apply-ops``, ``revisions``, ``accept`` and ``reject``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .commands import EXIT_OK, command, read_input


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


# -- apply-ops -----------------------------------------------------------------
@command
def add_apply_ops(sub: argparse._SubParsersAction) -> None:
    """``redline apply-ops``: write ops as tracked changes and comments."""
    p = sub.add_parser("apply-ops", help="apply ops.json to an anchored .docx as tracked changes and comments")
    p.add_argument("--input", required=True, help="anchored .docx (from `redline read`)")
    p.add_argument("--ops", required=True, help='ops.json: {"meta": {...}, "ops": [...]}')
    p.add_argument("--out-redline", required=True, help="write the redlined .docx here")
    p.add_argument("--log", help="write one JSON line per op (applied or skipped, with the reason)")
    p.add_argument("--comment-ids-map", help="write the known entries (comment_ids_map.json) here")
    p.add_argument("--author", help='revision and comment author (default: meta.author, else "Redline AI")')
    p.set_defaults(handler=run_apply_ops)


def run_apply_ops(args: argparse.Namespace) -> int:
    """Apply the ops and write the redline, the log and the map."""
    from redline.ooxml.ops import DEFAULT_AUTHOR, parse_ops
    from redline.ooxml.writer import redline_document

    meta, ops = parse_ops(read_input(args.ops))
    meta_author = meta.get("author") if isinstance(meta.get("author"), str) else None
    out = redline_document(read_input(args.input), ops, author=args.author or meta_author or DEFAULT_AUTHOR)
    Path(args.out_redline).write_bytes(out.docx)
    if args.log:
        lines = (json.dumps(r.to_log(), ensure_ascii=False) + "\n" for r in out.results)
        Path(args.log).write_text("".join(lines), encoding="utf-8")
    if args.comment_ids_map:
        mapping = json.dumps(out.comment_ids_map(), ensure_ascii=False, indent=2)
        Path(args.comment_ids_map).write_text(mapping + "\n", encoding="utf-8")
    return EXIT_OK


# -- revisions, accept, reject -----------------------------------------------------
@command
def add_revisions(sub: argparse._SubParsersAction) -> None:
    """``redline revisions``: the tracked changes and comments of a .docx as JSON."""
    p = sub.add_parser("revisions", help="list tracked changes and comments per paragraph (JSON to stdout)")
    p.add_argument("--input", required=True, help=".docx to read")
    p.add_argument("--offset", type=int, default=0, help="first paragraph record (0-based, default 0)")
    p.add_argument("--limit", type=int, default=50, help="records per page, 1-500 (default 50)")
    p.set_defaults(handler=run_revisions)


def run_revisions(args: argparse.Namespace) -> int:
    """Print one page of the extraction."""
    from redline.ooxml.extract import extract_revisions

    page = extract_revisions(read_input(args.input), offset=args.offset, limit=args.limit)
    print(json.dumps(page, ensure_ascii=False, indent=1))
    return EXIT_OK


@command
def add_accept_reject(sub: argparse._SubParsersAction) -> None:
    """``redline accept`` / ``redline reject``: resolve tracked changes in every story of a .docx."""
    for action in ("accept", "reject"):
        p = sub.add_parser(action, help=f"{action} tracked changes (all, or by author) and write a new .docx")
        p.add_argument("--input", required=True, help=".docx to read")
        p.add_argument("--out", required=True, help="write the resulting .docx here")
        p.add_argument("--author", action="append", dest="authors",
                       help=f"{action} only this author's changes (repeatable; default: everyone's)")
        p.set_defaults(handler=run_accept_reject, action=action)


def run_accept_reject(args: argparse.Namespace) -> int:
    """Resolve the selected revisions and report how many on stderr."""
    from redline.ooxml.resolve import resolve_docx

    result = resolve_docx(read_input(args.input), args.action, authors=args.authors)
    Path(args.out).write_bytes(result.docx)
    print(f"{args.action}ed {result.count} revisions; wrote {args.out}", file=sys.stderr)
    return EXIT_OK


@command
def add_compare(sub: argparse._SubParsersAction) -> None:
    """``redline compare``: two versions of a contract as one redline (accept all: new; reject all: old)."""
    p = sub.add_parser("compare", help="compare two versions into a .docx of tracked changes (old → new)")
    p.add_argument("--old", required=True, help="the earlier version (.docx)")
    p.add_argument("--new", required=True, help="the later version (.docx); the redline is written on it")
    p.add_argument("--out", required=True, help="write the redline here")
    p.add_argument("--author", default="Redline Compare", help="author of the revisions (default: Redline Compare)")
    p.add_argument("--json", action="store_true", help="print the changes as JSON (kind, anchor, before, after)")
    p.set_defaults(handler=run_compare)


def run_compare(args: argparse.Namespace) -> int:
    """Write the redline; print the changes (``--json``) or a one-line count on stderr."""
    from redline.ooxml.compare import compare

    result = compare(read_input(args.old), read_input(args.new), author=args.author)
    Path(args.out).write_bytes(result.docx)
    counts = result.counts
    if args.json:
        print(json.dumps({"views": result.views, "counts": counts, "moved": result.moves,
                          "formatting_changed": result.formatted,
                          "also_redlined": result.elsewhere, "uncompared": result.uncompared,
                          "changes": [c.to_dict() for c in result.changes]}, ensure_ascii=False, indent=1))
    print(f"compared {result.views} views: {counts['changed']} changed, {counts['inserted']} inserted, "
          f"{counts['deleted']} deleted paragraphs ({result.moves} of them moved); wrote {args.out}", file=sys.stderr)
    if result.elsewhere:
        print(f"also redlined: {', '.join(result.elsewhere)}", file=sys.stderr)
    if result.uncompared:
        print(f"also different, not in the redline: {', '.join(result.uncompared)}", file=sys.stderr)
    return EXIT_OK
