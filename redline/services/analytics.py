"""Which rules help: outcomes, thumbs and validator verdicts, aggregated per workspace.

Rates are over *decided* suggestions (accepted, modified or rejected): a pending or
missing one has no verdict yet, so a rule whose suggestions are all pending has no
acceptance rate (``None``, shown as "—"), not 0%. Rule health lists every rule of
the playbooks in scope, so a rule that never fires (``silent``) is visible too.

Read-only. The database groups and counts (validator status and rule title are read from the
suggestion's JSON with ``KT``, which SQLite and PostgreSQL both translate); Python only adds up one
row per group, so the time does not grow with the suggestions in the workspace (issue #30: the
summary once decoded each suggestion's JSON and its run's stats once per suggestion).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from django.db.models import Count, OuterRef, Q, Subquery, TextField, Value
from django.db.models.fields.json import KT
from django.db.models.functions import Coalesce, TruncDate
from django.utils import timezone

from ..errors import ApplicationError
from ..models import AnalysisRun, Feedback, KnownEntry, Outcome, PlaybookVersion, Rule, Suggestion, Workspace
from .run_cost import model_use

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
    """Totals, rates by rule/category/severity/validator status, thumbs, daily series, rule health, and the
    model calls, tokens and estimated cost of the period's runs."""
    if time_range not in TIME_RANGES:
        raise ApplicationError("invalid_time_range", f"time_range must be one of {', '.join(TIME_RANGES)}.",
                               status=422)
    days = TIME_RANGES[time_range]
    suggestions = Suggestion.objects.filter(run__workspace=workspace)
    runs = AnalysisRun.objects.filter(workspace=workspace)
    if days is not None:
        since = timezone.now() - timedelta(days=days)
        suggestions = suggestions.filter(created_at__gte=since)
        runs = runs.filter(created_at__gte=since)
    if playbook_id is not None:
        suggestions = suggestions.filter(run__playbook_version__playbook_id=playbook_id)
        runs = runs.filter(playbook_version__playbook_id=playbook_id)
    # One row per group of suggestions that share everything the summary splits them by: the database counts,
    # the suggestion rows (and their large JSON) never come to Python, so the cost does not grow with them.
    outcome = KnownEntry.objects.filter(suggestion=OuterRef("pk")).order_by("-pk").values("outcome")[:1]
    grouped = (suggestions
               .annotate(status=Coalesce(KT("data__validation__status"), Value("none"), output_field=TextField()),
                         title=KT("data__rule_title"),
                         day=TruncDate("created_at"), outcome=Subquery(outcome))
               .values("rule_key", "category", "severity", "status", "title", "day", "outcome")
               .annotate(n=Count("pk", distinct=True), ups=Count("feedback", filter=Q(feedback__thumbs_up=True)),
                         downs=Count("feedback", filter=Q(feedback__thumbs_up=False)))
               .order_by())
    tags: Counter = Counter()
    reasons: Counter = Counter()
    for row_tags, reason in Feedback.objects.filter(suggestion__in=suggestions).values_list("tags",
                                                                                            "follow_up_reason"):
        tags.update(row_tags)
        if reason:
            reasons[reason] += 1

    total = _Bucket()
    groups: dict[str, dict[str, _Bucket]] = {k: defaultdict(_Bucket) for k in
                                             ("rule", "category", "severity", "validator_status")}
    daily: dict[date, _Bucket] = defaultdict(_Bucket)
    titles: dict[str, str] = {}
    for r in grouped:
        keys = {"rule": r["rule_key"], "category": r["category"], "severity": r["severity"],
                "validator_status": r["status"]}
        titles.setdefault(r["rule_key"], r["title"] or r["rule_key"])
        for b in [total, daily[r["day"]], *(groups[g][k] for g, k in keys.items())]:
            b.suggestions += r["n"]
            if r["outcome"]:
                b.outcomes[r["outcome"]] += r["n"]
            b.thumbs_up += r["ups"]
            b.thumbs_down += r["downs"]
    drops = AnalysisRun.objects.filter(pk__in=suggestions.values("run_id")).values_list(
        "stats__hallucination_drops", flat=True)  # one value per run, not per suggestion
    hallucination_drops = sum(d for d in drops if isinstance(d, int))
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
        "model_use": model_use(runs=runs),  # every run of the period, with suggestions or not
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
