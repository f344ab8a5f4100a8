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
from typing import TYPE_CHECKING

from redline.ooxml.errors import DocxError

if TYPE_CHECKING:
    from redline.retrieval.embeddings import Embedder
    from redline.retrieval.graph import ContractGraph

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


# -- bench -----------------------------------------------------------------------
@command
def add_bench(sub: argparse._SubParsersAction) -> None:
    """``redline bench``: time reading and writing on generated contracts."""
    p = sub.add_parser("bench", help="benchmark read and apply-ops on generated contracts (whole processes)")
    p.add_argument("--pages", default="10,100,300", help="comma-separated contract sizes in pages")
    p.add_argument("--repeat", type=int, default=5, help="runs per measurement (median reported)")
    p.add_argument("--workdir", default="bench-out", help="where generated contracts and outputs go")
    p.add_argument("--openai-latency", type=float, default=1.5,
                   help="also review a 20-page contract through the OpenAI SDK against a loopback server "
                        "answering after this many seconds per call (0 to skip)")
    p.add_argument("--revisions", type=int, metavar="N", default=0,
                   help="instead: accept, reject and extract on contracts given about N tracked changes "
                        "(e.g. --pages 300 --revisions 2000), beside pandoc's own accept")
    p.set_defaults(handler=run_bench)


def run_bench(args: argparse.Namespace) -> int:
    """Generate contracts once, then run each measurement as fresh processes."""
    from redline.bench import run

    try:
        pages = [int(x) for x in args.pages.split(",") if x.strip()]
    except ValueError:
        raise InputError("bad_arguments", f"--pages must be comma-separated integers, not {args.pages!r}") from None
    if not pages or min(pages) < 1 or args.repeat < 1 or args.revisions < 0:
        raise InputError("bad_arguments", "--pages and --repeat must be positive, --revisions not negative")
    if args.revisions:
        from redline.bench_revisions import run_revisions

        run_revisions(pages, count=args.revisions, repeat=args.repeat, workdir=Path(args.workdir), out=sys.stdout)
        return EXIT_OK
    run(pages, repeat=args.repeat, workdir=Path(args.workdir), out=sys.stdout)
    if args.openai_latency > 0:
        from redline.bench import openai_latency

        openai_latency(pages=20, latency=args.openai_latency, workdir=Path(args.workdir), out=sys.stdout)
    return EXIT_OK


# -- ask ------------------------------------------------------------------------------
@command
def add_ask(sub: argparse._SubParsersAction) -> None:
    """``redline ask``: answer a question from a contract with verified quotes."""
    p = sub.add_parser("ask", help="ask a contract a question: extractive answer with verified citations")
    p.add_argument("--input", required=True, help=".docx (or .txt) contract")
    p.add_argument("question", help="the question")
    p.add_argument("--backend", default="hashing", choices=["hashing", "local"], help="embedding backend")
    p.add_argument("--json", action="store_true", help="print the answer, citations and passages as JSON")
    p.set_defaults(handler=run_ask)


def run_ask(args: argparse.Namespace) -> int:
    """Build the contract graph, retrieve and answer."""
    from redline.retrieval.ask import ask
    from redline.retrieval.search import SearchIndex

    graph = _load_graph(args.input)
    answer = ask(SearchIndex(graph, _embedder(args.backend)), args.question)
    if args.json:
        print(json.dumps(answer.to_dict(), ensure_ascii=False, indent=1))
        return EXIT_OK
    print(answer.text)
    for n, c in enumerate(answer.citations, start=1):
        print(f"[{n}] {c.anchor} {c.section or ''}".rstrip())
    return EXIT_OK


def _load_graph(path: str) -> ContractGraph:
    from redline.ooxml.paragraphs import read_document
    from redline.retrieval.graph import ContractGraph

    data = read_input(path)
    if path.lower().endswith(".txt"):
        try:
            return ContractGraph.from_text(data.decode("utf-8"))
        except UnicodeDecodeError:
            raise InputError("unreadable_input", f"{path} is not UTF-8 text") from None
    return ContractGraph.from_paragraphs(read_document(data, anchor=True).paragraphs)


def _embedder(backend: str, client: object | None = None) -> Embedder:
    from redline.retrieval.embeddings import EmbeddingUnavailable, make_embedder

    try:
        return make_embedder(backend, client=client)
    except EmbeddingUnavailable as exc:
        raise InputError("backend_unavailable", str(exc)) from None


# -- retrieval-bench ---------------------------------------------------------------------
@command
def add_retrieval_bench(sub: argparse._SubParsersAction) -> None:
    """``redline retrieval-bench``: run the retriever over the EngramDB CUAD multi-hop set."""
    p = sub.add_parser("retrieval-bench", help="write ranked span predictions for the EngramDB CUAD benchmark")
    p.add_argument("--data", required=True, help="benchmark folder (holds multihop_qa_dataset.json)")
    p.add_argument("--out", required=True, help="predictions JSONL to write")
    p.add_argument("--backend", default="hashing", choices=["hashing", "local", "openai"], help="embedding backend")
    p.add_argument("--k", type=int, default=15, help="passages per question (default 15)")
    p.add_argument("--max-chars", type=int, default=None, help="character budget per question")
    p.add_argument("--unit-chars", type=int, default=None,
                   help="keep a section whole (with its subsections) up to this size (default 1500)")
    p.add_argument("--no-grow", dest="grow", action="store_false",
                   help="return the ranked passages as indexed, without widening them to whole sections "
                        "within the budget")
    p.set_defaults(handler=run_retrieval_bench)


def run_retrieval_bench(args: argparse.Namespace) -> int:
    """Predict for every question and write the JSONL; timings go to stderr."""
    from redline.retrieval.bench import BenchTimings, load_dataset, predict
    from redline.retrieval.passages import UNIT_CHARS

    data = Path(args.data)
    try:
        dataset = load_dataset(data)
    except (OSError, ValueError) as exc:
        raise InputError("unreadable_input", f"cannot read the benchmark in {data}: {exc}") from None
    client = None
    if args.backend == "openai":
        import openai

        client = openai.OpenAI()
    embedder = _embedder(args.backend, client)
    with Path(args.out).open("w", encoding="utf-8") as out:
        for row in predict(dataset, embedder, k=args.k, max_chars=args.max_chars,
                           unit_chars=args.unit_chars or UNIT_CHARS, grow=args.grow):
            if isinstance(row, BenchTimings):
                print(f"{row.questions} questions over {row.contracts} contracts: graph+index "
                      f"{row.build_seconds:.1f}s, search {row.search_seconds:.1f}s", file=sys.stderr)
            else:
                out.write(json.dumps(row) + "\n")
    return EXIT_OK


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
    p.set_defaults(handler=run_review)


def run_review(args: argparse.Namespace) -> int:
    """Read → review → write, reporting progress on a terminal."""
    from redline.analysis.cache import MemoryCache
    from redline.analysis.clauses import clauses_from_paragraphs
    from redline.analysis.pipeline import ReviewError, review
    from redline.analysis.playbook import PlaybookError
    from redline.analysis.playbook_io import default_playbook, load_playbook
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
                        cache=MemoryCache(), progress=progress, graph=ContractGraph.from_paragraphs(read.paragraphs))
    except ReviewError as exc:
        progress.close()
        if exc.code in ("empty_document", "no_rules"):
            raise InputError(exc.code, exc.message) from None
        print(f"error: {exc.code}: {_one_line(exc.message)}", file=sys.stderr)
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


# -- entry point -----------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    """The top-level parser with every registered subcommand."""
    parser = argparse.ArgumentParser(prog="redline", description="Redline: AI contract review for Word files.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    import redline.cli_clauses  # noqa: F401  (registers the clause engine's subcommands)

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
