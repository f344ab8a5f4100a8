"""Prior rejections: how they reach the re-run prompt, and the filter that enforces them.

The seed's promise is that a lawyer never sees a rejected suggestion again.
A model asked nicely mostly complies; :func:`rejection_filter` makes it
certain by dropping any suggestion that proposes the same thing at the same
place as a rejection. The learning issue decides *which* entries were
rejected; this module only needs their text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from .suggestions import OP_TYPES, Kind, Suggestion

_QUOTES = str.maketrans({"‘": "'", "’": "'", "‚": "'", "‛": "'", "“": '"', "”": '"', "„": '"', "‟": '"'})


@dataclass(frozen=True, slots=True)
class Rejection:
    """A suggestion the lawyer rejected (a known entry with outcome "rejected").

    Fields follow the seed's ``feedback.json``: ``operation_type`` is the op
    type (COMMENT, REPLACE_TEXT, REWRITE_PARAGRAPH, INSERT, DELETE_PARAGRAPH);
    ``original_text`` the quoted or replaced text; ``new_text`` the proposed
    text (replacement, new paragraph or inserted text); ``comment_text`` the
    explanation; ``document_context`` the paragraph around it.
    """

    operation_type: str
    original_text: str = ""
    new_text: str = ""
    comment_text: str = ""
    document_context: str = ""
    rule_key: str | None = None


_CLAUSE_NUMBER = re.compile(r"^[ \t]*(?:(?:article|section|clause)[ \t]+)?\d{1,3}[A-Z]?(?:\.\d{1,3}[A-Z]?)*\.?[ \t]+",
                            re.IGNORECASE | re.MULTILINE)


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.translate(_QUOTES)).strip().casefold()


def _unnumbered(text: str) -> str:
    """An inserted clause without its clause numbers: the number follows the neighbours (a rejected
    "14A. ..." comes back as "14B. ..." when another insertion was accepted) and is not the proposal."""
    return _CLAUSE_NUMBER.sub("", text)


def format_rejections(rejections: Sequence[Rejection]) -> str:
    """Rejections as the clean text blocks of the seed plan: no ids, no timestamps."""
    if not rejections:
        return "(No previous rejections)"
    blocks = []
    for i, r in enumerate(rejections, 1):
        kind = r.operation_type.upper()
        if kind == "COMMENT":
            body = (f"**AI Comment (Rejected):**\n> {r.comment_text}\n\n"
                    f"**Document Text:**\n> {r.document_context or r.original_text or '(context not available)'}")
        elif kind in ("REWRITE_PARAGRAPH", "REPLACE_TEXT", "REWRITE"):
            body = (f"**AI Suggested Rewrite (Rejected):**\nOriginal: \"{r.original_text}\"\n"
                    f"Suggested: \"{r.new_text}\"\nComment: {r.comment_text}")
        elif kind in ("DELETE_PARAGRAPH", "DELETE"):
            body = f"**AI Suggested Deletion (Rejected):**\nParagraph: \"{r.original_text}\"\nComment: {r.comment_text}"
        else:
            body = f"**AI Suggested Insertion (Rejected):**\nText: \"{r.new_text}\"\nComment: {r.comment_text}"
        blocks.append(f"### Rejected {kind} {i}\n{body}")
    return "\n\n---\n\n".join(blocks)


def rejection_filter(rejections: Iterable[Rejection]) -> Callable[[Suggestion], bool]:
    """A predicate that is True for a suggestion matching a prior rejection.

    Match = same operation type, the suggestion's quote found in the rejected
    entry's original text (or context), and the same proposal (replacement,
    new or inserted text, the latter without its clause numbers; the comment
    text for comments; nothing for deletions), all compared after whitespace,
    quote-mark and case normalisation. Conservative on purpose: it drops
    repeats, not topics; the re-run prompt steers the model away from similar
    suggestions.
    """
    index: dict[str, list[tuple[str, str]]] = {}
    for r in rejections:
        kind = r.operation_type.upper()
        proposal = r.comment_text if kind == "COMMENT" else ("" if kind.startswith("DELETE") else r.new_text)
        proposal = _unnumbered(proposal) if kind == "INSERT" else proposal
        where = _norm(" ".join(filter(None, (r.original_text, r.document_context))))
        index.setdefault(kind, []).append((where, _norm(proposal)))

    def rejected(s: Suggestion) -> bool:
        kind = OP_TYPES[s.kind]
        proposal = _norm(s.comment if s.kind is Kind.COMMENT else ("" if s.kind is Kind.DELETE else
                         _unnumbered(s.new_text) if s.kind is Kind.INSERT else s.new_text))
        quote = _norm(s.quote)
        return any(quote in where and proposal == p for where, p in index.get(kind, ()))

    return rejected
