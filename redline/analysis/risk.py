"""Risk: a 0–100 score per dimension for a clause, with the reasons behind it.

A score is only useful to a lawyer if it can be explained, so it is built
from named factors: the kind of clause (an indemnity carries some legal risk
even when it is well drafted) and each deviation found in it (a critical
finding weighs 85, major 60, minor 30, on the dimensions its rule names).
Factors on the same dimension combine like independent probabilities
(1 − Π(1 − w)), so two major issues score higher than one but never exceed
100, and the overall score is the worst dimension.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .categories import Category
from .playbook.model import RiskDimension, Severity

SEVERITY_WEIGHT = {Severity.CRITICAL: 85, Severity.MAJOR: 60, Severity.MINOR: 30}
DIMENSIONS: tuple[RiskDimension, ...] = tuple(RiskDimension)

# Inherent risk of a clause type, before any deviation is found.
_BASELINE: dict[Category, dict[RiskDimension, int]] = {
    Category.LIMITATION_OF_LIABILITY: {RiskDimension.FINANCIAL: 25, RiskDimension.LEGAL_COMPLIANCE: 20},
    Category.INDEMNIFICATION: {RiskDimension.FINANCIAL: 25, RiskDimension.LEGAL_COMPLIANCE: 20},
    Category.DATA_PROTECTION: {RiskDimension.LEGAL_COMPLIANCE: 25, RiskDimension.STRATEGIC_REPUTATIONAL: 15},
    Category.INTELLECTUAL_PROPERTY: {RiskDimension.STRATEGIC_REPUTATIONAL: 20, RiskDimension.LEGAL_COMPLIANCE: 15},
    Category.LICENSE_GRANT: {RiskDimension.LEGAL_COMPLIANCE: 15},
    Category.TERMINATION: {RiskDimension.OPERATIONAL: 15, RiskDimension.TIMELINE: 10},
    Category.TERM_AND_RENEWAL: {RiskDimension.TIMELINE: 15, RiskDimension.FINANCIAL: 10},
    Category.PAYMENT_TERMS: {RiskDimension.FINANCIAL: 15, RiskDimension.TIMELINE: 10},
    Category.PRICING_AND_FEES: {RiskDimension.FINANCIAL: 15},
    Category.WARRANTIES: {RiskDimension.OPERATIONAL: 10, RiskDimension.LEGAL_COMPLIANCE: 10},
    Category.EXCLUSIVITY: {RiskDimension.STRATEGIC_REPUTATIONAL: 20},
    Category.SERVICE_LEVELS: {RiskDimension.OPERATIONAL: 15},
    Category.CONFIDENTIALITY: {RiskDimension.LEGAL_COMPLIANCE: 10},
    Category.COMPLIANCE: {RiskDimension.LEGAL_COMPLIANCE: 15},
    Category.GOVERNING_LAW: {RiskDimension.LEGAL_COMPLIANCE: 10},
    Category.DISPUTE_RESOLUTION: {RiskDimension.LEGAL_COMPLIANCE: 10},
    Category.FORCE_MAJEURE: {RiskDimension.OPERATIONAL: 10},
    Category.INSURANCE: {RiskDimension.FINANCIAL: 10},
}


@dataclass(frozen=True, slots=True)
class RiskFactor:
    """Something that makes a clause risky, on the dimensions it affects."""

    dimensions: tuple[RiskDimension, ...]
    severity: Severity
    reason: str


@dataclass(frozen=True, slots=True)
class RiskScore:
    """Scores 0–100 for each of the five dimensions, the overall (worst) score,
    and a one-line explanation per scored dimension."""

    scores: tuple[tuple[str, int], ...]
    overall: int
    explanation: str

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form."""
        return {"scores": dict(self.scores), "overall": self.overall, "explanation": self.explanation}


def score_clause(categories: Iterable[Category], factors: Iterable[RiskFactor]) -> RiskScore:
    """Score a clause from its categories (baseline) and the deviations found in it."""
    weights: dict[RiskDimension, list[tuple[int, str]]] = {d: [] for d in DIMENSIONS}
    for category in sorted(categories):
        for dim, w in _BASELINE.get(category, {}).items():
            weights[dim].append((w, f"{category.value.replace('_', ' ')} clause"))
    for factor in factors:
        for dim in factor.dimensions or (RiskDimension.LEGAL_COMPLIANCE,):
            weights[dim].append((SEVERITY_WEIGHT[factor.severity], factor.reason))
    scores: list[tuple[str, int]] = []
    lines: list[str] = []
    for dim in DIMENSIONS:
        remaining = 1.0
        for w, _ in weights[dim]:
            remaining *= 1 - w / 100
        score = round(100 * (1 - remaining))
        scores.append((dim.value, score))
        if score:
            reasons = list(dict.fromkeys(r for _, r in sorted(weights[dim], key=lambda x: -x[0])))
            lines.append(f"{dim.value} {score}: " + "; ".join(reasons[:3]))
    overall = max(s for _, s in scores)
    lines.sort(key=lambda line: -int(line.split(" ", 2)[1].rstrip(":")))
    return RiskScore(tuple(scores), overall, " | ".join(lines) or "no risk factors found")
