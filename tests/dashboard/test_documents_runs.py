"""Documents and runs: lists, downloads, starting a run, live progress to done, suggestions in context, votes."""

from __future__ import annotations

import re
from unittest import mock

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from redline.jobs.worker import in_process_worker
from redline.models import AnalysisRun, DocumentVersion, Feedback, KnownEntry
from tests.dashboard.conftest import CONTRACT, HTMX


@pytest.mark.django_db
def test_documents_and_document_page(reviewer, seeded):
    home = reviewer.get("/").content.decode()
    doc = seeded.run.document_version.document
    assert f'href="/documents/{doc.pk}/"' in home and f'href="/runs/{seeded.run.pk}/"' in home
    page = reviewer.get(f"/documents/{doc.pk}/").content.decode()
    assert "msa.docx" in page and f"/versions/{seeded.run.document_version_id}/download/" in page
    assert "Default commercial contract playbook v1" in page and "Review this version" in page
    original = reviewer.get(f"/versions/{seeded.run.document_version_id}/download/")
    assert original.status_code == 200 and b"".join(original.streaming_content)[:2] == b"PK"


@pytest.mark.django_db
def test_documents_home_sums_up_what_is_open_searches_and_uploads(reviewer, seeded):
    home = reviewer.get("/").content.decode()
    # Seeded: 6 minor rejected, 3 major accepted, 1 major pending: one major point is still open.
    assert '<span class="badge sev-major">1 major</span>' in home and "sev-minor\">6" not in home
    totals = dict((label, value) for value, label in re.findall(
        r'kpi-value">(\d+)</span><span class="kpi-label">(\w+) points open', home))
    assert totals == {"critical": "0", "major": "1", "minor": "0"}
    assert "msa" in reviewer.get("/", {"q": "MS"}).content.decode()
    assert "No document matches “nothing-like-it”." in reviewer.get("/", {"q": "nothing-like-it"}).content.decode()

    upload = reviewer.post("/documents/upload/", {"file": SimpleUploadedFile("supply.docx", CONTRACT)})
    version = DocumentVersion.objects.get(filename="supply.docx")
    assert upload.status_code == 302 and upload["Location"] == f"/documents/{version.document_id}/"
    assert "Uploaded. Choose a playbook" in reviewer.get(upload["Location"]).content.decode()
    again = reviewer.post("/documents/upload/", {"file": SimpleUploadedFile("supply.docx", CONTRACT)}, follow=True)
    assert "This exact file was uploaded before" in again.content.decode()
    bad = reviewer.post("/documents/upload/", {"file": SimpleUploadedFile("notes.docx", b"not a zip")})
    assert bad.status_code == 422 and 'role="alert"' in bad.content.decode()
    assert DocumentVersion.objects.filter(filename="notes.docx").count() == 0


@pytest.mark.django_db
def test_run_page_groups_suggestions_with_context_verdicts_outcomes_and_votes(reviewer, seeded):
    page = reviewer.get(f"/runs/{seeded.run.pk}/").content.decode()
    groups = re.findall(r'<h3 id="g-\d+">([^<]+)<', page)
    assert [g.strip() for g in groups] == ["Payment terms", "Late payment"]  # major before minor
    assert '<blockquote class="context">The Supplier shall deliver the <mark>Goods</mark>.</blockquote>' in page
    assert 'class="badge verdict-FAIL">FAIL' in page and 'class="badge outcome-rejected">rejected' in page
    assert "hx-trigger" not in page.split('id="run-live"')[1].split(">")[0]  # finished: no polling
    assert f'action="/runs/{seeded.run.pk}/redline.docx"' in page
    first = seeded.suggestions[0]
    first.data["comment"] = "Late fees above the statutory rate are a penalty; keep them as drafted."
    first.data["validation"]["issues"] = [
        {"severity": "major", "issue_type": "accuracy", "description": first.data["comment"]},  # the comment again
        {"severity": "major", "issue_type": "accuracy", "description": f"Late payment: {first.data['comment']}"},
        {"severity": "minor", "issue_type": "clarity", "description": "The quote is cut mid-sentence."}]
    first.save()
    page = reviewer.get(f"/runs/{seeded.run.pk}/").content.decode()
    issues = re.search(r'<ul class="issues">(.*?)</ul>', page, re.S).group(1)
    assert "The quote is cut mid-sentence." in issues and first.data["comment"] not in issues
    by_severity = reviewer.get(f"/runs/{seeded.run.pk}/", {"group": "severity"}).content.decode()
    assert [g.strip() for g in re.findall(r'<h3 id="g-\d+">([^<]+)<', by_severity)] == ["Major", "Minor"]


@pytest.mark.django_db
def test_thumbs_feedback_with_optional_follow_up(reviewer, carol, seeded):
    s = seeded.suggestions[5]
    down = reviewer.post(f"/suggestions/{s.pk}/feedback/", {"vote": "down"}, **HTMX).content.decode()
    assert down.lstrip().startswith(f'<div class="feedback" id="fb-{s.pk}">')
    assert 'value="down" class="thumb" aria-pressed="true"' in down
    assert 'name="follow_up_reason" autofocus' in down  # asked, optional
    vote = Feedback.objects.get(suggestion=s, user=carol.user)
    assert not vote.thumbs_up and vote.follow_up_reason == ""
    reason = reviewer.post(f"/suggestions/{s.pk}/feedback/", {"vote": "down", "follow_up_reason": "not_clear"},
                           **HTMX).content.decode()
    assert "Your reason: not clear" in reason and "follow_up_reason" not in reason
    vote.refresh_from_db()
    assert vote.tags == ["explanation_quality", "clarity_issue"]
    skip = reviewer.get(f"/suggestions/{s.pk}/feedback/", **HTMX).content.decode()
    assert "follow_up_reason" not in skip
    up = reviewer.post(f"/suggestions/{s.pk}/feedback/", {"vote": "up"}).status_code
    assert up == 302 and Feedback.objects.get(suggestion=s, user=carol.user).thumbs_up
    assert Feedback.objects.filter(suggestion=s).count() == 1  # one vote per person
    assert reviewer.post(f"/suggestions/{s.pk}/feedback/", {"vote": "meh"}, **HTMX).status_code == 200


@pytest.mark.django_db(transaction=True)
def test_start_a_run_watch_progress_and_rerun(admin, alice, playbook):
    from redline.services.documents import document_version_create

    version, *_ = document_version_create(workspace=alice.workspace, data=CONTRACT, filename="msa.docx",
                                            uploaded_by=None)
    assert in_process_worker().wait_idle(60)
    page = admin.get(f"/documents/{version.document_id}/").content.decode()
    # the sides a review may take: the parties the contract names, and none (questions, no edits) by default
    assert '<option value="" selected>' not in page and '<option value="">No side' in page
    assert '<option value="Customer">Customer</option>' in page and '<option value="Supplier">Supplier</option>' in page
    with mock.patch("redline.jobs.dispatch.job_dispatch") as dispatch:  # hold the job: see the queued state first
        resp = admin.post(f"/documents/{version.document_id}/runs/", {"version": version.pk, "acting_for": "Supplier",
                                                                      "playbook": playbook.playbook_id})
    run = AnalysisRun.objects.get()
    assert resp.status_code == 302 and resp["Location"] == f"/runs/{run.pk}/"
    queued = admin.get(f"/runs/{run.pk}/").content.decode()
    assert "<dt>Acting for</dt><dd>Supplier</dd>" in queued
    assert 'hx-trigger="every 1s"' in queued and "<progress" in queued and "Queued" in queued
    polled = admin.get(f"/runs/{run.pk}/progress/", **HTMX)
    assert polled.status_code == 200 and 'hx-trigger="every 1s"' in polled.content.decode()  # keep polling
    in_process_worker().submit(dispatch.call_args.kwargs["job_id"])
    assert in_process_worker().wait_idle(60)
    done = admin.get(f"/runs/{run.pk}/progress/", **HTMX)
    assert done.status_code == 286  # htmx stops polling
    body = done.content.decode()
    assert "Done" in body and "hx-trigger" not in body and "sixty (60) days" in body
    assert "Payment terms" in body and "<mark>ninety (90) days</mark>" in body
    assert admin.get(f"/runs/{run.pk}/redline.docx").status_code == 405  # an export records: POST only
    redline = admin.post(f"/runs/{run.pk}/redline.docx")
    assert redline.status_code == 200 and redline.content[:2] == b"PK"
    assert KnownEntry.objects.filter(run=run).exists()
    assert run.acting_for == "Supplier"  # the Supplier is paid: ninety days to pay is the finding it is shown
    assert '<option value="Supplier" selected>' in admin.get(f"/documents/{version.document_id}/").content.decode()
    again = admin.post(f"/runs/{run.pk}/rerun/", follow=True)
    assert "Nothing changed since this review" in again.content.decode()
    assert AnalysisRun.objects.count() == 1
    assert admin.get(f"/runs/{run.pk}/progress/").status_code == 302  # not htmx: the page itself


@pytest.mark.django_db
def test_run_start_needs_a_version_and_playbook(admin, seeded):
    doc = seeded.run.document_version.document
    resp = admin.post(f"/documents/{doc.pk}/runs/", {"version": "", "playbook": ""}, follow=True)
    assert "Choose a version and a playbook" in resp.content.decode()


@pytest.mark.django_db(transaction=True)
def test_a_run_never_says_every_rule_is_met_when_a_rule_was_not_checked(admin, alice, playbook):
    from redline.services.documents import document_version_create
    from redline.services.playbook_edits import rule_create
    from redline.services.runs import run_request

    with_prose = rule_create(base=playbook, spec={"key": "tone", "title": "Tone", "category": "general",
                                                  "severity": "minor", "guidance": "Keep the drafting courteous."})
    version, *_ = document_version_create(workspace=alice.workspace, data=CONTRACT, filename="msa.docx",
                                            uploaded_by=None)
    run, _ = run_request(version=version, playbook_version=with_prose, provider="offline", acting_for="Customer")
    assert in_process_worker().wait_idle(60)
    run.refresh_from_db()
    assert run.stats["not_checked"] == ["tone"]
    page = admin.get(f"/runs/{run.pk}/").content.decode()
    assert "not checked offline: tone" in page
    assert "meets every rule" not in page
