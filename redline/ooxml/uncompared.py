"""What two versions differ in that the redline does not show: said, never silently dropped.

The compare engine (:mod:`.compare`) writes the body's text. A lawyer who sees a clean redline assumes nothing
else changed, so whatever else differs is named: the text of headers, footers, footnotes and endnotes (each
as it reads with its changes accepted), the pictures (by the bytes of their media parts), and bold, italic or
underline on text that reads the same. The result says where to look, not what changed there.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from lxml import etree

from .oxml import qn
from .package import Package
from .paragraphs import Paragraph
from .text import paragraph_text

_STORIES = {"/header": "headers", "/footer": "footers", "/footnotes": "footnotes", "/endnotes": "endnotes"}
_P, _R, _T, _RPR, _MOVE_FROM = qn("w:p"), qn("w:r"), qn("w:t"), qn("w:rPr"), qn("w:moveFrom")
MARKS = {qn("w:b"): "b", qn("w:i"): "i", qn("w:u"): "u"}  # the formatting compared, by the code it has here
OFF = {"0", "false", "none", "off"}


def other_stories(pkg: Package) -> dict[str, list[str]]:
    """Per kind of story (headers, footers, footnotes, endnotes): its paragraphs' text, accepted, in order."""
    out: dict[str, list[str]] = {}
    for target, rel_type in sorted(pkg.rels(pkg.main_part).values()):
        kind = next((name for suffix, name in _STORIES.items() if rel_type.endswith(suffix)), None)
        if kind is not None and pkg.has(target):
            texts = [paragraph_text(p).strip() for p in pkg.xml(target).iter(_P)]
            out.setdefault(kind, []).extend(t for t in texts if t)
    return out


def media(pkg: Package) -> list[str]:
    """The hashes of the package's pictures and other media, sorted (their names do not matter)."""
    return sorted(hashlib.sha256(pkg.blob(name)).hexdigest() for name in pkg.names() if "/media/" in name)


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


def uncompared(old: Package, new: Package, pairs: Iterable[tuple[Paragraph, Paragraph]]) -> list[str]:
    """What differs between the versions outside the redline, in words ("footnotes", "pictures", …);
    ``pairs`` are the body paragraphs paired with the same text."""
    before, after = other_stories(old), other_stories(new)
    found = [kind for kind in _STORIES.values() if before.get(kind, []) != after.get(kind, [])]
    if media(old) != media(new):
        found.append("pictures")
    if any(formatting(a.element) != formatting(b.element) for a, b in pairs):
        found.append("bold, italic or underline")
    return found
