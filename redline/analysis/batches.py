"""Batches for a model: the contract is read once, however many rules apply to a paragraph.

Asked rule by rule, a model is sent a paragraph once for every rule routed to it, and the rules, the
preferences and the rejection history once per call: on a 20-page contract, fifteen times the contract. So a
model's calls are built around the contract instead (issue #29): the (rule, paragraph) pairs the cache does not
answer are grouped by paragraph, and paragraphs are taken in document order into batches within a budget of
characters that counts each paragraph and each rule the first time the batch needs it (the context from the
rest of the contract has its own cap per batch, :mod:`.provider_calls`). A contiguous run of the contract
shares its definitions and its rules, which is what keeps the batch small.

A rule whose required clause the contract lacks is asked in the first batch that reads one of its routed
paragraphs (what the clause engine routes to its kinds), or else in the batch nearest its insertion point; the
insertion point is shown whole and named as the place for that rule's clause only. Only a contract with
nothing else to ask gets a batch of its own. A paragraph that every rule reading it sees only in excerpt (:mod:`.excerpts`) is shown as the union of
those excerpts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .excerpts import Excerpt, render
from .placement.place import Placement
from .playbook.model import Rule


@dataclass(slots=True)
class RulePlan:
    """One rule's work: what is cached, what must be asked, what came back."""

    rule: Rule
    selected: list[int]
    missing_at: int | None
    reciprocal: dict[int, frozenset[str]]
    keys: dict[int, str]
    missing_key: str | None
    found: dict[int, list[dict[str, Any]]] = field(default_factory=dict)  # clause → grounded findings
    missing: list[dict[str, Any]] | None = None
    pending: int = 0
    placement: Placement | None = None  # where the missing clause goes and its number (missing_at is its anchor)
    excerpts: dict[int, Excerpt] = field(default_factory=dict)  # clause → what the provider is shown of it
    ask_at: int | None = None  # a required clause the engine neither finds nor rules out: asked about here
    routed: list[str] = field(default_factory=list)  # anchors of the rule's clause kind, before any screening


@dataclass(slots=True)
class Batch:
    """One call's worth: the clauses it shows (document order), which rules ask about which of them, and the
    rules whose missing clause it asks for (their insertion point is among ``indices``)."""

    indices: list[int] = field(default_factory=list)
    asked: dict[str, list[int]] = field(default_factory=dict)  # rule key → clauses asked about
    missing: dict[str, int] = field(default_factory=dict)  # rule key → insertion point
    plans: dict[str, RulePlan] = field(default_factory=dict)  # rule key → plan, in first-use order
    size: int = 0

    def add_plan(self, plan: RulePlan) -> None:
        self.plans.setdefault(plan.rule.key, plan)


def group_batches(asks: Sequence[tuple[RulePlan, list[int]]], wanting_missing: Sequence[RulePlan], *,
                  limit: int | None, clause_cost: Callable[[int, list[RulePlan]], int],
                  rule_cost: Callable[[RulePlan], int]) -> list[Batch]:
    """Group the (rule, clauses) still to ask, and the missing clauses still to draft, into batches.

    ``clause_cost(i, plans)`` is what clause *i*, read for ``plans``, adds to a batch; ``rule_cost(plan)`` what a
    rule's text adds; ``limit`` bounds a batch (None: one batch). A clause bigger than the limit alone gets a
    batch of its own.
    """
    by_clause: dict[int, list[RulePlan]] = {}
    for plan, clauses in asks:
        for i in clauses:
            by_clause.setdefault(i, []).append(plan)
    batches: list[Batch] = []
    for i in sorted(by_clause):
        plans = by_clause[i]
        cost = clause_cost(i, plans) + sum(rule_cost(p) for p in plans
                                           if not batches or p.rule.key not in batches[-1].plans)
        if not batches or (limit is not None and batches[-1].indices and batches[-1].size + cost > limit):
            batches.append(Batch())
            cost = clause_cost(i, plans) + sum(rule_cost(p) for p in plans)
        batch = batches[-1]
        batch.indices.append(i)
        batch.size += cost
        for p in plans:
            batch.add_plan(p)
            batch.asked.setdefault(p.rule.key, []).append(i)
    for plan in wanting_missing:
        assert plan.missing_at is not None
        batch = _home(batches, plan)
        batch.add_plan(plan)
        batch.missing[plan.rule.key] = plan.missing_at
        if plan.missing_at not in batch.indices:
            batch.indices.append(plan.missing_at)
            batch.indices.sort()
    return batches


def _home(batches: list[Batch], plan: RulePlan) -> Batch:
    """The batch to ask for ``plan``'s missing clause: the first reading the rule's routed paragraphs, else the
    one nearest its insertion point."""
    for batch in batches:
        if plan.rule.key in batch.asked:
            return batch
    if not batches:
        batches.append(Batch())
        return batches[0]
    at = plan.missing_at or 0
    return min(batches, key=lambda b: min((abs(i - at) for i in b.indices), default=0))


def union_excerpt(excerpts: Sequence[Excerpt | None], text: str) -> Excerpt | None:
    """What a batch shows of a paragraph (``text``) that rules read in ``excerpts`` (None: whole): the union
    of the excerpts, or None (whole) when any rule reading it is given the whole paragraph."""
    if not excerpts or any(e is None for e in excerpts):
        return None
    spans: list[tuple[int, int]] = []
    for start, end in sorted(s for e in excerpts if e is not None for s in e.spans):
        if spans and (start <= spans[-1][1] or not text[spans[-1][1]:start].strip()):
            spans[-1] = (spans[-1][0], max(spans[-1][1], end))
        else:
            spans.append((start, end))
    if spans == [(0, len(text))]:
        return None
    return Excerpt(tuple(spans), render(text, spans))
