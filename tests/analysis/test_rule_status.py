"""One line per playbook rule (issue #30, point 1): what the review can honestly say of each rule."""

from __future__ import annotations

import dataclasses

import pytest

from redline.analysis.pipeline import review
from redline.analysis.playbook.model import Playbook
from redline.analysis.providers.offline import OfflineProvider

from .conftest import anchor_of


def _lines(result) -> dict[str, dict]:
    return {line["key"]: line for line in result.stats.rule_status}


@pytest.fixture
def first(msa, playbook):
    return review(msa, playbook, OfflineProvider(), acting_for="Customer")


def test_every_enabled_rule_has_one_line_in_playbook_order(first, playbook):
    assert [line["key"] for line in first.stats.rule_status] == [r.key for r in playbook.enabled_rules]


def test_a_rule_with_suggestions_does_not_meet_and_counts_them(first, msa):
    line = _lines(first)["limitation-of-liability"]
    made = [s for s in first.suggestions if s.rule_key == "limitation-of-liability"]
    assert line["status"] == "does_not_meet" and line["new"] == len(made) > 0


def test_a_missing_required_clause_is_not_found_and_points_where_it_goes(first):
    line = _lines(first)["governing-law"]
    insert = [s for s in first.suggestions if s.rule_key == "governing-law"]
    assert line["status"] == "not_found" and line["new"] == len(insert) == 1
    assert line["anchor"] == insert[0].anchor


def test_meets_only_where_the_clause_engine_found_the_clause_and_links_to_it(first, msa):
    # "5.1 Each Party shall keep the other Party's Confidential Information confidential, … five (5) years."
    line = _lines(first)["confidentiality"]
    assert line["status"] == "meets" and line["new"] == 0
    assert line["anchor"] == anchor_of(msa, "5.1 Each Party shall keep")
    # The MSA has no licence, no exclusivity and no insurance clause: never "meets" for those.
    for key in ("license-scope", "exclusivity", "insurance"):
        assert _lines(first)[key]["status"] == "not_found", key
        assert _lines(first)[key]["anchor"] == ""


def test_a_rule_with_nothing_to_check_offline_is_not_checked(msa, playbook):
    prose = dataclasses.replace(playbook.rules[0], red_flags=(), thresholds=(), required=False, detect=(),
                                preferred_position="Keep it fair.", fallbacks=())
    book = Playbook(name=playbook.name, version=playbook.version, rules=(prose, *playbook.rules[1:]))
    result = review(msa, book, OfflineProvider(), acting_for="Customer")
    assert _lines(result)[prose.key]["status"] == "not_checked"


@pytest.mark.parametrize(("answer", "outcome"), [("pending", "pending"), ("accepted", "accepted"), (True, "rejected")])
def test_a_suggestion_not_proposed_again_names_why_and_the_rule_still_does_not_meet(msa, playbook, answer, outcome):
    result = review(msa, playbook, OfflineProvider(), acting_for="Customer",
                    suppress=lambda s: answer if s.rule_key == "limitation-of-liability" else None)
    line = _lines(result)["limitation-of-liability"]
    assert line["new"] == 0 and line["status"] == "does_not_meet"
    assert line["suppressed"] == {outcome: 2}
    assert result.stats.suppressed_by == {outcome: 2} and result.stats.suppressed == 2
