"""On a re-run the model may call the seed's update_preferences; the result is a new version by the model.
The real openai SDK talks to a loopback chat-completions server."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from redline.jobs.worker import in_process_worker
from redline.models import AnalysisRun, KnownEntry, PreferencesVersion, RunStatus
from redline.services.playbooks import playbook_default_install
from redline.services.preferences import preferences_save
from tests.support.chat_server import ChatServer, completion, findings
from tests.support.docx_builder import build_docx, para


@pytest.mark.django_db(transaction=True)
def test_rerun_model_updates_preferences_and_first_run_cannot(alice, settings):
    playbook_default_install(workspace=alice.workspace)
    preferences_save(workspace=alice.workspace, text="# Review Preferences\n- Be brief.", author_kind="user")
    data = build_docx(para("The Customer shall pay each invoice within ninety (90) days of receipt."))
    up = alice.api().post("/api/documents", {"file": SimpleUploadedFile("a.docx", data)}).json()

    def model(body: dict) -> object:
        schema = body["response_format"]["json_schema"]["schema"]
        answer = findings()
        if "update_preferences" in schema["properties"]:
            answer["update_preferences"] = {"action": "append", "lines": ["- Net 90 payment is acceptable."]}
        return completion(answer)

    with ChatServer(model) as chat:
        settings.OPENAI_API_KEY, settings.OPENAI_BASE_URL = "test-key", chat.url
        url = f"/api/documents/{up['document']['id']}/runs"
        first = alice.api().post(url, {"provider": "openai"}, content_type="application/json").json()
        assert in_process_worker().wait_idle(60)
        assert AnalysisRun.objects.get(pk=first["id"]).status == RunStatus.DONE
        assert PreferencesVersion.objects.filter(workspace=alice.workspace).count() == 1  # first run: no tool
        assert all("update_preferences" not in r.body["response_format"]["json_schema"]["schema"]["properties"]
                   for r in chat.requests)

        run = AnalysisRun.objects.get(pk=first["id"])  # the document now has history: the next run is a re-run
        KnownEntry.objects.create(workspace=alice.workspace, document_id=up["document"]["id"], run=run,
                                  entry_id="e1", operation_type="COMMENT", bookmark_id="_RL_000000000001")
        alice.api().put("/api/preferences", {"text": "# Review Preferences\n- Be brief.\n- Cite clauses."},
                        content_type="application/json")
        second = alice.api().post(url, {"provider": "openai"}, content_type="application/json").json()
        assert second["id"] != first["id"]  # new preferences version: a new run
        assert in_process_worker().wait_idle(60)
    rerun = AnalysisRun.objects.get(pk=second["id"])
    assert rerun.status == RunStatus.DONE and rerun.stats["mode"] == "rerun"
    latest = PreferencesVersion.objects.filter(workspace=alice.workspace).order_by("-number").first()
    assert latest.author_kind == PreferencesVersion.Author.MODEL and f"run {rerun.pk}" in latest.reason
    assert latest.text.endswith("- Net 90 payment is acceptable.") and "- Cite clauses." in latest.text
