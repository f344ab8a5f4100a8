"""Suggestions: the results of a review, keyed to paragraph anchors.

A suggestion is what a lawyer accepts or rejects: a comment, a span
replacement, a paragraph rewrite, an insertion or a deletion. Its id is a hash
of what it says and where, so the same finding in the same paragraph always
has the same id: a retried run never duplicates suggestions, and a rejected
suggestion can be recognised when it comes back. :meth:`Suggestion.to_op` gives
the operation the document writer applies (the seed's ``ops.json`` format,
extended with ``REPLACE_TEXT``; see design.md "Operations").
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from redline.retrieval.edits import EditWarning

from .risk import RiskScore
from .validator import ValidationResult


class Kind(StrEnum):
    """What a suggestion does to its paragraph."""

    COMMENT = "comment"
    REPLACE = "replace"
    REWRITE = "rewrite"
    INSERT = "insert"
    DELETE = "delete"


OP_TYPES = {
    Kind.COMMENT: "COMMENT",
    Kind.REPLACE: "REPLACE_TEXT",
    Kind.REWRITE: "REWRITE_PARAGRAPH",
    Kind.INSERT: "INSERT",
    Kind.DELETE: "DELETE_PARAGRAPH",
}


@dataclass(frozen=True, slots=True)
class Suggestion:
    """One result of a review.

    ``quote`` is an exact substring of the paragraph's text (grounded), found at
    ``occurrence`` (1-based) when it appears more than once; ``scope`` is
    "paragraph" when the quote is the whole paragraph, else "quote". ``new_text`` is the
    replacement (replace), the whole new paragraph (rewrite) or the inserted
    paragraph (insert); empty for comments and deletions. ``position`` applies
    to insertions. ``source`` says which check produced it (red_flag,
    threshold, missing, model). ``warnings`` say what the edit does elsewhere
    in the contract (a renamed or reworded definition, a reference that leads
    nowhere), when the review had the contract graph.
    """

    id: str
    anchor: str
    kind: Kind
    rule_key: str
    rule_title: str
    category: str
    severity: str
    quote: str
    comment: str
    new_text: str = ""
    occurrence: int = 1
    scope: str = "quote"
    position: str = "after"
    source: str = "model"
    confidence: float = 1.0
    risk: RiskScore | None = None
    validation: ValidationResult | None = None
    warnings: tuple[EditWarning, ...] = ()
    placement: str = ""  # a missing clause: where it goes, in words ("New §14A Governing law, after §14 …")

    def to_op(self) -> dict[str, Any]:
        """The ``ops.json`` operation for this suggestion.

        COMMENT carries ``Scope`` "paragraph" (the whole paragraph is quoted) or
        "quote" (plus ``Quote``/``Occurrence``: the span the comment is
        anchored to). Quoted ops always carry ``Occurrence`` (1-based, among
        non-overlapping matches): the writer refuses a quote that occurs
        twice without one, and stating it costs nothing when it occurs once.
        """
        op: dict[str, Any] = {"Id": self.anchor, "Type": OP_TYPES[self.kind]}
        if self.kind is Kind.COMMENT:
            op["Scope"] = self.scope
            if self.scope == "quote":
                op["Quote"] = self.quote
                op["Occurrence"] = self.occurrence
        elif self.kind is Kind.REPLACE:
            op["Quote"] = self.quote
            op["Replacement"] = self.new_text
            op["Occurrence"] = self.occurrence
        elif self.kind is Kind.REWRITE:
            op["NewText"] = self.new_text
        elif self.kind is Kind.INSERT:
            op["Text"] = self.new_text
            op["Position"] = self.position
        op["Comment"] = self.comment
        return op

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form for the API, progress events and ``results.json``."""
        return {
            "id": self.id,
            "anchor": self.anchor,
            "kind": self.kind.value,
            "rule": self.rule_key,
            "rule_title": self.rule_title,
            "category": self.category,
            "severity": self.severity,
            "quote": self.quote,
            "occurrence": self.occurrence,
            "new_text": self.new_text,
            "position": self.position if self.kind is Kind.INSERT else None,
            "comment": self.comment,
            "source": self.source,
            "confidence": self.confidence,
            "risk": self.risk.to_dict() if self.risk else None,
            "validation": self.validation.to_dict() if self.validation else None,
            "warnings": [w.to_dict() for w in self.warnings],
            "placement": self.placement,
            "op": self.to_op(),
        }


def suggestion_id(rule_key: str, anchor: str, kind: Kind, quote: str, occurrence: int, new_text: str, comment: str) -> str:
    """Deterministic id from the rule, the anchor and the content (16 hex).

    The comment text only enters the id of comments (it *is* their content);
    rewording an explanation does not make a replacement a new suggestion.
    """
    content = comment if kind is Kind.COMMENT else new_text
    parts = (rule_key, anchor, kind.value, quote, str(occurrence), content)
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:16]


def ops_document(suggestions: list[Suggestion], author: str = "Redline AI") -> dict[str, Any]:
    """The whole ``ops.json``: ``{"meta": {"author": ...}, "ops": [...]}``."""
    return {"meta": {"author": author}, "ops": [s.to_op() for s in suggestions]}


def edited_text(text: str, s: Suggestion) -> str | None:
    """The paragraph ``text`` as a replace, rewrite or delete leaves it (None: deleted); what the
    validator judges and the contract graph checks for broken definitions and references."""
    if s.kind is Kind.DELETE:
        return None
    if s.kind is Kind.REWRITE:
        return s.new_text
    start = _nth(text, s.quote, s.occurrence)
    return text[:start] + s.new_text + text[start + len(s.quote):]


def _nth(text: str, quote: str, occurrence: int) -> int:
    pos = text.find(quote)
    for _ in range(occurrence - 1):
        pos = text.find(quote, pos + len(quote))
    return pos
