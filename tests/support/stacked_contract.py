"""A contract whose paragraphs draw several suggestions each from the offline engine.

With the default playbook: the second paragraph gets exactly three (a critical
comment on unlimited liability, a major comment on automatic renewal, and a
termination-for-cause clause inserted after it); the fourth gets four (those two
comments, the payment term replaced, and a jurisdiction clause inserted). The
tests of composed patches (#16) apply them in different orders.
"""

from __future__ import annotations

from tests.support.docx_builder import build_docx

PARAGRAPHS = [
    "Payment is due within 90 days of invoice and this Agreement shall renew automatically for successive terms.",
    "The Supplier's liability shall be unlimited, and this Agreement shall renew automatically for successive terms"
    " unless terminated.",
    "Payment is due within 90 days of invoice, and the Supplier's liability shall be unlimited.",
    "Fees. Payment is due within 90 days of invoice. The Supplier's liability shall be unlimited. This Agreement"
    " shall renew automatically.",
    "Payment terms: the Customer shall pay within 90 days of invoice; the Supplier's liability shall be unlimited.",
    "Signed by the parties.",
]
THREE = 1  # the paragraph with exactly three suggestions
FOUR = 3  # the paragraph with four


def stacked_docx() -> bytes:
    """The contract as a .docx (one plain run per paragraph)."""
    return build_docx("".join(f'<w:p><w:r><w:t xml:space="preserve">{t}</w:t></w:r></w:p>' for t in PARAGRAPHS))
