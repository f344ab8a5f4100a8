"""The text of a paragraph as Word shows it, with tracked changes accepted or rejected.

This is the hot path of reading: every paragraph of every document goes through
:func:`paragraph_text` twice (accepted and rejected view). It walks the
paragraph's subtree once, dispatching on the tag with a dictionary, and never
runs XPath. The write side uses :func:`text_segments` to map text back to the
elements that carry it, so both agree on exactly one reading of a paragraph.

What is read (ECMA-376 §17.3.3, §17.13.5, §17.16):

* ``w:t`` always; ``w:delText`` only in the rejected view (it is deleted text).
* ``w:ins``/``w:moveTo`` content is kept when accepting, dropped when rejecting;
  ``w:del``/``w:moveFrom`` the reverse.
* Fields show their result, never their instruction: ``w:fldSimple`` children
  are its result; complex fields (``w:fldChar`` begin/separate/end) show the
  runs between *separate* and *end*, and nested fields inside an instruction
  stay hidden.
* Hyperlinks, smart tags, custom XML and content controls (``w:sdtContent``)
  are transparent containers.
* ``w:tab``/``w:ptab`` → ``"\\t"``, ``w:br``/``w:cr`` → ``"\\n"``, ``w:sym`` →
  its character (Symbol and Wingdings glyphs mapped to Unicode).
* ``w:noBreakHyphen`` → ``"-"`` (pandoc writes U+2011; a plain hyphen is what
  a reviewer types when quoting, so quotes match), ``w:softHyphen`` → nothing
  (it only shows at a line end).
* Hidden text (``w:vanish``) is read like any other text, as pandoc and
  LibreOffice read it; it is still part of the paragraph an edit must keep.
* Drawings, text boxes, footnote and comment references and math carry no text
  of *this* paragraph and are skipped.
"""

from __future__ import annotations

from typing import Literal

from lxml import etree

from .oxml import qn

View = Literal["accept", "reject"]

_T = qn("w:t")
_DEL_TEXT = qn("w:delText")
_R = qn("w:r")
_INS = qn("w:ins")
_DEL = qn("w:del")
_MOVE_TO = qn("w:moveTo")
_MOVE_FROM = qn("w:moveFrom")
_FLD_CHAR = qn("w:fldChar")
_FLD_CHAR_TYPE = qn("w:fldCharType")
_SDT = qn("w:sdt")
_SDT_CONTENT = qn("w:sdtContent")
_SYM = qn("w:sym")
_CHAR = qn("w:char")
_FONT = qn("w:font")

# Containers whose children are read in place.
_TRANSPARENT = frozenset(
    qn(t)
    for t in ("w:hyperlink", "w:smartTag", "w:customXml", "w:fldSimple", "w:bdo", "w:dir")
)

# Run content mapped to fixed text.
_FIXED = {
    qn("w:tab"): "\t",
    qn("w:ptab"): "\t",
    qn("w:br"): "\n",
    qn("w:cr"): "\n",
    qn("w:noBreakHyphen"): "-",
}

_REVISION_TAGS = (_INS, _DEL, _MOVE_TO, _MOVE_FROM)

# Symbol and Wingdings place their glyphs at their own code points (in the
# F0xx private-use range in OOXML); map the ones contracts use.
_SYMBOL_FONT = {
    0x22: "∀", 0x24: "∃", 0x27: "∋", 0x2D: "−", 0x40: "≅", 0x5E: "⊥",
    0xA3: "≤", 0xA5: "∞", 0xAE: "→", 0xAC: "←", 0xB0: "°", 0xB1: "±", 0xB3: "≥",
    0xB4: "×", 0xB7: "•", 0xB9: "≠", 0xBA: "≡", 0xBB: "≈", 0xBC: "…", 0xD6: "√",
    0xD7: "⋅", 0xD8: "¬", 0xD9: "∧", 0xDA: "∨", 0xE0: "◊", 0xE3: "©", 0xE2: "®", 0xE4: "™",
    0xA7: "♣", 0xA8: "♦", 0xA9: "♥", 0xAA: "♠",
}
_SYMBOL_FONT.update({0x41 + i: g for i, g in enumerate("ΑΒΧΔΕΦΓΗΙϑΚΛΜΝΟΠΘΡΣΤΥςΩΞΨΖ")})
_SYMBOL_FONT.update({0x61 + i: g for i, g in enumerate("αβχδεφγηιϕκλμνοπθρστυϖωξψζ")})
_WINGDINGS = {
    0x6E: "■", 0x6F: "□", 0x71: "❑", 0x76: "❖", 0x9F: "•", 0xA7: "▪", 0xA8: "◆",
    0xD8: "➢", 0xFC: "✓", 0xFD: "☒", 0xFE: "☑", 0xA1: "○", 0x6C: "●",
}
_FONT_MAPS = {"symbol": _SYMBOL_FONT, "wingdings": _WINGDINGS}


def paragraph_text(p: etree._Element, view: View = "accept") -> str:
    """The text of ``w:p`` as Word shows it with all changes accepted or rejected."""
    out: list[str] = []
    _Walker(view, out, None).walk(p)
    return "".join(out)


def text_segments(p: etree._Element, view: View = "accept") -> list[tuple[etree._Element, str]]:
    """The pieces of :func:`paragraph_text`, each with the element that shows it.

    The element is the ``w:t``/``w:delText``/``w:tab``/``w:br``/``w:sym``… that
    produced the piece; its parent is the run. Joining the strings gives exactly
    ``paragraph_text(p, view)``, so offsets in that text map to elements.
    """
    out: list[str] = []
    owners: list[etree._Element] = []
    _Walker(view, out, owners).walk(p)
    return list(zip(owners, out, strict=True))


def has_revisions(p: etree._Element) -> bool:
    """True when the paragraph holds pending insertions, deletions or moves.

    Includes a tracked paragraph mark (``w:pPr/w:rPr/w:ins|w:del``). Formatting
    changes (``w:rPrChange``/``w:pPrChange``) do not count: they leave the text
    unchanged, and a text edit can be layered over them safely.
    """
    for _ in p.iter(*_REVISION_TAGS):
        return True
    return False


def symbol_char(sym: etree._Element) -> str:
    """The character a ``w:sym`` shows."""
    try:
        code = int(sym.get(_CHAR, ""), 16)
    except ValueError:
        return ""
    return font_char(code, sym.get(_FONT))


def font_char(code: int, font: str | None) -> str:
    """Unicode for a code point in a symbol font (``F0xx`` or plain), as it looks.

    Symbol and Wingdings glyphs are mapped; other fonts' ``F0xx`` code points
    are the plain character ``code - 0xF000``; an unknown dingbat reads as "•".
    """
    low = code - 0xF000 if 0xF000 <= code <= 0xF0FF else code
    mapping = _FONT_MAPS.get((font or "").lower())
    if mapping is not None:
        return mapping.get(low, chr(low) if 0x20 <= low < 0x7F and mapping is _SYMBOL_FONT else "•")
    return chr(low)


class _Walker:
    """One pass over a paragraph subtree; ``owners`` is filled only when asked."""

    __slots__ = ("_field_phases", "_hidden", "_keep", "_out", "_owners", "_reject")

    def __init__(self, view: View, out: list[str], owners: list[etree._Element] | None) -> None:
        self._reject = view == "reject"
        self._keep = {_INS: not self._reject, _MOVE_TO: not self._reject, _DEL: self._reject, _MOVE_FROM: self._reject}
        self._out = out
        self._owners = owners
        # Complex fields: a stack of "showing result?" flags, and how many of the
        # open fields are still in their instruction part (text hidden while > 0).
        self._field_phases: list[bool] = []
        self._hidden = 0

    def walk(self, parent: etree._Element) -> None:
        for child in parent:
            tag = child.tag
            if tag == _R:
                self._run(child)
            elif tag in _TRANSPARENT:
                self.walk(child)
            elif tag in self._keep:
                if self._keep[tag]:
                    self.walk(child)
            elif tag == _SDT:
                content = child.find(_SDT_CONTENT)
                if content is not None:
                    self.walk(content)
            # pPr, bookmarks, comment ranges, proofErr, math, AlternateContent…: no text.

    def _emit(self, element: etree._Element, text: str) -> None:
        if self._hidden or not text:
            return
        self._out.append(text)
        if self._owners is not None:
            self._owners.append(element)

    def _run(self, run: etree._Element) -> None:
        for child in run:
            tag = child.tag
            if tag == _T:
                self._emit(child, child.text or "")
            elif tag == _DEL_TEXT:
                if self._reject:
                    self._emit(child, child.text or "")
            elif tag in _FIXED:
                self._emit(child, _FIXED[tag])
            elif tag == _FLD_CHAR:
                self._field_char(child.get(_FLD_CHAR_TYPE))
            elif tag == _SYM:
                self._emit(child, symbol_char(child))

    def _field_char(self, kind: str | None) -> None:
        if kind == "begin":
            self._field_phases.append(False)
            self._hidden += 1
        elif kind == "separate":
            if self._field_phases and not self._field_phases[-1]:
                self._field_phases[-1] = True
                self._hidden -= 1
        elif kind == "end" and self._field_phases:
            # A field that began in an earlier paragraph (a TOC) ends here without
            # a matching begin; the empty stack guard covers it.
            showing_result = self._field_phases.pop()
            self._hidden -= 0 if showing_result else 1
