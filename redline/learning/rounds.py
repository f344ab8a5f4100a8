"""Round over round: what changed per rule between two runs on the same document.

Anchors are stable across versions of a document (anchoring keeps existing
bookmarks), so a finding is identified by its rule and anchor — not by the
suggestion id, which changes whenever the wording of the suggestion does. For
each rule, comparing the previous run's findings with the current run's:

* **newly failing**: flagged now, not flagged before;
* **resolved**: flagged before, not now (fixed, or dismissed by a rejection);
* **still open**: flagged before and now, the earlier suggestion not accepted;
* **regressed**: flagged before and now although the earlier suggestion there
  was accepted — the fix did not hold.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol


class FindingLike(Protocol):
    """What a round needs of a suggestion (:class:`~redline.analysis.suggestions.Suggestion` fits)."""

    @property
    def id(self) -> str: ...
    @property
    def rule_key(self) -> str: ...
    @property
    def anchor(self) -> str: ...


@dataclass(frozen=True, slots=True)
class RuleRound:
    """One rule's change between two runs; each field lists anchors, sorted."""

    rule_key: str
    newly_failing: tuple[str, ...] = ()
    resolved: tuple[str, ...] = ()
    still_open: tuple[str, ...] = ()
    regressed: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form with counts."""
        fields = {"newly_failing": self.newly_failing, "resolved": self.resolved,
                  "still_open": self.still_open, "regressed": self.regressed}
        return {"rule": self.rule_key, **{k: list(v) for k, v in fields.items()},
                "counts": {k: len(v) for k, v in fields.items()}}


def round_report(previous: Iterable[FindingLike], current: Iterable[FindingLike], *,
                 previous_outcomes: Mapping[str, str] | None = None) -> list[RuleRound]:
    """Per rule (sorted by key), how ``current`` findings compare with ``previous``.

    ``previous_outcomes`` maps a previous suggestion id to its outcome status
    (``"accepted"`` …); without it nothing can be told apart as regressed.
    """
    outcomes = previous_outcomes or {}
    before: dict[tuple[str, str], list[str]] = {}
    for s in previous:
        before.setdefault((s.rule_key, s.anchor), []).append(s.id)
    now = {(s.rule_key, s.anchor) for s in current}
    rules = sorted({k for k, _ in before} | {k for k, _ in now})
    out = []
    for rule in rules:
        new = sorted(a for k, a in now if k == rule and (k, a) not in before)
        gone = sorted(a for k, a in before if k == rule and (k, a) not in now)
        both = [a for k, a in now if k == rule and (k, a) in before]
        regressed = sorted(a for a in both if any(outcomes.get(i) == "accepted" for i in before[(rule, a)]))
        still = sorted(a for a in both if a not in regressed)
        out.append(RuleRound(rule, tuple(new), tuple(gone), tuple(still), tuple(regressed)))
    return out
