"""Retrieval subcommands: ``ask`` a contract a question, and ``retrieval-bench`` over a benchmark set."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from .commands import EXIT_OK, InputError, command, read_input

if TYPE_CHECKING:
    from redline.retrieval.embeddings import Embedder
    from redline.retrieval.graph import ContractGraph


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
    p = sub.add_parser("retrieval-bench", help="write ranked span predictions for the EngramDB CUAD benchmark",
                       description="Write ranked span predictions for the EngramDB CUAD multi-hop set; score them with "
                                   "the set's score_spans.py (--char-budget equal to --max-chars). Run once per "
                                   "budget: a prediction made for one budget is not the one to truncate to another.")
    p.add_argument("--data", required=True, help="benchmark folder (holds multihop_qa_dataset.json)")
    p.add_argument("--out", required=True, help="predictions JSONL to write")
    p.add_argument("--backend", default="hashing", choices=["hashing", "local", "openai"], help="embedding backend")
    p.add_argument("--k", type=int, default=15, help="passages per question (default 15)")
    p.add_argument("--max-chars", type=int, default=None,
                   help="character budget per question (without one: k whole top-level sections)")
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
                print(row.summary(), file=sys.stderr)
            else:
                out.write(json.dumps(row) + "\n")
    return EXIT_OK
