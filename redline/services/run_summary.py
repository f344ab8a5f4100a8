"""What a finished run can honestly say: new findings, earlier ones still open, answered ones, and each rule.

"0 suggestions: the document meets every rule" is the most dangerous sentence a review can print, so it is
printed only when every rule was checked, its clause read, and nothing is left open in the document. The
counts come from the run's stats (what the review saw, :mod:`redline.analysis.review.status`) and from the
outcomes of the suggestions written into the document before (stored with the run as ``earlier``). The run
page, the API and the task pane show the same words, made here once.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from ..models import AnalysisRun, RunStatus

STATUS_LABELS = {"does_not_meet": "Does not meet", "not_found": "Clause not found",
                 "not_sure": "Not sure: human review", "not_checked": "Not checked", "meets": "Meets"}
_SEVERITY_ORDER = ["critical", "major", "minor"]
_ANSWERED = (("rejected", "you rejected"), ("accepted", "you accepted"), ("modified", "you modified"))


@dataclass(frozen=True, slots=True)
class RuleLine:
    """One playbook rule's status in a run; ``anchor`` is the paragraph it concerns ("" when none)."""

    key: str
    title: str
    severity: str
    status: str
    label: str
    note: str
    anchor: str
    suggestions: int


@dataclass(frozen=True, slots=True)
class RunSummary:
    """The run's headline, the line on what it did not propose again, and one line per rule."""

    headline: str
    not_repeated: str
    open_earlier: int
    new: int
    rules: list[RuleLine] = field(default_factory=list)
    # paragraphs changed, added or removed without tracking since the redline last sent (kind, anchor, before,
    # after, severity), worst first
    untracked: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _n(count: int, one: str, many: str | None = None) -> str:
    return f"{count} {one if count == 1 else (many or one + 's')}"


def run_summary(*, run: AnalysisRun) -> RunSummary | None:
    """The summary of a finished run (None while it works or when it failed)."""
    if run.status != RunStatus.DONE:
        return None
    stats = run.stats or {}
    new = int(stats.get("suggestions") or 0)
    open_earlier = int((stats.get("earlier") or {}).get("pending", 0))
    rules = [_rule_line(line) for line in stats.get("rule_status") or []]
    untracked = sorted((stats.get("untracked") or {}).get("changes") or [],
                       key=lambda c: _SEVERITY_ORDER.index(c.get("severity", "minor")))
    headline = _headline(new, open_earlier, rules, stats.get("not_checked") or [])
    if untracked:  # the edit nobody sees is said first
        headline = f"{_n(len(untracked), 'paragraph')} changed without tracking since the redline went out. " + headline
    return RunSummary(headline, _not_repeated(stats), open_earlier, new, rules, untracked)


def _headline(new: int, open_earlier: int, rules: list[RuleLine], not_checked: list[str]) -> str:
    still_open = (f"{_n(open_earlier, 'earlier suggestion')} {'is' if open_earlier == 1 else 'are'} still open "
                  f"in the document.") if open_earlier else ""
    if new:
        return " ".join(filter(None, (f"{_n(new, 'new suggestion')}.", still_open)))
    if open_earlier:
        return f"No new issues; {still_open}"
    if not rules:  # a run from before rule statuses: say only what it knows
        if not_checked:
            return (f"No suggestions from the rules that were checked; {_n(len(not_checked), 'rule')} could not "
                    f"be checked offline ({', '.join(not_checked)}).")
        return "No suggestions."
    short = [r for r in rules if r.status != "meets"]
    if not short:
        return "No suggestions: the document meets every rule of the playbook."
    counts: dict[str, int] = {}
    for r in short:
        counts[r.label] = counts.get(r.label, 0) + 1
    return ("No new suggestions, but not every rule is met: "
            + ", ".join(f"{label.lower()} {n}" for label, n in counts.items()) + ". See the rules below.")


def _not_repeated(stats: dict[str, Any]) -> str:
    total = int(stats.get("suppressed") or 0)
    if not total:
        return ""
    by: dict[str, int] = stats.get("suppressed_by") or {}
    head = f"{_n(total, 'earlier suggestion')} not proposed again"
    if not by:  # a run from before the reasons were kept
        return f"{head} (answered before or still in the document)."
    reasons = [(by["pending"], "still open in the document")] if by.get("pending") else []
    reasons += [(by[k], words) for k, words in _ANSWERED if by.get(k)]
    if len(reasons) == 1:  # one reason: said once
        return f"{_n(total, 'earlier suggestion')} {reasons[0][1]} {'was' if total == 1 else 'were'} not proposed again."
    return f"{head}: {', '.join(f'{n} {words}' for n, words in reasons)}."


def _rule_line(line: dict[str, Any]) -> RuleLine:
    status = line.get("status", "meets")
    new = int(line.get("new", 0))
    return RuleLine(line.get("key", ""), line.get("title", ""), line.get("severity", ""), status,
                    STATUS_LABELS.get(status, status), _note(status, new, line.get("suppressed") or {}),
                    line.get("anchor", ""), new)


def _note(status: str, new: int, suppressed: dict[str, int]) -> str:
    earlier = [f"{_n(suppressed['pending'], 'earlier suggestion')} still open in the document"] \
        if suppressed.get("pending") else []
    earlier += [f"{words} {_n(suppressed[k], 'earlier suggestion')}; not proposed again"
                for k, words in _ANSWERED if suppressed.get(k)]
    if status == "not_checked":
        return ("The offline engine has nothing to check for this rule (no red flag, threshold, required clause "
                "or number in its positions): read it yourself or review with a model.")
    if status == "not_sure":
        return "The clause engine neither finds nor rules out this clause: read the contract for it."
    if status == "not_found":
        if new:
            return "The required clause is missing; the suggestion says where to add it."
        if earlier:
            return "The required clause is missing; " + "; ".join(earlier) + "."
        return "No clause of this kind in the contract, so nothing to hold to this rule."
    if status == "does_not_meet":
        said = "; ".join(([_n(new, "new suggestion")] if new else []) + earlier) + "."
        return said[:1].upper() + said[1:]
    return "Its clause was read; nothing in it falls short of the rule."
