"""A run's suggestions as the run page shows them: in context, grouped, with outcomes and votes."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from redline.models import AnalysisRun, Feedback, KnownEntry, RunStatus, Suggestion

from .queries import paragraph_texts

TERMINAL = frozenset({RunStatus.DONE, RunStatus.ERROR, RunStatus.CANCELLED})
SEVERITY_ORDER = {"critical": 0, "major": 1, "minor": 2}
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


def suggestion_rows(run: AnalysisRun, user: AbstractBaseUser) -> list[SuggestionRow]:
    """Every suggestion of a finished run with context, outcome and votes, in three queries and one parse."""
    suggestions = list(run.suggestions.order_by("position"))
    if not suggestions:
        return []
    texts = paragraph_texts(version=run.document_version)
    outcomes = dict(KnownEntry.objects.filter(suggestion__run=run).values_list("suggestion_id", "outcome"))
    votes: dict[int, list[Feedback]] = defaultdict(list)
    for vote in Feedback.objects.filter(suggestion__run=run):
        votes[vote.suggestion_id].append(vote)
    rows = []
    for s in suggestions:
        data = s.data or {}
        before, quote, after = _context(texts.get(s.anchor, ""), data.get("quote", ""), data.get("occurrence", 1))
        row = SuggestionRow(s, before, quote, after, outcomes.get(s.pk))
        _count(row, votes[s.pk], user)
        rows.append(row)
    return rows


def group_rows(rows: list[SuggestionRow], by: str) -> list[Group]:
    """Groups by rule (most severe first) or by severity, each in document order."""
    groups: dict[str, list[SuggestionRow]] = {}
    for row in rows:
        groups.setdefault(row.suggestion.severity if by == "severity" else row.suggestion.rule_key, []).append(row)
    out = []
    for ident, members in groups.items():
        severity = min((r.suggestion.severity for r in members), key=lambda v: SEVERITY_ORDER.get(v, 9))
        heading = ident.capitalize() if by == "severity" else (members[0].data.get("rule_title") or ident)
        out.append(Group(heading, severity, tuple(members)))
    return sorted(out, key=lambda g: (SEVERITY_ORDER.get(g.severity, 9), g.rows[0].suggestion.position))
