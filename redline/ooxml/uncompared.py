"""What two versions differ in that the redline does not show: said, never silently dropped.

The compare engine (:mod:`.compare`) redlines the body's text and pictures and the text of headers, footers,
footnotes and endnotes. A lawyer who sees a clean redline assumes nothing else changed, so whatever else
differs is named: a header, footer or note only the old version has, or whose edit could not be proven, the
text of text boxes (:mod:`.stories`), pictures the redline's reject view does not show as the old version
had them (:mod:`.pictures`), and bold, italic or underline on text that reads the same that could not be
recorded. The result says where to look, not what changed there.
"""

from __future__ import annotations

from collections.abc import Iterable

from lxml import etree

from .oxml import qn
from .paragraphs import Paragraph
from .stories import KINDS

_ORDER = (*KINDS, "pictures")
_R, _T, _RPR, _MOVE_FROM = qn("w:r"), qn("w:t"), qn("w:rPr"), qn("w:moveFrom")
MARKS = {qn("w:b"): "b", qn("w:i"): "i", qn("w:u"): "u"}  # the formatting compared, by the code it has here
OFF = {"0", "false", "none", "off"}


def formatting(p: etree._Element) -> str:
    """The paragraph's bold, italic and underline as one string (see :func:`char_marks`)."""
    return ",".join(char_marks(p))


def char_marks(p: etree._Element) -> list[str]:
    """The paragraph's bold, italic and underline, character by character of its words (a whitespace run is
    one " ", as the comparison reads it; text a pending move takes away is not read)."""
    return [marks for marks, _ in char_runs(p)]


def char_runs(p: etree._Element) -> list[tuple[str, etree._Element | None]]:
    """:func:`char_marks` with, for each character, the run properties it has them from (None for none)."""
    out: list[tuple[str, etree._Element | None]] = []
    space = True  # leading whitespace is not compared
    for r in p.iter(_R):
        if r.getparent() is not None and r.getparent().tag == _MOVE_FROM:
            continue
        rpr = r.find(_RPR)
        marks = "".join(sorted(code for tag, code in MARKS.items()
                               if rpr is not None and (el := rpr.find(tag)) is not None
                               and el.get(qn("w:val"), "true").lower() not in OFF)) or "-"
        for ch in "".join(t.text or "" for t in r.iter(_T)):
            if ch.isspace():
                if not space:
                    out.append((" ", None))
                space = True
            else:
                out.append((marks, rpr))
                space = False
    while out and out[-1][0] == " ":
        out.pop()
    return out


def uncompared(named: Iterable[str], pairs: Iterable[tuple[Paragraph, Paragraph]]) -> list[str]:
    """What differs between the versions outside the redline, in words ("footnotes", "pictures", …): the kinds
    ``named`` by the stories and pictures, and formatting ``pairs`` (body paragraphs of the same text) whose
    bold, italic or underline changed without being recorded."""
    kinds = set(named)
    found = [kind for kind in _ORDER if kind in kinds]
    if any(formatting(a.element) != formatting(b.element) for a, b in pairs):
        found.append("bold, italic or underline")
    return found
