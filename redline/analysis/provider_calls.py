"""The provider stage of a review: cache lookup, batching, requests, and grounding what comes back.

Split from :mod:`redline.analysis.pipeline`, which plans the rules and turns
findings into suggestions; this module is everything between a rule's plan
and its grounded findings: which (rule, paragraph) pairs the result cache
already answers, how the rest is grouped into requests within the provider's
size budget, and how a response is checked against the paragraph text (a
quote that is not there is a hallucination and is dropped, counted). A
provider that takes excerpts is shown a rule's excerpt of a long paragraph
(:mod:`.excerpts`) and its findings are still grounded in the whole paragraph.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .cache import Cache
from .document import Document
from .excerpts import Excerpt
from .grounding import locate, widen_to_unique
from .placement.place import Placement
from .playbook.model import Rule, Severity
from .prompts import PromptMode
from .providers.base import Item, PreferenceUpdate, Provider, ProviderResponse, RawFinding, Related, RuleRequest
from .rejections import Rejection
from .review_report import ReviewStats
from .suggestions import Kind

_KINDS = {k.value for k in Kind}
_NEEDS_TEXT = {Kind.REPLACE, Kind.REWRITE, Kind.INSERT}
_WHOLE = {Kind.REWRITE, Kind.DELETE}  # act on the whole paragraph: never from an excerpt


@dataclass(slots=True)
class RulePlan:
    """One rule's work: what is cached, what must be asked, what came back."""

    rule: Rule
    selected: list[int]
    missing_at: int | None
    reciprocal: dict[int, frozenset[str]]
    keys: dict[int, str]
    missing_key: str | None
    found: dict[int, list[dict[str, Any]]] = field(default_factory=dict)  # clause → grounded findings
    missing: list[dict[str, Any]] | None = None
    pending: int = 0
    placement: Placement | None = None  # where the missing clause goes and its number (missing_at is its anchor)
    excerpts: dict[int, Excerpt] = field(default_factory=dict)  # clause → what the provider is shown of it
    ask_at: int | None = None  # a required clause the engine neither finds nor rules out: asked about here
    routed: list[str] = field(default_factory=list)  # anchors of the rule's clause kind, before any screening


@dataclass(frozen=True, slots=True)
class Job:
    """One provider request: ``indices[:asked]`` are the clauses asked about; a
    trailing extra index is the insertion point of a missing clause."""

    plan: RulePlan
    request: RuleRequest
    indices: list[int]
    asked: int
    with_missing: bool


class ProviderCalls:
    """Asks the provider about one review's rules, sharing the review's document, cache and counters."""

    def __init__(self, doc: Document, provider: Provider, cache: Cache | None, stats: ReviewStats,
                 related: Callable[[int], tuple[Related, ...]], *, mode: PromptMode,
                 prior_rejections: tuple[Rejection, ...], preferences_text: str,
                 preference_updates: list[PreferenceUpdate], acting_for: str = "") -> None:
        self.doc = doc
        self.provider = provider
        self.cache = cache
        self.stats = stats
        self.related = related
        self.mode = mode
        self.prior_rejections = prior_rejections
        self.preferences_text = preferences_text
        self.preference_updates = preference_updates
        self.acting_for = acting_for

    def lookup(self, plan: RulePlan) -> list[int]:
        """Fill ``plan`` from the cache; return the selected clauses still to ask about."""
        keys = list(plan.keys.values()) + ([plan.missing_key] if plan.missing_key else [])
        hits = self.cache.get_many(keys) if self.cache is not None and keys else {}
        asked = []
        for i, key in plan.keys.items():
            if key in hits:
                plan.found[i] = hits[key]
                self.stats.cache_hits += 1
            else:
                asked.append(i)
                self.stats.cache_misses += 1
        if plan.missing_key:
            if plan.missing_key in hits:
                plan.missing = hits[plan.missing_key]
                self.stats.cache_hits += 1
            else:
                self.stats.cache_misses += 1
        return asked

    def jobs(self, plan: RulePlan, asked: list[int], want_missing: bool) -> list[Job]:
        """Group the clauses to ask about into requests of at most ``max_batch_chars``, counting each
        clause's text and the related context it adds (a definition already in the group is free)."""
        limit = self.provider.max_batch_chars
        groups: list[list[int]] = []
        size = 0
        shown: set[str] = set()
        for i in asked:
            cost = self._cost(plan, i, shown)
            if not groups or (limit is not None and size + cost > limit and groups[-1]):
                groups.append([])
                size = 0
                shown = set()
                cost = self._cost(plan, i, shown)
            groups[-1].append(i)
            size += cost
            shown.update(r.key for r in self.related(i))
        if want_missing and not groups:
            groups.append([])
        out = []
        for n, group in enumerate(groups):
            with_missing = want_missing and n == 0
            indices = list(group)
            if with_missing and plan.missing_at not in indices:
                indices.append(plan.missing_at)  # shown as the insertion point only
            request = self._request(plan, indices, len(group), with_missing)
            out.append(Job(plan, request, indices, len(group), with_missing))
        return out

    def _cost(self, plan: RulePlan, i: int, shown: set[str]) -> int:
        """Characters clause *i* (or its excerpt) adds to a request that already shows the related context
        ``shown``."""
        return len(self._shown(plan, i)) + sum(len(r.text) for r in self.related(i) if r.key not in shown)

    def _shown(self, plan: RulePlan, i: int) -> str:
        """What the provider is shown of clause *i* for the plan's rule: its excerpt or its text."""
        excerpt = plan.excerpts.get(i)
        return excerpt.text if excerpt is not None else self.doc.clauses[i].text

    def _request(self, plan: RulePlan, indices: list[int], asked: int, with_missing: bool) -> RuleRequest:
        items = tuple(
            Item(n, self._shown(plan, i), self.doc.context(i), self.doc.clauses[i].list_label,
                 self.related(i), excerpt=i in plan.excerpts) if n <= asked
            else Item(n, self.doc.clauses[i].text, self.doc.context(i), self.doc.clauses[i].list_label)
            for n, i in enumerate(indices, 1)  # the insertion point is shown whole, not judged
        )
        return RuleRequest(
            rule=plan.rule,
            items=items,
            mode=self.mode,
            missing_after=indices.index(plan.missing_at) + 1 if with_missing else None,
            parties=self.doc.parties,
            reciprocal=plan.reciprocal,
            prior_rejections=self.prior_rejections,
            preferences_text=self.preferences_text,
            acting_for=self.acting_for,
        )

    def absorb(self, job: Job, response: ProviderResponse) -> None:
        """Ground a provider response, file findings per clause, and cache them."""
        plan, indices, with_missing = job.plan, job.indices, job.with_missing
        self.stats.usage.add(response.usage)
        self.preference_updates.extend(response.preference_updates)
        asked = set(indices[: job.asked])
        per_clause: dict[int, list[dict[str, Any]]] = {i: [] for i in asked}
        missing: list[dict[str, Any]] = []
        for finding in response.findings:
            self.stats.raw_findings += 1
            if not 1 <= finding.paragraph <= len(indices):
                self.stats.hallucination_drops += 1
                continue
            i = indices[finding.paragraph - 1]
            excerpt = plan.excerpts.get(i) if i in asked else None
            grounded = self._ground(finding, self.doc.clauses[i].text, excerpt)
            if grounded is None:
                continue
            if with_missing and i == plan.missing_at and (grounded["source"] == "missing" or grounded["kind"] == "insert"):
                missing.append(grounded)
                continue
            if i in asked:
                per_clause[i].append(grounded)
            else:
                self.stats.invalid_drops += 1  # about a paragraph shown only as the insertion point
        for i, found in per_clause.items():
            plan.found[i] = found
        if with_missing:
            plan.missing = missing
        if self.cache is not None:
            items = {plan.keys[i]: found for i, found in per_clause.items()}
            if with_missing and plan.missing_key:
                items[plan.missing_key] = missing
            self.cache.set_many(items)

    def _ground(self, finding: RawFinding, text: str, excerpt: Excerpt | None = None) -> dict[str, Any] | None:
        """A provider finding as an exact, placeable edit, or None (counted) when it is not one.

        A finding on an ``excerpt`` is grounded against the whole paragraph (preferring the copy of its
        quote the excerpt shows); rewriting or deleting a paragraph seen only in part is invalid."""
        if finding.kind not in _KINDS:
            self.stats.invalid_drops += 1
            return None
        kind = Kind(finding.kind)
        if excerpt is not None and kind in _WHOLE:
            self.stats.invalid_drops += 1
            return None
        new_text = finding.new_text.strip()
        if kind in _NEEDS_TEXT and not new_text:
            self.stats.invalid_drops += 1
            return None
        quote = finding.quote
        if not quote.strip() and kind in (Kind.INSERT, Kind.REWRITE, Kind.DELETE):
            quote, span = text, (0, len(text))  # the whole paragraph is what these act on
        else:
            span = finding.span or (excerpt.hint(text, quote) if excerpt is not None else None)
        located = locate(quote, text, span)
        if located is None:
            self.stats.hallucination_drops += 1
            return None
        start, end = located.start, located.end
        if kind in (Kind.REPLACE, Kind.COMMENT) and text.count(located.quote) > 1:
            wide_start, wide_end = widen_to_unique(text, start, end)
            if kind is Kind.REPLACE:
                new_text = text[wide_start:start] + new_text + text[end:wide_end]
            start, end = wide_start, wide_end
        exact = text[start:end]
        if kind is Kind.REPLACE and new_text == exact:
            self.stats.invalid_drops += 1
            return None
        self.stats.grounded += 1
        severity = finding.severity if finding.severity in {s.value for s in Severity} else None
        return {
            "kind": kind.value, "start": start, "end": end, "new_text": new_text, "comment": finding.comment.strip(),
            "severity": severity, "confidence": max(0.0, min(1.0, float(finding.confidence))), "source": finding.source,
            "check": finding.check,
        }
