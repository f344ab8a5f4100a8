"""The review pipeline: clauses + playbook + provider → grounded, validated suggestions.

For each enabled rule: select the paragraphs it applies to, check whether a required clause is missing, look
every (rule, paragraph) pair up in the result cache, ask the provider only about the misses (a model in batches
of the contract that read each paragraph once for all its rules, concurrently; a provider that can tell at a
glance which paragraphs it has nothing to say about is asked about the others only), then ground each finding's quote, drop suggestions the lawyer already
rejected, score risk and validate. Everything is keyed to anchors and deterministic: the same input gives the
same suggestions with the same ids, so a retried run never duplicates anything.

Given the contract graph (``graph``), each paragraph goes to a model with what it relies on elsewhere (the
definitions of the terms it uses, the sections it cites, its parent's lead-in), and each suggestion is checked
for what it does elsewhere (a renamed or reworded definition, a reference that leads nowhere): its ``warnings``.

Cache keys combine the paragraph's text, section and related context with the rule's version, the
preferences version and the provider's identity: an unchanged document makes zero provider calls, an edited
paragraph re-asks only the rules that select it, an edited definition the paragraphs that use the term.

The provider stage (cache lookup, batching, grounding responses) is :mod:`redline.analysis.provider_calls`;
counters and clause reports are :mod:`redline.analysis.review_report`.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from redline.retrieval.edits import EditWarning, edit_warnings
from redline.retrieval.graph import ContractGraph
from redline.retrieval.hygiene import DEFAULT_KINDS

from .batches import RulePlan
from .cache import Cache
from .checks import reciprocal_parties
from .clauses import Clause
from .dependencies import related_items
from .dispatch import dispatch
from .document import Document, build_document
from .drafting import drafting_suggestions
from .excerpts import Excerpt, excerpt_of
from .grounding import occurrence_of
from .placement.place import place_missing, stagger
from .placement.where import describe
from .playbook.model import Playbook, Rule, Severity
from .prompts import PromptMode
from .provider_calls import BatchJob, Job, ProviderCalls
from .providers.base import PreferenceUpdate, Provider, ProviderError, ProviderResponse, Related
from .rejections import Rejection, rejection_filter
from .review.asking import ask_finding, uncertain_clause
from .review.coverage import checked_offline
from .review.gate import Gate, SideError
from .review.status import RuleLedger
from .review.verdicts import Verdicts
from .review_report import ClauseReport, ReviewError, ReviewResult, ReviewStats
from .risk import RiskFactor, score_clause
from .selection import rule_matchers, rule_present, select_clauses
from .suggestions import Kind, Suggestion, edited_text, suggestion_id
from .validator import (
    VALIDATION_RISK_THRESHOLD,
    DocumentFacts,
    OfflineValidator,
    Validator,
    document_facts,
)

ProgressCallback = Callable[[str, dict[str, Any]], None]
SuggestionFilter = Callable[[Suggestion], bool | str | None]  # drop it? (a str: the earlier outcome it repeats)


def review(
    clauses: Sequence[Clause],
    playbook: Playbook,
    provider: Provider,
    *,
    rerun: bool = False,
    prior_rejections: Sequence[Rejection] = (),
    preferences_text: str = "",
    preferences_version: str = "",
    cache: Cache | None = None,
    validator: Validator | None = None,
    suppress: SuggestionFilter | None = None,
    progress: ProgressCallback | None = None,
    graph: ContractGraph | None = None,
    acting_for: str = "",
    hygiene: frozenset[str] = DEFAULT_KINDS,
) -> ReviewResult:
    """Review ``clauses`` against ``playbook`` with ``provider``.

    ``rerun`` (the document already has known entries) selects the re-run
    prompt, which carries ``prior_rejections`` and ``preferences_text``.
    ``suppress`` drops suggestions (default: those matching a prior
    rejection). ``progress(kind, data)`` receives ``progress`` events
    (stage, done, total) and one ``suggestion`` event per suggestion as soon as
    its rule is finished; an exception raised by the callback aborts the
    review (use it to cancel). ``graph`` is the contract graph of the same
    paragraphs (same anchors), e.g. ``ContractGraph.from_paragraphs``; without
    it clauses are judged with their heading path only and carry no warnings.
    ``acting_for`` names the party we act for (its defined name, legal name or role; "" for no side): every
    finding passes the review gate (:mod:`redline.analysis.review.gate`), and a model is told the side.
    Raises :class:`ReviewError` (``unknown_party`` when ``acting_for`` names no party of the contract).
    With a graph, the drafting-hygiene findings of the kinds in ``hygiene`` are suggestions too (issue #27).
    """
    return _Review(
        clauses, playbook, provider,
        mode=PromptMode.RERUN if rerun else PromptMode.FIRST_RUN,
        prior_rejections=tuple(prior_rejections), preferences_text=preferences_text,
        preferences_version=preferences_version, cache=cache, validator=validator or OfflineValidator(),
        suppress=suppress or rejection_filter(prior_rejections), progress=progress or _ignore, graph=graph,
        acting_for=acting_for, hygiene=hygiene,
    ).run()


def _ignore(kind: str, data: dict[str, Any]) -> None:
    """Default progress callback."""


def _hash(*parts: str) -> str:
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:32]


class _Review:
    """One run of :func:`review`; holds the state the stages share."""

    def __init__(self, clauses: Sequence[Clause], playbook: Playbook, provider: Provider, *, mode: PromptMode,
                 prior_rejections: tuple[Rejection, ...], preferences_text: str, preferences_version: str,
                 cache: Cache | None, validator: Validator, suppress: SuggestionFilter,
                 progress: ProgressCallback, graph: ContractGraph | None, acting_for: str,
                 hygiene: frozenset[str]) -> None:
        self.clauses, self.hygiene = list(clauses), hygiene
        self.playbook = playbook
        self.provider = provider
        self.mode = mode
        self.prior_rejections = prior_rejections
        self.preferences_text = preferences_text
        self.preferences_version = preferences_version
        self.cache, self.validator, self.suppress = cache, validator, suppress
        self.progress, self.graph, self.acting_for = progress, graph, acting_for
        self._related_cache: dict[int, tuple[Related, ...]] = {}
        self._clause_keys: dict[tuple[int, bool], str] = {}
        self.stats = ReviewStats()
        self.preference_updates: list[PreferenceUpdate] = []
        self.suggestions: list[Suggestion] = []
        self.factors: dict[int, list[tuple[Rule, RiskFactor]]] = {}
        self.doc: Document
        self.facts: DocumentFacts
        self.calls: ProviderCalls
        self.gate: Gate
        self.ledger: RuleLedger
        self.verdicts: Verdicts

    # ------------------------------------------------------------ stages

    def run(self) -> ReviewResult:
        start = time.perf_counter()
        if not self.clauses:
            raise ReviewError("empty_document", "the document has no paragraphs with text to review")
        rules = self.playbook.enabled_rules
        if not rules:
            raise ReviewError("no_rules", f"playbook {self.playbook.name!r} has no enabled rules")
        self.stats.rules, self.stats.clauses = len(rules), len(self.clauses)
        if self.provider.name == "offline":  # a model reads every rule's prose; the rule engine cannot always
            self.stats.not_checked = [r.key for r in rules if not checked_offline(r)]
        self._emit("prepare", 0, len(rules))
        self.doc = build_document(self.clauses)
        self.ledger = RuleLedger(self.doc.found, self.stats.not_checked)
        try:
            self.gate = Gate.for_document(self.doc, self.acting_for)
        except SideError as exc:
            raise ReviewError("unknown_party", str(exc)) from None
        self.facts = document_facts(c.text for c in self.clauses)
        self.verdicts = Verdicts(self.validator, self.cache, self.facts, self.doc.parties)
        self.calls = ProviderCalls(
            self.doc, self.provider, self.cache, self.stats, self._related, mode=self.mode,
            prior_rejections=self.prior_rejections, preferences_text=self.preferences_text,
            preference_updates=self.preference_updates, acting_for=self.gate.cast.side_name,
            terms=tuple(dict.fromkeys(d.term for d in self.graph.definitions)) if self.graph is not None else ())
        plans = [self._plan(rule) for rule in rules]
        placed = [p for p in plans if p.placement is not None]  # clauses sharing an anchor get distinct numbers
        for plan, placement in zip(placed, stagger([p.placement for p in placed]), strict=True):
            plan.placement = placement
        self.stats.timings_ms["prepare"] = (time.perf_counter() - start) * 1000
        self._emit("prepare", len(rules), len(rules))

        t = time.perf_counter()
        try:
            self._analyze(plans)
        except ProviderError as exc:
            self.stats.usage.add(exc.usage)
            raise ReviewError(exc.code, exc.message, self._result()) from exc
        if self.graph is not None and self.hygiene:  # drafting hygiene (issue #27): no playbook, side or model
            drafted, suppressed = drafting_suggestions(self.graph, self.clauses, self.suppress, self.hygiene)
            self.stats.suppressed += len(suppressed)
            for why in suppressed:
                self.ledger.suppressed("", why)
            self._report(drafted)
        self.stats.timings_ms["analyze"] = (time.perf_counter() - t) * 1000

        t = time.perf_counter()
        result = self._result()
        self.stats.timings_ms["finalize"] = (time.perf_counter() - t) * 1000
        self.stats.timings_ms["total"] = (time.perf_counter() - start) * 1000
        self._emit("finalize", 1, 1)
        return result

    def _plan(self, rule: Rule) -> RulePlan:
        doc = self.doc
        selected = select_clauses(doc, rule)
        routed = [doc.clauses[i].anchor for i in selected]
        missing_at = placement = None
        if rule.required and not rule_present(doc, rule, selected):
            placement = place_missing(doc, rule)
            missing_at = placement.after
        reciprocal = reciprocal_parties(rule, (doc.clauses[i].text for i in selected), doc.parties)
        self.stats.selected += len(selected)
        if (screen := getattr(self.provider, "could_find", None)) is not None:
            found = screen(rule, [doc.clauses[i].text for i in selected], doc.parties, reciprocal)
            selected = [i for i, could in zip(selected, found, strict=True) if could]
        prefix = _hash(
            self.provider.identity, rule.fingerprint, self.preferences_version, ",".join(doc.parties), self.gate.cast.side_name,
            repr(sorted((k, sorted(v)) for k, v in reciprocal.items())),
        )
        excerpts: dict[int, Excerpt] = {}
        if getattr(self.provider, "excerpts", False):  # a model is shown the rule's sentences of a long paragraph
            matchers = rule_matchers(doc, rule)
            excerpts = {i: e for i in selected if (e := excerpt_of(doc, rule, i, matchers)) is not None}
        keys = {i: "res:" + _hash(prefix, self._clause_key(i), *(f"{a}:{b}" for a, b in excerpts[i].spans))
                if i in excerpts else "res:" + _hash(prefix, self._clause_key(i)) for i in selected}
        missing_key = "res:" + _hash(prefix, "missing", self._clause_key(missing_at, related=False)) \
            if missing_at is not None else None
        ask_at = None if missing_at is not None else uncertain_clause(
            doc, rule, lambda: place_missing(doc, rule).after, self.gate.body)
        return RulePlan(rule, selected, missing_at, reciprocal, keys, missing_key, placement=placement,
                        excerpts=excerpts, ask_at=ask_at, routed=routed)

    def _clause_key(self, i: int, *, related: bool = True) -> str:
        """Clause *i* as the provider sees it: text, heading path, number and (``related``) the
        related context, so a changed definition re-asks the clauses that use it. Memoised:
        every rule that selects the clause needs it."""
        key = self._clause_keys.get((i, related))
        if key is None:
            clause = self.doc.clauses[i]
            parts = [clause.text, self.doc.context(i), clause.list_label or ""]
            if related:
                parts += [f"{r.kind}\x1e{r.label}\x1e{r.text}" for r in self._related(i)]
            key = self._clause_keys[(i, related)] = _hash(*parts)
        return key

    def _related(self, i: int) -> tuple[Related, ...]:
        """What clause *i* relies on elsewhere, once per review (none without a graph or if the provider ignores it)."""
        if self.graph is None or not getattr(self.provider, "reads_context", True):
            return ()
        if i not in self._related_cache:
            self._related_cache[i] = related_items(self.graph, self.doc.clauses[i].anchor, self.doc.context(i))
        return self._related_cache[i]

    def _analyze(self, plans: list[RulePlan]) -> None:
        jobs = self.calls.plan_jobs([(plan, self.calls.lookup(plan)) for plan in plans])
        self.stats.requests = len(jobs)
        done = [0, 0]  # rules finished, requests answered
        batched = any(isinstance(j, BatchJob) for j in jobs)  # a model reading the contract in parts

        def moved() -> None:
            parts = {"requests_done": done[1], "requests": self.stats.requests} if batched else {}
            self.progress("progress", {"stage": "analyze", "done": done[0], "total": len(plans), **parts})

        def finish(plan: RulePlan) -> None:
            self._finish(plan)
            done[0] += 1
            moved()

        for plan in plans:
            if plan.pending == 0:
                finish(plan)

        def answered(job: Job | BatchJob, response: ProviderResponse) -> None:
            self.calls.absorb(job, response)
            done[1] += 1
            finished = 0
            for plan in job.plans:
                plan.pending -= 1
                if plan.pending == 0:
                    finish(plan)
                    finished += 1
            if not finished:  # a batch that completes no rule yet still moves the stream on
                moved()

        dispatch(jobs, self.calls.send, answered, workers=min(self.provider.max_concurrency, len(jobs)),
                 split=self.calls.split, spent=self.stats.usage.add)

    # ------------------------------------------------------------ suggestions

    def _finish(self, plan: RulePlan) -> None:
        """Turn a finished rule's findings into suggestions and report them."""
        rule = plan.rule
        produced = [self._suggestion(rule, i, f) for i in plan.selected for f in plan.found.get(i, [])]
        if plan.missing_at is not None:
            where = describe(self.doc, plan.placement)
            numbered = [f | {"new_text": plan.placement.apply(f["new_text"]), "placement": where}
                        if f["kind"] == "insert" else f | {"placement": where}
                        for f in plan.missing or []]  # the provider drafts the clause; the placement numbers it
            produced += [self._suggestion(rule, plan.missing_at, f, missing=True) for f in numbered]
        if plan.ask_at is not None:
            produced.append(self._suggestion(rule, plan.ask_at, ask_finding(self.doc, rule, plan.ask_at), missing=True))
        missing_anchor = self.doc.clauses[plan.missing_at].anchor if plan.missing_at is not None else None
        self.ledger.finished(rule, routed=plan.routed, missing_anchor=missing_anchor, produced=filter(None, produced))
        self._report(produced)

    def _report(self, produced: Sequence[Suggestion | None]) -> None:
        seen: set[str] = set()
        for s in produced:
            if s is None or s.id in seen:
                continue
            seen.add(s.id)
            self.suggestions.append(s)
            self.progress("suggestion", s.to_dict())

    def _suggestion(self, rule: Rule, i: int, f: dict[str, Any], *, missing: bool = False) -> Suggestion | None:
        judged = self.gate.judge(rule, i, f, missing=missing)
        if judged is None:
            return None
        f = judged
        clause = self.doc.clauses[i]
        text = clause.text
        kind = Kind(f["kind"])
        quote = text[f["start"] : f["end"]]
        occurrence = occurrence_of(text, quote, f["start"])
        severity = Severity(f["severity"]) if f["severity"] else rule.severity
        sid = suggestion_id(rule.key, clause.anchor, kind, quote, occurrence, f["new_text"], f["comment"])
        draft = Suggestion(
            id=sid, anchor=clause.anchor, kind=kind, rule_key=rule.key, rule_title=rule.title,
            category=rule.category.value, severity=severity.value, quote=quote, comment=f["comment"],
            new_text=f["new_text"], occurrence=occurrence, scope="paragraph" if quote.strip() == text.strip() else "quote",
            source=f["source"], confidence=f["confidence"], placement=f.get("placement", ""),
        )
        if why := self.suppress(draft):
            self.stats.suppressed += 1
            self.ledger.suppressed(rule.key, why)
            return None
        factor = RiskFactor(rule.risk_dimensions, severity, f"{rule.title}: {_first_sentence(f['comment'])}")
        if not missing:  # a missing clause is not a risk of the paragraph it is inserted after
            self.factors.setdefault(i, []).append((rule, factor))
        categories = {rule.category} if missing else self.doc.categories[i]
        risk = score_clause(categories, [factor])
        validation = self.verdicts.of_suggestion(draft, text, rule, risk)
        return replace(draft, risk=risk, validation=validation, warnings=self._warnings(draft, text))

    def _warnings(self, s: Suggestion, text: str) -> tuple[EditWarning, ...]:
        """What the edit does elsewhere in the contract (needs the graph; comments edit nothing)."""
        if self.graph is None or s.kind is Kind.COMMENT:
            return ()
        if s.kind is Kind.INSERT:
            return tuple(edit_warnings(self.graph, s.anchor, s.new_text, insert=True))
        return tuple(edit_warnings(self.graph, s.anchor, edited_text(text, s)))

    def _result(self) -> ReviewResult:
        position = {c.anchor: i for i, c in enumerate(self.doc.clauses)}
        rule_order = {r.key: n for n, r in enumerate(self.playbook.rules)}
        ordered = sorted(
            self.suggestions,
            key=lambda s: (position[s.anchor], s.kind is Kind.INSERT, rule_order.get(s.rule_key, 0), s.quote, s.id),
        )
        reports = []
        for i in sorted(self.factors):
            clause = self.doc.clauses[i]
            risk = score_clause(self.doc.categories[i], [factor for _, factor in self.factors[i]])
            rules = tuple(dict.fromkeys(rule for rule, _ in self.factors[i]))
            verdict = self.verdicts.validate(clause.text, rules) if risk.overall >= VALIDATION_RISK_THRESHOLD else None
            reports.append(ClauseReport(clause.anchor, tuple(sorted(c.value for c in self.doc.categories[i])), risk, verdict))
        self.stats.suggestions = len(ordered)
        v = self.verdicts
        self.stats.verdict_cache_hits, self.stats.verdict_cache_misses = v.hits, v.misses
        if v.hits or v.misses:
            self.stats.timings_ms["validate"] = v.ms
        self.stats.gate = self.gate.stats()
        self.stats.rule_status = self.ledger.lines(self.playbook.enabled_rules)
        self.stats.suppressed_by = dict(self.ledger.suppressed_by)
        return ReviewResult(ordered, reports, self.stats, self.mode, self.preference_updates)

    def _emit(self, stage: str, done: int, total: int) -> None:
        self.progress("progress", {"stage": stage, "done": done, "total": total})


def _first_sentence(text: str) -> str:
    head = text.split(". ")[0].strip()
    return head if head.endswith(".") else head + "."
