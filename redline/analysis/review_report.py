"""What a review run reports besides its suggestions: counters and costs, and per-clause risk.

Split from :mod:`redline.analysis.pipeline` so the stages of a review (the
pipeline itself and the provider stage in :mod:`redline.analysis.provider_calls`)
can both count into :class:`ReviewStats` without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .prompts import PromptMode
from .providers.base import PreferenceUpdate, Usage
from .risk import RiskScore
from .suggestions import Suggestion, ops_document
from .validator import ValidationResult


@dataclass(slots=True)
class ReviewStats:
    """What a run did and what it cost."""

    rules: int = 0
    clauses: int = 0
    selected: int = 0
    requests: int = 0
    usage: Usage = field(default_factory=Usage)
    raw_findings: int = 0
    grounded: int = 0
    hallucination_drops: int = 0
    invalid_drops: int = 0
    off_target_drops: int = 0  # a model's finding for a rule on a paragraph it was not asked to read for it
    cache_hits: int = 0
    cache_misses: int = 0
    verdict_cache_hits: int = 0
    verdict_cache_misses: int = 0
    suppressed: int = 0
    suggestions: int = 0
    timings_ms: dict[str, float] = field(default_factory=dict)
    gate: dict[str, Any] = field(default_factory=dict)  # the side, the parties and what the review gate withheld
    not_checked: list[str] = field(default_factory=list)  # rules the provider had nothing to check for
    rule_status: list[dict[str, Any]] = field(default_factory=list)  # one line per rule (review/status.py)
    suppressed_by: dict[str, int] = field(default_factory=dict)  # not proposed again, by the earlier outcome

    @property
    def hallucination_rate(self) -> float:
        """Share of the provider's findings dropped because their quote was not in the paragraph."""
        return self.hallucination_drops / self.raw_findings if self.raw_findings else 0.0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "rules": self.rules, "clauses": self.clauses, "selected": self.selected, "requests": self.requests,
            "provider_calls": self.usage.calls, "retries": self.usage.retries,
            "prompt_tokens": self.usage.prompt_tokens, "completion_tokens": self.usage.completion_tokens,
            "cost_usd": round(self.usage.cost_usd, 6), "raw_findings": self.raw_findings, "grounded": self.grounded,
            "hallucination_drops": self.hallucination_drops, "hallucination_rate": round(self.hallucination_rate, 4),
            "invalid_drops": self.invalid_drops, "off_target_drops": self.off_target_drops,
            "cache_hits": self.cache_hits, "cache_misses": self.cache_misses,
            "verdict_cache_hits": self.verdict_cache_hits, "verdict_cache_misses": self.verdict_cache_misses,
            "suppressed": self.suppressed, "suggestions": self.suggestions,
            "timings_ms": {k: round(v, 1) for k, v in self.timings_ms.items()},
            "gate": self.gate, "not_checked": self.not_checked, "rule_status": self.rule_status,
            "suppressed_by": self.suppressed_by,
        }


@dataclass(frozen=True, slots=True)
class ClauseReport:
    """Per clause that received suggestions: categories, combined risk, and a
    clause-level verdict when the risk reaches the validation threshold."""

    anchor: str
    categories: tuple[str, ...]
    risk: RiskScore
    validation: ValidationResult | None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"anchor": self.anchor, "categories": list(self.categories), "risk": self.risk.to_dict(),
                "validation": self.validation.to_dict() if self.validation else None}


@dataclass(slots=True)
class ReviewResult:
    """Suggestions in document order, clause reports, stats and the prompt mode used."""

    suggestions: list[Suggestion]
    clauses: list[ClauseReport]
    stats: ReviewStats
    mode: PromptMode
    preference_updates: list[PreferenceUpdate] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (the CLI's ``--json`` output)."""
        return {"mode": self.mode.value, "suggestions": [s.to_dict() for s in self.suggestions],
                "clauses": [c.to_dict() for c in self.clauses], "stats": self.stats.to_dict()}

    def ops(self, author: str = "Redline AI") -> dict[str, Any]:
        """The ``ops.json`` document for the writer."""
        return ops_document(self.suggestions, author)


class ReviewError(Exception):
    """A review that could not finish: ``code`` (empty_document, no_rules, or the
    provider's error code), a ``message`` safe to show, and the ``partial`` result
    of the rules that did finish (their suggestions were already reported)."""

    def __init__(self, code: str, message: str, partial: ReviewResult | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.partial = partial
