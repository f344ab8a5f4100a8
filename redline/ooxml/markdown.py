"""Markdown and the anchor sidecar: how the model and its tools see a document.

The model never sees anchors. It sees Markdown in which every non-empty
paragraph carries a local number (``[12]``), with headings as ``#`` lines,
computed list labels in front of the text, and tables as Markdown tables. The
sidecar maps each anchor back to that number and its text (the seed plan's
format: ``text``, ``type``, ``level``, ``location``, plus ``list_label`` and
``table``), so an answer about ``[12]`` lands on the right paragraph.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .paragraphs import Paragraph, TablePosition

MAX_MARKDOWN_HEADING = 6


def numbered(paragraphs: Iterable[Paragraph]) -> list[tuple[int, Paragraph]]:
    """The non-empty paragraphs with their local numbers (1, 2, …), in order.

    Markdown, the sidecar and the review pipeline all number through here, so
    a number means the same paragraph everywhere.
    """
    return [(n, p) for n, p in enumerate((p for p in paragraphs if not p.is_empty), start=1)]


def to_markdown(paragraphs: Iterable[Paragraph]) -> str:
    """Markdown of the revised text (changes accepted), one block per paragraph or table."""
    blocks: list[str] = []
    table_rows: dict[tuple[int, int], dict[int, list[str]]] = {}
    current_table: int | None = None
    for n, p in numbered(paragraphs):
        root = _root_cell(p.table) if p.table is not None else None
        if root is None:
            if current_table is not None:
                blocks.append(_render_table(table_rows))
                table_rows, current_table = {}, None
            blocks.append(_paragraph_line(n, p))
            continue
        if current_table is not None and root.table != current_table:
            blocks.append(_render_table(table_rows))
            table_rows = {}
        current_table = root.table
        table_rows.setdefault((root.table, root.row), {}).setdefault(root.cell, []).append(_cell_item(n, p))
    if current_table is not None:
        blocks.append(_render_table(table_rows))
    return "\n\n".join(blocks) + "\n" if blocks else ""


def to_sidecar(paragraphs: Iterable[Paragraph]) -> dict[str, dict[str, object]]:
    """The sidecar: anchor → ``{text, type, level?, location, list_label, table}``.

    ``location.paragraph`` is the paragraph's local number in the Markdown;
    ``location.section`` its Word section. Paragraphs without an anchor are left out.
    """
    out: dict[str, dict[str, object]] = {}
    for n, p in numbered(paragraphs):
        if p.anchor is None:
            continue
        entry: dict[str, object] = {"text": p.text, "type": "heading" if p.heading_level else "paragraph"}
        if p.heading_level:
            entry["level"] = p.heading_level
        entry["location"] = {"section": p.section, "paragraph": n}
        entry["list_label"] = p.list_label
        entry["table"] = p.table.as_dict() if p.table is not None else None
        out[p.anchor] = entry
    return out


def _paragraph_line(n: int, p: Paragraph) -> str:
    body = _labelled(p)
    if p.heading_level:
        return "#" * min(p.heading_level, MAX_MARKDOWN_HEADING) + f" [{n}] {body}"
    return f"[{n}] {body}"


def _labelled(p: Paragraph) -> str:
    return f"{p.list_label} {p.text}" if p.list_label else p.text


def _cell_item(n: int, p: Paragraph) -> str:
    text = _labelled(p).replace("|", "\\|").replace("\n", " ")
    return f"[{n}] {text}"


def _root_cell(pos: TablePosition) -> TablePosition:
    """Nested tables are flattened into the top-level cell that holds them."""
    while pos.parent is not None:
        pos = pos.parent
    return pos


def _render_table(rows: dict[tuple[int, int], dict[int, list[str]]]) -> str:
    ordered: Sequence[dict[int, list[str]]] = [rows[k] for k in sorted(rows)]
    width = max((max(cells) + 1 for cells in ordered if cells), default=1)
    lines = []
    for i, cells in enumerate(ordered):
        lines.append("| " + " | ".join("<br>".join(cells.get(c, [])) for c in range(width)) + " |")
        if i == 0:
            lines.append("|" + "---|" * width)
    return "\n".join(lines)
