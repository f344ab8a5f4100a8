"""A contract whose paragraphs draw several suggestions each from the offline engine.

Reviewed for the Supplier (who is paid, and whose liability is unlimited) with the default playbook, its
jurisdiction clause written in this contract's words (:data:`JURISDICTION`; the default's "[England and
Wales]" is a choice only the lawyer can make, so it would be a comment): the second paragraph gets exactly
three (a critical comment on unlimited liability, a major comment on automatic renewal, and a
termination-for-cause clause inserted after it); the fourth gets four (those two comments, the payment term
replaced, and the jurisdiction clause inserted). The tests of composed patches (#16) apply them in different
orders.
"""

from __future__ import annotations

from tests.support.docx_builder import build_docx

PARAGRAPHS = [
    "The Customer shall pay within 90 days of invoice and this Agreement shall renew automatically for successive"
    " terms.",
    "The Supplier's liability shall be unlimited, and this Agreement shall renew automatically for successive terms"
    " unless terminated.",
    "The Customer shall pay within 90 days of invoice, and the Supplier's liability shall be unlimited.",
    "Fees. The Customer shall pay within 90 days of invoice. The Supplier's liability shall be unlimited. This"
    " Agreement shall renew automatically.",
    "Payment terms: the Customer shall pay within 90 days of invoice; the Supplier's liability shall be unlimited.",
    "Signed by the parties.",
]
SIDE = "Supplier"
JURISDICTION = ("The courts of the place where the Supplier has its principal office shall have exclusive "
                "jurisdiction over any dispute arising out of this Agreement.")
THREE = 1  # the paragraph with exactly three suggestions
FOUR = 3  # the paragraph with four


def stacked_docx() -> bytes:
    """The contract as a .docx (one plain run per paragraph)."""
    return build_docx("".join(f'<w:p><w:r><w:t xml:space="preserve">{t}</w:t></w:r></w:p>' for t in PARAGRAPHS))
