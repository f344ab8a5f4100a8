"""Which rules help: outcomes, thumbs and validator verdicts, aggregated per workspace.

Read-only. Aggregation is done in Python over one pass of the rows so the same
code gives the same numbers on SQLite and PostgreSQL (validator status lives in
JSON, which the two databases query differently).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from django.utils import timezone

from ..errors import ApplicationError
from ..models import Feedback, KnownEntry, Outcome, Suggestion, Workspace

TIME_RANGES = {"7d": 7, "30d": 30, "90d": 90, "all": None}
NOISY_MIN_SAMPLE = 5
NOISY_REJECTION_SHARE = 0.5
OUTCOMES = [o.value for o in Outcome]


@dataclass
class _Bucket:
    suggestions: int = 0
    outcomes: Counter | None = None
    thumbs_up: int = 0
    thumbs_down: int = 0

    def __post_init__(self) -> None:
        self.outcomes = Counter()

    def to_dict(self) -> dict[str, Any]:
        decided = sum(self.outcomes.values())
        votes = self.thumbs_up + self.thumbs_down
        return {
            "suggestions": self.suggestions,
            "outcomes": {o: self.outcomes.get(o, 0) for o in OUTCOMES},
            "acceptance_rate": _rate(self.outcomes["accepted"], decided),
            "rejection_rate": _rate(self.outcomes["rejected"], decided),
            "modification_rate": _rate(self.outcomes["modified"], decided),
            "pending_rate": _rate(self.outcomes["pending"], decided),
            "thumbs_up": self.thumbs_up, "thumbs_down": self.thumbs_down,
            "thumbs_up_rate": _rate(self.thumbs_up, votes),
        }


def _rate(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def analytics_summary(*, workspace: Workspace, time_range: str = "30d", playbook_id: int | None = None) -> dict:
    """Totals, rates by rule/category/severity/validator status, thumbs, daily series and rule health."""
    if time_range not in TIME_RANGES:
        raise ApplicationError("invalid_time_range", f"time_range must be one of {', '.join(TIME_RANGES)}.",
                               status=422)
    days = TIME_RANGES[time_range]
    suggestions = Suggestion.objects.filter(run__workspace=workspace)
    if days is not None:
        suggestions = suggestions.filter(created_at__gte=timezone.now() - timedelta(days=days))
    if playbook_id is not None:
        suggestions = suggestions.filter(run__playbook_version__playbook_id=playbook_id)
    rows = list(suggestions.values("pk", "rule_key", "category", "severity", "data", "created_at", "run_id",
                                   "run__stats"))
    ids = [r["pk"] for r in rows]
    outcome_of: dict[int, str] = {}
    for e in KnownEntry.objects.filter(suggestion_id__in=ids).values("suggestion_id", "outcome"):
        outcome_of[e["suggestion_id"]] = e["outcome"]
    votes: dict[int, list[bool]] = defaultdict(list)
    tags: Counter = Counter()
    reasons: Counter = Counter()
    for f in Feedback.objects.filter(suggestion_id__in=ids).values("suggestion_id", "thumbs_up", "tags",
                                                                    "follow_up_reason"):
        votes[f["suggestion_id"]].append(f["thumbs_up"])
        tags.update(f["tags"])
        if f["follow_up_reason"]:
            reasons[f["follow_up_reason"]] += 1

    total = _Bucket()
    groups: dict[str, dict[str, _Bucket]] = {k: defaultdict(_Bucket) for k in
                                             ("rule", "category", "severity", "validator_status")}
    daily: dict[date, _Bucket] = defaultdict(_Bucket)
    titles: dict[str, str] = {}
    for r in rows:
        validation = (r["data"] or {}).get("validation") or {}
        keys = {"rule": r["rule_key"], "category": r["category"], "severity": r["severity"],
                "validator_status": validation.get("status", "none")}
        titles.setdefault(r["rule_key"], (r["data"] or {}).get("rule_title", r["rule_key"]))
        buckets = [total, daily[r["created_at"].date()], *(groups[g][k] for g, k in keys.items())]
        outcome = outcome_of.get(r["pk"])
        ups = sum(votes[r["pk"]])
        downs = len(votes[r["pk"]]) - ups
        for b in buckets:
            b.suggestions += 1
            if outcome:
                b.outcomes[outcome] += 1
            b.thumbs_up += ups
            b.thumbs_down += downs
    run_stats = {r["run_id"]: r["run__stats"] or {} for r in rows}
    hallucination_drops = sum(stats.get("hallucination_drops", 0) for stats in run_stats.values())
    fail = groups["validator_status"].get("FAIL")
    return {
        "time_range": time_range,
        "playbook": playbook_id,
        "totals": {**total.to_dict(), "hallucination_drops": hallucination_drops,
                   "validator_fail_share": _rate(fail.suggestions if fail else 0, total.suggestions)},
        "by": {g: {k: b.to_dict() for k, b in sorted(buckets.items())} for g, buckets in groups.items()},
        "thumbs": {"tags": dict(tags.most_common()), "reasons": dict(reasons.most_common())},
        "daily": [{"date": d.isoformat(), **b.to_dict()} for d, b in sorted(daily.items())],
        "rule_health": _rule_health(groups["rule"], titles),
    }


def _rule_health(by_rule: dict[str, _Bucket], titles: dict[str, str]) -> list[dict[str, Any]]:
    """Per rule, noisiest first: a rule is ``noisy`` when rejections dominate a large enough sample."""
    out = []
    for key, b in by_rule.items():
        decided = sum(b.outcomes.values())
        votes = b.thumbs_up + b.thumbs_down
        rejected = b.outcomes["rejected"]
        out.append({
            "rule": key, "title": titles.get(key, key), "suggestions": b.suggestions,
            "acceptance_rate": _rate(b.outcomes["accepted"], decided), "rejection_rate": _rate(rejected, decided),
            "thumbs_down_rate": _rate(b.thumbs_down, votes),
            "noisy": decided >= NOISY_MIN_SAMPLE and rejected / decided > NOISY_REJECTION_SHARE,
        })
    return sorted(out, key=lambda r: (not r["noisy"], -(r["rejection_rate"] or 0), r["rule"]))
