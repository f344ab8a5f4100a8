"""Drafting hygiene in the review: the graph's hygiene findings as suggestions (issue #27).

The checks (:mod:`redline.retrieval.hygiene`) need no playbook and no side: a
blank date is a blank date whoever the lawyer acts for. Each finding becomes a
comment anchored on the words it is about (a tracked replacement only where
the fix is certain, a repeated word), with source ``hygiene``, a rule key of
its own (``hygiene.<kind>``) so a rejected one is never suggested again, and a
category per group (``drafting_blanks``, ``drafting_numbering``, …) that the
run page and the pane filter on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from redline.retrieval.graph import ContractGraph
from redline.retrieval.hygiene import DEFAULT_KINDS, Finding, check

from . import two_values
from .clauses import Clause
from .grounding import occurrence_of
from .suggestions import Kind, Suggestion, suggestion_id

SOURCE = "hygiene"
TITLES = {
    "blank": "Blank or placeholder left in the text",
    "drafting_note": "Drafting note left in the text",
    "redaction": "Redacted portions",
    "undefined_term": "Term used but never defined",
    "unused_definition": "Term defined but never used",
    "conflicting_definition": "Term defined twice",
    "term_case": "Defined term in another case",
    "party_names": "A party called by two names",
    "missing_reference": "Cross-reference to nothing",
    "empty_attachment": "Referenced attachment is empty",
    "numbering_gap": "Numbering skips",
    "numbering_duplicate": "Numbering repeats",
    "unpaired": "Bracket or quotation mark left open",
    "repeated_word": "Repeated word",
    "words_digits": "Words and figures disagree",
    "two_values": "One right, two values",
}
# What a partner fixes before anything goes out (a blank, a note to the other side, a figure that says two
# things, a reference to nothing) against what is tidying.
MAJOR = frozenset({"blank", "drafting_note", "words_digits", "two_values", "missing_reference", "empty_attachment",
                   "undefined_term", "conflicting_definition"})


def _category(finding: Finding) -> str:
    """The suggestion category of a finding: its group, marked as drafting."""
    return f"drafting_{finding.group}"


def drafting_suggestions(graph: ContractGraph, clauses: Sequence[Clause],
                         suppress: Callable[[Suggestion], bool | str | None],
                         kinds: frozenset[str] = DEFAULT_KINDS) -> tuple[list[Suggestion], list[bool | str]]:
    """The hygiene findings of ``kinds`` in ``graph`` as suggestions on ``clauses`` (the review's paragraphs, same
    anchors), and the ``suppress`` answer for each one it dropped (why: the earlier outcome it repeats). A
    finding whose quote cannot be found in its paragraph is dropped, never guessed."""
    texts = {c.anchor: c.text for c in clauses}
    out: list[Suggestion] = []
    seen: set[str] = set()
    suppressed: list[bool | str] = []
    findings = check(graph, kinds)
    if "two_values" in kinds:  # read with the review's quantity reader, so not among the graph's own checks
        findings = sorted([*findings, *two_values.check(graph)], key=lambda f: f.order)
    for finding in findings:
        s = _suggestion(finding, graph, texts.get(finding.anchor))
        if s is None or s.id in seen:
            continue
        seen.add(s.id)
        if why := suppress(s):
            suppressed.append(why)
            continue
        out.append(s)
    return out, suppressed


def _suggestion(finding: Finding, graph: ContractGraph, text: str | None) -> Suggestion | None:
    if text is None:
        return None
    block = graph.blocks[finding.block].text
    base = text.find(block)
    within = finding.start if finding.start is not None else block.find(finding.quote)
    if base < 0 or within < 0:
        return None
    at = base + within
    if text[at: at + len(finding.quote)] != finding.quote:
        return None
    kind = Kind.REPLACE if finding.fix is not None else Kind.COMMENT
    new_text = finding.fix or ""
    occurrence = occurrence_of(text, finding.quote, at)
    rule_key = f"{SOURCE}.{finding.kind}"
    return Suggestion(
        id=suggestion_id(rule_key, finding.anchor, kind, finding.quote, occurrence, new_text, finding.message),
        anchor=finding.anchor, kind=kind, rule_key=rule_key, rule_title=TITLES[finding.kind],
        category=_category(finding), severity="major" if finding.kind in MAJOR else "minor",
        quote=finding.quote, comment=finding.message, new_text=new_text, occurrence=occurrence,
        scope="paragraph" if finding.quote.strip() == text.strip() else "quote", source=SOURCE)
