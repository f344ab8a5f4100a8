"""The task pane in headless Chromium against the real server, over the Office double.

The pane's code is the shipped code; only Office.js is replaced (tests/addin/office_double).
What real Word does with the same calls is checked by hand (README, "Word add-in").
"""

from __future__ import annotations

import re
import time
from urllib.parse import parse_qs, urlsplit

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from redline.clauses import PLAYBOOK_TO_CUAD
from redline.models import AnalysisRun, ApiKey, Document, DocumentVersion, Feedback, KnownEntry, Outcome, Suggestion
from redline.services.files import document_version_read
from redline.services.playbooks import playbook_default_install
from redline.services.untracked import run_export_keep
from tests.support.browser import OFFICE_JS, axe_source
from tests.support.clause_contract import GOVERNING_LAW

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PARTITION = "double-partition:"
DOC_ID = "5EED5EED5EED5EED"
SIDE = "Supplier"  # the lawyer acts for the Supplier: every finding below works against it
SEED = {
    "partitionKey": PARTITION,
    "customProperties": {"RedlineDocID": DOC_ID},
    "url": "https://contoso.sharepoint.com/sites/legal/Shared%20Documents/Supply%20Agreement.docx",
    "changeTrackingMode": "TrackAll",
    "paragraphs": [
        {"text": "Supply Agreement", "style": "Title"},
        {"text": "1. Liability", "style": "Heading 1"},
        {"text": "The Supplier's liability shall be unlimited for all claims arising under this Agreement.",
         "bookmarks": ["_RL_0123456789ab", "_Toc100"]},
        {"text": ""},
        {"text": "2. Payment", "style": "Heading 1"},
        {"text": "The Customer shall pay within 90 days of invoice."},
        {"text": "3. Indemnity", "style": "Heading 1"},
        {"text": "The Supplier shall indemnify the Customer against any and all losses whatsoever."},
    ],
}
REVIEW_TIMEOUT_MS = 90_000


def sign_in(pane, member) -> None:
    page = pane.page
    expect(page.locator("#signed-out")).to_be_visible()
    with page.expect_popup() as popup:
        page.click("#sign-in")
    dialog = popup.value
    dialog.fill("#id_username", member.membership.user.username)
    dialog.fill("#id_password", member.password)
    with dialog.expect_event("close"):
        dialog.click("button[type=submit]")
    expect(page.locator("#workspace")).to_be_visible()
    expect(page.locator("#account")).to_contain_text(f"{member.membership.user.username} · {member.workspace.name}")


def review(pane) -> None:
    page = pane.page
    page.click("#review")
    expect(page.locator("#review")).to_be_disabled()
    expect(page.locator("#review")).to_be_enabled(timeout=REVIEW_TIMEOUT_MS)
    expect(page.locator("#alert")).to_be_hidden()


def card(page, kind: str, quote: str):
    return page.locator(".result").filter(has=page.locator(".kind", has_text=kind)).filter(
        has=page.locator(".quote", has_text=quote))


def suggestion_of(result) -> Suggestion:
    """The stored suggestion behind a result card (cards are keyed by the stable suggestion id)."""
    return Suggestion.objects.filter(sid=result.get_attribute("data-id")).latest("pk")


def wait_for(predicate, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_sign_in_review_apply_feedback_and_rereview(alice, open_pane):
    playbook_default_install(workspace=alice.workspace)
    pane = open_pane(SEED, side=SIDE)
    page = pane.page

    # Sign in: a same-origin dialog logs in through Django and hands back a new key.
    sign_in(pane, alice)
    key = page.evaluate(f"() => localStorage.getItem('{PARTITION}redline.apiKey')")
    assert key.startswith("rl_") and key != alice.key
    issued = ApiKey.objects.get(membership=alice.membership, name__startswith="Word add-in")
    assert key.split("_")[1] == issued.prefix
    assert page.evaluate("() => localStorage.getItem('redline.apiKey')") is None  # only under the partition key

    # Review: anchors, identity, upload of the whole file, progress to done, results.
    review(pane)
    expect(page.locator("#progress")).to_be_hidden()  # one completion message: the summary
    expect(page.locator("text=/Review complete/ >> visible=true")).to_have_count(1)
    doc = pane.double("snapshot()")
    for p in doc["paragraphs"]:
        anchors = [b for b in p["bookmarks"] if re.fullmatch(r"_RL_[0-9a-f]{12}", b)]
        assert len(anchors) == (1 if p["text"] else 0), p
    assert "_RL_0123456789ab" in doc["paragraphs"][2]["bookmarks"]  # an existing anchor is kept
    assert "_Toc100" in doc["paragraphs"][2]["bookmarks"]
    document = Document.objects.get(workspace=alice.workspace)
    assert dict(doc["properties"]) == {"RedlineDocID": document.doc_id}
    assert document.title == "Supply Agreement"
    version = DocumentVersion.objects.get(document=document)
    assert version.source == "docx"
    run = AnalysisRun.objects.get(document_version=version)
    suggestions = list(run.suggestions.order_by("position"))
    assert suggestions and run.status == "done" and run.acting_for == SIDE
    expect(page.locator("#side-select")).to_have_value(SIDE)  # the side chosen earlier for this document
    expect(page.locator("#side .hint")).to_be_hidden()
    expect(page.locator(".result")).to_have_count(len(suggestions))
    expect(page.locator("#summary")).to_have_text(f"Review complete: {len(suggestions)} new suggestions.")
    # The pane opens with one line per playbook rule and its status, each leading somewhere (issue #30).
    lines = page.locator("#rule-status .rule-line")
    expect(lines).to_have_count(len(run.stats["rule_status"]))
    met = next(r for r in run.stats["rule_status"] if r["status"] == "meets" and r["anchor"])
    line = lines.filter(has_text=met["title"])
    expect(line.locator(".badge")).to_have_text("Meets")
    line.locator("button").click()  # a rule met: its clause is selected in Word
    wait_for(lambda: pane.double("log.selections").__len__() == 1)
    met_at = next(i for i, p in enumerate(pane.double("snapshot()")["paragraphs"]) if met["anchor"] in p["bookmarks"])
    assert pane.double("log.selections")[0]["paragraph"] == met_at
    short = next(r for r in run.stats["rule_status"] if r["new"])
    lines.filter(has_text=short["title"]).locator("button").click()  # a rule with suggestions: its results
    expect(page.locator(f'[data-rule="{short["key"]}"]')).to_be_in_viewport()
    severities = page.locator(".severity .badge").all_inner_texts()
    assert severities == sorted(severities, key=["Critical", "Major", "Minor"].index)
    liability = card(page, "Comment", "liability shall be unlimited")
    expect(liability.locator(".verdict")).to_have_text(re.compile(r"^Validator: Fails \(\d+% confident\)$"))
    # Failed validation is said, with why, before the Apply button (which says "anyway").
    caution = liability.locator(".caution")
    expect(caution).to_be_visible()
    expect(caution).to_contain_text("Check before applying: the validator found problems with this suggestion.")
    expect(liability.locator(".apply")).to_have_text("Apply anyway")
    expect(liability.locator(".apply")).to_have_accessible_description(re.compile("^Check before applying"))
    assert liability.evaluate("c => c.querySelector('.caution').compareDocumentPosition(c.querySelector('.apply'))"
                              " & Node.DOCUMENT_POSITION_FOLLOWING")
    expect(card(page, "Replace", "90 days").locator(".caution")).to_be_hidden()
    guidance = page.locator(".rule").filter(has=liability).locator(".guidance p")
    expect(guidance).to_have_text(run.playbook_version.rules.get(key="limitation-of-liability").spec["guidance"].strip())

    # Navigate: clicking a result selects its anchored paragraph in Word.
    liability.locator(".locate").click()
    wait_for(lambda: pane.double("log.selections").__len__() == 2)
    assert pane.double("log.selections")[1]["paragraph"] == 2
    # A missing clause's card says where it goes, quotes nothing as "the problem", and shows that place.
    placed = next(s for s in suggestions if s.data.get("placement"))
    insert = page.locator(f'.result[data-id="{placed.sid}"]')
    expect(insert.locator(".where")).to_have_text(placed.data["placement"])
    assert re.fullmatch(r"New (§[\w.]+ )?.+, after .+", placed.data["placement"]), placed.data["placement"]
    expect(insert.locator(".quote")).to_have_count(0)
    insert.locator(".locate").click()
    wait_for(lambda: pane.double("log.selections").__len__() == 3)
    place_at = next(i for i, p in enumerate(pane.double("snapshot()")["paragraphs"]) if placed.anchor in p["bookmarks"])
    assert pane.double("log.selections")[2]["paragraph"] == place_at

    # Apply: the server's patch goes to insertOoxml with Word's tracking off, then restored.
    payment = card(page, "Replace", "90 days")
    payment.locator(".apply").click()
    expect(payment.locator(".state")).to_have_text("Applied as a tracked change.")
    replace = Suggestion.objects.get(run=run, kind="replace", rule_key="payment-terms")
    inserts = pane.double("log.inserts")
    assert len(inserts) == 1
    assert inserts[0]["ooxml"] == replace.patch  # a paragraph's first suggestion: its own patch, no request
    assert inserts[0]["location"] == "Replace"
    assert inserts[0]["paragraph"] == 5
    assert inserts[0]["changeTrackingMode"] == "Off"
    assert pane.double("log.trackingModes") == ["TrackAll", "Off", "TrackAll"]
    assert pane.double("doc.changeTrackingMode") == "TrackAll"
    wait_for(lambda: KnownEntry.objects.filter(suggestion=replace).exists())
    entry = KnownEntry.objects.get(suggestion=replace)
    assert entry.entry_id == replace.entry["id"] and entry.outcome == Outcome.PENDING
    expect(payment.locator(".apply")).to_be_disabled()

    # Feedback: 👍 is fire-and-forget; 👎 opens an optional follow-up that Escape closes.
    liability.locator(".vote.up").click()
    wait_for(lambda: Feedback.objects.filter(thumbs_up=True).exists())
    indemnity = page.locator(".result").filter(has=page.locator(".quote", has_text="The Supplier shall indemnify"))
    indemnity.first.locator(".vote.down").click()
    follow_up = page.locator("#follow-up")
    expect(follow_up).to_be_visible()
    page.keyboard.press("Escape")
    expect(follow_up).to_be_hidden()
    down = suggestion_of(indemnity.first)
    wait_for(lambda: Feedback.objects.filter(suggestion=down, thumbs_up=False).exists())
    assert Feedback.objects.get(suggestion=down).follow_up_reason == ""
    # A vote can be changed: down after up replaces it (and offers the follow-up), up again restores it.
    other = card(page, "Comment", "liability shall be unlimited")
    voted = suggestion_of(other)
    expect(other.get_by_role("button", name="Helpful", exact=True)).to_have_attribute("aria-pressed", "true")
    other.get_by_role("button", name="Not helpful").click()
    expect(other.get_by_role("button", name="Not helpful")).to_have_attribute("aria-pressed", "true")
    expect(other.get_by_role("button", name="Helpful", exact=True)).to_have_attribute("aria-pressed", "false")
    wait_for(lambda: not Feedback.objects.get(suggestion=voted).thumbs_up)
    page.keyboard.press("Escape")
    other.get_by_role("button", name="Helpful", exact=True).click()
    wait_for(lambda: Feedback.objects.get(suggestion=voted).thumbs_up)
    assert Feedback.objects.filter(suggestion=voted).count() == 1
    second = page.locator(".result").nth(len(suggestions) - 1)
    second.locator(".vote.down").click()
    expect(follow_up).to_be_visible()
    follow_up.get_by_label("Too strict").check()
    follow_up.locator("textarea").fill("We accept 90 days with this customer.")
    follow_up.get_by_role("button", name="Send").click()
    expect(follow_up).to_be_hidden()
    answered = suggestion_of(second)
    wait_for(lambda: Feedback.objects.filter(suggestion=answered, follow_up_reason="too_strict").exists())
    assert Feedback.objects.get(suggestion=answered).additional_comments == "We accept 90 days with this customer."

    # The lawyer rejects our change in Word; the re-review learns it and does not repeat it.
    pane.double("rejectAll()")
    review(pane)
    expect(page.locator("#not-repeated")).to_have_text("1 earlier suggestion you rejected was not proposed again.")
    versions = DocumentVersion.objects.filter(document=document)
    assert versions.count() == 2  # same document, recognised by its RedlineDocID
    entry.refresh_from_db()
    assert entry.outcome == Outcome.REJECTED
    rerun = AnalysisRun.objects.exclude(pk=run.pk).get(document_version__document=document)
    assert rerun.stats["suppressed"] == 1
    assert not rerun.suggestions.filter(sid=replace.sid).exists()
    expect(page.locator(".result")).to_have_count(rerun.suggestions.count())
    expect(card(page, "Replace", "90 days")).to_have_count(0)


def anchor_of(paragraph: dict) -> str | None:
    return next((b for b in paragraph["bookmarks"] if re.fullmatch(r"_RL_[0-9a-f]{12}", b)), None)


def test_apply_all_composes_each_paragraphs_suggestions_in_document_order_never_over_edits(alice, open_pane):
    playbook_default_install(workspace=alice.workspace)
    pane = open_pane(SEED, side=SIDE)
    page = pane.page
    sign_in(pane, alice)
    review(pane)
    anchors = [anchor_of(p) for p in pane.double("snapshot()")["paragraphs"]]
    run = AnalysisRun.objects.get()
    total = run.suggestions.count()
    on_payment = run.suggestions.filter(anchor=anchors[5]).count()
    indemnity = list(run.suggestions.filter(anchor=anchors[7]).order_by("position"))
    assert total > 3 and len(indemnity) > 1

    pane.double("edit(5, 'The Customer shall pay within 30 days of invoice.')")  # the lawyer changed this meanwhile
    page.click("#apply-all")
    expect(page.locator("#summary")).to_have_text(f"Applied {total - on_payment} of {total} suggestions.")

    inserts = pane.double("log.inserts")
    assert [anchors.index(anchor_of(i)) for i in inserts] == [2, 7]  # document order, one composed patch each
    assert all(i["changeTrackingMode"] == "Off" for i in inserts)
    assert pane.double("log.trackingModes") == ["TrackAll", "Off", "TrackAll", "Off", "TrackAll"]
    # All of the indemnity paragraph's suggestions (inserted clauses) went in with its one patch.
    texts = [p["text"] for p in pane.double("snapshot()")["paragraphs"]]
    for s in indemnity:
        assert sum(t == s.data["new_text"] for t in texts) == 1, s.data["new_text"]
    payment = card(page, "Replace", "90 days")
    expect(payment.locator(".state")).to_have_text(re.compile("^This paragraph was edited after the review"))
    expect(payment.locator(".apply")).to_be_enabled()
    expect(page.locator(".result.is-applied")).to_have_count(total - on_payment)
    wait_for(lambda: KnownEntry.objects.count() == total - on_payment)
    assert {e.suggestion.anchor for e in KnownEntry.objects.all()} == {anchors[2], anchors[7]}

    payment.locator(".apply").click()  # still refused: nothing is applied over the lawyer's words
    expect(payment.locator(".state")).to_have_text(re.compile("^This paragraph was edited after the review"))
    assert len(pane.double("log.inserts")) == 2


def test_errors_are_plain_words_with_retry_and_nothing_is_half_applied(alice, open_pane):
    playbook_default_install(workspace=alice.workspace)
    pane = open_pane(SEED, side=SIDE)
    page = pane.page
    sign_in(pane, alice)

    # Network down: a plain sentence and a retry that works once the network is back.
    page.route("**/api/**", lambda route: route.abort())
    page.click("#review")
    expect(page.locator("#alert-text")).to_have_text("Redline can't be reached. Check your connection, then retry.")
    expect(page.locator("#retry")).to_be_visible()
    page.unroute("**/api/**")
    streams: list[str] = []

    def break_first_stream(route) -> None:
        """The first progress stream breaks after three events: the pane must resume after the third."""
        streams.append(route.request.url)
        if len(streams) > 1:
            route.continue_()
            return
        frames = [f for f in route.fetch().text().split("\n\n") if f.startswith("id:")][:3]
        route.fulfill(status=200, content_type="text/event-stream", body="\n\n".join(frames) + "\n\n")

    page.route("**/api/runs/*/events?*", break_first_stream)
    ticket_requests: list[str] = []
    page.on("request", lambda r: r.url.endswith("/ticket") and ticket_requests.append(r.method))
    page.click("#retry")
    expect(page.locator("#summary")).to_have_text(re.compile("^Review complete: "), timeout=REVIEW_TIMEOUT_MS)
    expect(page.locator("#alert")).to_be_hidden()
    assert len(streams) == 2 and ticket_requests == ["POST", "POST"]  # a fresh ticket for the new connection
    assert [parse_qs(urlsplit(u).query)["last_event_id"] for u in streams] == [["0"], ["3"]]
    expect(page.locator(".result")).to_have_count(AnalysisRun.objects.get().suggestions.count())
    page.unroute("**/api/runs/*/events?*")

    # Word fails during the insert: tracking is restored, nothing is recorded, retry applies it.
    payment = card(page, "Replace", "90 days")
    pane.double("failNextInsert('GeneralException: the OOXML could not be inserted')")
    payment.locator(".apply").click()
    expect(page.locator("#alert-text")).to_have_text(
        "Word couldn't do that: GeneralException: the OOXML could not be inserted")
    assert pane.double("doc.changeTrackingMode") == "TrackAll"
    assert pane.double("log.trackingModes") == ["TrackAll", "Off", "TrackAll"]
    assert pane.double("log.inserts") == [] and not KnownEntry.objects.exists()
    expect(payment.locator(".apply")).to_have_text("Apply")
    expect(payment.locator(".state")).not_to_have_text("Applying…")  # the alert says it; the card is not stuck
    page.click("#retry")
    expect(payment.locator(".state")).to_have_text("Applied as a tracked change.")
    wait_for(lambda: KnownEntry.objects.count() == 1)

    pane.double("rejectAll()")  # the lawyer rejects it: the next reviews start from the original text

    # A server error: plain words, no internals.
    page.route("**/api/documents", lambda route: route.fulfill(
        status=500, content_type="application/json",
        body='{"code": "internal_error", "message": "Traceback (most recent call last)", "detail": {}}'))
    page.click("#review")
    expect(page.locator("#alert-text")).to_have_text("Redline had a problem on its side. Please retry in a moment.")
    page.unroute("**/api/documents")

    # Too large: says so, and offers no pointless retry.
    page.route("**/api/documents", lambda route: route.fulfill(
        status=413, content_type="application/json",
        body='{"code": "too_large", "message": "The file is larger than the upload limit.", "detail": {"limit": 52428800}}'))
    page.click("#review")
    expect(page.locator("#alert-text")).to_have_text(
        "This document is too large for Redline to review (the limit is 50 MB).")
    expect(page.locator("#retry")).to_be_hidden()
    page.unroute("**/api/documents")

    # The key is revoked: back to sign-in, with the reason, and the key is forgotten.
    ApiKey.objects.filter(name__startswith="Word add-in").update(revoked_at=timezone.now())
    page.click("#review")
    expect(page.locator("#signed-out-reason")).to_have_text(
        "Your sign-in is no longer valid (it may have been revoked). Sign in again.")
    assert page.evaluate(f"() => localStorage.getItem('{PARTITION}redline.apiKey')") is None


def test_sign_out_revokes_the_key_and_closing_the_dialog_is_not_an_error(alice, open_pane):
    pane = open_pane(SEED, side=SIDE)
    page = pane.page
    with page.expect_popup() as popup:
        page.click("#sign-in")
    popup.value.close()
    expect(page.locator("#signed-out-reason")).to_have_text("The sign-in window was closed before signing in.")

    sign_in(pane, alice)
    page.click("#sign-out")
    expect(page.locator("#signed-out-reason")).to_have_text("You are signed out.")
    assert page.evaluate(f"() => localStorage.getItem('{PARTITION}redline.apiKey')") is None
    key = ApiKey.objects.get(name__startswith="Word add-in")
    wait_for(lambda: ApiKey.objects.get(pk=key.pk).revoked_at is not None)


def test_without_compressed_file_support_the_pane_sends_paragraphs(alice, open_pane):
    playbook_default_install(workspace=alice.workspace)
    pane = open_pane({**SEED, "requirementSets": {"WordApi": "1.4", "DialogApi": "1.2"}}, side=SIDE)
    page = pane.page
    sign_in(pane, alice)
    review(pane)
    version = DocumentVersion.objects.get()
    assert version.source == "paragraphs"
    paragraphs = pane.double("snapshot()")["paragraphs"]
    assert [p["anchor"] for p in version.payload] == [anchor_of(p) for p in paragraphs if p["text"]]
    assert [p["text"] for p in version.payload] == [p["text"] for p in paragraphs if p["text"]]
    assert dict(pane.double("snapshot()")["properties"]) == {"RedlineDocID": version.document.doc_id}
    expect(page.locator(".result")).to_have_count(AnalysisRun.objects.get().suggestions.count())
    payment = card(page, "Replace", "90 days")
    payment.locator(".apply").click()
    expect(payment.locator(".state")).to_have_text("Applied as a tracked change.")
    assert pane.double("log.inserts")[0]["ooxml"] == Suggestion.objects.get(rule_key="payment-terms").patch


def test_word_without_api_1_4_is_told_plainly(open_pane):
    pane = open_pane({**SEED, "requirementSets": {"WordApi": "1.3"}}, side=SIDE)
    expect(pane.page.locator("#unsupported")).to_be_visible()
    expect(pane.page.locator("#unsupported-text")).to_contain_text("it needs Word API 1.4")


def test_clauses_section_lists_every_category_and_selects_the_cited_paragraph(alice, open_pane):
    playbook_default_install(workspace=alice.workspace)
    seed = {**SEED, "paragraphs": [*SEED["paragraphs"], {"text": "4. Governing Law", "style": "Heading 1"},
                                   {"text": GOVERNING_LAW}]}
    pane = open_pane(seed, side=SIDE)
    page = pane.page
    sign_in(pane, alice)
    expect(page.locator("#clauses")).to_be_hidden()
    review(pane)

    expect(page.locator("#clauses")).to_be_visible()
    expect(page.locator("#clauses-summary")).to_have_text(re.compile(r"^\d+ of 41 kinds of clause found\.$"))
    expect(page.locator("#clauses .clause")).to_have_count(41 + len(PLAYBOOK_TO_CUAD))
    basic = page.locator("#clauses .clause-group").first
    expect(basic.locator(".name")).to_have_text("Basic information")
    expect(basic).to_have_attribute("open", "")  # a group with a clause found starts open
    law = page.locator("#clauses .clause[data-status=present]").filter(
        has=page.get_by_role("button", name="Governing law", exact=True)).first  # CUAD's, then the playbook's
    expect(law.locator(".status")).to_have_text("present")  # the engine's decision, not a bare percentage
    # Three states only, each explained; every category in a lawyer's words (issue #30, point 5).
    expect(page.locator("#clauses-legend li")).to_have_text([
        re.compile(r"^present: The clause engine found"), re.compile(r"^absent: The engine is confident"),
        re.compile(r"^not sure: Neither found nor ruled out")])
    texts = "els => els.map((e) => e.textContent)"  # closed groups too
    assert set(page.locator("#clauses .clause .status").evaluate_all(texts)) == {"present", "absent", "not sure"}
    labels = page.locator("#clauses .clause").evaluate_all(texts)
    assert any(t.startswith("Right of first refusal / offer / negotiation") for t in labels), labels
    assert not any(raw in " ".join(labels) for raw in ("Rofr", "Ip Ownership", "All-You-Can-Eat", "Uncertain"))
    for row in page.locator("#clauses .clause:not([data-status=present])").all():
        expect(row.locator("button")).to_have_count(0)  # only a clause found points at a paragraph

    law.locator("button").click()
    wait_for(lambda: len(pane.double("log.selections")) == 1)
    assert pane.double("log.selections")[0]["paragraph"] == 9

    pane.double("doc.paragraphs.splice(9, 1)")  # the lawyer deleted it meanwhile: said plainly, nothing else happens
    law.locator("button").click()
    expect(page.locator("#clauses-state")).to_have_text("This paragraph is no longer in the document.")


def test_changes_since_we_sent_it(alice, open_pane):
    """The redline went out (downloaded from the run); in Word the paragraph on payment is then retyped with
    tracking off. The pane's "Changes since we sent it" uploads the open document and lists that paragraph as
    changed without tracking, leading to it."""
    playbook_default_install(workspace=alice.workspace)
    pane = open_pane(SEED, side=SIDE)
    page = pane.page
    sign_in(pane, alice)
    page.click("#since-sent-button")
    expect(page.locator("#since-sent-state")).to_contain_text("Nothing was downloaded from Redline")
    review(pane)
    run = AnalysisRun.objects.get()
    # The redline that went out, kept as the export keeps it. (The Word double's file references styles it does
    # not define, so a redline written on it would fail the validator rule for a reason not this test's.)
    run_export_keep(run=run, data=document_version_read(version=run.document_version))
    pane.double("doc.paragraphs[5].text = 'The Customer shall pay within 120 days of invoice.'")  # tracking off
    page.click("#since-sent-button")
    expect(page.locator("#since-sent-state")).to_have_text("1 paragraph changed since the redline went out.",
                                                           timeout=REVIEW_TIMEOUT_MS)
    line = page.locator("#since-sent-list li")
    expect(line).to_have_count(1)
    expect(line).to_contain_text("Not tracked")
    expect(line).to_contain_text("“The Customer shall pay within 90 days of invoice.” → "
                                 "“The Customer shall pay within 120 days of invoice.”")
    before = len(pane.double("log.selections"))
    line.locator("button").click()
    wait_for(lambda: len(pane.double("log.selections")) == before + 1)
    assert pane.double("log.selections")[-1]["paragraph"] == 5


@pytest.mark.parametrize(("office_js", "says"), [
    (None, "could not be loaded from appsforoffice.microsoft.com"),  # blocked: "Office is not defined"
    ("window.Office = {onReady: () => new Promise(() => {})};", "Word has not answered the pane"),  # never ready
    ("hang", "has not loaded from appsforoffice.microsoft.com in 8 seconds"),  # the request never answered
], ids=["not-loaded", "no-answer", "hanging"])
def test_a_pane_that_cannot_start_says_so_after_eight_seconds_at_most(chromium, redline_server, office_js, says):
    """The pane's clock is Playwright's fake one, paused: the 8-second promise is checked on the page's own time,
    to the tenth of a second, whatever the load of the machine. While it is paused nothing in the page waits
    (Playwright's auto-waiting runs on the page's timers too), so the page is read at once, then the clock
    is let go for the checks that follow."""
    context = chromium.new_context()
    try:
        context.clock.install(time=0)
        context.clock.pause_at(1_000)  # the page starts at 1.000 s of its clock, and its time moves only when told
        if office_js is None:
            context.route(OFFICE_JS, lambda route: route.abort())
        elif office_js == "hang":  # a firewall that drops the packets: the request is never answered
            context.route(OFFICE_JS, lambda route: None)
        else:
            context.route(OFFICE_JS, lambda route: route.fulfill(body=office_js, content_type="text/javascript"))
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{redline_server}/addin/taskpane/",  # (a hanging Office.js holds the "load" event forever)
                  wait_until="commit" if office_js == "hang" else "load")
        if office_js == "hang":  # the clock that explains a silence runs, the page still waits for Office.js
            wait_for(lambda: page.evaluate("() => typeof window.redlineBoot") == "object")
            assert page.evaluate("() => document.readyState") == "loading" and not page.locator("#starting").count()

        def alerts() -> list[str]:
            return page.evaluate("() => [...document.querySelectorAll('[role=alert]')]"
                                 ".filter(e => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')"
                                 ".map(e => e.textContent)")

        if office_js is not None:
            page.clock.run_for(7_900)
            assert alerts() == [] and (office_js == "hang" or page.locator("#starting").is_visible())  # 7.9 s
            page.clock.run_for(200)  # 8.1 s
        # (blocked Office.js: nothing to wait for, it says so at once, without the page's clock moving)
        assert len(shown := alerts()) == 1 and says in shown[0], shown
        assert not page.locator("#starting").is_visible()
        page.clock.resume()
        expect(page.get_by_role("button", name="Reload the pane")).to_be_visible()
        assert not errors  # no "Office is not defined"
        violations = page.evaluate(axe_source() + "\n;axe.run(document).then(r => r.violations"
                                   ".filter(v => ['serious', 'critical'].includes(v.impact)).map(v => v.id))")
        assert violations == []
    finally:
        context.close()


def test_the_side_is_asked_once_per_document_and_remembered(alice, open_pane):
    playbook_default_install(workspace=alice.workspace)
    pane = open_pane(SEED)  # no side chosen yet for this document
    page = pane.page
    sign_in(pane, alice)
    review(pane)
    expect(page.locator("#side")).to_be_visible()
    expect(page.locator("#side .hint")).to_be_visible()
    expect(page.locator("#side-select")).to_have_value("")
    assert [o.strip() for o in page.locator("#side-select option").all_inner_texts()] == [
        "No side: questions, no edits", "Supplier", "Customer"]  # in the order the contract names them
    expect(card(page, "Replace", "90 days")).to_have_count(0)  # without a side it asks, never edits
    expect(page.locator(".result", has_text="Which party do you act for?").first).to_be_visible()
    assert AnalysisRun.objects.get().acting_for == ""

    page.select_option("#side-select", SIDE)  # choosing reviews again, for that side
    expect(card(page, "Replace", "90 days")).to_have_count(1, timeout=REVIEW_TIMEOUT_MS)
    expect(page.locator("#review")).to_be_enabled(timeout=REVIEW_TIMEOUT_MS)
    expect(page.locator("#side .hint")).to_be_hidden()
    assert list(AnalysisRun.objects.order_by("pk").values_list("acting_for", flat=True)) == ["", SIDE]

    page.reload()  # the choice is remembered for the document: the next review takes it without asking
    expect(page.locator("#workspace")).to_be_visible()
    review(pane)
    expect(page.locator("#side-select")).to_have_value(SIDE)
    assert AnalysisRun.objects.latest("pk").acting_for == SIDE
