"""List labels computed from ``numbering.xml`` the way Word shows them.

Lawyers cite clauses by their numbers ("Section 4.2(b)"), and in most contracts
those numbers are not text: Word computes them from ``word/numbering.xml``.
This module recomputes them, in document order (ECMA-376 §17.9):

* ``w:num`` → ``w:abstractNum`` (following ``w:numStyleLink`` to the list
  style's definition); ``w:lvlOverride`` may replace a level or its start.
* One set of counters per abstract list, shared by every ``w:num`` that uses
  it, so a list split into several ``w:num`` continues; a ``w:startOverride``
  restarts the level the first time its ``w:num`` is used.
* Using a level increments it and resets deeper levels (``w:lvlRestart`` can
  narrow or switch that off); a level not used yet shows its start value − 1,
  as Word does ("1.0.1" when a level is skipped).
* ``w:lvlText`` placeholders ``%1``…``%9`` take each level's number in its own
  format, or decimal for all of them when the level is legal (``w:isLgl``).
"""

from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from .oxml import decimal_number, qn
from .text import font_char

_ABSTRACT = qn("w:abstractNum")
_ABSTRACT_ID = qn("w:abstractNumId")
_NUM = qn("w:num")
_NUM_ID = qn("w:numId")
_LVL = qn("w:lvl")
_ILVL = qn("w:ilvl")
_START = qn("w:start")
_NUM_FMT = qn("w:numFmt")
_LVL_TEXT = qn("w:lvlText")
_LVL_RESTART = qn("w:lvlRestart")
_IS_LGL = qn("w:isLgl")
_P_STYLE = qn("w:pStyle")
_LVL_OVERRIDE = qn("w:lvlOverride")
_START_OVERRIDE = qn("w:startOverride")
_NUM_STYLE_LINK = qn("w:numStyleLink")
_R_PR = qn("w:rPr")
_R_FONTS = qn("w:rFonts")
_ASCII = qn("w:ascii")
_VAL = qn("w:val")
_FORMAT = qn("w:format")
_ALTERNATE = qn("mc:AlternateContent")
_FALLBACK = qn("mc:Fallback")

MAX_LEVELS = 9


@dataclass(frozen=True, slots=True)
class Level:
    """One level of a list definition (``w:lvl``)."""

    start: int = 1
    fmt: str = "decimal"
    text: str = ""  # lvlText, with %1…%9 placeholders
    restart: int | None = None  # lvlRestart (1-based); None = after any shallower level
    legal: bool = False
    bullet_font: str | None = None
    style_id: str | None = None  # w:pStyle: the paragraph style tied to this level


_DEFAULT_LEVEL = Level()


class Numbering:
    """The list definitions of one document (``word/numbering.xml``; may be absent).

    ``style_num_ids`` maps numbering-style ids (``w:type="numbering"``) to the
    ``w:numId`` in their ``w:pPr/w:numPr``, to follow ``w:numStyleLink``.
    """

    def __init__(self, root: etree._Element | None, style_num_ids: dict[str, str] | None = None) -> None:
        self._abstracts: dict[str, etree._Element] = {}
        self._nums: dict[str, etree._Element] = {}
        self._style_num_ids = style_num_ids or {}
        self._levels: dict[tuple[str, int], Level] = {}
        self._resolved: dict[str, tuple[str, str, dict[int, int]] | None] = {}
        if root is None:
            return
        for el in root.iterchildren(_ABSTRACT, _NUM):
            key = el.get(_ABSTRACT_ID) if el.tag == _ABSTRACT else el.get(_NUM_ID)
            if key is not None:
                (self._abstracts if el.tag == _ABSTRACT else self._nums).setdefault(key, el)

    def num(self, num_id: str) -> tuple[str, str, dict[int, int]] | None:
        """``(list key, definition abstract id, {level: startOverride})`` for a numId, or None.

        The list key is the abstractNum the ``w:num`` names (counters are kept
        per list key); the definition is where its levels live, which differs
        when the list follows a list style through ``w:numStyleLink``.
        """
        if num_id in self._resolved:
            return self._resolved[num_id]
        result = None
        num = self._nums.get(num_id)
        if num is not None:
            list_key = _child_val(num, _ABSTRACT_ID)
            if list_key is not None and list_key in self._abstracts:
                overrides: dict[int, int] = {}
                for ov in num.iterchildren(_LVL_OVERRIDE):
                    ilvl, start = _int(ov.get(_ILVL)), _int(_child_val(ov, _START_OVERRIDE))
                    if ilvl is not None and start is not None:
                        overrides[ilvl] = start
                result = (list_key, self._definition(list_key), overrides)
        self._resolved[num_id] = result
        return result

    def level(self, num_id: str, abstract_id: str, ilvl: int) -> Level:
        """The effective level: a ``w:lvlOverride/w:lvl`` of the num, else the abstract's."""
        key = (num_id + "\0" + abstract_id, ilvl)
        cached = self._levels.get(key)
        if cached is not None:
            return cached
        lvl_el = None
        num = self._nums.get(num_id)
        if num is not None:
            for ov in num.iterchildren(_LVL_OVERRIDE):
                if _int(ov.get(_ILVL)) == ilvl:
                    lvl_el = ov.find(_LVL)
        if lvl_el is None:
            abstract = self._abstracts.get(abstract_id)
            if abstract is not None:
                lvl_el = next((lv for lv in abstract.iterchildren(_LVL) if _int(lv.get(_ILVL)) == ilvl), None)
        level = _parse_level(lvl_el) if lvl_el is not None else _DEFAULT_LEVEL
        self._levels[key] = level
        return level

    def level_for_style(self, num_id: str, style_id: str | None) -> int:
        """The level a style-numbered paragraph takes: the ``w:lvl`` whose
        ``w:pStyle`` is its style (as heading numbering does), else 0."""
        resolved = self.num(num_id)
        if resolved is None or style_id is None:
            return 0
        for ilvl in range(MAX_LEVELS):
            if self.level(num_id, resolved[1], ilvl).style_id == style_id:
                return ilvl
        return 0

    def _definition(self, abstract_id: str) -> str:
        """Follow ``w:numStyleLink`` (at most a few hops) to the defining abstractNum."""
        seen = {abstract_id}
        current = abstract_id
        for _ in range(4):
            link = _child_val(self._abstracts[current], _NUM_STYLE_LINK)
            target_num = self._style_num_ids.get(link) if link else None
            num = self._nums.get(target_num) if target_num else None
            nxt = _child_val(num, _ABSTRACT_ID) if num is not None else None
            if nxt is None or nxt in seen or nxt not in self._abstracts:
                break
            seen.add(nxt)
            current = nxt
        return current


class ListCounter:
    """Counts list items in document order and renders their labels.

    One instance per pass over a document; feed every numbered paragraph, in
    order, to :meth:`label`.
    """

    def __init__(self, numbering: Numbering) -> None:
        self._numbering = numbering
        self._counters: dict[str, list[int | None]] = {}  # list key -> value per level (None: reset)
        self._restarted: set[tuple[str, int]] = set()  # (numId, level) startOverrides already applied

    def label(self, num_id: str, ilvl: int) -> str | None:
        """Count a paragraph at ``(num_id, ilvl)`` and return its label ("4.2(b)", "•")."""
        resolved = self._numbering.num(num_id)
        if resolved is None:
            return None
        list_key, abstract_id, overrides = resolved
        ilvl = min(max(ilvl, 0), MAX_LEVELS - 1)
        levels = [self._numbering.level(num_id, abstract_id, i) for i in range(ilvl + 1)]
        counters = self._counters.setdefault(list_key, [None] * MAX_LEVELS)
        start = overrides.get(ilvl, levels[ilvl].start)
        if ilvl in overrides and (num_id, ilvl) not in self._restarted:
            self._restarted.add((num_id, ilvl))
            counters[ilvl] = None
        current = counters[ilvl]
        counters[ilvl] = start if current is None else current + 1
        for deeper in range(ilvl + 1, MAX_LEVELS):
            restart = self._numbering.level(num_id, abstract_id, deeper).restart
            if restart is None or ilvl < restart:
                counters[deeper] = None
        level = levels[ilvl]
        if level.fmt == "bullet":
            return _bullet(level)
        values = [
            counters[i] if counters[i] is not None else overrides.get(i, levels[i].start) - 1
            for i in range(ilvl + 1)
        ]
        return _render(level, levels, values, ilvl)


def _render(level: Level, levels: list[Level], values: list[int], ilvl: int) -> str:
    text = level.text
    out: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "%" and i + 1 < len(text) and text[i + 1] in "123456789":
            k = int(text[i + 1]) - 1
            if k <= ilvl:
                fmt = "decimal" if level.legal and levels[k].fmt not in ("none", "bullet") else levels[k].fmt
                out.append(format_number(values[k], fmt))
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def _bullet(level: Level) -> str:
    """A bullet as it looks: symbol-font glyphs mapped to Unicode ("•", "▪")."""
    if not level.text:
        return "•"
    return font_char(ord(level.text[0]), level.bullet_font) + level.text[1:]


_ROMAN = ((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"),
          (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i"))


# Letters and roman numerals grow with the value (n // 26 letters, n // 1000 "m"s), so a
# hostile w:start could ask for a gigantic label; past Word's own 32767 ceiling for list
# values, and for custom widths past an int32's ten digits, we fall back to plain decimal.
_MAX_SPELLED = 32767
_SPELLED = frozenset(("lowerLetter", "upperLetter", "lowerRoman", "upperRoman"))
_MAX_WIDTH = 10


def format_number(n: int, fmt: str) -> str:
    """Render ``n`` in an ``ST_NumberFormat`` (unknown formats fall back to decimal)."""
    if fmt == "none" or fmt == "bullet":
        return ""
    if n <= 0 and fmt not in ("decimal", "decimalZero"):
        return str(n) if n < 0 else "0"
    if n > _MAX_SPELLED and fmt in _SPELLED:
        return str(n)
    if fmt in ("lowerLetter", "upperLetter"):
        letter = chr(ord("a") + (n - 1) % 26) * ((n - 1) // 26 + 1)  # z, aa, bb… as Word does
        return letter if fmt == "lowerLetter" else letter.upper()
    if fmt in ("lowerRoman", "upperRoman"):
        roman = _roman(n)
        return roman if fmt == "lowerRoman" else roman.upper()
    if fmt == "decimalZero":
        return f"{n:02d}"
    if fmt == "ordinal":
        return f"{n}{_ordinal_suffix(n)}"
    if fmt == "decimalEnclosedParen":
        return f"({n})"
    if fmt.startswith("custom:"):  # w14 custom formats: "001, 002, 003, ..."
        width = min(len(fmt.split(":", 1)[1].split(",")[0].strip()), _MAX_WIDTH)
        return f"{n:0{width}d}"
    return str(n)


def _roman(n: int) -> str:
    out = []
    for value, numeral in _ROMAN:
        count, n = divmod(n, value)
        out.append(numeral * count)
    return "".join(out)


def _ordinal_suffix(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def _parse_level(lvl: etree._Element) -> Level:
    fmt_el = lvl.find(_NUM_FMT)
    if fmt_el is None:
        alt = lvl.find(_ALTERNATE)
        fallback = alt.find(_FALLBACK) if alt is not None else None
        fmt_el = fallback.find(_NUM_FMT) if fallback is not None else None
        choice = alt[0].find(_NUM_FMT) if alt is not None and len(alt) else None
        if choice is not None and choice.get(_VAL) == "custom" and choice.get(_FORMAT):
            fmt_el = choice
    fmt = fmt_el.get(_VAL, "decimal") if fmt_el is not None else "decimal"
    if fmt == "custom" and fmt_el is not None:
        fmt = "custom:" + (fmt_el.get(_FORMAT) or "1")
    text_el = lvl.find(_LVL_TEXT)
    restart = _int(_child_val(lvl, _LVL_RESTART))
    is_lgl = lvl.find(_IS_LGL)
    rpr = lvl.find(_R_PR)
    fonts = rpr.find(_R_FONTS) if rpr is not None else None
    start = _int(_child_val(lvl, _START))
    return Level(
        start=1 if start is None else start,
        fmt=fmt,
        text=(text_el.get(_VAL) or "") if text_el is not None else "",
        restart=restart,
        legal=is_lgl is not None and is_lgl.get(_VAL, "1") not in ("0", "false", "off"),
        bullet_font=fonts.get(_ASCII) if fonts is not None else None,
        style_id=_child_val(lvl, _P_STYLE),
    )


def _child_val(parent: etree._Element, tag: str) -> str | None:
    child = parent.find(tag)
    return None if child is None else child.get(_VAL)


def _int(value: str | None) -> int | None:
    return decimal_number(value)
