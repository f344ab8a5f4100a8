"""Fields inside one paragraph: where a field's shown result lies and whether it can be replaced whole.

Split from :mod:`redline.ooxml.runs`: Word regenerates a field's result, so an
edit that touches one replaces the whole field. This module holds what the
paragraph editor knows about a field (its runs, its begin and end
``w:fldChar``, a ``w:fldSimple``) and the rules for when it can be deleted.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from lxml import etree

from .diff import Hunk
from .oxml import XML_SPACE, qn
from .run_xml import DEL, MOVE_FROM, formatting_of, inside, iter_runs, runs_until

_R = qn("w:r")
_FLD_CHAR = qn("w:fldChar")
_FLD_TYPE = qn("w:fldCharType")
_FLD_SIMPLE = qn("w:fldSimple")
_INSTR = qn("w:instrText")
_INSTR_ATTR = qn("w:instr")

# Revisions whose content the accepted view does not show (a field there is never edited).
HIDDEN = frozenset((DEL, MOVE_FROM))


@dataclass(slots=True)
class Field:
    """A field's shown result ``[start, end)`` and the runs that make it up."""

    runs: list[etree._Element] = field(default_factory=list)
    simple: etree._Element | None = None
    first: etree._Element | None = None  # the begin fldChar; None if in an earlier paragraph
    last: etree._Element | None = None  # the end fldChar; None if in a later paragraph
    complete: bool = True
    start: int = 0
    end: int = 0

    @property
    def deletable(self) -> bool:
        """Whole, and its runs side by side: directly in the paragraph or a container,
        or inside one insertion or move of another author (deleted there, as text is)."""
        if not self.complete:
            return False
        if self.simple is not None:
            return self.simple.getparent() is not None and self.simple.getparent().tag not in HIDDEN
        parent = self.runs[0].getparent()
        return parent.tag not in HIDDEN and all(r.getparent() is parent for r in self.runs)


def field_element(f: Field) -> etree._Element:
    """The element a refusal names for the field: its ``w:fldSimple`` or a ``w:fldChar``."""
    if f.simple is not None:
        return f.simple
    return f.first if f.first is not None else (f.last if f.last is not None else f.runs[0])


def why_not_deletable(f: Field) -> str:
    """Why :attr:`Field.deletable` is False, for the refusal message."""
    if not f.complete:
        return "it starts or ends in another paragraph."
    return "its runs sit in different containers or revisions."


def touches(h: Hunk, f: Field) -> bool:
    """Whether a hunk overlaps the field's shown result (an insertion strictly inside it)."""
    if h.end > h.start:
        return h.start < f.end and h.end > f.start
    return f.start < h.start < f.end


def find_fields(p: etree._Element) -> list[Field]:
    """The fields of paragraph ``p``, with a field begun in an earlier or ended in a later paragraph marked
    incomplete; offsets are the caller's to set."""
    fields: list[Field] = []
    depth = 0
    current: Field | None = None
    for run in iter_runs(p):
        for ch in run.iterchildren(_FLD_CHAR):
            kind = ch.get(_FLD_TYPE)
            if kind == "begin":
                if depth == 0:
                    current = Field(first=ch)
                    fields.append(current)
                depth += 1
            elif kind == "end":
                if depth == 0:  # the field began in an earlier paragraph
                    current = Field(runs=list(runs_until(p, run)), complete=False, last=ch)
                    fields.append(current)
                else:
                    depth -= 1
                    if depth == 0 and current is not None:
                        current.last = ch
        if current is not None:
            if not current.runs or current.runs[-1] is not run:
                current.runs.append(run)
            if depth == 0:
                current = None
    if current is not None:
        current.complete = False  # ends in a later paragraph
    for fs in p.iter(_FLD_SIMPLE):
        if not inside(fs, (_R,), p):  # not one in a text box of this paragraph
            fields.append(Field(runs=list(iter_runs(fs)), simple=fs))
    return fields


def explode(f: Field) -> None:
    """Rewrite a ``w:fldSimple`` as the equivalent begin/instr/separate/result/end runs."""
    fs = f.simple
    rpr = formatting_of(f.runs[0]) if f.runs else None

    def char_run(kind: str) -> etree._Element:
        run = etree.Element(_R)
        if rpr is not None:
            run.append(copy.deepcopy(rpr))
        fc = etree.SubElement(run, _FLD_CHAR)
        fc.set(_FLD_TYPE, kind)
        return run

    begin = char_run("begin")
    for attr in ("fldLock", "dirty"):
        if fs.get(qn(f"w:{attr}")) is not None:
            begin[-1].set(qn(f"w:{attr}"), fs.get(qn(f"w:{attr}")))
    instr = etree.Element(_R)
    if rpr is not None:
        instr.append(copy.deepcopy(rpr))
    it = etree.SubElement(instr, _INSTR)
    it.text = " " + (fs.get(_INSTR_ATTR) or "").strip() + " "
    it.set(XML_SPACE, "preserve")
    made = [begin, instr, char_run("separate"), *fs, char_run("end")]
    for el in made:
        fs.addprevious(el)
    fs.getparent().remove(fs)
    f.runs = [r for r in made if r.tag == _R]
    f.first, f.last = begin[-1], made[-1][-1]
    f.simple = None
