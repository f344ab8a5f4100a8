"""``ask`` graded like the clause engine: one plain question per CUAD category, citations as passages.

Lives with retrieval (which imports the clause engine), not in the engine's
own evaluation module, so the engine never imports what is built on it.
"""

from __future__ import annotations

from redline.clauses.model import Finding, Passage
from redline.clauses.questions import PLAIN_QUESTIONS

from .ask import ask
from .graph import ContractGraph
from .search import SearchIndex


def ask_predictor(paragraphs: list) -> dict:
    """``ask`` with one plain question per category, its citations as passages (what a user of ask sees)."""
    index = SearchIndex(ContractGraph.from_paragraphs(paragraphs))
    where = {p.anchor: i for i, p in enumerate(paragraphs)}
    out = {}
    for name, question in PLAIN_QUESTIONS.items():
        answer = ask(index, question)
        passages = [Passage(where[c.anchor], 0, 0, c.quote, 1.0) for c in answer.citations]
        probability = answer.clause["probability"] if answer.clause else float(bool(passages))
        out[name] = Finding(name, bool(passages), probability, passages)
    return out
