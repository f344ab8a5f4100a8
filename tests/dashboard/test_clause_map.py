"""The clause map on the document and run pages (real clause model): groups, states, links to paragraphs."""

from __future__ import annotations

import hashlib
import re

import pytest
from django.core.files.base import ContentFile
from django.utils import timezone

from dashboard.queries import paragraph_texts
from redline.models import AnalysisRun, DocumentVersion, RunStatus
from redline.services.clauses import CUAD_GROUPS
from redline.services.documents import document_version_create
from tests.dashboard.conftest import HTMX
from tests.support.clause_contract import CONTRACT, GOVERNING_LAW, build_contract

pytestmark = pytest.mark.django_db


@pytest.fixture
def version(alice) -> DocumentVersion:
    created, *_ = document_version_create(workspace=alice.workspace, data=CONTRACT, filename="msa.docx",
                                            uploaded_by=None)
    return created


def law_anchor(version: DocumentVersion) -> str:
    return next(a for a, text in paragraph_texts(version=version).items() if text == GOVERNING_LAW)


def clause_rows(page: str) -> dict[str, str]:
    """Category → its state badge, as the map shows them."""
    rows = re.findall(r'<li class="clause-row">\s*(?:<a [^>]*>|<span>)([^<]+)</(?:a|span)>\s*'
                      r'<span class="clause-state"><span class="badge clause-(\w+)">', page)
    return dict(rows)


def test_document_page_maps_every_category_by_group_and_links_to_the_paragraph(reviewer, version):
    page = reviewer.get(f"/documents/{version.document_id}/").content.decode()
    assert 'id="clauses-h">Clause map' in page
    groups = re.findall(r'<h3 id="cg-\d+">([^<]+?) <small', page)
    assert groups == [*dict.fromkeys(CUAD_GROUPS.values()), "Playbook categories"]
    rows = clause_rows(page)
    assert set(CUAD_GROUPS) <= set(rows) and set(rows.values()) <= {"present", "absent", "uncertain"}
    assert rows["Governing Law"] == "present"
    anchor = law_anchor(version)
    assert f'<a href="#p-{anchor}"' in page  # the map links to the paragraph in the text below
    assert re.search(rf'<p id="p-{anchor}"><span class="cited small">[^<]*Governing Law[^<]*</span> '
                     + re.escape(GOVERNING_LAW.replace('"', "&quot;")), page)
    absent = [name for name, state in rows.items() if state != "present"]
    assert absent and all(f">{name}</a>" not in page for name in absent)  # only found clauses link anywhere
    assert "<script" not in page.split('id="clauses"')[1] and "style=" not in page.split('id="clauses"')[1]


def test_the_map_follows_the_chosen_version(reviewer, alice, version):
    data = build_contract({GOVERNING_LAW: GOVERNING_LAW.replace("New York", "Delaware")})
    newer = DocumentVersion(document=version.document, filename="msa-v2.docx", sha256=hashlib.sha256(data).hexdigest(),
                            size=len(data))
    newer.file.save("msa-v2.docx", ContentFile(data), save=False)
    newer.save()  # a later version of the same document (as a re-upload with the same RedlineDocID makes)
    latest = reviewer.get(f"/documents/{version.document_id}/").content.decode()
    assert 'Clause map <small class="muted">msa-v2.docx' in latest
    chosen = reviewer.get(f"/documents/{version.document_id}/", {"version": version.pk}).content.decode()
    assert 'Clause map <small class="muted">msa.docx' in chosen
    assert f'href="?version={version.pk}#clauses" aria-current="true"' in chosen
    assert f'<p id="p-{law_anchor(version)}">' in chosen


def test_run_page_map_links_to_the_paragraph_on_the_document_page(reviewer, alice, version, playbook):
    run = AnalysisRun.objects.create(workspace=alice.workspace, document_version=version, playbook_version=playbook,
                                     provider="offline", request_key="clause-map", status=RunStatus.DONE,
                                     finished_at=timezone.now(), stats={})
    page = reviewer.get(f"/runs/{run.pk}/").content.decode()
    assert clause_rows(page)["Governing Law"] == "present"
    assert f'href="/documents/{version.document_id}/?version={version.pk}#p-{law_anchor(version)}"' in page
    polled = reviewer.get(f"/runs/{run.pk}/progress/", **HTMX).content.decode()
    assert "Clause map" not in polled  # the polled part stays small


def test_an_unreadable_stored_file_is_said_not_crashed(reviewer, version):
    broken = DocumentVersion(document=version.document, filename="broken.docx", sha256="f" * 64, size=9)
    broken.file.save("broken.docx", ContentFile(b"not a zip"), save=False)
    broken.save()
    resp = reviewer.get(f"/documents/{version.document_id}/", {"version": broken.pk})
    assert resp.status_code == 200
    page = resp.content.decode()
    assert "No clause map for this version:" in page and 'id="text-h"' not in page
