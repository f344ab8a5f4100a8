"""A run's overview and its filtered, grouped, paginated suggestion list (the run page's selectors).

A 300-page review has hundreds of suggestions: the page shows counts, the top
risks and the missing clauses first, then one page of cards that the query string
filters. The overview is one query over the run's suggestions (with each one's
outcome as a subquery); the list is one query for the page plus one for its votes.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import NamedTuple
from urllib.parse import urlencode

from django.core.paginator import Page, Paginator
from django.db.models import Case, Count, IntegerField, OuterRef, Q, QuerySet, Subquery, Value, When
from django.http import QueryDict

from redline.models import AnalysisRun, KnownEntry, Suggestion

from .queries import SEVERITY_ORDER as SEVERITIES
from .queries import severity_rank

OUTCOMES = ("pending", "accepted", "rejected", "modified", "missing", "none")
VERDICTS = ("PASS", "WARN", "FAIL", "none")
GROUPS = ("rule", "severity", "clause")
FILTERS = ("check", "severity", "category", "kind", "rule", "outcome", "validator")
# Which check made a suggestion: the playbook's rules, or drafting hygiene (source "hygiene", issue #27).
CHECKS = ("playbook", "drafting")
CHECK_LABELS = {"playbook": "playbook rules", "drafting": "drafting hygiene"}
PAGE_SIZE = 25
TOP_RISKS = 5
NONE_LABELS = {"outcome": "not exported yet", "validator": "not validated"}

_OUTCOME = Subquery(KnownEntry.objects.filter(suggestion_id=OuterRef("pk")).order_by("-pk").values("outcome")[:1])
_SEVERITY_RANK = Case(*(When(severity=s, then=Value(i)) for i, s in enumerate(SEVERITIES)),
                      default=Value(len(SEVERITIES)), output_field=IntegerField())


@dataclass(frozen=True, slots=True)
class RunFilters:
    """The run page's query string: filters, grouping and page; ``notes`` say what was ignored and why."""

    check: str = ""
    severity: str = ""
    category: str = ""
    kind: str = ""
    rule: str = ""
    outcome: str = ""
    validator: str = ""
    group: str = "rule"
    page: str = "1"
    notes: tuple[str, ...] = ()

    @property
    def active(self) -> bool:
        return any(getattr(self, name) for name in FILTERS)

    def query(self, **changes: str) -> str:
        """This view's query string with ``changes`` ("" for the plain run page); any change but the page
        starts again at page 1."""
        if "page" not in changes:
            changes["page"] = "1"
        state = replace(self, **changes)
        params = {name: getattr(state, name) for name in FILTERS if getattr(state, name)}
        if state.group != "rule":
            params["group"] = state.group
        if state.page not in ("", "1"):
            params["page"] = state.page
        return "?" + urlencode(params) if params else ""


@dataclass(frozen=True, slots=True)
class Chip:
    """One count of the overview, a link to the list filtered by it."""

    field: str
    value: str
    label: str
    count: int


@dataclass(frozen=True, slots=True)
class Risk:
    """One of the top risks (a rule's most serious suggestion) or missing clauses: enough to name it,
    say how many suggestions its rule made, and link to its card."""

    pk: int
    title: str
    rule: str
    severity: str
    comment: str
    risk: int | None
    link: str
    count: int
    where: str = ""  # a missing clause: where it goes ("New §14A Governing law, after §14 Confidentiality")


@dataclass(slots=True)
class Overview:
    """Counts by each filterable dimension, the top risks and the missing clauses of one run."""

    total: int = 0
    counts: dict[str, list[Chip]] = field(default_factory=dict)
    rule_titles: dict[str, str] = field(default_factory=dict)
    top_risks: list[Risk] = field(default_factory=list)
    missing: list[Risk] = field(default_factory=list)

    def values(self, name: str) -> set[str]:
        return {chip.value for chip in self.counts.get(name, [])}


def _chips(name: str, counter: Counter, order: tuple[str, ...] = (), labels: dict[str, str] | None = None) -> list[Chip]:
    """Chips in the vocabulary's order when there is one, else most frequent first."""
    keys = sorted(counter, key=lambda k: (order.index(k) if k in order else len(order), -counter[k], k))
    labels = {**(labels or {}), "none": NONE_LABELS.get(name, "none")}
    return [Chip(name, k, labels.get(k, k), counter[k]) for k in keys]


class _Row(NamedTuple):
    pk: int
    severity: str
    category: str
    kind: str
    rule: str
    outcome: str | None
    verdict: str | None
    title: str | None
    risk: int | None
    source: str | None
    comment: str | None
    position: int
    placement: str | None


def run_overview(*, run: AnalysisRun) -> Overview:
    """The whole run summed up in one query (outcome by subquery), whatever the filters."""
    rows = [_Row(*r) for r in Suggestion.objects.filter(run=run).annotate(outcome_value=_OUTCOME)
            .order_by("position").values_list(
                "pk", "severity", "category", "kind", "rule_key", "outcome_value", "data__validation__status",
                "data__rule_title", "data__risk__overall", "data__source", "data__comment", "position",
                "data__placement")]
    counters = {name: Counter() for name in FILTERS}
    titles: dict[str, str] = {}
    for r in rows:
        check = "drafting" if r.source == "hygiene" else "playbook"
        for name, value in zip(FILTERS, (check, r.severity, r.category, r.kind, r.rule, r.outcome or "none",
                                         r.verdict or "none"), strict=True):
            counters[name][value] += 1
        titles.setdefault(r.rule, r.title or r.rule)
    overview = Overview(total=len(rows), rule_titles=titles, counts={
        "check": _chips("check", counters["check"], CHECKS, CHECK_LABELS),
        "severity": _chips("severity", counters["severity"], SEVERITIES),
        "category": _chips("category", counters["category"], labels={c: c.replace("_", " ") for c in counters["category"]}),
        "kind": _chips("kind", counters["kind"]),
        "rule": _chips("rule", counters["rule"], labels=titles),
        "outcome": _chips("outcome", counters["outcome"], OUTCOMES),
        "validator": _chips("validator", counters["validator"], VERDICTS),
    })
    # Where each card sits in its rule's filtered list (grouped by rule), so a link opens the right page.
    index_in_rule: dict[int, int] = {}
    seen: Counter = Counter()
    for r in sorted(rows, key=lambda r: (severity_rank(r.severity), r.rule, r.position)):
        index_in_rule[r.pk] = seen[r.rule]
        seen[r.rule] += 1

    def risk(r: _Row) -> Risk:
        link = _card_link(rule=r.rule, index=index_in_rule[r.pk], pk=r.pk)
        return Risk(r.pk, r.title or r.rule, r.rule, r.severity, r.comment or "", r.risk, link, counters["rule"][r.rule],
                    r.placement or "")

    worst: dict[str, _Row] = {}  # one per rule: five cards of the same rule would hide the next risk
    for r in sorted(rows, key=lambda r: (severity_rank(r.severity), -(r.risk or 0), r.position)):
        if r.source != "hygiene":  # drafting slips have their own filter; the top risks are the playbook's
            worst.setdefault(r.rule, r)
    overview.top_risks = [risk(r) for r in list(worst.values())[:TOP_RISKS]]
    overview.missing = [risk(r) for r in rows if r.source == "missing"]
    return overview


def _card_link(*, rule: str, index: int, pk: int) -> str:
    """The run page's query string that shows a card: its rule's list, the page it is on, scrolled to it."""
    return RunFilters(rule=rule).query(page=str(index // PAGE_SIZE + 1)) + f"#s-{pk}"


def card_link(*, suggestion: Suggestion) -> str:
    """Where one suggestion's card is on its run page (``?rule=…&page=…#s-…``): with pages of 25, a bare
    ``#s-<pk>`` would open page 1, which often does not hold the card."""
    rank = severity_rank(suggestion.severity)
    before = (Suggestion.objects.filter(run_id=suggestion.run_id, rule_key=suggestion.rule_key)
              .annotate(rank=_SEVERITY_RANK)
              .filter(Q(rank__lt=rank) | Q(rank=rank, position__lt=suggestion.position)).count())
    return _card_link(rule=suggestion.rule_key, index=before, pk=suggestion.pk)


def _allowed(name: str, overview: Overview) -> set[str]:
    fixed = {"check": CHECKS, "severity": SEVERITIES, "outcome": OUTCOMES, "validator": VERDICTS}
    return set(fixed[name]) if name in fixed else overview.values(name)


def run_filters(*, params: QueryDict, overview: Overview) -> RunFilters:
    """The filters a query string asks for; an unknown value is dropped with a note saying so (never a 500)."""
    values: dict[str, str] = {}
    notes: list[str] = []
    for name in FILTERS:
        value = params.get(name, "").strip()
        if not value:
            continue
        if value in _allowed(name, overview):
            values[name] = value
        else:
            notes.append(f"No {name} “{value[:40]}” in this run: that filter was ignored.")
    group = params.get("group", "rule")
    if group not in GROUPS:
        notes.append(f"Unknown grouping “{group[:40]}”: grouped by rule instead.")
        group = "rule"
    return RunFilters(**values, group=group, page=params.get("page", "1")[:10], notes=tuple(notes))


def suggestions_filtered(*, run: AnalysisRun, filters: RunFilters) -> QuerySet[Suggestion]:
    """The run's suggestions that pass every filter, each with ``outcome_value``, in the grouping's order."""
    qs = Suggestion.objects.filter(run=run).annotate(outcome_value=_OUTCOME)
    if filters.check == "drafting":
        qs = qs.filter(data__source="hygiene")
    elif filters.check == "playbook":
        qs = qs.exclude(data__source="hygiene")
    for name, column in (("severity", "severity"), ("category", "category"), ("kind", "kind"), ("rule", "rule_key")):
        if value := getattr(filters, name):
            qs = qs.filter(**{column: value})
    if filters.outcome == "none":
        qs = qs.filter(outcome_value__isnull=True)
    elif filters.outcome:
        qs = qs.filter(outcome_value=filters.outcome)
    if filters.validator == "none":
        qs = qs.filter(Q(data__validation__status__isnull=True))
    elif filters.validator:
        qs = qs.filter(data__validation__status=filters.validator)
    if filters.group == "clause":
        return qs.order_by("position")
    if filters.group == "severity":
        return qs.annotate(rank=_SEVERITY_RANK).order_by("rank", "position")
    return qs.annotate(rank=_SEVERITY_RANK).order_by("rank", "rule_key", "position")


def group_totals(*, suggestions: QuerySet[Suggestion], by: str) -> dict[tuple[str, ...], int]:
    """How many of the filtered ``suggestions`` each group holds, in one query: a page shows part of a group,
    its heading says how many there are in all ("Payment terms · 145", not the 23 on this page). By rule, a
    group is a rule at one severity (a finding may override its rule's); by clause, none is given: two
    sections may share a heading, and the count would add them up."""
    if by == "clause":
        return {}
    columns = ("severity",) if by == "severity" else ("severity", "rule_key")
    return {tuple(row[:-1]): row[-1] for row in
            suggestions.order_by().values(*columns).annotate(n=Count("pk")).values_list(*columns, "n")}


def suggestions_page(*, run: AnalysisRun, filters: RunFilters) -> Page:
    """One page of the filtered list (a page number out of range gives the last page, not an error)."""
    return Paginator(suggestions_filtered(run=run, filters=filters), PAGE_SIZE).get_page(filters.page)


@dataclass(frozen=True, slots=True)
class Link:
    """A chip or a select option as the page draws it: where it leads and whether it is the current filter."""

    label: str
    count: int
    value: str
    href: str
    active: bool


@dataclass(frozen=True, slots=True)
class Dimension:
    name: str
    heading: str
    links: list[Link]


HEADINGS = {"check": "Check", "severity": "Severity", "category": "Category", "kind": "Kind", "rule": "Rule", "outcome": "Outcome",
            "validator": "Validator"}


def dimensions(*, overview: Overview, filters: RunFilters) -> list[Dimension]:
    """Every filter with its values and counts; a chip adds its filter to the others, or removes it when current."""
    out = []
    for name in FILTERS:
        current = getattr(filters, name)
        links = [Link(chip.label, chip.count, chip.value,
                      filters.query(**{name: "" if chip.value == current else chip.value}), chip.value == current)
                 for chip in overview.counts.get(name, [])]
        out.append(Dimension(name, HEADINGS[name], links))
    return out


def page_links(*, page: Page, filters: RunFilters) -> dict[str, str]:
    """The previous and next pages' URLs (absent at either end)."""
    links = {}
    if page.has_previous():
        links["previous"] = filters.query(page=str(page.previous_page_number()))
    if page.has_next():
        links["next"] = filters.query(page=str(page.next_page_number()))
    return links
