"""The words a finished run may use (issue #30, point 1): never "meets every rule" unless every rule does."""

from __future__ import annotations

import pytest

from redline.models import AnalysisRun, RunStatus
from redline.services.run_summary import run_summary


def _line(key: str, status: str, new: int = 0, **suppressed: int) -> dict:
    return {"key": key, "title": key.title(), "severity": "major", "status": status, "new": new,
            "suppressed": suppressed, "anchor": ""}


def _summary(**stats):
    return run_summary(run=AnalysisRun(status=RunStatus.DONE, stats=stats))


def test_all_rules_met_and_nothing_open_is_the_only_all_clear():
    s = _summary(suggestions=0, rule_status=[_line("a", "meets"), _line("b", "meets")])
    assert s.headline == "No suggestions: the document meets every rule of the playbook."


@pytest.mark.parametrize("status", ["not_checked", "not_found", "not_sure", "does_not_meet"])
def test_one_rule_short_of_meets_is_no_all_clear(status):
    s = _summary(suggestions=0, rule_status=[_line("a", "meets"), _line("b", status)])
    assert "meets every rule" not in s.headline and s.headline.startswith("No new suggestions, but not every rule")


def test_open_earlier_suggestions_are_named_before_anything_else():
    s = _summary(suggestions=0, earlier={"pending": 6, "rejected": 5}, rule_status=[_line("a", "meets")])
    assert s.headline == "No new issues; 6 earlier suggestions are still open in the document."
    assert _summary(suggestions=0, earlier={"pending": 1}).headline == \
        "No new issues; 1 earlier suggestion is still open in the document."
    assert _summary(suggestions=3, earlier={"pending": 2}).headline == \
        "3 new suggestions. 2 earlier suggestions are still open in the document."


def test_not_proposed_again_names_each_reason():
    s = _summary(suggestions=0, suppressed=11, suppressed_by={"rejected": 5, "pending": 4, "accepted": 2})
    assert s.not_repeated == ("11 earlier suggestions not proposed again: 4 still open in the document, "
                              "5 you rejected, 2 you accepted.")
    old = _summary(suggestions=0, suppressed=3)  # a run from before the reasons were kept
    assert old.not_repeated == "3 earlier suggestions not proposed again (answered before or still in the document)."
    assert _summary(suggestions=0, suppressed=0).not_repeated == ""


def test_a_run_without_rule_lines_claims_nothing():
    assert _summary(suggestions=0).headline == "No suggestions."
    assert "could not be checked" in _summary(suggestions=0, not_checked=["tone"]).headline


def test_rule_notes_say_why():
    s = _summary(suggestions=1, rule_status=[
        _line("cap", "does_not_meet", 1, pending=2), _line("law", "not_found", 1), _line("ip", "not_found"),
        _line("tone", "not_checked"), _line("fm", "not_sure"), _line("nda", "does_not_meet", rejected=1)])
    notes = {line.key: line.note for line in s.rules}
    assert notes["cap"] == "1 new suggestion; 2 earlier suggestions still open in the document."
    assert notes["law"].startswith("The required clause is missing; the suggestion says where")
    assert notes["ip"] == "No clause of this kind in the contract, so nothing to hold to this rule."
    assert notes["tone"].startswith("The offline engine has nothing to check")
    assert notes["nda"] == "You rejected 1 earlier suggestion; not proposed again."
    assert [line.label for line in s.rules] == ["Does not meet", "Clause not found", "Clause not found",
                                                "Not checked", "Not sure: human review", "Does not meet"]


def test_no_summary_until_the_run_is_done():
    assert run_summary(run=AnalysisRun(status=RunStatus.RUNNING, stats={})) is None
    assert run_summary(run=AnalysisRun(status=RunStatus.ERROR, stats={})) is None


def test_one_reason_is_said_once():
    assert _summary(suggestions=0, suppressed=1, suppressed_by={"rejected": 1}).not_repeated == \
        "1 earlier suggestion you rejected was not proposed again."
    assert _summary(suggestions=0, suppressed=4, suppressed_by={"pending": 4}).not_repeated == \
        "4 earlier suggestions still open in the document were not proposed again."
