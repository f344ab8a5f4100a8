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

# A running header in capitals ("CONFIDENTIAL") or a clause number ("18.") may come first; the phrase is a
# witness clause only as a whole ("Costs such as witness fees" is not one).
_WITNESS = re.compile(r"^\W*(?:\d{1,3}\.?\s+)?(?:[A-Z]{2,}\W+){0,2}(?i:in witness whereof|as witness (?:whereof|the "
                      r"hands?|this|our|their))\b")
# "EXECUTION VERSION" / "EXECUTION COPY" at the top of a filing marks the draft, not the signatures.
_EXECUTION_HEADING = re.compile(r"^\s*(?:EXECUTION|SIGNATURES?|SIGNATURE PAGE)\b(?!\s+(?:VERSION|COPY|DRAFT))",
                                re.IGNORECASE)
# Short lines that open a block: the page-break notes, the acceptance lines and the execution lines of
# English-style blocks ("Signed for and on behalf of Acme Inc.").
_OPENER = re.compile(
    r"^\W*(?:signature pages? follows?|signatures? (?:appear |are )?on (?:the )?(?:following|next) pages?"
    r"|remainder of (?:this )?page|signed\s+(?:by|for|on behalf)|executed\s+(?:by|as a deed)|for and on behalf of"
    r"|agreed(?: to)?,? and accepted|accepted and agreed|acknowledged and agreed|agreed and acknowledged"
    r"|the foregoing\b.{0,60}\b(?:is|are) hereby (?:confirmed|accepted|agreed))\b", re.IGNORECASE)
_OPENER_MAX = 200  # an opener is a line, not a clause ("Signed by both parties, this Agreement shall ...")
_DUTY = re.compile(r"\b(?:shall|will|must|may)\b", re.IGNORECASE)
# Label lines: "By:", "Name:", "Title:" at the start of a short paragraph.
_LABEL = re.compile(r"(?:^|\s)(by|name|title|signature|signed|its|printed name|print name)\s*:", re.IGNORECASE)
_LABEL_LINE_MAX = 300
_SIGNING = frozenset({"by", "signature", "signed"})  # a run of labels with no signing line is an address
_SIDE_BY_SIDE = frozenset({"name", "title", "signature", "printed name", "print name"})  # once per party
# Signed: "/s/ Jane Roe" opening a line or after a label ("By: /s/", "Authorized signatory: /s/"), or a blank
# signature line "By: ______" (a "/s/" inside a web address is neither).
_SIGNED = re.compile(r"(?:^\W*|:\s*)/s/|\bby:\s*[_-]{3,}", re.IGNORECASE)
# Filings converted to Word often run the "IN WITNESS" line into the last clause's paragraph: in the second
# half of the contract such a paragraph already belongs to the signature block (the missing clause goes before it).
_WITNESS_RUN_IN = re.compile(r"\bIN WITNESS WHEREOF\b")
# What a caption above the block is not: a sentence.
_SENTENCE = re.compile(r"\b(?:shall|will|must|agrees?|hereby|means|may|is|are|constitutes?|governed|be)\b|;\s*$",
                       re.IGNORECASE)
_NUMBERED = re.compile(r"^\W*(?:\d+(?:\.\d+)*\.?|\(?[a-z]{1,3}\))\s")  # a clause's number: the body, not a caption
_WINDOW = 6  # signatory lines of one block sit within a few paragraphs of each other
_CAPTION_MAX = 120  # "LICENSOR:", "ACME CORP.", "[Signature page follows]": the lines that head a block
_CAPTIONS_BACK = 4


def signature_start(clauses: Sequence[Clause], is_heading: Sequence[bool]) -> int:
    """Index of the first paragraph of the signature block (``len(clauses)`` when there is none).

    A witness clause at the start of a paragraph, or an execution heading, ends the body wherever it is;
    the other signs (an opener line, signatory lines, a witness line run into a clause) only in the second
    half of the contract, where a block is, so a notice address or a clause that happens to read like one
    earlier on is never taken for the signatures.
    """
    n = len(clauses)
    for i, clause in enumerate(clauses):
        if i == 0:
            continue
        text = clause.text
        if _WITNESS.match(text) or (is_heading[i] and i > 2 and _EXECUTION_HEADING.match(text)):
            return i
        if 2 * i < n:
            continue
        if (len(text) <= _OPENER_MAX and _OPENER.match(text) and not _DUTY.search(text)) or _WITNESS_RUN_IN.search(text):
            return i
        if _signatory(clauses, i):
            return _captions_before(clauses, i)
    return n


def _signatory(clauses: Sequence[Clause], i: int) -> bool:
    """Whether paragraph ``i`` opens a run of signatory lines: signed ("By: /s/", "By: ____"), a label
    given once per party side by side ("Title: CEO Title: President"), or a label line ("Name:") with a
    signing label line ("By:", "Signature:") in the next few paragraphs. "Name:" and "Title:" alone may be
    a notice address."""
    text = clauses[i].text
    if _SIGNED.search(text):
        return True
    if not _label_line(text):
        return False
    labels = [m.group(1).lower() for m in _LABEL.finditer(text)]
    if any(labels.count(label) > 1 for label in _SIDE_BY_SIDE):
        return True
    kinds = {m.group(1).lower() for c in clauses[i: i + _WINDOW] if _label_line(c.text) for m in _LABEL.finditer(c.text)}
    return len(kinds) >= 2 and bool(kinds & _SIGNING)


def _label_line(text: str) -> bool:
    return len(text) <= _LABEL_LINE_MAX and bool(_LABEL.match(text))


def _captions_before(clauses: Sequence[Clause], i: int) -> int:
    """Step back over the short lines that head a signature block (the parties' names, "LICENSOR:",
    "[Signature page follows]"), never over a sentence or a numbered clause."""
    start = i
    while start > 1 and i - start < _CAPTIONS_BACK:
        text = clauses[start - 1].text.strip()
        if not text or len(text) > _CAPTION_MAX or _SENTENCE.search(text) or _NUMBERED.match(text):
            break
        start -= 1
    return start
