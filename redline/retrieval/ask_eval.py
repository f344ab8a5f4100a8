"""``ask`` graded like the clause engine: one plain question per CUAD category, citations as passages.

Lives with retrieval (which imports the clause engine), not in the engine's
own evaluation module, so the engine never imports what is built on it.

Which questions: the plain ones (``PLAIN_QUESTIONS``), or one of the held-out
phrasings of every kind (``held-out-N``, the N-th of each kind's list in
``question_phrasings.json``): questions the router never saw, so their score
says how ``ask`` does when a lawyer words a question their own way.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from redline.clauses import analyse
from redline.clauses.model import Finding, Passage
from redline.clauses.question_routing import default_router
from redline.clauses.questions import PLAIN_QUESTIONS

from .ask import ask
from .graph import ContractGraph
from .search import SearchIndex

HELD_OUT_SETS = 5  # every kind has at least this many held-out phrasings


def question_sets() -> list[str]:
    """The names :func:`questions` accepts."""
    return ["plain", *(f"held-out-{n}" for n in range(1, HELD_OUT_SETS + 1))]


def questions(name: str) -> dict[str, str]:
    """One question per category: the plain ones, or the N-th held-out phrasing of each kind."""
    if name == "plain":
        return dict(PLAIN_QUESTIONS)
    if name not in question_sets():
        raise ValueError(f"unknown question set {name!r}: one of {', '.join(question_sets())}")
    n = int(name.rsplit("-", 1)[1]) - 1
    phrasings = default_router().phrasings
    return {kind: phrasings[kind].held_out[n] for kind in PLAIN_QUESTIONS}


def ask_predictor(paragraphs: list) -> dict:
    """``ask`` with one plain question per category, its citations as passages (what a user of ask sees)."""
    return predict(paragraphs, PLAIN_QUESTIONS)


def questions_predictor(asked: Mapping[str, str]) -> Callable[[list], dict]:
    """``ask`` with the given question for each category, as a predictor."""
    return lambda paragraphs: predict(paragraphs, asked)


def predict(paragraphs: list, asked: Mapping[str, str]) -> dict:
    """Each category's finding as ``ask`` shows it: present when it quotes anything, the quotes as passages, the
    likeliest kind it consulted as the probability."""
    index = SearchIndex(ContractGraph.from_paragraphs(paragraphs))
    report = analyse(index.graph.blocks)  # once per contract, not once per question
    where = {p.anchor: i for i, p in enumerate(paragraphs)}
    out = {}
    for name, question in asked.items():
        answer = ask(index, question, report=report)
        passages = [Passage(where[c.anchor], 0, 0, c.quote, 1.0) for c in answer.citations]
        probability = max((k["probability"] for k in answer.kinds), default=float(bool(passages)))
        out[name] = Finding(name, bool(passages), probability, passages)
    return out
