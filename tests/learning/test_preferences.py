"""Preferences: the seed's update tool, learned guidance with provenance, version diffs."""

from __future__ import annotations

import pytest

from redline.analysis.playbook.io import default_playbook
from redline.analysis.prompts import PromptMode, system_prompt
from redline.learning.outcomes import Status, detect_outcomes
from redline.learning.preferences import (
    PLACEHOLDER,
    PREFERENCES_HEADING,
    GuidanceLine,
    as_markdown,
    clean_preferences,
    learn_guidance,
    preferences_diff,
    relearned,
    update_preferences,
)
from redline.learning.suppression import RejectedSuggestion, rejected_suggestion


def rejection(rid: str, op: str, *, rule: str = "payment-terms", category: str = "payment_terms", quote: str = "",
              new: str = "", comment: str = "", original: str = "") -> RejectedSuggestion:
    return RejectedSuggestion(id=rid, operation_type=op, anchor="_RL_aaaaaaaaaaaa", quote=quote, new_text=new,
                              comment_text=comment, original_text=original, rule_key=rule, category=category)


PAYMENT = rejection("r1", "REPLACE_TEXT", quote="ninety (90) days", new="sixty (60) days",
                    original="1.1 The Customer shall pay each undisputed invoice within ninety (90) days of receipt.")
CONFIDENTIAL = rejection("r2", "COMMENT", rule="confidentiality-term", category="confidentiality",
                         quote="Confidential Information shall be kept secret for two years.",
                         comment="Two years is short for trade secrets.")
PAYMENT_AGAIN = rejection("r3", "REPLACE_TEXT", quote="ninety (90) days", new="sixty (60) days",
                          original="4.2 Disputed invoices shall be paid within ninety (90) days of resolution.")


@pytest.mark.parametrize(("text", "action", "lines", "expected"), [
    ("# Prefs\n\nA", "append", ["## Payment", "B"], "# Prefs\n\nA\n\n## Payment\nB"),
    ("# Prefs\n\nA", "replace", ["# New", "C"], "# New\nC"),
    ("# Prefs\n\nA", "append", [], "# Prefs\n\nA"),
    ("# Prefs\n\nA", "replace", [], "# Prefs\n\nA"),
    ("", "append", ["B"], "B"),
])
def test_update_preferences_follows_the_seed(text, action, lines, expected):
    assert update_preferences(text, action, lines) == expected


def test_update_preferences_refuses_other_actions():
    with pytest.raises(ValueError, match="append"):
        update_preferences(PREFERENCES_HEADING, "delete", ["x"])  # type: ignore[arg-type]


def test_every_learned_line_cites_the_rejections_it_came_from():
    lines = learn_guidance([CONFIDENTIAL, PAYMENT, PAYMENT_AGAIN], rules={r.key: r for r in default_playbook().rules})
    assert lines and all(line.rejection_ids for line in lines)
    cited = {i for line in lines for i in line.rejection_ids}
    assert cited == {"r1", "r2", "r3"}
    by_text = {line.text: line for line in lines}
    threshold = next(t for t in by_text if t.startswith("- Treat 90 days as acceptable under this rule"))
    assert by_text[threshold].rejection_ids == ("r1", "r3")  # the same lesson, learned twice, cited once each
    assert "a change to 60 days was rejected" in threshold
    assert "playbook limit: payment_days <= 60 days" in threshold
    assert any("Two years is short for trade secrets." in t for t in by_text)
    # no ids in the text the model reads
    assert not any("r1" in t or "r2" in t for t in as_markdown(lines))


def test_guidance_is_grouped_by_category_and_rule_and_deterministic():
    lines = learn_guidance([PAYMENT, CONFIDENTIAL])
    assert lines == learn_guidance([CONFIDENTIAL, PAYMENT])
    sections = list(dict.fromkeys(line.section for line in lines))
    assert sections == ["## Confidentiality: confidentiality-term", "## Payment terms: payment-terms"]
    assert learn_guidance([PAYMENT], rules={r.key: r for r in default_playbook().rules})[0].section == "## Payment terms"
    md = as_markdown(lines)
    assert md[0] == sections[0] and sections[1] in md and md[md.index(sections[1]) - 1] == ""


def test_learning_the_same_rejections_twice_adds_nothing():
    first = learn_guidance([PAYMENT])
    text = update_preferences(PREFERENCES_HEADING, "append", as_markdown(first))
    assert learn_guidance([PAYMENT], existing=text) == []


def test_preferences_diff_shows_the_change():
    old = "# Review Preferences\n\nA"
    new = update_preferences(old, "append", ["B"])
    diff = preferences_diff(old, new)
    assert diff.splitlines()[:2] == ["--- previous", "+++ current"]
    assert "+B" in diff.splitlines()
    assert preferences_diff(old, old) == ""


def test_a_rejection_in_a_real_document_becomes_a_cited_line_in_the_rerun_prompt(written, reviewed):
    entries = list(written.entries.values())
    rejected = [rejected_suggestion(e, reason=o.reason)
                for e, o in zip(entries, detect_outcomes(reviewed, entries), strict=True) if o.status is Status.REJECTED]
    lines = learn_guidance(rejected)
    text = update_preferences(PREFERENCES_HEADING, "append", as_markdown(lines))
    prompt = system_prompt(PromptMode.RERUN, prior_rejections=[r.to_rejection() for r in rejected],
                           preferences_text=text)
    deleted = written.entries["comment_deleted"]
    (line,) = [x for x in lines if deleted.comment_text in x.text]
    assert line.rejection_ids == (deleted.id,)
    assert line.text in prompt
    assert isinstance(line, GuidanceLine)


def _payments(prefix: str, n: int) -> list[RejectedSuggestion]:
    """``n`` identical payment-term changes (90 → 60 days) in different clauses."""
    return [rejection(f"{prefix}{i:02d}", "REPLACE_TEXT", quote="ninety (90) days", new="sixty (60) days",
                      original=f"{i}.1 Invoices under schedule {i} shall be paid within ninety (90) days.")
            for i in range(n)]


RULES = {r.key: r for r in default_playbook().rules}


def test_preferences_learn_from_both_sides_with_counts():
    took, refused = _payments("a", 5), _payments("r", 1)
    lines = learn_guidance(refused, accepted=took, rules=RULES)
    texts = [line.text for line in lines]
    ask = next(t for t in texts if t.startswith("- Ask for 60 days instead of 90 days under this rule"))
    assert ask.endswith("(accepted 5 of 6).") and "playbook limit: payment_days <= 60 days" in ask
    assert not any("Treat 90 days as acceptable" in t for t in texts)  # outvoted: no line for the other side
    line = next(x for x in lines if x.text == ask)
    assert set(line.accepted_ids) == {t.id for t in took} and line.rejection_ids == ("r00",)
    only_refused = learn_guidance(_payments("r", 3), rules=RULES)
    assert any(x.text.startswith("- Treat 90 days as acceptable") and x.text.endswith("(rejected 3 of 3).")
               for x in only_refused)


def test_an_even_split_says_so_instead_of_teaching_either_side():
    """The issue's case: 7 of 14 identical changes accepted is no reason to "treat 90 days as acceptable"."""
    texts = [x.text for x in learn_guidance(_payments("r", 7), accepted=_payments("a", 7), rules=RULES)]
    assert not any(t.startswith(("- Treat", "- Ask for", "- Keep", "- Propose")) for t in texts)
    split = [t for t in texts if t.startswith("- Decisions are split on 90 days")]
    assert split == [next(t for t in texts if "(7 accepted, 7 rejected)" in t and "90 days under" in t)]


def test_a_contradicted_line_is_revised_not_kept_beside_its_opposite():
    first = learn_guidance(_payments("r", 2), rules=RULES)
    v1 = relearned(PREFERENCES_HEADING + "\n\n- Written by a person.", first, learned_before=set(),
                   sections_before=set())
    assert v1.count("Treat 90 days as acceptable") == 1 and "- Written by a person." in v1
    later = learn_guidance(_payments("r", 2), accepted=_payments("a", 6), rules=RULES)
    v2 = relearned(v1, later, learned_before={x.text for x in first}, sections_before={x.section for x in first})
    assert "Treat 90 days as acceptable" not in v2 and "Keep \"ninety (90) days\"" not in v2
    assert v2.count("- Ask for 60 days instead of 90 days") == 1 and "(accepted 6 of 8)" in v2
    assert v2.count("## Payment terms") == 1 and v2.startswith(PREFERENCES_HEADING)
    assert "- Written by a person." in v2  # what people wrote is never relearned away
    # Relearning the same decisions changes nothing.
    assert relearned(v2, later, learned_before={x.text for x in later}, sections_before={"## Payment terms"}) == v2


def test_no_placeholder_and_no_doubled_bullets_are_ever_stored():
    seed_text = f"{PREFERENCES_HEADING}\n\n{PLACEHOLDER}"
    grown = update_preferences(seed_text, "append", ["- - Keep late fees as drafted.", "*  - Prefer 30 days."])
    assert clean_preferences(grown) == f"{PREFERENCES_HEADING}\n\n- Keep late fees as drafted.\n- Prefer 30 days."
    assert PLACEHOLDER not in relearned(seed_text, learn_guidance(_payments("r", 1)), learned_before=set(),
                                        sections_before=set())
    assert relearned("", [], learned_before=set(), sections_before=set()) == PREFERENCES_HEADING
