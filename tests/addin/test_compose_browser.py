"""Several suggestions in one paragraph, applied in the pane in any order (#16): the document the
Office double ends with and ``redline.docx`` of the same suggestions both read, by the outside oracles,
as the lines and counts typed by hand here.

Each way of applying runs in a fresh pane over a fresh copy of the contract (its own anchors, so
its own document and run): the three suggestions of one paragraph one by one in the orders 1-2-3
and 3-1-2, then "Apply all" for the whole run, and "Apply all" of a severity and then of a clause.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from redline.models import AnalysisRun, KnownEntry
from redline.services.playbooks import playbook_default_install
from tests.addin.test_taskpane_browser import anchor_of, review, sign_in, wait_for
from tests.support import oracles
from tests.support.stacked_contract import PARAGRAPHS, THREE
from tests.support.validator import assert_no_new_findings

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SEED = {
    "partitionKey": "compose:",
    "url": "https://contoso.sharepoint.com/Shared%20Documents/Stacked.docx",
    "paragraphs": [{"text": t} for t in PARAGRAPHS],
}
# What a reader sees, typed by hand. Every suggestion of this contract but one is a comment; the one tracked
# change is the termination clause inserted after the stacked paragraph (THREE). Rejected, the contract as written.
CLAUSE = ("Either party may terminate this Agreement with immediate effect by giving written notice to the other"
          " party if (a) the other party commits a material breach of this Agreement which is irremediable or, if"
          " remediable, is not remedied within thirty (30) days after receipt of written notice specifying the breach"
          " and requiring it to be remedied; or (b) the other party becomes insolvent, makes an arrangement with its"
          " creditors, has an administrator, receiver or liquidator appointed, or ceases to carry on business.")
ACCEPTED = [*PARAGRAPHS[:THREE + 1], CLAUSE, *PARAGRAPHS[THREE + 1:]]
REJECTED = PARAGRAPHS


def counts(comments: int) -> dict[str, int]:
    """Counted by hand: the clause and its paragraph mark inserted, nothing deleted; each suggestion says why
    in one comment."""
    return {"ins": 1, "del": 0, "para_mark_changes": 1, "revisions_total": 2, "comments": comments,
            "comment_references": comments}


class Applied:
    """One pane's review and what it applied, with the files to compare."""

    def __init__(self, pane, tmp: Path, name: str) -> None:
        self.pane, self.page = pane, pane.page
        self.tmp, self.name = tmp, name
        sign_in(pane, pane.member)
        self.composed: list[dict] = []  # the bodies of POST /api/runs/{id}/patches
        self.page.on("request", lambda r: r.url.endswith("/patches") and self.composed.append(r.post_data_json))
        before_count = AnalysisRun.objects.count()
        review(pane)
        self.original = bytes(pane.double("docxBytes()"))
        self.run = AnalysisRun.objects.order_by("pk")[before_count]
        self.anchors = [anchor_of(p) for p in pane.double("snapshot()")["paragraphs"]]
        self.three = list(self.run.suggestions.filter(anchor=self.anchors[THREE]).order_by("position"))

    def click_apply(self, suggestion) -> None:
        result = self.page.locator(f'.result[data-id="{suggestion.sid}"]')
        result.locator(".apply").click()
        expect(result.locator(".state")).to_have_text(
            "Added as a comment." if suggestion.kind == "comment" else "Applied as a tracked change.")

    def document(self) -> Path:
        """The double's document now, as a .docx."""
        path = self.tmp / f"{self.name}-pane.docx"
        path.write_bytes(bytes(self.pane.double("docxBytes()")))
        return path

    def redline(self, suggestions) -> Path:
        """GET /api/runs/{id}/redline.docx of the same suggestions (the server's whole-document writer)."""
        ids = ",".join(s.sid for s in suggestions)
        resp = self.page.request.get(f"{self.pane.base_url}/api/runs/{self.run.pk}/redline.docx?suggestions={ids}",
                                     headers={"Authorization": f"Bearer {self.pane.member.key}"})
        assert resp.status == 200, resp.text()
        path = self.tmp / f"{self.name}-server.docx"
        path.write_bytes(resp.body())
        return path


def same_document(pane_file: Path, server_file: Path, original: bytes, comments: int) -> None:
    """The oracles read the pane's file and the server's alike, and as the hand-written lines and counts."""
    for path in (pane_file, server_file):
        assert oracles.pandoc_text(path, "accept") == ACCEPTED, path.name
        assert oracles.pandoc_text(path, "reject") == REJECTED, path.name
        found = oracles.stats(path)
        assert {k: found[k] for k in ("authors", *counts(comments))} == {"authors": {"Redline AI": 2},
                                                                          **counts(comments)}, path.name
    assert_no_new_findings(original, pane_file.read_bytes())


def lawyer_edits_the_inserted_clause_then_undoes_it(a: Applied, suggestion) -> None:
    """The clause a patch inserted is part of what the next patch replaces: an edit there refuses it."""
    texts = [p["text"] for p in a.pane.double("snapshot()")["paragraphs"]]
    at = texts.index(PARAGRAPHS[THREE]) + 1
    a.pane.double(f"edit({at}, {texts[at]!r} + ' As agreed.')")
    result = a.page.locator(f'.result[data-id="{suggestion.sid}"]')
    result.locator(".apply").click()
    expect(result.locator(".state")).to_have_text(re.compile("^This paragraph was edited after the review"))
    assert len(a.pane.double("log.inserts")) == 1
    a.pane.double(f"edit({at}, {texts[at]!r})")


@pytest.fixture
def applied(alice, open_pane, tmp_path):
    playbook_default_install(workspace=alice.workspace)

    def open_(name: str) -> Applied:
        pane = open_pane(SEED)
        pane.member = alice
        return Applied(pane, tmp_path, name)

    return open_


def test_three_suggestions_in_one_paragraph_in_any_order_equal_the_redline(applied):
    for name, order in (("1-2-3", (0, 1, 2)), ("3-1-2", (2, 0, 1))):
        a = applied(name)
        assert [s.kind for s in a.three] == ["comment", "comment", "insert"]
        assert len({s.severity for s in a.three}) == 2
        for step, i in enumerate(order):
            if step == 1 and name == "3-1-2":
                lawyer_edits_the_inserted_clause_then_undoes_it(a, a.three[i])
            a.click_apply(a.three[i])
        # The first goes in with its listed patch; each next one is composed with those before it.
        sids = [a.three[i].sid for i in order]
        refused = [sorted(sids[:2])] if name == "3-1-2" else []  # asked for, then refused by the drift check
        assert [sorted(c["suggestions"]) for c in a.composed] == [*refused, sorted(sids[:2]), sorted(sids)]
        inserts = a.pane.double("log.inserts")
        assert [i["span"] for i in inserts] == ([1, 1, 1] if order[0] == 0 else [1, 2, 2])  # the clause is replaced too
        assert all(i["changeTrackingMode"] == "Off" for i in inserts)
        snapshot = [p["text"] for p in a.pane.double("snapshot()")["paragraphs"]]
        assert snapshot.count(CLAUSE) == 1 and snapshot.count(PARAGRAPHS[THREE]) == 1  # composed, never stacked
        same_document(a.document(), a.redline(a.three), a.original, comments=3)
        wait_for(lambda a=a: KnownEntry.objects.filter(run=a.run).count() == 3)

    # Apply all: every suggestion of the run, one composed patch per paragraph.
    a = applied("all")
    everything = list(a.run.suggestions.order_by("position"))
    assert len(everything) == 15
    a.page.click("#apply-all")
    expect(a.page.locator("#summary")).to_have_text("Applied 15 of 15 suggestions.")
    anchored = {s.anchor for s in everything}
    assert len(a.pane.double("log.inserts")) == len(anchored)
    stacked = {x for x in anchored if sum(s.anchor == x for s in everything) > 1}
    assert a.anchors[THREE] in stacked and {c["anchor"] for c in a.composed} == stacked  # one request each
    pane_file, server_file = a.document(), a.redline(everything)
    same_document(pane_file, server_file, a.original, comments=15)
    lo_accept, lo_reject, server_accept, server_reject = oracles.lo_texts(
        [(pane_file, "accept"), (pane_file, "reject"), (server_file, "accept"), (server_file, "reject")])
    assert lo_accept == server_accept == ACCEPTED
    assert lo_reject == server_reject == REJECTED
    assert oracles.opens(pane_file)


def test_apply_all_of_a_severity_then_of_a_clause(applied):
    a = applied("scoped")
    major = list(a.run.suggestions.filter(severity="major").order_by("position"))
    liability = list(a.run.suggestions.filter(rule_key="limitation-of-liability").order_by("position"))
    assert major and liability and {s.severity for s in liability} == {"critical"}
    a.page.get_by_role("button", name="Apply all major suggestions").click()
    expect(a.page.locator("#summary")).to_have_text(f"Applied {len(major)} of {len(major)} suggestions.")
    expect(a.page.locator(".result.is-applied")).to_have_count(len(major))
    a.page.locator(".rule").filter(has=a.page.locator(".result", has_text="liability shall be unlimited")).first \
        .get_by_role("button", name="Apply all suggestions for").click()
    expect(a.page.locator("#summary")).to_have_text(f"Applied {len(liability)} of {len(liability)} suggestions.")
    expect(a.page.locator(".result.is-applied")).to_have_count(len(major) + len(liability))
    # The stacked paragraph took its major suggestions first, then its critical one on top.
    spans = [i["span"] for i in a.pane.double("log.inserts") if anchor_of(i) == a.anchors[THREE]]
    assert spans == [1, 2]
    chosen = sorted(major + liability, key=lambda s: s.position)
    assert len(chosen) == 14
    same_document(a.document(), a.redline(chosen), a.original, comments=14)
