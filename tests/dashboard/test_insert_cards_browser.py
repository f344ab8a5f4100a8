"""A missing clause's card names where the clause goes and marks that place (issue #30, point 4).

Before, a card that inserts a clause showed the paragraph it is anchored to with the highlight every other
card uses for "the problem" (a data-return clause for governing law) and never said where the clause goes.
The contract is the analysis tests' services agreement (no governing-law or jurisdiction clause), as a .docx;
its review runs on the real offline engine, and the page is read in headless Chromium at 1440 and 360 px.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from redline.bench.overview import reviewed_run
from tests.analysis.conftest import MSA
from tests.dashboard.test_page_walk import signed_in_at_widths
from tests.support.browser import SHOTS
from tests.support.docx_builder import build_docx, para

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

STYLES = {"Heading 1": "Heading1", "Title": "Title"}


def msa_docx() -> bytes:
    return build_docx("".join(para(text, style=STYLES.get(style)) if style else para(text) for text, style, _ in MSA))


def test_insert_cards_name_the_place_and_mark_it(browser, base_url, alice):
    run = reviewed_run(membership=alice.membership, data=msa_docx(), filename="msa.docx")
    missing = [s for s in run.suggestions.all() if s.data.get("placement")]
    assert {s.rule_key for s in missing} >= {"governing-law", "jurisdiction"}
    # "10. General" ends with "10.1 This Agreement constitutes the entire agreement between the Parties."
    law = next(s for s in missing if s.rule_key == "governing-law")
    assert law.data["placement"] == "New §10.3 Governing law, after §10.1, at the end of §10 General"
    for page, width, check in signed_in_at_widths(browser, base_url, "alice"):
        page.goto(f"/runs/{run.pk}/?rule=governing-law")
        card = page.locator(f"#s-{law.pk}")
        expect(card.locator(".where")).to_have_text("New §10.3 Governing law, after §10.1, at the end of §10 General")
        expect(card.locator(".insertion-point")).to_contain_text("10.1 This Agreement constitutes the entire")
        expect(card.locator(".insertion-point")).to_contain_text("Goes after this paragraph:")
        expect(card.locator("mark")).to_have_count(0)  # its anchor paragraph is not "the problem"
        expect(card.locator(".insert-here")).to_be_visible()
        missing = page.locator(".overview ul.risks li").filter(has_text="Governing law")
        expect(missing).to_contain_text(law.data["placement"])  # the overview's missing clauses say it too
        # Every other card still marks its quote.
        page.goto(f"/runs/{run.pk}/?rule=limitation-of-liability")
        expect(page.locator("article.suggestion mark").first).to_be_visible()
        page.goto(f"/runs/{run.pk}/?rule=governing-law")
        page.screenshot(path=str(SHOTS / f"insert-card-{width}.png"), full_page=True)
        check()
