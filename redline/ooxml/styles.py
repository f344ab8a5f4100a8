"""Paragraph styles: names, heading levels and style-linked numbering.

Word resolves a paragraph's look through its style chain (``w:basedOn``), so a
custom "Clause Heading" based on "heading 2" is a level-2 heading, and a style
whose ``w:pPr/w:numPr`` names a list numbers every paragraph that uses it. This
module walks that chain once per style and caches the result.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lxml import etree

from .oxml import decimal_number, qn

_STYLE = qn("w:style")
_TYPE = qn("w:type")
_STYLE_ID = qn("w:styleId")
_DEFAULT = qn("w:default")
_NAME = qn("w:name")
_BASED_ON = qn("w:basedOn")
_P_PR = qn("w:pPr")
_NUM_PR = qn("w:numPr")
_NUM_ID = qn("w:numId")
_ILVL = qn("w:ilvl")
_OUTLINE = qn("w:outlineLvl")
_VAL = qn("w:val")

_HEADING_NAME = re.compile(r"^heading ([1-9])$", re.IGNORECASE)
BODY_TEXT_OUTLINE = 9  # outline level 9 means "body text", not a heading
# Word stores some built-in names in lower case and shows them capitalised.
_UI_NAMES = {"title": "Title", "subtitle": "Subtitle", "caption": "Caption", "header": "Header", "footer": "Footer"}


@dataclass(frozen=True, slots=True)
class StyleInfo:
    """What the reader needs from a paragraph style, after walking ``basedOn``.

    ``num_id``/``num_level`` come from the first style in the chain with a
    ``w:numPr`` (``num_level`` None when that style gives no ``w:ilvl``).
    """

    style_id: str | None
    name: str | None
    heading_level: int | None
    num_id: str | None
    num_level: int | None


_NO_STYLE = StyleInfo(None, None, None, None, None)


def ui_name(name: str) -> str:
    """The name Word shows for a stored style name (``heading 1`` → ``Heading 1``)."""
    if _HEADING_NAME.match(name):
        return "Heading " + name[-1]
    return _UI_NAMES.get(name, name)


def outline_heading_level(ppr: etree._Element | None) -> int | None:
    """Heading level (1–9) from ``w:pPr/w:outlineLvl``; 0 when it says body text, None when absent."""
    if ppr is None:
        return None
    el = ppr.find(_OUTLINE)
    if el is None:
        return None
    level = decimal_number(el.get(_VAL))
    if level is None or level < 0 or level >= BODY_TEXT_OUTLINE:
        return 0
    return level + 1


class Styles:
    """Paragraph styles of one document (``word/styles.xml``; may be absent)."""

    def __init__(self, root: etree._Element | None) -> None:
        self._elements: dict[str, etree._Element] = {}
        self._default_id: str | None = None
        self._cache: dict[str | None, StyleInfo] = {}
        if root is None:
            return
        for style in root.iterchildren(_STYLE):
            sid = style.get(_STYLE_ID)
            if sid is None:
                continue
            self._elements.setdefault(sid, style)
            if style.get(_TYPE) == "paragraph" and style.get(_DEFAULT) in ("1", "true", "on"):
                self._default_id = self._default_id or sid

    def element(self, style_id: str) -> etree._Element | None:
        """The ``w:style`` element with this id (any type), or None."""
        return self._elements.get(style_id)

    def numbering_styles(self) -> dict[str, str]:
        """Numbering-style id → the ``w:numId`` in its ``w:pPr/w:numPr``.

        Lists defined through a list style (``w:numStyleLink``) find their
        levels this way.
        """
        out: dict[str, str] = {}
        for sid, style in self._elements.items():
            if style.get(_TYPE) != "numbering":
                continue
            ppr = style.find(_P_PR)
            numpr = ppr.find(_NUM_PR) if ppr is not None else None
            num_id = _val(numpr, _NUM_ID) if numpr is not None else None
            if num_id is not None:
                out[sid] = num_id
        return out

    def paragraph(self, style_id: str | None) -> StyleInfo:
        """Resolved info for a paragraph's ``w:pStyle`` (None or unknown → the default style)."""
        info = self._cache.get(style_id)
        if info is None:
            info = self._resolve(style_id)
            self._cache[style_id] = info
        return info

    def _resolve(self, style_id: str | None) -> StyleInfo:
        sid = style_id if style_id in self._elements else self._default_id
        if sid is None:
            return _NO_STYLE
        style = self._elements[sid]
        raw_name = _val(style, _NAME)
        heading: int | None = None
        num_id: str | None = None
        num_level: int | None = None
        heading_known = numbering_known = False
        for el in self._chain(sid):
            if not heading_known:
                heading_known, heading = _style_heading(el)
            ppr = el.find(_P_PR)
            numpr = ppr.find(_NUM_PR) if ppr is not None else None
            if not numbering_known and numpr is not None:
                numbering_known = True
                num_id = _val(numpr, _NUM_ID)
                level = decimal_number(_val(numpr, _ILVL))
                num_level = level if level is not None and level >= 0 else None
        if num_id == "0":  # numId 0 switches numbering off
            num_id = num_level = None
        return StyleInfo(sid, ui_name(raw_name) if raw_name else sid, heading, num_id, num_level)

    def _chain(self, style_id: str) -> list[etree._Element]:
        """The style and its ``basedOn`` ancestors, nearest first (cycles cut)."""
        chain: list[etree._Element] = []
        seen: set[str] = set()
        sid: str | None = style_id
        while sid is not None and sid not in seen and sid in self._elements:
            seen.add(sid)
            el = self._elements[sid]
            chain.append(el)
            sid = _val(el, _BASED_ON)
        return chain


def _style_heading(style: etree._Element) -> tuple[bool, int | None]:
    """(decided?, level) for one style: "heading N" and Title by name, else its outline level."""
    name = (_val(style, _NAME) or "").strip()
    m = _HEADING_NAME.match(name)
    if m:
        return True, int(m.group(1))
    if name.lower() == "title":
        return True, 1
    level = outline_heading_level(style.find(_P_PR))
    if level is None:
        return False, None
    return True, level or None


def _val(parent: etree._Element, child_tag: str) -> str | None:
    child = parent.find(child_tag)
    return None if child is None else child.get(_VAL)
