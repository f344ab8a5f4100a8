"""The dashboard's Compare page (issue #28): any two versions, the changes inline with unchanged stretches
folded, the redline to download (judged by pandoc), refusals said on the page; in Chromium at 1440 and 360 px."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from redline.services.documents import document_version_create
from tests.dashboard.test_page_walk import signed_in_at_widths
from tests.support.browser import SHOTS
from tests.support.docx_builder import build_docx, para
from tests.support.oracles import pandoc_text

FILLER = [f"{n}. Clause {n} stays exactly as it was agreed between the parties." for n in range(3, 13)]
V1 = ["1. Term", "Notice of ninety (90) days is required.", *FILLER, "13. Old clause to be removed."]
V2 = ["1. Term", "Notice of thirty (30) days is required.", *FILLER, "14. Counterparts may be signed apart."]


def versions(alice):
    first, *_ = document_version_create(workspace=alice.workspace, data=build_docx("".join(map(para, V1))),
                                        filename="msa.docx", uploaded_by=None)
    second, *_ = document_version_create(workspace=alice.workspace, data=build_docx("".join(map(para, V2))),
                                         filename="msa-v2.docx", uploaded_by=None, document_id=first.document_id)
    return first, second


@pytest.mark.django_db
def test_compare_page_shows_the_changes_folds_the_rest_and_downloads_the_redline(reviewer, alice, tmp_path):
    first, _ = versions(alice)
    doc = first.document_id
    assert 'id="compare-link"' in reviewer.get(f"/documents/{doc}/").content.decode()
    page = reviewer.get(f"/documents/{doc}/compare/").content.decode()  # default: the latest against the one before
    assert "1 changed, 1 added, 1 removed" in page
    assert "<del>ninety (90) </del><ins>thirty (30) </ins>" in page
    assert "<ins>14. Counterparts may be signed apart.</ins>" in page and "<del>13. Old clause to be removed.</del>" in page
    assert re.search(r"<summary>\d+ unchanged paragraphs</summary>", page)  # the middle of the contract folded
    link = re.search(r'id="compare-download" href="([^"]+)"', page).group(1).replace("&amp;", "&")
    download = reviewer.get(link)
    assert download.status_code == 200
    path = tmp_path / "cmp.docx"
    path.write_bytes(download.content)
    assert pandoc_text(path, "accept") == V2 and pandoc_text(path, "reject") == V1
    same = reviewer.get(f"/documents/{doc}/compare/?from={first.pk}&to={first.pk}")
    assert same.status_code == 422 and "Choose two different versions" in same.content.decode()
    assert reviewer.get(f"/documents/{doc}/compare/?from=abc").status_code == 404


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_compare_in_the_browser(browser, base_url, alice):
    first, second = versions(alice)
    for page, width, check in signed_in_at_widths(browser, base_url, "alice"):
        page.goto(f"/documents/{first.document_id}/")
        page.click("#compare-link")
        expect(page.get_by_role("heading", name=re.compile("1 changed, 1 added, 1 removed"))).to_be_visible()
        expect(page.locator(".compare-text del").first).to_have_text("ninety (90) ")
        folded = page.locator("details.unchanged").first
        expect(folded.locator("p").first).to_be_hidden()
        folded.locator("summary").click()
        expect(folded.locator("p").first).to_be_visible()
        page.select_option("#cmp-from", str(second.pk))
        page.select_option("#cmp-to", str(first.pk))
        page.get_by_role("button", name="Compare").click()  # the other way round
        expect(page.locator(".compare-text ins").first).to_have_text("ninety (90) ")
        page.screenshot(path=str(SHOTS / f"compare-{width}.png"), full_page=True)
        check()
