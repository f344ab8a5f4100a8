"""How CUAD's 41 clause categories map onto the playbook's clause categories.

The playbook speaks in our 26 categories (``redline.analysis.categories``);
the model is trained on CUAD's. A playbook category is covered by the model
when CUAD has categories that are kinds of it; the others (indemnification,
confidentiality, notices and the like: CUAD does not label them) keep the
transparent keyword classifier. Some CUAD categories are no kind of any playbook
category (Minimum Commitment, Volume Restriction, Non-Disparagement, Third
Party Beneficiary): they appear in the clause overview only, rather than
widen a rule's context with clauses it does not judge. ``docs/clauses.md``
publishes this table.
"""

from __future__ import annotations

PLAYBOOK_TO_CUAD: dict[str, tuple[str, ...]] = {
    "term_and_renewal": ("Expiration Date", "Renewal Term", "Notice Period To Terminate Renewal"),
    "termination": ("Termination For Convenience", "Post-Termination Services"),
    "limitation_of_liability": ("Cap On Liability", "Uncapped Liability", "Liquidated Damages"),
    "warranties": ("Warranty Duration",),
    "insurance": ("Insurance",),
    "governing_law": ("Governing Law",),
    "assignment": ("Anti-Assignment", "Change Of Control"),
    "non_solicitation": ("No-Solicit Of Employees", "No-Solicit Of Customers"),
    "exclusivity": ("Exclusivity", "Non-Compete", "Competitive Restriction Exception", "Rofr/Rofo/Rofn"),
    "audit_rights": ("Audit Rights",),
    "license_grant": ("License Grant", "Non-Transferable License", "Affiliate License-Licensor",
                      "Affiliate License-Licensee", "Unlimited/All-You-Can-Eat-License",
                      "Irrevocable Or Perpetual License"),
    "intellectual_property": ("Ip Ownership Assignment", "Joint Ip Ownership", "Covenant Not To Sue",
                              "Source Code Escrow"),
    "pricing_and_fees": ("Most Favored Nation", "Price Restrictions"),
    "payment_terms": ("Revenue/Profit Sharing",),
}

# Playbook categories whose every clause is some CUAD kind: for these the engine can replace the keyword
# classifier outright. The others (payment terms, termination for cause, warranties in general, ...) are
# only partly CUAD's, so the keyword classifier keeps its say beside the engine.
COMPLETE: frozenset[str] = frozenset({"governing_law", "insurance", "audit_rights", "assignment", "non_solicitation",
                                      "exclusivity", "license_grant", "term_and_renewal"})
