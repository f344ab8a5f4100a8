"""What a run asked of the model and what it cost, in plain words: the line the run page, the API and the
task pane show, and the totals of the analytics page.

The cost is an estimate: the tokens the server counted times the price per million tokens in
``REDLINE_MODEL_PRICES``, recorded with the run when it ran. A model the table has no price for shows
"unknown", never $0 — a zero would read as "free". A run recorded before prices were passed on (tokens, no
cost) is priced from today's table. Offline runs make no model call and say so.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from django.db.models import QuerySet

from ..models import AnalysisRun
from .providers import model_prices


@dataclass(frozen=True, slots=True)
class RunCost:
    """A run's model use: ``line`` in words, and the figures it is made of."""

    line: str
    model: str  # "" for the offline engine
    calls: int
    retries: int
    prompt_tokens: int
    completion_tokens: int
    cost_usd: float | None  # None: no price for the model
    cache_hits: int
    cache_misses: int
    guards: str = ""  # what became of the model's findings (:func:`guards_line`); "" for the offline engine

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _int(value: object) -> int:
    return value if isinstance(value, int) else 0


def _n(count: int, one: str, many: str | None = None) -> str:
    return f"{count:,} {one if count == 1 else (many or one + 's')}"


def dollars(cost: float | None) -> str:
    """The cost as shown: $0.0091, $12.40, < $0.0001; "unknown" when there is no price."""
    if cost is None:
        return "unknown"
    if 0 < cost < 0.0001:
        return "< $0.0001"
    return f"${cost:.4f}" if cost < 1 else f"${cost:,.2f}"


def estimate(model: str, prompt_tokens: int, completion_tokens: int, recorded: object) -> float | None:
    """The run's cost: as recorded, else from the price table; None when neither knows."""
    if isinstance(recorded, int | float) and (recorded > 0 or not (prompt_tokens or completion_tokens)):
        return float(recorded)
    prices = model_prices(model)
    if prices is None:
        return None
    return (prompt_tokens * prices[0] + completion_tokens * prices[1]) / 1e6


def run_cost(*, run: AnalysisRun) -> RunCost | None:
    """The run's model use once its stats are written (None before, and for runs that never recorded it)."""
    stats = run.stats or {}
    if "provider_calls" not in stats:
        return None
    calls, retries = _int(stats.get("provider_calls")), _int(stats.get("retries"))
    prompt, answer = _int(stats.get("prompt_tokens")), _int(stats.get("completion_tokens"))
    hits, misses = _int(stats.get("cache_hits")), _int(stats.get("cache_misses"))
    if run.provider == "offline":
        return RunCost("Offline engine · no model calls", "", 0, 0, 0, 0, 0.0, hits, misses)
    model = run.model or run.provider
    guards = guards_line(stats)
    cost = estimate(model, prompt, answer, stats.get("cost_usd"))
    if calls == 0 and not prompt:
        said = f" — all {_n(hits, 'answer')} from cache" if hits and not misses else ""
        return RunCost(f"Model: {model} · 0 calls{said}", model, 0, retries, 0, 0, 0.0, hits, misses, guards)
    parts = [f"Model: {model}", _n(calls, "call"), f"{prompt:,} tokens in / {answer:,} out",
             f"est. {dollars(cost)}" if cost is not None else f"est. cost unknown (no price for {model})"]
    if retries:
        parts.append(_n(retries, "retry", "retries"))
    if hits:
        parts.append(f"{_n(hits, 'answer')} from cache")
    return RunCost(" · ".join(parts), model, calls, retries, prompt, answer, cost, hits, misses, guards)


def guards_line(stats: dict[str, Any]) -> str:
    """What became of a model's findings, in words: "Model findings: 9 · dropped: off target 2, quote not in
    the text 1 · kept as comments: foreign terms 1 · repaired: partial phrase 1" ("" when it found nothing).

    Dropped are the findings the pipeline could not place (a quote not in the paragraph, a rule off its
    paragraphs, an unusable kind) and those the review gate withheld; kept as comments, edits the gate would
    not write into the contract; repaired, edits it made whole where that was certain."""
    gate = stats.get("gate") if isinstance(stats.get("gate"), dict) else {}
    model = gate.get("model") if isinstance(gate.get("model"), dict) else {}  # the engine's own asks are not counted
    dropped: dict[str, int] = {}
    for reason, n in (("quote_not_in_the_text", stats.get("hallucination_drops")),
                      ("off_target", stats.get("off_target_drops")), ("unusable", stats.get("invalid_drops")),
                      *(model.get("withheld") or {}).items()):
        if _int(n):
            dropped[reason] = dropped.get(reason, 0) + _int(n)
    raw = _int(stats.get("raw_findings"))
    if not raw:
        return ""
    parts = [f"Model findings: {raw:,}"]
    for label, counts in (("dropped", dropped), ("kept as comments", model.get("as_comment") or {}),
                          ("repaired", gate.get("repaired") or {})):
        words = [f"{reason.replace('_', ' ')} {_int(n)}" for reason, n in sorted(counts.items(), key=lambda x: (-_int(x[1]), x[0]))
                 if _int(n)]
        if words:
            parts.append(f"{label}: {', '.join(words)}")
    return " · ".join(parts)


def model_use(*, runs: QuerySet[AnalysisRun]) -> dict[str, Any]:
    """Totals over ``runs``: model calls, tokens in and out, and the estimated cost of those with a price
    (``unpriced_runs`` counts the others, so a partial sum is never taken for the whole). One row per run,
    a few numbers each, in one query."""
    totals = {"runs": 0, "calls": 0, "retries": 0, "prompt_tokens": 0, "completion_tokens": 0, "cache_hits": 0,
              "cost_usd": 0.0, "unpriced_runs": 0}
    rows = runs.exclude(provider="offline").values_list(
        "model", "provider", "stats__provider_calls", "stats__retries", "stats__prompt_tokens",
        "stats__completion_tokens", "stats__cost_usd", "stats__cache_hits")
    for model, provider, calls, retries, prompt, answer, recorded, hits in rows:
        if calls is None:  # no stats yet (queued, or failed before the review started)
            continue
        totals["runs"] += 1
        for key, value in (("calls", calls), ("retries", retries), ("prompt_tokens", prompt),
                           ("completion_tokens", answer), ("cache_hits", hits)):
            totals[key] += _int(value)
        cost = estimate(model or provider, _int(prompt), _int(answer), recorded)
        if cost is None:
            totals["unpriced_runs"] += 1
        else:
            totals["cost_usd"] += cost
    totals["cost_usd"] = round(totals["cost_usd"], 6)
    return totals
