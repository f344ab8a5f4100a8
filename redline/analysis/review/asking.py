"""Between "confidently absent" and "present": a question, never silence.

The clause engine calls a required clause missing only below its confident-absence probability, so a contract
whose limitation of liability the engine cannot find, but cannot rule out either, used to pass in silence. Such
a clause is now asked about: a comment on the closest text the engine routes to that clause kind (or where the
clause would go), saying how sure the engine is and asking the lawyer to confirm. The review gate still drops
the question when the contract's own words show the clause (its evidence patterns).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from redline.clauses import PLAYBOOK_TO_CUAD

from ..document import Document
from ..playbook.model import Rule
from .evidence import EVIDENCE_REQUIRED, has_evidence

_LEAD = 200
CLOSE_ENOUGH = 0.1  # below this the "closest text" is noise (bank details, a table cell): ask where it would go


def uncertain_clause(doc: Document, rule: Rule, fallback: Callable[[], int], body: str) -> int | None:
    """Where to ask about ``rule``'s clause (the closest paragraph, else ``fallback()``: where the clause would
    go), or None when the engine
    finds it or is confident it is absent (a "missing" claim then). A clause that counts only with its evidence
    wording (the cap of a limitation of liability) is asked about when that wording is nowhere in the body,
    whatever the engine found (``body``: :func:`.evidence.operative_text`)."""
    category = rule.category.value
    if not rule.required or category not in PLAYBOOK_TO_CUAD:
        return None
    finding = doc.found.playbook.get(category)
    if finding is None or doc.found.confidently_absent(category):
        return None
    if finding.present and not (rule.category in EVIDENCE_REQUIRED and not has_evidence(rule.category, body)):
        return None
    routed = [i for i, p in doc.found.routed(category).items()
              if p >= CLOSE_ENOUGH and not doc.is_heading[i] and not doc.clauses[i].in_table and i < doc.signatures]
    return routed[0] if routed else fallback()


def ask_finding(doc: Document, rule: Rule, i: int) -> dict[str, Any]:
    """The question, as a finding on the first words of paragraph ``i``."""
    text = doc.clauses[i].text
    lead = text if len(text) <= _LEAD else text[: max(text.rfind(" ", 0, _LEAD), 1)]
    finding = doc.found.playbook[rule.category.value]
    probability = finding.probability
    if finding.present:  # the engine sees the clause kind, but none of the wording that makes it one
        comment = (f"No {rule.title.lower()} wording (a cap, or an exclusion of indirect or consequential loss) was "
                   f"found anywhere in the contract; this is the closest text. Confirm whether your client wants one.")
    else:
        comment = (f"Redline could not tell whether the contract has a {rule.title.lower()} clause; this is the "
                   f"closest text. Confirm the contract covers it, or add one.")  # a percentage meant nothing to reviewers
    return {"kind": "comment", "start": 0, "end": len(lead), "new_text": "", "comment": comment,
            "severity": rule.severity.value, "confidence": round(1 - probability, 2), "source": "ask", "check": ""}
