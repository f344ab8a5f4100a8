"""Wording that makes a sentence a kind of playbook clause CUAD does not label.

A playbook category is a wider thing than its CUAD kinds: termination is termination for convenience
*and* for breach or insolvency, warranties are warranty periods *and* the warranties and disclaimers
themselves, payment terms are revenue sharing *and* prices, invoices and when they are paid. CUAD labels
only the first of each, so a contract with a termination-for-breach section, a warranty section and a
"PRICES, PRICE LIST, TAXES AND PAYMENT" article read "termination: absent", "warranties: absent" and
"payment terms: absent" on the clause map. These cues are the rest: operative wording a lawyer would
point to, found in a body sentence (never a heading, which only names the clause). With no labels to
calibrate on, a sentence with a cue gives its category :data:`CUE_PROBABILITY`; docs/clauses.md has how
often each cue fires on the dev contracts and what a reading of its hits found.
"""

from __future__ import annotations

import re

# Sentences with this wording are the clause, read on the hits in the dev contracts (docs/clauses.md).
CUE_PROBABILITY = 0.9

CUES: dict[str, re.Pattern[str]] = {
    # a right to end the contract for breach, default or insolvency
    "termination": re.compile(
        r"\bterminat\w*\b[^.;]{0,160}?\b(?:breach\w*|default\w*|insolven\w*|bankrupt\w*|fail\w* to (?:cure|remedy|perform)"
        r"|receivership|liquidation)"
        r"|\b(?:breach\w*|default\w*|insolven\w*|bankrupt\w*)\b[^.;]{0,160}?\b(?:may|shall have the right to|right to)\s+"
        r"(?:immediately\s+)?terminat\w*\b",
        re.IGNORECASE),
    # warranties given, and their disclaimers
    "warranties": re.compile(
        r"\b(?:represents?\s+and\s+)?warrants?\s+(?:to\s+\w+\s+)?that\b|\bdisclaims?\b[^.;]{0,80}?\bwarrant"
        r"|\bwarrant(?:y|ies)\s+of\s+(?:merchantability|fitness|title|non-?infringement)\b"
        r"|\b(?:provided|furnished|sold|licensed|delivered)\s+[\"“]?\s*as[\s-]is\b",
        re.IGNORECASE),
    # prices and when and how they are paid
    "payment_terms": re.compile(
        r"\b(?:shall|will|must|agrees?\s+to)\s+(?:promptly\s+)?pay\b|\bpayments?\b[^.;]{0,80}?\b(?:due|within|net|days)\b"
        r"|\binvoic\w*\b[^.;]{0,80}?\b(?:days|due|payable)\b|\bnet\s+(?:thirty|sixty|ninety|\d+)\b"
        r"|\bprices?\b[^.;]{0,60}?\b(?:price\s+list|set\s+forth\s+in|specified\s+in|listed\s+in)\b",
        re.IGNORECASE),
}
