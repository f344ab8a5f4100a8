"""The clause map on the document and run pages (real clause model): groups, states, links to paragraphs."""

from __future__ import annotations

import hashlib
import html
import re

import pytest
from django.core.files.base import ContentFile
from django.utils import timezone

from dashboard.queries import paragraph_texts
from redline.models import AnalysisRun, DocumentVersion, RunStatus
from redline.services.clauses import CUAD_GROUPS, LABELS
from redline.services.documents import document_version_create
from tests.clauses.conftest import SLICE
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
    rows = re.findall(r'<li class="clause-row"[^>]*>\s*(?:<a [^>]*>|<span>)([^<]+)</(?:a|span)>\s*'
                      r'<span class="clause-state"><span class="badge clause-(\w+)">', page)
    return {html.unescape(label): state for label, state in rows}


def test_document_page_maps_every_category_by_group_and_links_to_the_paragraph(reviewer, version):
    page = reviewer.get(f"/documents/{version.document_id}/").content.decode()
    assert 'id="clauses-h">Clause map' in page
    groups = re.findall(r'<h3 id="cg-\d+">([^<]+?) <small', page)
    assert groups == [*dict.fromkeys(CUAD_GROUPS.values()), "Playbook categories"]
    rows = clause_rows(page)
    assert {LABELS[c] for c in CUAD_GROUPS} <= set(rows) and set(rows.values()) <= {"present", "absent", "not_sure"}
    assert rows["Governing law"] == "present"
    anchor = law_anchor(version)
    assert f'<a href="#p-{anchor}"' in page  # the map links to the paragraph in the text below
    assert re.search(rf'<p id="p-{anchor}"><span class="cited small">[^<]*Governing law[^<]*</span> '
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
    assert clause_rows(page)["Governing law"] == "present"
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


def test_three_states_each_explained_and_every_category_in_a_lawyer_s_words(reviewer, version):
    page = reviewer.get(f"/documents/{version.document_id}/").content.decode()
    legend = re.findall(r'<dt><span class="badge clause-(\w+)">([^<]+)</span></dt><dd>([^<]+)</dd>', page)
    assert [(s, label) for s, label, _ in legend] == [("present", "present"), ("absent", "absent"),
                                                     ("not_sure", "not sure")]
    assert "under 15% likely" in legend[1][2]
    assert set(LABELS[c] for c in CUAD_GROUPS) <= set(clause_rows(page))
    for raw in ("Rofr/Rofo/Rofn", "Ip Ownership Assignment", "Unlimited/All-You-Can-Eat-License", "uncertain"):
        assert f">{raw}<" not in page, raw
    for label in ("Right of first refusal / offer / negotiation", "IP ownership assignment", "Unlimited licence"):
        assert f"<span>{label}</span>" in page or f">{label}</a>" in page, label
    # the state is the engine's decision: no bare percentage beside it (the probability is in a tooltip)
    map_part = page.split('id="clauses"')[1].split("Clause model:")[0]
    assert not re.search(r">\s*[<>]?\d+%\s*<", map_part)


def test_playbook_rows_find_the_clauses_cuad_does_not_label_in_a_real_contract(reviewer, alice):
    """CUAD c0292 (dev) has termination for breach, warranties and payment terms that CUAD's categories do not
    label; the playbook rows said "absent" for them."""
    data = (SLICE / "dev-docx" / "c0292.docx").read_bytes()
    created, *_ = document_version_create(workspace=alice.workspace, data=data, filename="c0292.docx",
                                          uploaded_by=None)
    rows = clause_rows(reviewer.get(f"/documents/{created.document_id}/").content.decode())
    assert rows["Termination"] == rows["Warranties"] == rows["Payment terms"] == "present"
