"""Ask the contract: an extractive answer whose every quote is checked against the document.

A question about a kind of clause ("Who are the parties?", "Is liability
capped?") is answered by the clause engine: its passages are the citations,
and when the engine finds no such clause the answer says so instead of
quoting the nearest words. Other questions go to retrieval.

The offline answerer never paraphrases. It retrieves passages (with the
definitions and cross-referenced sections they depend on), picks the
sentences that best match the question, and returns them as quotes, each
tied to the anchor of its paragraph. A quote is only returned if it is found
verbatim in that paragraph: a lawyer must be able to click it and land on
exactly those words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from redline.clauses import analyse
from redline.clauses.questions import question_category

from .bm25 import BM25
from .graph import ContractGraph
from .search import Hit, SearchIndex
from .tokens import tokens

NO_ANSWER = "No passage of the contract answers this question."
_MAX_CLAUSE_QUOTES = 5
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
    clause: dict[str, Any] | None = None  # {category, present, probability} when the clause engine answered

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"question": self.question, "answer": self.text, "citations": [c.to_dict() for c in self.citations],
                "passages": [h.to_dict() for h in self.passages], "clause": self.clause}


def verify_quote(graph: ContractGraph, anchor: str, quote: str) -> bool:
    """Whether ``quote`` appears verbatim in the paragraph with this anchor."""
    block = graph.block_for(anchor)
    return bool(quote) and block is not None and quote in block.text


def ask(index: SearchIndex, question: str, *, k: int = 8, max_chars: int = 12000, max_quotes: int = 4) -> Answer:
    """Answer ``question`` from the contract with up to ``max_quotes`` verified quotes."""
    category = question_category(question)
    if category is not None:
        return clause_answer(index.graph, question, category)
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


def clause_answer(graph: ContractGraph, question: str, category: str) -> Answer:
    """The clause engine's answer: its passages as verified quotes, or "not found" when it finds none."""
    report = analyse(graph.blocks)
    finding = report.cuad[category]
    clause = {"category": category, "present": finding.present, "probability": round(finding.probability, 4)}
    citations = []
    for passage in finding.passages[:_MAX_CLAUSE_QUOTES]:
        block = graph.blocks[passage.paragraph]
        if not verify_quote(graph, block.anchor, passage.text):
            continue
        owner = graph.owner[block.index]
        citations.append(Citation(block.anchor, passage.text, block.start + passage.start, block.start + passage.end,
                                  graph.section(owner).label if owner else None))
    if not citations:
        return Answer(question, f"Not found: the contract has no {category.lower()} clause "
                                f"(probability {finding.probability:.0%}).", [], [], clause)
    lines = [f'"{c.quote}" [{n}]' for n, c in enumerate(citations, start=1)]
    return Answer(question, "\n".join(lines), citations, [], clause)


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
