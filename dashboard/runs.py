"""A page of a run's suggestions as the run page shows them: in context, grouped, with outcomes and votes."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from itertools import groupby
from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from redline.models import AnalysisRun, Feedback, RunStatus, Suggestion

from .queries import paragraph_texts, severity_rank

TERMINAL = frozenset({RunStatus.DONE, RunStatus.ERROR, RunStatus.CANCELLED})
CONTEXT_CHARS = 240


@dataclass(slots=True)
class SuggestionRow:
    """One suggestion with the words around its quote, its outcome and the votes on it."""

    suggestion: Suggestion
    before: str
    quote: str
    after: str
    outcome: str | None
    ups: int = 0
    downs: int = 0
    mine: Feedback | None = None

    @property
    def data(self) -> dict[str, Any]:
        return self.suggestion.data or {}


@dataclass(frozen=True, slots=True)
class Group:
    heading: str
    severity: str
    rows: tuple[SuggestionRow, ...]
    total: int  # in the whole filtered list, not just on this page


def _context(paragraph: str, quote: str, occurrence: int) -> tuple[str, str, str]:
    """(before, quote, after) with the quote's ``occurrence``; the whole paragraph when not found."""
    at = -1
    for _ in range(max(1, occurrence)):
        at = paragraph.find(quote, at + 1) if quote else -1
        if at < 0:
            return paragraph, "", ""
    before, after = paragraph[:at], paragraph[at + len(quote):]
    if len(before) > CONTEXT_CHARS:
        before = "…" + before[-CONTEXT_CHARS:]
    if len(after) > CONTEXT_CHARS:
        after = after[:CONTEXT_CHARS] + "…"
    return before, quote, after


def feedback_row(suggestion: Suggestion, user: AbstractBaseUser) -> SuggestionRow:
    """The vote part of one row (the feedback widget re-renders only this)."""
    votes = list(Feedback.objects.filter(suggestion=suggestion))
    row = SuggestionRow(suggestion, "", "", "", None)
    _count(row, votes, user)
    return row


def _count(row: SuggestionRow, votes: list[Feedback], user: AbstractBaseUser) -> None:
    for vote in votes:
        if vote.thumbs_up:
            row.ups += 1
        else:
            row.downs += 1
        if vote.user_id == user.pk:
            row.mine = vote


def page_rows(run: AnalysisRun, suggestions: list[Suggestion], user: AbstractBaseUser) -> list[SuggestionRow]:
    """The cards of one page of suggestions (annotated with ``outcome_value``): context, outcome and
    votes, with one query for the votes and the cached parse of the document."""
    if not suggestions:
        return []
    texts = paragraph_texts(version=run.document_version)
    votes: dict[int, list[Feedback]] = defaultdict(list)
    for vote in Feedback.objects.filter(suggestion__in=[s.pk for s in suggestions]):
        votes[vote.suggestion_id].append(vote)
    rows = []
    for s in suggestions:
        data = s.data or {}
        before, quote, after = _context(texts.get(s.anchor, ""), data.get("quote", ""), data.get("occurrence", 1))
        row = SuggestionRow(s, before, quote, after, getattr(s, "outcome_value", None))
        _count(row, votes[s.pk], user)
        rows.append(row)
    return rows


def group_rows(rows: list[SuggestionRow], by: str, sections: dict[str, str] | None = None,
               totals: dict[tuple[str, ...], int] | None = None) -> list[Group]:
    """Consecutive rows with the same rule, severity or clause (the section heading they sit under) as
    one group: the list arrives in the grouping's order, so a page's groups follow it. ``totals``: each
    group's size in the whole filtered list (:func:`dashboard.overview.group_totals`)."""
    def key(row: SuggestionRow) -> tuple[str, ...]:
        if by == "severity":
            return (row.suggestion.severity,)
        if by == "clause":
            return ((sections or {}).get(row.suggestion.anchor, ""),)
        return (row.suggestion.severity, row.suggestion.rule_key)  # a finding may set its own severity

    out: list[Group] = []
    for ident, members in groupby(rows, key=key):
        members = tuple(members)
        severity = min((r.suggestion.severity for r in members), key=severity_rank)
        if by == "severity":
            heading = ident[0].capitalize()
        elif by == "clause":
            heading = ident[0] or "Before the first heading"
        else:
            heading = members[0].data.get("rule_title") or ident[1]
        total = (totals or {}).get(ident, len(members))
        out.append(Group(heading, severity, members, total))
    return out
