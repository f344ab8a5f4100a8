"""What the engine reviews: anchored paragraphs, from a .docx or from the add-in.

The engine never sees OOXML. It takes :class:`Clause` values, built either from
the OOXML engine's paragraph model (:func:`clauses_from_paragraphs`) or from the
JSON the Word add-in sends (:func:`clauses_from_json`), so both paths are
reviewed by exactly the same code.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol

_HEADING_STYLE = re.compile(r"^heading\s*(\d)$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Clause:
    """One anchored paragraph as the engine sees it.

    ``text`` is the paragraph as Word shows it (tracked changes accepted);
    ``list_label`` is the computed number ("4.2(b)") that is not part of the
    text; ``in_table`` marks table-cell paragraphs.
    """

    anchor: str
    text: str
    style: str | None = None
    heading_level: int | None = None
    list_label: str | None = None
    in_table: bool = False


class ParagraphLike(Protocol):
    """The fields of :class:`redline.ooxml.paragraphs.Paragraph` the engine reads."""

    @property
    def anchor(self) -> str | None: ...
    @property
    def text(self) -> str: ...
    @property
    def style_name(self) -> str | None: ...
    @property
    def heading_level(self) -> int | None: ...
    @property
    def list_label(self) -> str | None: ...
    @property
    def table(self) -> object | None: ...


def clauses_from_paragraphs(paragraphs: Iterable[ParagraphLike]) -> list[Clause]:
    """Clauses from the OOXML paragraph model, skipping paragraphs without an anchor.

    Only anchored paragraphs can carry a suggestion, and empty paragraphs get
    no anchor, so nothing reviewable is lost.
    """
    return [
        Clause(
            anchor=p.anchor,
            text=p.text,
            style=p.style_name,
            heading_level=p.heading_level,
            list_label=p.list_label,
            in_table=p.table is not None,
        )
        for p in paragraphs
        if p.anchor and p.text.strip()
    ]


def clauses_from_json(items: Iterable[Mapping[str, object]]) -> list[Clause]:
    """Clauses from the add-in's ``[{anchor, text, style, list_label}]`` payload.

    The heading level comes from ``heading_level`` when sent, else from a
    "Heading N" style name. Raises ``ValueError`` naming the first bad item,
    because a silently skipped paragraph would be a silently skipped review.
    """
    out: list[Clause] = []
    seen: set[str] = set()
    for i, item in enumerate(items):
        anchor, text = item.get("anchor"), item.get("text")
        if not isinstance(anchor, str) or not anchor:
            raise ValueError(f"paragraph {i}: 'anchor' must be a non-empty string")
        if not isinstance(text, str):
            raise ValueError(f"paragraph {i}: 'text' must be a string")
        if anchor in seen:
            raise ValueError(f"paragraph {i}: duplicate anchor {anchor!r}")
        seen.add(anchor)
        style = _optional_str(item, "style", i)
        label = _optional_str(item, "list_label", i)
        level = item.get("heading_level")
        if level is not None and (not isinstance(level, int) or isinstance(level, bool) or not 0 <= level <= 9):
            raise ValueError(f"paragraph {i}: 'heading_level' must be an integer 0-9")
        if level is None and style and (m := _HEADING_STYLE.match(style.strip())):
            level = int(m.group(1))
        if text.strip():
            out.append(Clause(anchor, text, style, level, label, bool(item.get("in_table", False))))
    return out


def _optional_str(item: Mapping[str, object], key: str, i: int) -> str | None:
    value = item.get(key)
    if value is not None and not isinstance(value, str):
        raise ValueError(f"paragraph {i}: '{key}' must be a string")
    return value or None
