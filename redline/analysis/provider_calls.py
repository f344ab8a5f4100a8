"""The provider stage of a review: cache lookup, batching, requests, and grounding what comes back.

Split from :mod:`redline.analysis.pipeline`, which plans the rules and turns
findings into suggestions; this module is everything between a rule's plan
and its grounded findings: which (rule, paragraph) pairs the result cache
already answers, how the rest is grouped into requests within the provider's
size budget (rule by rule for the offline engine, across rules for a model:
:mod:`.batches`), and how a response is checked against the paragraph text (a
quote that is not there is a hallucination and is dropped, counted; a finding
for a rule on a paragraph it was not asked to read for it is off target). A
model that takes excerpts is shown of a long paragraph only the union of its
rules' excerpts (:mod:`.excerpts`), and its findings are still grounded in the
whole paragraph; the offline engine, asked rule by rule, reads whole paragraphs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .batches import Batch, RulePlan, group_batches, union_excerpt
from .cache import Cache
from .document import Document
from .excerpts import Excerpt
from .grounding import locate, widen_to_unique
from .playbook.model import Severity
from .prompts import PromptMode, rule_brief
from .providers.base import (
    BatchRequest,
    Item,
    PreferenceUpdate,
    Provider,
    ProviderResponse,
    RawFinding,
    Related,
    RuleRequest,
)
from .rejections import Rejection
from .review_report import ReviewStats
from .suggestions import Kind

_KINDS = {k.value for k in Kind}
# What a batch shows of the rest of the contract (definitions, cited sections), at most: the room the
# retrieval benchmark's strict recall is measured in (docs/retrieval.md), beside the batch's own clauses.
BATCH_CONTEXT_CHARS = 8_000
_NEEDS_TEXT = {Kind.REPLACE, Kind.REWRITE, Kind.INSERT}
_WHOLE = {Kind.REWRITE, Kind.DELETE}  # act on the whole paragraph: never from an excerpt


@dataclass(frozen=True, slots=True)
class Job:
    """One provider request: ``indices[:asked]`` are the clauses asked about; a
    trailing extra index is the insertion point of a missing clause."""

    plan: RulePlan
    request: RuleRequest
    indices: list[int]
    asked: int
    with_missing: bool

    @property
    def plans(self) -> list[RulePlan]:
        """The rules this request answers for."""
        return [self.plan]


@dataclass(frozen=True, slots=True)
class BatchJob:
    """One model call about a run of the contract (:mod:`.batches`): item *n* is clause ``indices[n - 1]``;
    ``excerpts`` what it shows of the clauses it does not show whole."""

    request: BatchRequest
    indices: list[int]
    batch: Batch
    excerpts: dict[int, Excerpt]

    @property
    def plans(self) -> list[RulePlan]:
        """The rules this request answers for."""
        return list(self.batch.plans.values())


class ProviderCalls:
    """Asks the provider about one review's rules, sharing the review's document, cache and counters."""

    def __init__(self, doc: Document, provider: Provider, cache: Cache | None, stats: ReviewStats,
                 related: Callable[[int], tuple[Related, ...]], *, mode: PromptMode,
                 prior_rejections: tuple[Rejection, ...], preferences_text: str,
                 preference_updates: list[PreferenceUpdate], acting_for: str = "",
                 terms: tuple[str, ...] = ()) -> None:
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
        self.terms = terms
        self._brief: dict[str, int] = {}
        self._union: dict[int, Excerpt | None] = {}

    def plan_jobs(self, asks: list[tuple[RulePlan, list[int]]]) -> list[Job] | list[BatchJob]:
        """The requests for the clauses still to ask about (``asks``: each plan with :meth:`lookup`'s answer)
        and the missing clauses still to draft: per rule, or in batches across rules for a provider that
        takes them. Sets each plan's ``pending`` to the number of requests it waits for."""
        wanting = [p for p, _ in asks if p.missing_key is not None and p.missing is None]
        jobs: list[Job] | list[BatchJob]
        if hasattr(self.provider, "analyze_batch"):
            jobs = [self._batch_job(b) for b in group_batches(
                [(p, asked) for p, asked in asks if asked], wanting, limit=self.provider.max_batch_chars,
                clause_cost=self._batch_cost, rule_cost=self._rule_cost)]
        else:
            jobs = [j for p, asked in asks for j in self.jobs(p, asked, any(p is w for w in wanting))]
        for plan, _ in asks:
            plan.pending = 0
        for job in jobs:
            for plan in job.plans:
                plan.pending += 1
        return jobs

    def split(self, job: Job | BatchJob) -> list[BatchJob] | None:
        """A batch whose answer was cut off, as two batches of half its clauses each (the missing clauses it
        drafts go with the first); None when it cannot be split (one clause, or a rule's own request). Each
        plan then waits for the halves it is in instead of the whole."""
        if not isinstance(job, BatchJob):
            return None
        asked = sorted({i for clauses in job.batch.asked.values() for i in clauses})
        if len(asked) < 2:
            return None
        halves = [Batch(), Batch()]
        for n, i in enumerate(asked):
            half = halves[n >= len(asked) // 2]
            half.indices.append(i)
            for key, clauses in job.batch.asked.items():
                if i in clauses:
                    half.add_plan(job.batch.plans[key])
                    half.asked.setdefault(key, []).append(i)
        for key, at in job.batch.missing.items():
            halves[0].add_plan(job.batch.plans[key])
            halves[0].missing[key] = at
            if at not in halves[0].indices:
                halves[0].indices = sorted([*halves[0].indices, at])
        for plan in job.plans:
            plan.pending -= 1
        for half in halves:
            for plan in half.plans.values():
                plan.pending += 1
        self.stats.requests += 1
        return [self._batch_job(half) for half in halves]

    def send(self, job: Job | BatchJob) -> ProviderResponse:
        """Make the request (called from worker threads)."""
        if isinstance(job, BatchJob):
            return self.provider.analyze_batch(job.request)  # type: ignore[attr-defined]
        return self.provider.analyze(job.request)

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
            cost = self._cost(i, shown)
            if not groups or (limit is not None and size + cost > limit and groups[-1]):
                groups.append([])
                size = 0
                shown = set()
                cost = self._cost(i, shown)
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

    def _rule_cost(self, plan: RulePlan) -> int:
        key = plan.rule.key
        if key not in self._brief:
            self._brief[key] = len(rule_brief(plan.rule, "R0"))
        return self._brief[key]

    def _shown_in_batch(self, plans: list[RulePlan], i: int) -> Excerpt | None:
        if i not in self._union:
            self._union[i] = union_excerpt([p.excerpts.get(i) for p in plans], self.doc.clauses[i].text)
        return self._union[i]

    def _batch_cost(self, i: int, plans: list[RulePlan]) -> int:
        excerpt = self._shown_in_batch(plans, i)
        return len(excerpt.text if excerpt is not None else self.doc.clauses[i].text)

    def _batch_context(self, indices: list[int], asked: set[int]) -> dict[int, tuple[Related, ...]]:
        """What each asked clause of a batch relies on elsewhere, within :data:`BATCH_CONTEXT_CHARS` for the
        batch: what more of its clauses rely on first (a definition used throughout the run before a section
        one clause cites), then in order of first use; a text that is itself one of the batch's clauses costs
        nothing (the prompt points to it)."""
        users: dict[str, int] = {}
        first: dict[str, Related] = {}
        for i in indices:
            for r in self.related(i) if i in asked else ():
                users[r.key] = users.get(r.key, 0) + 1
                first.setdefault(r.key, r)
        inside = {" ".join(self.doc.clauses[i].text.split()) for i in indices}
        room, kept = BATCH_CONTEXT_CHARS, set()
        for key in sorted(first, key=lambda k: -users[k]):  # stable: ties keep first use
            cost = 0 if " ".join(first[key].text.split()) in inside else len(first[key].text)
            if cost <= room:
                kept.add(key)
                room -= cost
        return {i: tuple(r for r in self.related(i) if r.key in kept) for i in indices if i in asked}

    def _batch_job(self, batch: Batch) -> BatchJob:
        items, excerpts = [], {}
        context = self._batch_context(batch.indices, {i for clauses in batch.asked.values() for i in clauses})
        for n, i in enumerate(batch.indices, 1):
            clause = self.doc.clauses[i]
            keys = tuple(k for k, clauses in batch.asked.items() if i in clauses)
            excerpt = self._shown_in_batch([batch.plans[k] for k in keys], i) if keys else None
            if excerpt is not None:
                excerpts[i] = excerpt
            items.append(Item(n, excerpt.text if excerpt is not None else clause.text, self.doc.context(i),
                              clause.list_label, context.get(i, ()), excerpt=excerpt is not None,
                              rules=keys))  # an insertion point only is shown whole, for no rule
        request = BatchRequest(
            rules=tuple(p.rule for p in batch.plans.values()), items=tuple(items), mode=self.mode,
            missing={k: batch.indices.index(at) + 1 for k, at in batch.missing.items()}, parties=self.doc.parties,
            terms=self.terms, prior_rejections=self.prior_rejections, preferences_text=self.preferences_text,
            acting_for=self.acting_for)
        return BatchJob(request, list(batch.indices), batch, excerpts)

    def _cost(self, i: int, shown: set[str]) -> int:
        """Characters clause *i* adds to a request that already shows the related context ``shown``."""
        return len(self.doc.clauses[i].text) + sum(len(r.text) for r in self.related(i) if r.key not in shown)

    def _request(self, plan: RulePlan, indices: list[int], asked: int, with_missing: bool) -> RuleRequest:
        items = tuple(
            Item(n, self.doc.clauses[i].text, self.doc.context(i), self.doc.clauses[i].list_label,
                 self.related(i) if n <= asked else ())  # the insertion point is shown, not judged
            for n, i in enumerate(indices, 1)
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

    def absorb(self, job: Job | BatchJob, response: ProviderResponse) -> None:
        """Ground a provider response, file findings per rule and clause, and cache them."""
        self.stats.usage.add(response.usage)
        self.preference_updates.extend(response.preference_updates)
        self.stats.raw_findings += response.malformed
        self.stats.invalid_drops += response.malformed
        if isinstance(job, BatchJob):
            self._absorb_batch(job, response)
            return
        plan, indices, with_missing = job.plan, job.indices, job.with_missing
        asked = set(indices[: job.asked])
        per_clause: dict[int, list[dict[str, Any]]] = {i: [] for i in asked}
        missing: list[dict[str, Any]] = []
        for finding in response.findings:
            self.stats.raw_findings += 1
            if not 1 <= finding.paragraph <= len(indices):
                self.stats.hallucination_drops += 1
                continue
            i = indices[finding.paragraph - 1]
            grounded = self._ground(finding, self.doc.clauses[i].text)
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

    def _absorb_batch(self, job: BatchJob, response: ProviderResponse) -> None:
        batch = job.batch
        found: dict[tuple[str, int], list[dict[str, Any]]] = {(k, i): [] for k, cl in batch.asked.items() for i in cl}
        missing: dict[str, list[dict[str, Any]]] = {k: [] for k in batch.missing}
        for finding in response.findings:
            self.stats.raw_findings += 1
            if not 1 <= finding.paragraph <= len(job.indices):
                self.stats.hallucination_drops += 1
                continue
            i = job.indices[finding.paragraph - 1]
            text = self.doc.clauses[i].text
            if batch.missing.get(finding.rule) == i and (finding.source == "missing" or finding.kind == "insert"):
                if (grounded := self._ground(finding, text)) is not None:
                    missing[finding.rule].append(grounded)
            elif (finding.rule, i) not in found:
                self.stats.off_target_drops += 1  # another rule's paragraph, or a rule not in the batch
            elif (grounded := self._ground(finding, text, job.excerpts.get(i))) is not None:
                found[(finding.rule, i)].append(grounded)
        for (key, i), grounded_list in found.items():
            batch.plans[key].found[i] = grounded_list
        for key, drafted in missing.items():
            batch.plans[key].missing = drafted
        if self.cache is not None:
            items = {batch.plans[k].keys[i]: f for (k, i), f in found.items()}
            items |= {key: drafted for k, drafted in missing.items() if (key := batch.plans[k].missing_key)}
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
