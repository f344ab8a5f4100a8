"""Wording that shows a clause is in the contract, and wording that shows a clause belongs in it.

A "missing" claim against a clause the contract has in other words ("causes beyond its control" is force
majeure, "a court in New York City" is a forum clause) is the error a lawyer forgives least, so a claim is made
only when none of the clause's evidence is anywhere in the body. Some clauses belong only in some contracts
(``FIT``): data-processing terms where personal data is processed. For the limitation rule the
evidence is a limit on liability (a cap, or CUAD's "no lost profits or consequential damages"): a contract whose
engine finding is "present" but that limits nothing in words is asked about (:mod:`.asking`).
"""

from __future__ import annotations

import re

from ..categories import Category
from ..document import Document

# Wording anywhere in the contract that shows a clause is there: a "missing" claim against it is false.
EVIDENCE: dict[Category, re.Pattern[str]] = {
    Category.FORCE_MAJEURE: re.compile(r"force\s+majeure|act(?:s)?\s+of\s+god|beyond\s+(?:the\s+)?(?:its|their|his|her|such\s+party's|the\s+reasonable)?\s*(?:reasonable\s+)?control", re.I),
    Category.DISPUTE_RESOLUTION: re.compile(r"\bsubmit\w*\s+to\s+the\s+(?:exclusive\s+|non-exclusive\s+)?jurisdiction|\bexclusive\s+jurisdiction|\bjurisdiction\s+of\s+(?:the\s+|any\s+)?[^.]{0,60}?\bcourts?\b|\bconsent\w*\s+to\s+(?:the\s+)?(?:exclusive\s+|non-exclusive\s+|personal\s+)?jurisdiction|\bcourts?\s+(?:of|in|located\s+in|sitting\s+in)\s+(?!competent)(?:the\s+)?\w+|\barbitrat\w+|\bvenue\b|\bconsents?\s+to\s+be\s+sued", re.I),
    Category.NOTICES: re.compile(r"\bnotices?\b[^.]{0,200}\b(?:in\s+writing|delivered|sent|given|addressed|by\s+(?:mail|courier|fax|facsimile|e-?mail|hand|registered|certified))\b", re.I),
    Category.CONFIDENTIALITY: re.compile(r"\bconfidential\w*\b|\bnon-disclosure\b|\bproprietary\s+information\b", re.I),
    # a cap, or a limit on what may be recovered (CUAD's "Cap On Liability": no lost profits or consequential
    # damages, only direct damages): a contract with none of these leaves both parties' liability unlimited
    Category.LIMITATION_OF_LIABILITY: re.compile(r"\bliabilit\w*\b[^.]{0,160}\b(?:shall\s+not\s+(?:in\s+the\s+aggregate\s+)?exceed|not\s+to\s+exceed|(?<!not\s)limited\s+to|capped)\b|\b(?:aggregate|total|maximum|cumulative|entire)\s+liability\b|\bin\s+no\s+event\b[^.]{0,200}\b(?:liab|damages)|\b(?:neither|no)\s+party\b[^.]{0,80}\bliab\w*\b[^.]{0,120}\b(?:consequential|indirect|incidental|special|punitive|lost\s+profits)\b|\b(?:no|not|neither|nor|exclud\w*|waive\w*|disclaim\w*)\b[^.]{0,120}\b(?:consequential|indirect|incidental|special|punitive)\b[^.]{0,40}\bdamages\b|\b(?:only|solely)\s+(?:for\s+)?(?:its\s+|actual\s+and\s+)?direct\s+damages\b|\blimited\s+to\s+(?:actual\s+and\s+)?direct\s+(?:costs|damages)\b", re.I),
    Category.GOVERNING_LAW: re.compile(r"\bgoverned\s+by\b[^.]{0,80}\blaws?\b|\bgoverning\s+law\b|\blaws\s+of\s+the\s+(?:state|province|commonwealth)\b|\bconstrued\s+in\s+accordance\s+with\b", re.I),
    Category.TERMINATION: re.compile(r"\bterminat\w+\b.{0,160}\b(?:breach|default|insolven\w*|bankrupt\w*)\b", re.I | re.S),
    Category.DATA_PROTECTION: re.compile(r"\bdata\s+protection\s+(?:laws?|legislation|acts?|regulations?|obligations)\b|\bGDPR\b|\bHIPAA\b|\bprivacy\s+(?:laws?|policy|policies|acts?|rules)\b|\bpersonal\s+(?:data|information)\b[^.]{0,120}\b(?:comply|complies|in\s+accordance|protect|secur)\w*", re.I),
}
# A clause that belongs only in some contracts: claimed missing only where the contract shows the need.
FIT: dict[Category, re.Pattern[str]] = {
    Category.DATA_PROTECTION: re.compile(r"\bpersonal(?:ly)?\s+(?:data|information|identifiable)\b|\bcustomer\s+data\b|\bend[- ]user\s+data\b|\bpatient\s+data\b|\bprocess(?:es|ing)?\s+data\b", re.I),
}

# Categories whose clause counts only with its evidence wording, whatever the engine's finding says.
EVIDENCE_REQUIRED: frozenset[Category] = frozenset({Category.LIMITATION_OF_LIABILITY})


def has_evidence(category: Category, body: str) -> bool:
    """Whether ``body`` holds wording of ``category``'s clause (True for a category without evidence patterns)."""
    pattern = EVIDENCE.get(category)
    return pattern is None or bool(pattern.search(body))


def operative_text(doc: Document) -> str:
    """The body the evidence is looked for in: paragraphs before the signatures, headings left out (a heading
    alone, "Notices and Governing Law", is no clause)."""
    return "\n".join(c.text for i, c in enumerate(doc.clauses[: doc.signatures]) if not doc.is_heading[i])
