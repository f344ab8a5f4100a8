"""Fixtures shared by the API tests."""

from __future__ import annotations

import pytest

from redline.jobs.worker import in_process_worker
from redline.models import AnalysisRun, Suggestion
from redline.services.documents import document_version_create
from redline.services.playbooks import playbook_default_install


@pytest.fixture
def suggestion(alice, simple_docx) -> Suggestion:
    version, *_ = document_version_create(workspace=alice.workspace, data=simple_docx, filename="a.docx",
                                            uploaded_by=None)
    run = AnalysisRun.objects.create(workspace=alice.workspace, document_version=version, provider="offline",
                                     playbook_version=playbook_default_install(workspace=alice.workspace),
                                     request_key="k")
    return Suggestion.objects.create(run=run, sid="s1", position=0, anchor="_RL_000000000001", kind="comment",
                                     rule_key="payment_terms", category="payment", severity="major",
                                     op={"Id": "_RL_000000000001", "Type": "COMMENT"}, data={})


def review_and_wait(member, document_id: int, acting_for: str = "") -> dict:
    """Start a review of a document through the API (for the party ``acting_for`` names), wait for the
    in-process worker, return the finished run."""
    resp = member.api().post(f"/api/documents/{document_id}/runs", {"acting_for": acting_for},
                             content_type="application/json")
    assert resp.status_code == 201, resp.content
    assert in_process_worker().wait_idle(90)
    run = member.api().get(f"/api/runs/{resp.json()['id']}").json()
    assert run["status"] == "done", run["error_message"]
    return run


def install_stacked_playbook(workspace) -> None:
    """The default playbook with the jurisdiction clause in the stacked contract's words (see
    ``tests/support/stacked_contract.py``)."""
    from redline.services.playbook_edits import rule_update
    from redline.services.playbooks import playbook_default_install
    from tests.support.stacked_contract import JURISDICTION

    version = playbook_default_install(workspace=workspace)
    spec = next(r.spec for r in version.rules.all() if r.key == "jurisdiction")
    rule_update(base=version, key="jurisdiction", spec={**spec, "suggested_language": JURISDICTION})
