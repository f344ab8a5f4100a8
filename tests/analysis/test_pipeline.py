"""The pipeline: result cache, progress events, suppression, errors, inputs."""

from __future__ import annotations

import dataclasses

import pytest

from redline.analysis.cache import MemoryCache
from redline.analysis.categories import Category
from redline.analysis.clauses import Clause, clauses_from_json
from redline.analysis.pipeline import ReviewError, review
from redline.analysis.playbook.model import Playbook, RiskDimension, Severity
from redline.analysis.prompts import PromptMode
from redline.analysis.providers.base import ProviderError, ProviderResponse, RuleRequest
from redline.analysis.providers.offline import OfflineProvider
from redline.analysis.rejections import Rejection
from redline.analysis.risk import RiskFactor, score_clause

from .conftest import CountingProvider, anchor_of


def test_second_review_of_the_same_input_makes_no_provider_calls(msa, playbook):
    cache, provider = MemoryCache(), CountingProvider()
    first = review(msa, playbook, provider, cache=cache)
    assert provider.requests and first.stats.cache_hits == 0
    provider.requests.clear()
    second = review(msa, playbook, provider, cache=cache)
    assert provider.requests == []
    assert second.stats.usage.calls == 0 and second.stats.cache_misses == 0
    assert second.stats.cache_hits == first.stats.cache_misses
    assert [s.to_dict() for s in second.suggestions] == [s.to_dict() for s in first.suggestions]
    assert second.stats.verdict_cache_hits > 0 and second.stats.verdict_cache_misses == 0


def test_changing_one_paragraph_re_asks_only_about_that_paragraph(msa, playbook):
    # acting for the Supplier, who is paid: a longer payment period is the finding edited back to sixty days
    cache, provider = MemoryCache(), CountingProvider()
    review(msa, playbook, provider, cache=cache, acting_for="Supplier")
    provider.requests.clear()
    i = next(i for i, c in enumerate(msa) if c.text.startswith("1.1 "))
    changed = "1.1 The Customer shall pay each undisputed invoice within one hundred and twenty (120) days of receipt."
    edited = [*msa[:i], dataclasses.replace(msa[i], text=changed), *msa[i + 1:]]
    result = review(edited, playbook, provider, cache=cache, acting_for="Supplier")
    asked = {item.text for request in provider.requests for item in request.items}
    assert asked == {changed}
    assert {r.rule.key for r in provider.requests} >= {"payment-terms"}
    assert result.stats.cache_misses == len(provider.requests)
    (s,) = [s for s in result.suggestions if s.rule_key == "payment-terms"]
    assert (s.quote, s.new_text) == ("one hundred and twenty (120) days", "sixty (60) days")
    # everything else was served from the cache and is unchanged
    assert len(result.suggestions) == len(review(msa, playbook, OfflineProvider(), acting_for="Supplier").suggestions)


def test_editing_one_rule_re_asks_only_that_rule(msa, playbook):
    cache, provider = MemoryCache(), CountingProvider()
    review(msa, playbook, provider, cache=cache)
    provider.requests.clear()
    rules = list(playbook.rules)
    k = next(i for i, r in enumerate(rules) if r.key == "auto-renewal")
    rules[k] = dataclasses.replace(rules[k], guidance=rules[k].guidance + " Check the price on renewal.")
    review(msa, dataclasses.replace(playbook, rules=tuple(rules)), provider, cache=cache)
    assert {r.rule.key for r in provider.requests} == {"auto-renewal"}


def test_new_preferences_or_another_provider_re_ask_everything(msa, playbook):
    cache, provider = MemoryCache(), CountingProvider()
    first = review(msa, playbook, provider, cache=cache)
    n = len(provider.requests)
    provider.requests.clear()
    review(msa, playbook, provider, cache=cache, preferences_version="v2")
    assert len(provider.requests) == n == first.stats.requests


def test_progress_reports_stages_and_each_suggestion(msa, playbook):
    events: list[tuple[str, dict]] = []
    result = review(msa, playbook, OfflineProvider(), progress=lambda kind, data: events.append((kind, data)))
    stages = [(d["stage"], d["done"], d["total"]) for k, d in events if k == "progress"]
    rules = len(playbook.enabled_rules)
    assert stages[0] == ("prepare", 0, rules) and stages[-1] == ("finalize", 1, 1)
    assert [s for s in stages if s[0] == "analyze"] == [("analyze", n, rules) for n in range(1, rules + 1)]
    assert not any("requests" in d for k, d in events if k == "progress")  # no model: no parts to count
    reported = [d["id"] for k, d in events if k == "suggestion"]
    assert sorted(reported) == sorted(s.id for s in result.suggestions)
    event = next(d for k, d in events if k == "suggestion")
    assert {"anchor", "kind", "rule", "quote", "new_text", "comment", "risk", "validation", "op"} <= set(event)


def test_a_failing_progress_callback_cancels_the_review(msa, playbook):
    class Cancelled(Exception):
        pass

    def cancel(kind: str, data: dict) -> None:
        if kind == "suggestion":
            raise Cancelled

    with pytest.raises(Cancelled):
        review(msa, playbook, OfflineProvider(), progress=cancel)


def test_prior_rejections_are_never_suggested_again(msa, playbook):
    before = review(msa, playbook, OfflineProvider(), acting_for="Supplier")
    rejected = next(s for s in before.suggestions if s.rule_key == "payment-terms")
    after = review(msa, playbook, OfflineProvider(), rerun=True, acting_for="Supplier", prior_rejections=[
        Rejection("REPLACE_TEXT", original_text=msa[3].text, new_text=rejected.new_text, comment_text=rejected.comment),
    ])
    assert after.mode is PromptMode.RERUN and after.stats.suppressed == 1
    assert rejected.id not in {s.id for s in after.suggestions}
    assert len(after.suggestions) == len(before.suggestions) - 1


def test_a_custom_filter_hook(msa, playbook):
    result = review(msa, playbook, OfflineProvider(), suppress=lambda s: s.source == "missing")
    assert result.suggestions and all(s.source != "missing" for s in result.suggestions)
    assert result.stats.suppressed == 2  # governing law and jurisdiction


def test_empty_document_and_empty_playbook_are_clear_errors(msa, playbook):
    with pytest.raises(ReviewError) as err:
        review([], playbook, OfflineProvider())
    assert err.value.code == "empty_document"
    with pytest.raises(ReviewError) as err:
        review(msa, Playbook("empty", ()), OfflineProvider())
    assert err.value.code == "no_rules"


class FailingProvider(CountingProvider):
    """Answers the first requests, then the upstream fails."""

    def __init__(self, fail_after: int) -> None:
        super().__init__()
        self.fail_after = fail_after

    def analyze(self, request: RuleRequest) -> ProviderResponse:
        if len(self.requests) >= self.fail_after:
            raise ProviderError("server_error", "the model server failed with HTTP 503 (4 attempts)")
        return super().analyze(request)


def test_a_provider_failure_ends_the_review_with_partial_results(msa, playbook):
    events: list[str] = []
    with pytest.raises(ReviewError) as err:
        review(msa, playbook, FailingProvider(fail_after=4), progress=lambda k, d: events.append(k))
    assert err.value.code == "server_error" and "HTTP 503" in err.value.message
    partial = err.value.partial
    assert partial is not None and 0 < len(partial.suggestions) < len(review(msa, playbook, OfflineProvider()).suggestions)
    assert events.count("suggestion") == len(partial.suggestions)


def test_clause_reports_combine_risk_and_validate_risky_clauses(msa, playbook):
    result = review(msa, playbook, OfflineProvider())
    report = next(c for c in result.clauses if c.anchor == anchor_of(msa, "2.2 "))
    assert report.categories == ("limitation_of_liability",)
    assert report.risk.overall >= 85 and report.validation.status.value == "FAIL"
    assert "unlimited" in report.risk.explanation.lower()
    assert result.to_dict()["clauses"][0]["risk"]["scores"].keys() == {
        "financial", "legal_compliance", "operational", "timeline", "strategic_reputational"}


def test_risk_scores_are_bounded_and_explained():
    none = score_clause([], [])
    assert none.overall == 0 and none.explanation == "no risk factors found"
    minor = score_clause([], [RiskFactor((RiskDimension.FINANCIAL,), Severity.MINOR, "small")])
    major = score_clause([], [RiskFactor((RiskDimension.FINANCIAL,), Severity.MAJOR, "big")])
    two = score_clause([Category.INDEMNIFICATION], [RiskFactor((RiskDimension.FINANCIAL,), Severity.MAJOR, "a"),
                                                    RiskFactor((RiskDimension.FINANCIAL,), Severity.CRITICAL, "b")])
    assert 0 < minor.overall < major.overall < two.overall <= 100
    assert two.explanation.startswith("financial") and "b" in two.explanation and "indemnification clause" in two.explanation


def test_clauses_from_the_add_in_json():
    clauses = clauses_from_json([
        {"anchor": "_RL_000000000001", "text": "4. Payment", "style": "Heading 1"},
        {"anchor": "_RL_000000000002", "text": "Pay within 90 days.", "style": "Normal", "list_label": "4.1"},
        {"anchor": "_RL_000000000003", "text": "   "},
    ])
    assert clauses == [Clause("_RL_000000000001", "4. Payment", "Heading 1", 1),
                       Clause("_RL_000000000002", "Pay within 90 days.", "Normal", None, "4.1")]
    for bad, message in [([{"text": "x"}], "anchor"), ([{"anchor": "a", "text": 3}], "text"),
                         ([{"anchor": "a", "text": "x"}, {"anchor": "a", "text": "y"}], "duplicate"),
                         ([{"anchor": "a", "text": "x", "heading_level": "1"}], "heading_level")]:
        with pytest.raises(ValueError, match=message):
            clauses_from_json(bad)
