"""The run page's overview, filters, grouping and pages: selectors against a hand count, and the views."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.http import QueryDict
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from dashboard.overview import PAGE_SIZE, run_filters, run_overview, suggestions_filtered, suggestions_page
from dashboard.queries import paragraph_texts
from redline.models import AnalysisRun, KnownEntry, PlaybookVersion, RunStatus, Suggestion
from redline.services.documents import document_version_create
from redline.services.playbooks import playbook_default_install
from tests.dashboard.conftest import CONTRACT, HTMX, login

pytestmark = pytest.mark.django_db

# (rule, category, severity, kind, paragraph, outcome, validator, source, risk), in document order:
# three on the payment paragraph (under "1. Payment"), four on the delivery one (under "2. Delivery").
PLAN = [
    ("liability-cap", "liability", "critical", "insert", "pay", None, None, "missing", 90),
    ("late-payment", "payment_terms", "minor", "replace", "pay", "rejected", "FAIL", "threshold", 20),
    ("payment-terms", "payment_terms", "major", "comment", "pay", "accepted", "PASS", "threshold", 60),
    ("late-payment", "payment_terms", "minor", "replace", "goods", "rejected", "PASS", "threshold", 25),
    ("payment-terms", "payment_terms", "major", "replace", "goods", "pending", "WARN", "threshold", 70),
    ("indemnity", "indemnity", "critical", "comment", "goods", None, "FAIL", "red_flag", 95),
    ("delivery", "delivery", "minor", "delete", "goods", "modified", None, "red_flag", 10),
]


def make_run(member, plan=PLAN) -> AnalysisRun:
    """A finished run whose suggestions, outcomes and verdicts are exactly ``plan``."""
    version, *_ = document_version_create(workspace=member.workspace, data=CONTRACT, filename="msa.docx",
                                          uploaded_by=None)
    pinned = (PlaybookVersion.objects.filter(playbook__workspace=member.workspace).first()
              or playbook_default_install(workspace=member.workspace))
    run = AnalysisRun.objects.create(
        workspace=member.workspace, document_version=version, provider="offline", status=RunStatus.DONE,
        playbook_version=pinned, request_key=f"ov-{version.pk}-{len(plan)}", finished_at=timezone.now())
    texts = paragraph_texts(version=version)
    anchors = {"pay": next(a for a, t in texts.items() if "ninety" in t),
               "goods": next(a for a, t in texts.items() if "Goods" in t)}
    for i, (rule, category, severity, kind, where, outcome, verdict, source, risk) in enumerate(plan):
        s = Suggestion.objects.create(
            run=run, sid=f"s{i}", position=i, anchor=anchors[where], kind=kind, rule_key=rule, category=category,
            severity=severity, op={}, data={
                "rule_title": rule.replace("-", " ").capitalize(), "quote": "", "comment": f"Comment {i}",
                "source": source, "risk": {"overall": risk},
                "validation": {"status": verdict, "confidence": 0.9, "issues": []} if verdict else None})
        if outcome:
            KnownEntry.objects.create(workspace=member.workspace, document=version.document, run=run, suggestion=s,
                                      entry_id=f"e{run.pk}-{i}", operation_type="COMMENT", outcome=outcome)
    return run


def counts(overview, name: str) -> dict[str, int]:
    return {chip.value: chip.count for chip in overview.counts[name]}


def rules_of(run, query: str) -> list[str]:
    overview = run_overview(run=run)
    filters = run_filters(params=QueryDict(query), overview=overview)
    return list(suggestions_filtered(run=run, filters=filters).values_list("rule_key", flat=True))


def cards(html: str) -> list[str]:
    return re.findall(r'<article class="suggestion" id="s-(\d+)"', html)


# -- selectors ----------------------------------------------------------------------


def test_overview_counts_equal_a_hand_count(alice):
    overview = run_overview(run=make_run(alice))
    assert overview.total == 7
    assert counts(overview, "severity") == {"critical": 2, "major": 2, "minor": 3}
    assert [c.value for c in overview.counts["severity"]] == ["critical", "major", "minor"]
    assert counts(overview, "category") == {"payment_terms": 4, "liability": 1, "indemnity": 1, "delivery": 1}
    assert counts(overview, "kind") == {"replace": 3, "comment": 2, "insert": 1, "delete": 1}
    assert counts(overview, "outcome") == {"none": 2, "rejected": 2, "accepted": 1, "pending": 1, "modified": 1}
    assert counts(overview, "validator") == {"PASS": 2, "FAIL": 2, "WARN": 1, "none": 2}
    assert counts(overview, "rule") == {"payment-terms": 2, "late-payment": 2, "liability-cap": 1, "indemnity": 1,
                                        "delivery": 1}
    assert overview.counts["outcome"][-1].label == "not exported yet"
    assert overview.counts["validator"][-1].label == "not validated"


def test_top_risks_are_the_most_severe_first_and_missing_clauses_are_listed(alice):
    run = make_run(alice)
    overview = run_overview(run=run)
    # Each rule once, by its most serious suggestion: most severe first, then the higher risk.
    assert [(r.rule, r.risk, r.count) for r in overview.top_risks] == [
        ("indemnity", 95, 1), ("liability-cap", 90, 1), ("payment-terms", 70, 2), ("late-payment", 25, 2),
        ("delivery", 10, 1)]
    assert [r.rule for r in overview.missing] == ["liability-cap"]
    top = overview.top_risks[0]
    assert top.link == f"?rule=indemnity#s-{top.pk}"


def test_filters_combine(alice):
    run = make_run(alice)
    assert rules_of(run, "severity=minor&outcome=rejected") == ["late-payment", "late-payment"]
    assert rules_of(run, "kind=replace&category=payment_terms") == ["payment-terms", "late-payment", "late-payment"]
    assert sorted(rules_of(run, "validator=none")) == ["delivery", "liability-cap"]
    assert sorted(rules_of(run, "outcome=none")) == ["indemnity", "liability-cap"]
    assert rules_of(run, "rule=payment-terms&validator=WARN") == ["payment-terms"]
    assert rules_of(run, "severity=critical&outcome=accepted") == []
    # Grouped by rule: most severe first, rules together, each in document order.
    assert rules_of(run, "") == ["indemnity", "liability-cap", "payment-terms", "payment-terms", "delivery",
                                 "late-payment", "late-payment"]


def test_drafting_hygiene_has_its_own_filter_and_stays_out_of_the_top_risks(alice):
    """Issue #27: a drafting slip (source "hygiene") is counted and filtered apart from the playbook's findings,
    and a blank date is not one of the playbook's top risks."""
    blank = ("hygiene.blank", "drafting_blanks", "major", "comment", "goods", None, None, "hygiene", None)
    run = make_run(alice, [*PLAN, blank])
    overview = run_overview(run=run)
    assert counts(overview, "check") == {"playbook": 7, "drafting": 1}
    assert [c.label for c in overview.counts["check"]] == ["playbook rules", "drafting hygiene"]
    assert rules_of(run, "check=drafting") == ["hygiene.blank"]
    assert "hygiene.blank" not in rules_of(run, "check=playbook") and len(rules_of(run, "check=playbook")) == 7
    assert "hygiene.blank" not in [r.rule for r in overview.top_risks]
    page = login("alice").get(f"/runs/{run.pk}/?check=drafting").content.decode()
    assert len(cards(page)) == 1 and 'id="chip-check-drafting"' in page and "drafting hygiene" in page


def test_unknown_values_are_ignored_with_a_note(alice):
    run = make_run(alice)
    filters = run_filters(params=QueryDict("severity=urgent&kind=<b>x</b>&rule=indemnity&group=weird"),
                          overview=run_overview(run=run))
    assert (filters.severity, filters.kind, filters.rule, filters.group) == ("", "", "indemnity", "rule")
    assert len(filters.notes) == 3 and "urgent" in filters.notes[0]


def test_pages_of_25_keep_their_filters(alice):
    plan = [("payment-terms", "payment_terms", "major", "comment", "pay", None, "PASS", "threshold", 50)] * 60
    run = make_run(alice, [*plan, PLAN[0]])
    overview = run_overview(run=run)
    page = suggestions_page(run=run, filters=run_filters(params=QueryDict("severity=major&page=3"), overview=overview))
    assert (page.number, len(page.object_list), page.paginator.count) == (3, 60 - 2 * PAGE_SIZE, 60)
    beyond = suggestions_page(run=run, filters=run_filters(params=QueryDict("page=99"), overview=overview))
    assert beyond.number == 3  # the last page
    assert suggestions_page(run=run, filters=run_filters(params=QueryDict("page=x"), overview=overview)).number == 1


# -- views --------------------------------------------------------------------------


def test_full_page_and_the_htmx_partial_render_the_same_filtered_list(alice):
    run = make_run(alice)
    client = login("alice")
    page = client.get(f"/runs/{run.pk}/", {"severity": "critical"})
    html = page.content.decode()
    assert page.status_code == 200 and "<html" in html and 'id="run-results"' in html
    partial = client.get(f"/runs/{run.pk}/", {"severity": "critical"}, **HTMX)
    fragment = partial.content.decode()
    assert "<html" not in fragment and fragment.lstrip().startswith('<div id="run-results"')
    assert "HX-Request" in partial["Vary"]
    assert cards(fragment) == cards(html) and len(cards(html)) == 2
    assert "Showing 1–2 of 2 matching suggestions (7 in all)." in fragment
    # The chips add their filter to the current ones (a link can be shared); the current one removes itself.
    assert f'href="/runs/{run.pk}/?severity=critical&amp;kind=comment"' in fragment
    assert re.search(rf'href="/runs/{run.pk}/" aria-current="true">critical', fragment)
    assert partial["HX-Push-Url"] == f"/runs/{run.pk}/?severity=critical"  # not the form's every empty field
    assert '<option value="critical" selected>' in fragment


def test_group_by_clause_uses_the_heading_each_paragraph_is_under(alice):
    run = make_run(alice)
    html = login("alice").get(f"/runs/{run.pk}/", {"group": "clause"}, **HTMX).content.decode()
    groups = [g.strip() for g in re.findall(r'<h3 id="g-\d+">([^<]+)<', html)]
    assert groups == ["1. Payment", "2. Delivery"]
    assert '<option value="clause" selected>' in html


def headings(html: str) -> list[str]:
    return [" ".join(re.sub(r"<[^>]+>", " ", h).split()) for h in re.findall(r'<h3 id="g-\d+">(.*?)</h3>', html)]


def test_a_group_heading_counts_the_whole_group_on_every_page(alice):
    """Issue #30: "Payment terms · 23 suggestions" on page 1 and 25 on page 2 of a group of 60 read as two counts."""
    plan = [("payment-terms", "payment_terms", "major", "comment", "pay", None, "PASS", "threshold", 50)] * 60
    run = make_run(alice, [*plan, PLAN[0]])
    client = login("alice")
    first = headings(client.get(f"/runs/{run.pk}/", **HTMX).content.decode())
    assert first == ["Liability cap critical 1 suggestion", "Payment terms major 60 suggestions, 24 on this page"]
    last = headings(client.get(f"/runs/{run.pk}/", {"page": "3"}, **HTMX).content.decode())
    assert last == ["Payment terms major 60 suggestions, 11 on this page"]
    filtered = headings(client.get(f"/runs/{run.pk}/", {"severity": "major", "page": "2"}, **HTMX).content.decode())
    assert filtered == ["Payment terms major 60 suggestions, 25 on this page"]  # of the filtered list


def test_a_rule_at_two_severities_is_two_groups_each_with_its_own_count(alice):
    # a finding may set its own severity: the list sorts by severity first, so the rule is two groups
    plan = [("payment-terms", "payment_terms", sev, "comment", "pay", None, "PASS", "threshold", 50)
            for sev in ("major", "major", "major", "minor", "minor")]
    html = login("alice").get(f"/runs/{make_run(alice, plan).pk}/", **HTMX).content.decode()
    assert headings(html) == ["Payment terms major 3 suggestions", "Payment terms minor 2 suggestions"]


def test_grouped_by_severity_the_heading_says_it_once(alice):
    html = login("alice").get(f"/runs/{make_run(alice).pk}/", {"group": "severity"}, **HTMX).content.decode()
    assert headings(html) == ["Critical 2 suggestions", "Major 2 suggestions", "Minor 3 suggestions"]  # no "Major major"


def test_bad_filter_values_are_a_visible_note_never_a_500(alice):
    run = make_run(alice)
    client = login("alice")
    resp = client.get(f"/runs/{run.pk}/", {"severity": "urgent", "kind": "<script>", "page": "-4", "group": "x",
                                          "validator": "maybe"})
    html = resp.content.decode()
    assert resp.status_code == 200
    assert len(cards(html)) == 7
    assert "No severity “urgent” in this run: that filter was ignored." in html
    assert "&lt;script&gt;" in html and "<script>”" not in html
    assert "Unknown grouping “x”" in html


def test_another_workspaces_run_is_404_with_or_without_filters(alice, bob):
    run = make_run(alice)
    client = login("bob")
    assert client.get(f"/runs/{run.pk}/", {"severity": "critical"}).status_code == 404
    assert client.get(f"/runs/{run.pk}/", {"severity": "critical"}, **HTMX).status_code == 404


def test_the_partial_costs_the_same_queries_for_7_or_67_suggestions(alice):
    """No query per suggestion: the overview is one query and the page one more (plus its votes)."""
    small, large = make_run(alice), make_run(alice, PLAN + [PLAN[4]] * 60)
    client = login("alice")
    used = []
    for run in (small, large):
        client.get(f"/runs/{run.pk}/", **HTMX)  # the document's parse is cached by then
        with CaptureQueriesContext(connection) as queries:
            assert client.get(f"/runs/{run.pk}/", {"severity": "major"}, **HTMX).status_code == 200
        used.append(len(queries))
    assert used[0] == used[1], used


def test_a_link_to_a_card_opens_the_page_that_holds_it(alice):
    """Feedback without JavaScript returns to the card, and so does a card link: with pages of 25 a bare
    ``#s-<pk>`` would open page 1, which does not hold a card further down its rule's list."""
    plan = [("payment-terms", "payment_terms", "major", "comment", "pay", None, "PASS", "threshold", 50)] * 60
    run = make_run(alice, [PLAN[1], *plan, PLAN[0]])
    client = login("alice")
    for s in run.suggestions.order_by("position")[::7]:
        after_vote = client.post(f"/suggestions/{s.pk}/feedback/", {"vote": "up"})
        assert after_vote.status_code == 302
        url, _, fragment = after_vote["Location"].partition("#")
        assert fragment == f"s-{s.pk}" and str(s.pk) in cards(client.get(url).content.decode())
