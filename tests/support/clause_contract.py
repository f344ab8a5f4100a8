"""A short commercial contract for the clause overview's tests: a few kinds of clause CUAD labels,
each in a paragraph of its own, so a test can say which paragraph a category must cite."""

from __future__ import annotations

from tests.support.docx_builder import build_docx, para

GOVERNING_LAW = ("This Agreement shall be governed by and construed in accordance with the laws of the State of "
                 "New York, without giving effect to any choice or conflict of law provision or rule.")

PARAGRAPHS: list[tuple[str, str | None]] = [
    ("MASTER SUPPLY AGREEMENT", "Heading1"),
    ("This Master Supply Agreement (the \"Agreement\") is entered into as of March 1, 2024 (the \"Effective Date\") "
     "by and between Acme Components, Inc., a Delaware corporation (\"Supplier\"), and Northwind Traders LLC, a "
     "New York limited liability company (\"Customer\").", None),
    ("1. Term", "Heading1"),
    ("The initial term of this Agreement shall commence on the Effective Date and continue for a period of three (3) "
     "years. Thereafter this Agreement shall automatically renew for successive one (1) year terms unless either "
     "party gives written notice of non-renewal at least ninety (90) days before the end of the then-current term.",
     None),
    ("2. Assignment", "Heading1"),
    ("Neither party may assign or transfer this Agreement or any of its rights or obligations hereunder without the "
     "prior written consent of the other party, and any purported assignment without such consent shall be void.",
     None),
    ("3. Limitation of Liability", "Heading1"),
    ("In no event shall either party's aggregate liability arising out of or related to this Agreement exceed the "
     "total amounts paid by Customer to Supplier in the twelve (12) months preceding the event giving rise to the "
     "claim.", None),
    ("4. Governing Law", "Heading1"),
    (GOVERNING_LAW, None),
    ("5. Notices", "Heading1"),
    ("All notices under this Agreement shall be in writing and delivered by hand or by registered mail to the "
     "addresses set out above.", None),
]



def build_contract(replace: dict[str, str] | None = None) -> bytes:
    """The contract as .docx bytes; ``replace`` maps a paragraph's text to the text to put instead."""
    replace = replace or {}
    return build_docx("".join(para(replace.get(text, text), style=style) for text, style in PARAGRAPHS))


CONTRACT = build_contract()
