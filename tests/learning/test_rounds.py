"""Round over round, per rule: newly failing, resolved, still open, regressed."""

from __future__ import annotations

from dataclasses import dataclass

from redline.learning.rounds import RuleRound, round_report


@dataclass(frozen=True)
class Finding:
    id: str
    rule_key: str
    anchor: str


PREVIOUS = [
    Finding("p1", "payment-terms", "_RL_000000000001"),
    Finding("p2", "liability-cap", "_RL_000000000002"),
    Finding("p3", "liability-cap", "_RL_000000000003"),
    Finding("p4", "auto-renewal", "_RL_000000000004"),
]
CURRENT = [
    Finding("c1", "payment-terms", "_RL_000000000001"),  # reworded suggestion, same place: still open
    Finding("c2", "liability-cap", "_RL_000000000003"),  # the lawyer accepted p3, yet it fails again
    Finding("c3", "governing-law", "_RL_000000000009"),  # new
    Finding("c4", "liability-cap", "_RL_000000000005"),  # new place for an old rule
]


def test_each_rule_reports_what_changed():
    report = round_report(PREVIOUS, CURRENT, previous_outcomes={"p1": "rejected", "p3": "accepted", "p4": "accepted"})
    assert report == [
        RuleRound("auto-renewal", resolved=("_RL_000000000004",)),
        RuleRound("governing-law", newly_failing=("_RL_000000000009",)),
        RuleRound("liability-cap", newly_failing=("_RL_000000000005",), resolved=("_RL_000000000002",),
                  regressed=("_RL_000000000003",)),
        RuleRound("payment-terms", still_open=("_RL_000000000001",)),
    ]


def test_without_outcomes_nothing_is_called_regressed():
    by_rule = {r.rule_key: r for r in round_report(PREVIOUS, CURRENT)}
    assert by_rule["liability-cap"].still_open == ("_RL_000000000003",)
    assert all(r.regressed == () for r in by_rule.values())


def test_a_first_run_is_all_newly_failing_and_the_report_is_json_ready():
    (only,) = round_report([], CURRENT[:1])
    assert only.to_dict() == {
        "rule": "payment-terms", "newly_failing": ["_RL_000000000001"], "resolved": [], "still_open": [],
        "regressed": [], "counts": {"newly_failing": 1, "resolved": 0, "still_open": 0, "regressed": 0},
    }
    assert round_report(CURRENT, CURRENT) == round_report(list(reversed(CURRENT)), CURRENT)
