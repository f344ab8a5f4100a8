"""Attachments referenced but attached empty: "the Marketing Plan attached as Exhibit C" over a bare heading.

An attachment is empty when every heading it has stands over nothing but blanks, placeholders ("[to be
attached]") or its own title. Not empty: "[Intentionally omitted]", "None", "[***]" (a redacted filing) and
attachments of pictures (marks, logos, charts), which have no text. Where the contract itself says the
attachment comes later ("will be established … ninety (90) days following the effective date … as a new
Exhibit C"), the comment says so: the gap is agreed, and what depends on it has no content until then.
"""

from __future__ import annotations

import re

from ..graph import ContractGraph
from ..headings import caption
from ..layout import Role
from ..references import Reference
from .finding import Finding
from .numbering import where

ATTACHMENT_WORDS = ("exhibit", "schedule", "annex", "appendix", "attachment")
ATTACHMENT_RE = re.compile(
    r"(?<![\w])(EXHIBIT|Exhibit|SCHEDULE|Schedule|ANNEX|Annex|APPENDIX|Appendix|ATTACHMENT|Attachment)\s+"
    r"[\"“]?([A-Z](?:-\d{1,2})?|\d{1,2}(?:\.\d{1,2})*|[IVX]{1,5}(?:-[A-Z])?)[\"”]?(?![\w'’])")
_PLACEHOLDER_RE = re.compile(
    r"^[\s\[(]*(?:to\s+(?:be|come)\b[^\])]*|tbd|tba|t\.b\.d\.?|pending|placeholder|form\s+(?:follows|to\s+follow)"
    r"|(?:please\s+)?insert\b[^\])]*|[^.]{0,60}\bto\s+be\s+(?:attached|provided|furnished|supplied|agreed|completed"
    r"|determined|inserted|added|developed|prepared|finali[sz]ed|mutually\s+agreed)\b[^.]{0,80}"
    r"|_{2,}|\.{3,}|…|\[\s*\]|\s*)[\s\])]*\.?\s*$", re.IGNORECASE)
_OWNER_RE = re.compile(r"\W*(?:to|of)\s+(?:the\s+|this\s+)?[^.;]{0,80}?\b(?:agreement|contract)\b[\s,]*"
                       r"(?:(?:by|between|among|dated|made|entered)\b.{0,200})?$", re.IGNORECASE)  # the heading naming the instrument it belongs to: a title, not content
_DELIBERATE_RE = re.compile(r"intentionally|omitted|reserved|^\W*none\W*$|\*|not\s+applicable|^\W*n/?a\W*$", re.I)
_PICTURES_RE = re.compile(r"\b(?:marks?|logos?|drawings?|renderings?|charts?|diagrams?|maps?|photo(?:graph)?s?"
                          r"|images?|artwork|pictures?|site\s+plan)\b", re.IGNORECASE)
_LATER_RE = re.compile(r"\b(?:shall|will|is\s+to|are\s+to)\s+be\s+(?:\w+\s+){0,3}?(?:completed|established|attached"
                       r"|added|agreed|developed|prepared|provided|delivered|incorporated|finali[sz]ed)\b"
                       r"|\bas\s+a\s+new\b", re.IGNORECASE)
_WHEN_RE = re.compile(r"(?:no\s+later\s+than\s+|within\s+)?(?:[a-z]+\s+\()?\d{1,3}\)?\s+days\s+(?:after|following|from)"
                      r"\s+the\s+(?:effective\s+date|execution|date)(?:\s+of\s+this\s+Agreement)?", re.IGNORECASE)


def empty_attachments(graph: ContractGraph, headings: dict[tuple[str, str], list[int]],
                      cited: dict[tuple[str, str], list[Reference]]) -> list[Finding]:
    """Referenced attachments whose every heading stands over nothing but blanks or "[to be attached]"."""
    starts = sorted({b for blocks in headings.values() for b in blocks})
    out = []
    for key, blocks in headings.items():
        refs = cited.get(key) or next((r for k, r in cited.items() if k[1] == key[1]), None)
        if not refs or any(_content(graph, b, starts) for b in blocks):
            continue
        if any(n - 1 in starts and n + 1 in starts and not _content(graph, n - 1, starts)
               and not _content(graph, n + 1, starts) for n in blocks):
            continue  # a list of attachments ("Exhibit A – Products", "Exhibit B – Prices"), not one of them
        heading = graph.blocks[blocks[-1]]
        m = ATTACHMENT_RE.search(heading.text, 0, 40)  # at the start, or behind a page number
        name = f"{key[0].capitalize()} {key[1]}"
        if (later := _later(graph, refs)) is not None:  # the contract says it comes later: say so, and what it costs
            message = (f"{name} is attached empty. {where(graph, later[0].source)} provides for it to be agreed and "
                       f"added later{later[1]}; until it is, what depends on it has no agreed content.")
        else:
            message = f"{name} is referenced in {where(graph, refs[0].source)} but is attached empty."
        out.append(Finding("empty_attachment", heading.index, heading.anchor, m.group(0) if m else heading.text,
                           message, start=m.start() if m else 0))
    return out


def _content(graph: ContractGraph, start: int, starts: list[int]) -> bool:
    """Whether the attachment headed at ``start`` holds anything: text, a table, or a deliberate "None"."""
    end = next((s for s in starts if s > start), len(graph.blocks))
    m = ATTACHMENT_RE.search(graph.blocks[start].text, 0, 40)  # at the start, or behind a page number
    title = graph.blocks[start].text[m.end():] if m else ""
    lines = [] if _OWNER_RE.match(title) else [title]  # "EXHIBIT A TO CONTENT LICENSE AGREEMENT … DATED June 2, 2008"
    lines += [graph.blocks[i].text for i in range(start + 1, end)  # a redacted exhibit's "[***]" is furniture
              if graph.roles[i] is Role.BODY or re.fullmatch(r"[\s\[\]*]+", graph.blocks[i].text)]
    captions = 0
    for line in lines:
        line = line.strip(" .:-–—")
        if not line or _PLACEHOLDER_RE.match(line):
            continue
        if _DELIBERATE_RE.search(line):
            return True
        if captions < 2 and len(line.split()) <= 10 and (line.isupper() or caption(line) == line.rstrip(".")):
            if _PICTURES_RE.search(line):
                return True  # "TEAM MARKS", "FLOW CHARTS": pictures, which have no text
            captions += 1  # "MARKETING PLAN": the attachment's title, not its content
            continue
        return True
    return False

def _later(graph: ContractGraph, refs: list[Reference]) -> tuple[Reference, str] | None:
    """The citation whose sentence says the attachment comes later ("shall be completed no later than 90 days
    after the effective date … and attached as Exhibit F"), with that time ("" when none is stated)."""
    for ref in refs:
        begin = max(graph.text.rfind(". ", 0, ref.start), graph.text.rfind("\n", 0, ref.start)) + 1
        sentence = graph.text[begin: ref.end + 40]
        if _LATER_RE.search(sentence):
            when = _WHEN_RE.search(sentence)
            return ref, f" ({' '.join(when.group(0).split())})" if when else ""
    return None
