"""Try a rule: one rule, pasted clause text, the offline engine's answer.

Lets an admin check a rule against real wording before (or after) saving it,
with exactly the code a review runs (selection, checks, grounding, validation),
but nothing stored and no model called, so it is instant, free and repeatable.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..analysis.clauses import Clause
from ..analysis.pipeline import ReviewError, review
from ..analysis.playbook.model import Playbook as PlaybookSpec
from ..analysis.playbook.model import Rule as RuleSpec
from ..analysis.providers.offline import OfflineProvider
from ..analysis.review.coverage import checked_offline
from ..analysis.suggestions import Suggestion as SuggestionSpec
from ..errors import ApplicationError

MAX_CHARS = 20_000
MAX_PARAGRAPHS = 100
_BLANK_LINE = re.compile(r"\n\s*\n")


@dataclass(frozen=True, slots=True)
class TrialFinding:
    """A suggestion with the pasted paragraph it is about (1-based ``paragraph``)."""

    paragraph: int
    text: str
    suggestion: SuggestionSpec


def trial_paragraphs(text: str) -> list[str]:
    """Pasted text split into paragraphs at blank lines (as a lawyer copies clauses out of Word)."""
    return [p.strip() for p in _BLANK_LINE.split(text.replace("\r\n", "\n")) if p.strip()][:MAX_PARAGRAPHS]


def rule_checkable(*, rule: RuleSpec) -> bool:
    """Whether the offline engine has anything to check for ``rule`` (else Try says "not checked", not "passes")."""
    return checked_offline(rule)


def rule_try(*, rule: RuleSpec, text: str, acting_for: str = "") -> list[TrialFinding]:
    """What the offline engine suggests for ``text`` under ``rule`` alone (also when it is disabled).

    A ``required`` rule whose clause is absent from the text proposes the
    missing clause, just as in a review; ``acting_for`` is the side, as in a review (a party the text names:
    its preamble's defined names, else the role nouns it uses, "the Customer").
    """
    if len(text) > MAX_CHARS:
        raise ApplicationError("too_large", f"Paste at most {MAX_CHARS:,} characters.", status=422)
    paragraphs = trial_paragraphs(text)
    if not paragraphs:
        return []
    clauses = [Clause(f"_RL_{i:012x}", p) for i, p in enumerate(paragraphs, start=1)]
    playbook = PlaybookSpec(name="trial", rules=(replace(rule, enabled=True),))
    try:
        result = review(clauses, playbook, OfflineProvider(), acting_for=acting_for)
    except ReviewError as exc:
        raise ApplicationError(exc.code, exc.message, status=422) from None
    number = {c.anchor: i for i, c in enumerate(clauses, start=1)}
    return [TrialFinding(number[s.anchor], paragraphs[number[s.anchor] - 1], s) for s in result.suggestions]
