"""Ask the contract: an extractive answer whose every quote is checked against the document.

A question about a kind of clause ("Who are the parties?", "Is liability
capped?") is answered by the clause engine: its passages are the citations,
and when the engine finds no such clause the answer says so instead of
quoting the nearest words. Which kinds a question is about is read from its
meaning (``redline.clauses.question_routing``); a question that sits between
kinds ("Is our liability capped?": the cap, and what is carved out of it)
consults each, best first. Other questions go to retrieval.

The offline answerer never paraphrases. It retrieves passages (with the
definitions and cross-referenced sections they depend on), picks the
sentences that best match the question, and returns them as quotes, each
tied to the anchor of its paragraph. A quote is only returned if it is found
verbatim in that paragraph: a lawyer must be able to click it and land on
exactly those words.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from redline.clauses import ClauseReport, analyse
from redline.clauses.question_routing import route_question

from .bm25 import BM25
from .graph import ContractGraph
from .search import Hit, SearchIndex
from .tokens import tokens

NO_ANSWER = "No passage of the contract answers this question."
_MAX_CLAUSE_QUOTES = 5  # per kind consulted
_SENTENCE_RE = re.compile(r"(?:[^.;:!?]|[.;:!?](?!\s|$))+(?:[.;:!?]+|$)")
_MIN_SENTENCE_CHARS = 25


@dataclass(frozen=True, slots=True)
class Citation:
    """A verbatim quote from one paragraph, with where it is."""

    anchor: str
    quote: str
    start: int
    end: int
    section: str | None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"anchor": self.anchor, "quote": self.quote, "start": self.start, "end": self.end,
                "section": self.section}


@dataclass(frozen=True, slots=True)
class Answer:
    """The answer text (quotes numbered like [1]), its citations and the passages it drew on."""

    question: str
    text: str
    citations: list[Citation] = field(default_factory=list)
    passages: list[Hit] = field(default_factory=list)
    clause: dict[str, Any] | None = None  # {category, present, probability} of the best kind when the engine answered
    kinds: list[dict[str, Any]] = field(default_factory=list)  # every kind consulted, best first (clause is the first)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"question": self.question, "answer": self.text, "citations": [c.to_dict() for c in self.citations],
                "passages": [h.to_dict() for h in self.passages], "clause": self.clause, "kinds": self.kinds}


def verify_quote(graph: ContractGraph, anchor: str, quote: str) -> bool:
    """Whether ``quote`` appears verbatim in the paragraph with this anchor."""
    block = graph.block_for(anchor)
    return bool(quote) and block is not None and quote in block.text


def ask(index: SearchIndex, question: str, *, k: int = 8, max_chars: int = 12000, max_quotes: int = 4,
        report: ClauseReport | None = None) -> Answer:
    """Answer ``question`` from the contract with up to ``max_quotes`` verified quotes (retrieval) or the clause
    engine's passages. ``report`` is the contract's clause analysis when the caller already has it: the
    evaluation asks 41 questions of each contract, and the analysis is the costly part."""
    kinds = route_question(question)
    if kinds:
        return clause_answer(index.graph, question, kinds, report=report)
    hits = index.search(question, k=k, max_chars=max_chars)
    candidates = _sentences(index.graph, hits)
    if not candidates:
        return Answer(question, NO_ANSWER, [], hits)
    scores = BM25([c.quote for c in candidates]).scores(question)
    wanted = set(tokens(question))
    ranked = sorted(
        (i for i, s in enumerate(scores) if s > 0 and wanted & set(tokens(candidates[i].quote))),
        key=lambda i: (-scores[i], i),
    )
    chosen = sorted(ranked[:max_quotes])  # keep the order of the retrieved passages
    citations = [candidates[i] for i in chosen if verify_quote(index.graph, candidates[i].anchor, candidates[i].quote)]
    if not citations:
        return Answer(question, NO_ANSWER, [], hits)
    lines = [f'"{c.quote}" [{n}]' for n, c in enumerate(citations, start=1)]
    return Answer(question, "\n".join(lines), citations, hits)


def clause_answer(graph: ContractGraph, question: str, kinds: Sequence[str], *,
                  report: ClauseReport | None = None) -> Answer:
    """The clause engine's answer for each kind, best first: its passages as verified quotes (a sentence two
    kinds cite is quoted once), or "not found" for a kind the engine finds absent."""
    if report is None:
        report = analyse(graph.blocks)
    parts: list[tuple[dict[str, Any], list[Citation]]] = []
    seen: set[tuple[int, int]] = set()
    for kind in kinds:
        finding = report.cuad[kind]
        citations = []
        for passage in finding.passages[:_MAX_CLAUSE_QUOTES]:
            block = graph.blocks[passage.paragraph]
            span = (block.start + passage.start, block.start + passage.end)
            if span in seen or not verify_quote(graph, block.anchor, passage.text):
                continue
            seen.add(span)
            owner = graph.owner[block.index]
            citations.append(Citation(block.anchor, passage.text, *span, graph.section(owner).label if owner else None))
        parts.append(({"category": kind, "present": finding.present, "probability": round(finding.probability, 4)},
                      citations))
    consulted = [kind for kind, _ in parts]
    return Answer(question, _clause_text(parts), [c for _, cs in parts for c in cs], [], consulted[0], consulted)


def _clause_text(parts: list[tuple[dict[str, Any], list[Citation]]]) -> str:
    """Quotes numbered [1], [2]… across the kinds; each kind named when there are several; "Not found" when no
    kind has a passage."""
    if not any(citations for _, citations in parts):
        absent = " or ".join(f"{k['category'].lower()} clause (probability {k['probability']:.0%})" for k, _ in parts)
        return f"Not found: the contract has no {absent}."
    lines, n = [], 1
    for kind, citations in parts:
        if len(parts) > 1:
            lines.append(f"{kind['category']}:" if citations
                         else f"{kind['category']}: not found (probability {kind['probability']:.0%}).")
        for c in citations:
            lines.append(f'"{c.quote}" [{n}]')
            n += 1
    return "\n".join(lines)


def _sentences(graph: ContractGraph, hits: list[Hit]) -> list[Citation]:
    """Every sentence of the retrieved passages, each inside a single paragraph."""
    out: list[Citation] = []
    seen: set[tuple[int, int]] = set()
    for hit in hits:
        for block in graph.blocks:
            if block.end <= hit.start or block.start >= hit.end or block.anchor not in hit.passage.anchors:
                continue
            lo, hi = max(block.start, hit.start), min(block.end, hit.end)
            owner = graph.owner[block.index]
            label = graph.section(owner).label if owner else None
            for m in _SENTENCE_RE.finditer(graph.text, lo, hi):
                quote = m.group(0).strip()
                if len(quote) < _MIN_SENTENCE_CHARS:
                    continue
                start = m.start() + (len(m.group(0)) - len(m.group(0).lstrip()))
                key = (start, start + len(quote))
                if key not in seen:
                    seen.add(key)
                    out.append(Citation(block.anchor, quote, start, start + len(quote), label))
    return out
