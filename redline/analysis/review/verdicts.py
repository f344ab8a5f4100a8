"""PASS/WARN/FAIL for what the review proposes: the validator, cached, timed into the run's stats.

An edit is judged on the text it leaves (the replaced or rewritten paragraph, the inserted clause); a comment
only when the paragraph's risk reaches the validation threshold, so low-risk notes are not slowed by it.
"""

from __future__ import annotations

import time

from ..cache import Cache
from ..playbook.model import Rule
from ..risk import RiskScore
from ..suggestions import Kind, Suggestion, edited_text
from ..validator import VALIDATION_RISK_THRESHOLD, DocumentFacts, ValidationResult, Validator, cached_validate


class Verdicts:
    """The review's validator over one document (its facts and parties), counting its cache use and time
    (``hits``, ``misses``, ``ms``) for the run's stats."""

    def __init__(self, validator: Validator, cache: Cache | None, facts: DocumentFacts,
                 parties: tuple[str, ...]) -> None:
        self.validator, self.cache, self.facts, self.parties = validator, cache, facts, parties
        self.hits = self.misses = 0
        self.ms = 0.0

    def of_suggestion(self, s: Suggestion, text: str, rule: Rule, risk: RiskScore) -> ValidationResult | None:
        """The verdict on ``s`` made in paragraph ``text`` (None: a low-risk comment, not validated)."""
        if s.kind in (Kind.REPLACE, Kind.REWRITE):
            return self.validate(edited_text(text, s) or "", (rule,), replaces=text)
        if s.kind is Kind.INSERT:
            return self.validate(s.new_text, (rule,))
        if risk.overall >= VALIDATION_RISK_THRESHOLD:
            return self.validate(text, (rule,))
        return None

    def validate(self, text: str, rules: tuple[Rule, ...], replaces: str | None = None) -> ValidationResult:
        """The validator's verdict on ``text`` against ``rules``, from the cache when it has it."""
        t = time.perf_counter()
        result, cached = cached_validate(self.validator, self.cache, text, rules=rules, facts=self.facts,
                                         parties=self.parties, replaces=replaces)
        if cached:
            self.hits += 1
        else:
            self.misses += 1
        self.ms += (time.perf_counter() - t) * 1000
        return result
