"""Which rules help: outcomes, thumbs and validator verdicts, aggregated per workspace.

Rates are over *decided* suggestions (accepted, modified or rejected): a pending or
missing one has no verdict yet, so a rule whose suggestions are all pending has no
acceptance rate (``None``, shown as "—"), not 0%. Rule health lists every rule of
the playbooks in scope, so a rule that never fires (``silent``) is visible too.

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
from ..models import Feedback, KnownEntry, Outcome, PlaybookVersion, Rule, Suggestion, Workspace

TIME_RANGES = {"7d": 7, "30d": 30, "90d": 90, "all": None}
NOISY_MIN_SAMPLE = 5
NOISY_REJECTION_SHARE = 0.5
OUTCOMES = [o.value for o in Outcome]
DECIDED = ("accepted", "modified", "rejected")


def _decided(outcomes: Counter) -> int:
    return sum(outcomes[o] for o in DECIDED)


@dataclass
class _Bucket:
    suggestions: int = 0
    outcomes: Counter | None = None
    thumbs_up: int = 0
    thumbs_down: int = 0

    def __post_init__(self) -> None:
        self.outcomes = Counter()

    def to_dict(self) -> dict[str, Any]:
        decided = _decided(self.outcomes)
        votes = self.thumbs_up + self.thumbs_down
        return {
            "suggestions": self.suggestions,
            "outcomes": {o: self.outcomes.get(o, 0) for o in OUTCOMES},
            "acceptance_rate": _rate(self.outcomes["accepted"], decided),
            "rejection_rate": _rate(self.outcomes["rejected"], decided),
            "modification_rate": _rate(self.outcomes["modified"], decided),
            "pending_rate": _rate(self.outcomes["pending"], sum(self.outcomes.values())),
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
        "rule_health": _rule_health(groups["rule"], titles, _playbook_rules(workspace, playbook_id)),
    }


def _playbook_rules(workspace: Workspace, playbook_id: int | None) -> dict[str, Rule]:
    """The rules of the current version of each playbook in scope (one playbook, or all), by key."""
    latest = PlaybookVersion.objects.filter(playbook__workspace=workspace).order_by("playbook_id", "-number")
    if playbook_id is not None:
        latest = latest.filter(playbook_id=playbook_id)
    current: dict[int, int] = {}
    for playbook, version in latest.values_list("playbook_id", "pk"):
        current.setdefault(playbook, version)
    rules = Rule.objects.filter(version_id__in=current.values()).order_by("version_id", "position")
    return {r.key: r for r in rules}


def _rule_health(by_rule: dict[str, _Bucket], titles: dict[str, str],
                 rules: dict[str, Rule]) -> list[dict[str, Any]]:
    """Per rule, noisiest first, silent ones last: a rule is ``noisy`` when rejections dominate a large
    enough sample, ``silent`` when it made no suggestion in the period (disabled, or perhaps broken)."""
    out = []
    for key in [*by_rule, *(k for k in rules if k not in by_rule)]:
        b = by_rule.get(key) or _Bucket()
        decided = _decided(b.outcomes)
        votes = b.thumbs_up + b.thumbs_down
        rejected = b.outcomes["rejected"]
        rule = rules.get(key)
        out.append({
            "rule": key, "title": rule.title if rule else titles.get(key, key), "suggestions": b.suggestions,
            "acceptance_rate": _rate(b.outcomes["accepted"], decided), "rejection_rate": _rate(rejected, decided),
            "thumbs_down_rate": _rate(b.thumbs_down, votes),
            "noisy": decided >= NOISY_MIN_SAMPLE and rejected / decided > NOISY_REJECTION_SHARE,
            "silent": b.suggestions == 0, "enabled": rule.enabled if rule else None,
        })
    return sorted(out, key=lambda r: (r["silent"], not r["noisy"], -(r["rejection_rate"] or 0), r["rule"]))
