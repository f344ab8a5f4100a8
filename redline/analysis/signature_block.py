"""Where a contract's signature block begins, as real filings write it.

A missing clause is inserted before the signature block, so a block the review
does not recognise makes it propose a governing-law clause after "Title: COO
Title: CEO" or after the exhibit that follows the signatures. Templates open
the block with "IN WITNESS WHEREOF"; real contracts (the SEC filings CUAD is
made of) often do not: the block is a run of signatory lines ("By: /s/ ...",
"Name:", "Title:"), sometimes after "Agreed and Accepted:" or the parties'
names in capitals, sometimes with the "IN WITNESS" line behind a running
header ("CONFIDENTIAL IN WITNESS WHEREOF") or run into the last clause's
paragraph by a PDF conversion. ``redline clauses-placement``
measures the effect on the dev contracts (docs/clauses.md).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .clauses import Clause

# A running header ("CONFIDENTIAL") or a clause number ("18.") may come first.
_WITNESS = re.compile(r"^\W*(?:\d{1,3}\.?\s+)?(?:[A-Z][A-Za-z]*\W+){0,2}(?:IN WITNESS WHEREOF|AS WITNESS)\b",
                      re.IGNORECASE)
# "EXECUTION VERSION" / "EXECUTION COPY" at the top of a filing marks the draft, not the signatures.
_EXECUTION_HEADING = re.compile(r"^\s*(?:EXECUTION|SIGNATURES?|SIGNATURE PAGE)\b(?!\s+(?:VERSION|COPY|DRAFT))",
                                re.IGNORECASE)
# Lines that open a block: the page-break notes and the execution clauses of English-style blocks.
_OPENER = re.compile(
    r"^\W*(?:signature pages? follows?|signatures? (?:appear |are )?on (?:the )?(?:following|next) pages?"
    r"|remainder of (?:this )?page|signed\s+(?:by|for|on behalf)|executed\s+(?:by|as a deed)|for and on behalf of)\b",
    re.IGNORECASE)
_LABEL = re.compile(r"(?:^|\s)(by|name|title|signature|signed|its|printed name|print name)\s*:", re.IGNORECASE)
_SIGNING = frozenset({"by", "signature", "signed"})  # a run of labels with no signing line is an address
_SIGNED = re.compile(r"/s/|\bby:\s*[_-]{3,}", re.IGNORECASE)
# Filings converted to Word often run the "IN WITNESS" line into the last clause's paragraph: in the second
# half of the contract such a paragraph already belongs to the signature block (the missing clause goes before it).
_WITNESS_RUN_IN = re.compile(r"\bIN WITNESS WHEREOF\b")
_ACCEPTANCE = re.compile(
    r"^\W*(?:agreed(?: to)?,? and accepted|accepted and agreed|acknowledged and agreed|agreed and acknowledged"
    r"|the foregoing\b.{0,60}\b(?:confirmed|accepted|agreed))\b", re.IGNORECASE)
_OPERATIVE = re.compile(r"\b(?:shall|will|must|agrees?|hereby|means|may)\b|;\s*$", re.IGNORECASE)
_NUMBERED = re.compile(r"^\W*(?:\d+(?:\.\d+)*\.?|\(?[a-z]{1,3}\))\s")  # a clause's number: the body, not a caption
_WINDOW = 6  # signatory lines of one block sit within a few paragraphs of each other
_CAPTION_MAX = 120  # "LICENSOR:", "ACME CORP.", "[Signature page follows]": the lines that head a block
_CAPTIONS_BACK = 4


def signature_start(clauses: Sequence[Clause], is_heading: Sequence[bool]) -> int:
    """Index of the first paragraph of the signature block (``len(clauses)`` when there is none)."""
    for i, clause in enumerate(clauses):
        if i == 0:
            continue
        text = clause.text
        if (_WITNESS.match(text) or _ACCEPTANCE.match(text) or _OPENER.match(text)
                or (2 * i >= len(clauses) and _WITNESS_RUN_IN.search(text))):
            return i
        if is_heading[i] and i > 2 and _EXECUTION_HEADING.match(text):
            return i
        if _signatory(clauses, i):
            return _captions_before(clauses, i)
    return len(clauses)


def _signatory(clauses: Sequence[Clause], i: int) -> bool:
    """Whether paragraph ``i`` opens a run of signatory lines: signed ("By: /s/", "By: ____"), a label
    given once per party side by side ("Title: CEO Title: President"), or a label line ("Name:") with a
    signing label ("By:", "Signature:") in the next few paragraphs. "Name:" and "Title:" alone may be a
    notice address."""
    text = clauses[i].text
    if _SIGNED.search(text):
        return True
    if not _LABEL.match(text):
        return False
    labels = [m.group(1).lower() for m in _LABEL.finditer(text)]
    if len(labels) > len(set(labels)):
        return True  # "Title: CEO Title: President": one label per party, side by side
    kinds = {m.group(1).lower() for c in clauses[i: i + _WINDOW] for m in _LABEL.finditer(c.text)}
    return len(kinds) >= 2 and bool(kinds & _SIGNING)


def _captions_before(clauses: Sequence[Clause], i: int) -> int:
    """Step back over the short lines that head a signature block (the parties' names, "LICENSOR:")."""
    start = i
    while start > 1 and i - start < _CAPTIONS_BACK:
        text = clauses[start - 1].text.strip()
        if not text or len(text) > _CAPTION_MAX or _OPERATIVE.search(text) or _NUMBERED.match(text):
            break
        start -= 1
    return start
