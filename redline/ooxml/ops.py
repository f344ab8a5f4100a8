"""The operations format (``ops.json``) and what applying an op reports.

``{"meta": {"author": "Redline AI"}, "ops": [...]}``, keys as in the seed plan:
``Id`` (the anchor), ``Type`` (``COMMENT``, ``REWRITE_PARAGRAPH``, ``INSERT``,
``DELETE_PARAGRAPH``, ``REPLACE_TEXT``), ``NewText``, ``Text``, ``Position``
(``before``/``after``), ``Comment``, ``Scope``; ``REPLACE_TEXT`` adds ``Quote``,
``Replacement`` and optional ``Occurrence`` (1-based). A ``COMMENT`` with a
``Quote`` (and optional ``Occurrence``) is anchored to that span, otherwise to
the whole paragraph; ``Scope`` is carried but does not change where it goes.
A ``Comment`` on any other op becomes a comment on the change.

A malformed file is refused (:class:`DocxError` ``invalid_ops``); a malformed
op inside a good file is reported as skipped (``invalid_op``) so one bad
suggestion never costs the others.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from .errors import DocxError

DEFAULT_AUTHOR = "Redline AI"
OP_TYPES = ("COMMENT", "REWRITE_PARAGRAPH", "INSERT", "DELETE_PARAGRAPH", "REPLACE_TEXT")
# The seed's comment_ids_map names for operation types.
ENTRY_TYPES = {
    "COMMENT": "COMMENT",
    "REWRITE_PARAGRAPH": "REWRITE",
    "INSERT": "INSERT",
    "DELETE_PARAGRAPH": "DELETE",
    "REPLACE_TEXT": "REPLACE_TEXT",
}
SKIP_REASONS = (
    "anchor_not_found", "quote_not_found", "ambiguous_quote", "no_change", "pending_revisions",
    "roundtrip_failed", "unsupported_content", "invalid_op",
)


@dataclass(frozen=True, slots=True)
class Op:
    """One suggestion to write; ``problem`` is set when the op itself is malformed."""

    index: int
    type: str
    anchor: str
    new_text: str = ""
    text: str = ""
    position: str = "after"
    comment: str = ""
    scope: str = ""
    quote: str = ""
    replacement: str = ""
    occurrence: int | None = None
    problem: str | None = None

    @property
    def entry_id(self) -> str:
        """Stable id of the suggestion: a hash of type, anchor and content.

        No timestamp, so writing the same suggestion again yields the same id
        and the learning side deduplicates it.
        """
        content = {
            "COMMENT": f"{self.comment}\0{self.quote}\0{self.occurrence or ''}",
            "REWRITE_PARAGRAPH": self.new_text,
            "INSERT": f"{self.position}\0{self.text}",
            "DELETE_PARAGRAPH": "",
            "REPLACE_TEXT": f"{self.quote}\0{self.replacement}\0{self.occurrence or ''}",
        }.get(self.type, "")
        key = f"{self.type}|{self.anchor}|{content}".encode()
        return hashlib.sha256(key).hexdigest()[:16]


@dataclass(slots=True)
class KnownEntry:
    """An applied suggestion as recorded in ``comment_ids_map.json`` (the seed's fields)."""

    id: str
    index: int
    operation_type: str
    bookmark_id: str
    durable_id: str = ""
    comment_text: str = ""
    original_text: str = ""
    new_text: str = ""
    position: str = ""

    def to_json(self) -> dict[str, Any]:
        """The entry as the seed's ``comment_ids_map.json`` writes it (plus ``index``)."""
        return {
            "id": self.id, "index": self.index, "operation_type": self.operation_type,
            "durable_id": self.durable_id, "comment_text": self.comment_text, "bookmark_id": self.bookmark_id,
            "original_text": self.original_text, "new_text": self.new_text, "position": self.position,
        }


@dataclass(slots=True)
class OpResult:
    """What happened to one op: ``applied`` (with its known entry) or ``skipped``."""

    op: Op
    status: str
    reason: str | None = None
    message: str | None = None
    entry: KnownEntry | None = None
    revisions: int = 0
    new_anchors: tuple[str, ...] = ()

    def to_log(self) -> dict[str, Any]:
        """One line of ``run.log``."""
        out: dict[str, Any] = {"index": self.op.index, "type": self.op.type, "anchor": self.op.anchor,
                               "status": self.status}
        if self.reason:
            out["reason"] = self.reason
        if self.message:
            out["message"] = self.message
        if self.entry is not None:
            out["id"] = self.entry.id
            out["revisions"] = self.revisions
            if self.entry.durable_id:
                out["durable_id"] = self.entry.durable_id
        if self.new_anchors:
            out["new_anchors"] = list(self.new_anchors)
        return out


def parse_ops(data: bytes | str) -> tuple[dict[str, Any], list[Op]]:
    """Parse ``ops.json`` (an object with ``ops``, or a bare list) into meta and ops."""
    try:
        doc = json.loads(data)
    except (ValueError, UnicodeDecodeError) as exc:
        raise DocxError("invalid_ops", f"ops file is not JSON: {exc}") from None
    if isinstance(doc, list):
        doc = {"ops": doc}
    if not isinstance(doc, dict) or not isinstance(doc.get("ops"), list):
        raise DocxError("invalid_ops", 'ops file must be {"meta": {...}, "ops": [...]}.')
    meta = doc.get("meta") if isinstance(doc.get("meta"), dict) else {}
    return meta, [op_from_json(i, raw) for i, raw in enumerate(doc["ops"])]


def op_from_json(index: int, raw: object) -> Op:
    """One op from its JSON object; problems are recorded, not raised."""
    if not isinstance(raw, dict):
        return Op(index, "", "", problem="op is not an object")
    kind = raw.get("Type")
    anchor = raw.get("Id")
    fields = {
        "new_text": raw.get("NewText", ""), "text": raw.get("Text", ""), "comment": raw.get("Comment", ""),
        "scope": raw.get("Scope", ""), "quote": raw.get("Quote", ""), "replacement": raw.get("Replacement", ""),
    }
    bad = [k for k, v in fields.items() if not isinstance(v, str)]
    base = {k: (v if isinstance(v, str) else "") for k, v in fields.items()}
    position = str(raw.get("Position") or "after").lower()
    occurrence = raw.get("Occurrence")
    op = Op(index, kind if isinstance(kind, str) else "", anchor if isinstance(anchor, str) else "",
            position=position, occurrence=occurrence if isinstance(occurrence, int) else None,
            **{k: v.replace("\r\n", "\n") for k, v in base.items()})
    problem = _problem(op, raw, bad)
    if problem:
        return Op(op.index, op.type, op.anchor, problem=problem)
    return op


def _problem(op: Op, raw: dict, bad: list[str]) -> str | None:
    if op.type not in OP_TYPES:
        return f"unknown Type {raw.get('Type')!r}"
    if not op.anchor:
        return "missing Id"
    if bad:
        return f"fields must be strings: {', '.join(bad)}"
    occurrence = raw.get("Occurrence")
    if occurrence is not None and (not isinstance(occurrence, int) or isinstance(occurrence, bool) or occurrence < 1):
        return "Occurrence must be a positive integer"
    needs = {
        "COMMENT": ("comment", "Comment"),
        "INSERT": ("text", "Text"),
        "REPLACE_TEXT": ("quote", "Quote"),
    }.get(op.type)
    if needs and not getattr(op, needs[0]).strip():
        return f"{op.type} needs a non-empty {needs[1]}"
    if op.type == "REWRITE_PARAGRAPH" and not isinstance(raw.get("NewText"), str):
        return "REWRITE_PARAGRAPH needs NewText"
    if op.type == "REPLACE_TEXT" and not isinstance(raw.get("Replacement"), str):
        return "REPLACE_TEXT needs Replacement"
    if op.type == "INSERT" and op.position not in ("before", "after"):
        return "Position must be before or after"
    return None
