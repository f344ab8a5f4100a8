"""One line per playbook rule, as a reviewer reads a playbook: does the contract meet it, and how do we know.

A run that says "no suggestions" is not an all-clear: a rule may have found nothing because its clause is not
in the contract, because the offline engine had nothing to check, or because what it would say again is still
open in the document or was rejected before. The ledger records, while the review runs, what each rule saw, and
gives each enabled rule one status:

* ``not_checked``: the provider had nothing to check for it (a prose-only rule offline);
* ``not_found``: a required clause is missing (the insert suggestion says where it goes), or the clause engine
  is confident the contract has no clause of the rule's kind (for kinds it does not cover: no paragraph was
  routed to the rule), so there was nothing to hold to the rule;
* ``does_not_meet``: it has new suggestions, or earlier ones it would repeat (still open, rejected or
  answered before: named, never called "meets");
* ``not_sure``: the clause engine neither finds nor rules out the clause (a required one is asked about);
* ``meets``: the clause engine decided the clause is there, it was read, and nothing in it falls short.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from redline.clauses import CONFIDENT_ABSENCE, ClauseReport

from ..playbook.model import Rule
from ..suggestions import Suggestion

STATUSES = ("does_not_meet", "not_found", "not_sure", "not_checked", "meets")
SUPPRESSION_OUTCOMES = ("pending", "rejected", "accepted", "modified")


def suppression_outcome(why: object) -> str:
    """The earlier outcome a suppress filter's answer names (a plain True is a prior rejection)."""
    return why if isinstance(why, str) and why in SUPPRESSION_OUTCOMES else "rejected"


@dataclass
class _Seen:
    new: int = 0
    asks: int = 0
    missing: bool = False
    present: bool | None = False  # the clause: found, confidently absent, or neither
    anchor: str = ""
    suppressed: Counter[str] = field(default_factory=Counter)


class RuleLedger:
    """What each rule saw during one review (the pipeline reports to it) and the status lines it makes;
    ``found`` is the clause engine's report on the same paragraphs."""

    def __init__(self, found: ClauseReport, not_checked: Iterable[str] = ()) -> None:
        self.found = found
        self.not_checked = frozenset(not_checked)
        self._seen: dict[str, _Seen] = {}
        self.suppressed_by: Counter[str] = Counter()

    def _rule(self, key: str) -> _Seen:
        return self._seen.setdefault(key, _Seen())

    def suppressed(self, rule_key: str, why: object) -> None:
        """A suggestion of ``rule_key`` was dropped because it repeats an earlier one (``why``: its outcome)."""
        outcome = suppression_outcome(why)
        self.suppressed_by[outcome] += 1
        if rule_key:
            self._rule(rule_key).suppressed[outcome] += 1

    def finished(self, rule: Rule, *, routed: Sequence[str], missing_anchor: str | None,
                 produced: Iterable[Suggestion]) -> None:
        """``rule`` is done: ``routed`` the anchors of the paragraphs it read, ``missing_anchor`` where its
        required clause would go (None when found), ``produced`` its new suggestions. Whether its clause is
        there is the clause engine's decision; for a kind the engine does not cover, whether any paragraph
        was routed to the rule. The line links to the engine's best passage, else the first paragraph read."""
        seen = self._rule(rule.key)
        clause = self.found.playbook.get(rule.category.value)
        if clause is None:
            seen.present = bool(routed)
        else:
            seen.present = True if clause.present else False if clause.probability < CONFIDENT_ABSENCE else None
        best = self.found.anchor_of(clause.passages[0]) if clause is not None and clause.passages else None
        seen.anchor = missing_anchor or ((best or (routed[0] if routed else "")) if seen.present is not False else "")
        seen.missing = missing_anchor is not None
        for s in produced:
            if s.source == "ask":
                seen.asks += 1
            else:
                seen.new += 1

    def lines(self, rules: Sequence[Rule]) -> list[dict[str, Any]]:
        """The status line of each rule, in playbook order (JSON-ready)."""
        return [self._line(rule) for rule in rules]

    def _line(self, rule: Rule) -> dict[str, Any]:
        seen = self._seen.get(rule.key, _Seen())
        return {"key": rule.key, "title": rule.title, "severity": rule.severity.value,
                "category": rule.category.value, "status": _status(rule, seen, self.not_checked),
                "new": seen.new + seen.asks, "suppressed": dict(seen.suppressed), "anchor": seen.anchor}


def _status(rule: Rule, seen: _Seen, not_checked: frozenset[str]) -> str:
    if rule.key in not_checked:
        return "not_checked"
    if seen.missing:
        return "not_found"
    if seen.new or seen.suppressed:
        return "does_not_meet"
    if seen.asks or seen.present is None:
        return "not_sure"
    return "meets" if seen.present else "not_found"
