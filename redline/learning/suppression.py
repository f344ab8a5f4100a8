"""Never suggest a rejected thing again: rejected outcomes become suppression records.

A rejected known entry becomes a :class:`RejectedSuggestion`, which carries
what the review pipeline needs to recognise the suggestion when a provider
proposes it again (rule, anchor, kind, quote, proposed text, the paragraph
around it), and converts to the analysis side's
:class:`~redline.analysis.rejections.Rejection` for the re-run prompt.

:class:`Suppressor` is the pipeline's ``suppress`` filter. It keeps the exact
repeat check of :func:`~redline.analysis.rejections.rejection_filter` and adds
the equivalences of issue 6, because a model asked again rarely repeats itself
word for word:

* the same rule at the same anchor (the lawyer dismissed that rule there);
* the same proposed text, normalised: at the same anchor for any kind, anywhere
  for whole-paragraph proposals (rewrites, insertions) — a short replacement
  such as "45 days" is not evidence on its own;
* a comment on the same anchor whose text is highly similar to a rejected one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol

from redline.analysis.rejections import Rejection, rejection_filter
from redline.analysis.suggestions import OP_TYPES, Kind, Suggestion

from .outcomes import ENTRY_KINDS, EntryLike
from .text import normalise, similarity, span_edit

# The op type (ops.json names) of each recorded entry kind.
_OP_TYPES = {"COMMENT": "COMMENT", "REWRITE": "REWRITE_PARAGRAPH", "REPLACE_TEXT": "REPLACE_TEXT",
             "INSERT": "INSERT", "DELETE": "DELETE_PARAGRAPH"}
_WHOLE_PARAGRAPH = frozenset(("REWRITE_PARAGRAPH", "INSERT"))
COMMENT_SIMILARITY = 0.8


class SuggestionLike(Protocol):
    """The fields of a stored suggestion that a rejection record copies
    (:class:`~redline.analysis.suggestions.Suggestion` fits)."""

    @property
    def rule_key(self) -> str: ...
    @property
    def rule_title(self) -> str: ...
    @property
    def category(self) -> str: ...
    @property
    def quote(self) -> str: ...
    @property
    def new_text(self) -> str: ...
    @property
    def comment(self) -> str: ...


@dataclass(frozen=True, slots=True)
class RejectedSuggestion:
    """A suggestion the lawyer rejected, as suppression and learning need it.

    ``id`` is the known entry's stable id (what guidance lines cite);
    ``operation_type`` the op type (``COMMENT``, ``REPLACE_TEXT``,
    ``REWRITE_PARAGRAPH``, ``INSERT``, ``DELETE_PARAGRAPH``); ``quote`` the text
    the suggestion was about (the replaced span, the commented text, the
    paragraph); ``new_text`` what it proposed (the replacement, the new
    paragraph, the inserted text); ``original_text`` the whole paragraph before.
    """

    id: str
    operation_type: str
    anchor: str
    quote: str = ""
    new_text: str = ""
    comment_text: str = ""
    original_text: str = ""
    document_context: str = ""
    rule_key: str | None = None
    rule_title: str = ""
    category: str = ""
    reason: str = ""
    outcome: str = "rejected"  # what became of it: rejected, accepted, modified, or pending (still in the document)

    def to_rejection(self) -> Rejection:
        """The analysis side's record, for the re-run prompt and the exact filter."""
        return Rejection(operation_type=self.operation_type, original_text=self.quote or self.original_text,
                         new_text=self.new_text, comment_text=self.comment_text,
                         document_context=self.document_context, rule_key=self.rule_key)


def rejected_suggestion(entry: EntryLike, *, reason: str, suggestion: SuggestionLike | None = None,
                        outcome: str = "rejected",
                        document_context: str = "") -> RejectedSuggestion:
    """The record of a rejected entry.

    With the stored ``suggestion`` the record carries its rule, quote and
    proposal exactly as the pipeline produces them; pass it whenever it is
    stored. Without it they are recovered from the entry (a replacement's span
    from the difference between the paragraph before and after) and only the
    exact-repeat and same-text checks can use them.
    """
    op_type = _OP_TYPES[ENTRY_KINDS[entry.operation_type.upper()]]
    if suggestion is not None:
        quote, new_text = suggestion.quote, suggestion.new_text
    elif op_type == "REPLACE_TEXT":
        span = span_edit(entry.original_text, entry.new_text)
        quote, new_text = span.removed, span.added
    else:
        quote, new_text = entry.original_text, "" if op_type == "DELETE_PARAGRAPH" else entry.new_text
    return RejectedSuggestion(
        id=entry.id, operation_type=op_type, anchor=entry.bookmark_id, quote=quote, new_text=new_text,
        comment_text=entry.comment_text, original_text=entry.original_text,
        document_context=document_context or entry.original_text,
        rule_key=suggestion.rule_key if suggestion else None,
        rule_title=suggestion.rule_title if suggestion else "",
        category=str(suggestion.category) if suggestion else "", reason=reason, outcome=outcome,
    )


@dataclass(frozen=True, slots=True)
class SuppressionMatch:
    """Why a suggestion is suppressed: the rejection it repeats and how
    (``repeat``, ``same_rule_and_anchor``, ``same_new_text``, ``similar_comment``)."""

    rejection: RejectedSuggestion
    why: str


class Suppressor:
    """The review pipeline's ``suppress`` filter over a set of rejections.

    Calling it answers "drop this suggestion?" with why: the outcome of the earlier suggestion it repeats
    (``rejected``, ``accepted``, ``modified``, or ``pending`` when that one is still open in the document), or
    None to keep it, so a run can say "not proposed again: 5 rejected before, 4 still in the document" instead
    of calling everything rejected; :meth:`match` says which record it repeats.
    """

    def __init__(self, rejections: Iterable[RejectedSuggestion], *,
                 comment_similarity: float = COMMENT_SIMILARITY) -> None:
        self.rejections = tuple(rejections)
        self._exact: list[tuple[RejectedSuggestion, Callable[[Suggestion], bool]]] = [
            (r, rejection_filter([r.to_rejection()])) for r in self.rejections
        ]
        self._threshold = comment_similarity

    def __call__(self, suggestion: Suggestion) -> str | None:
        match = self.match(suggestion)
        return match.rejection.outcome if match is not None else None

    def match(self, suggestion: Suggestion) -> SuppressionMatch | None:
        """The first rejection (in the order given) this suggestion is equivalent to."""
        op_type = OP_TYPES[suggestion.kind]
        proposal = normalise(suggestion.new_text)
        comment = normalise(suggestion.comment)
        for r, exact in self._exact:
            if exact(suggestion):
                return SuppressionMatch(r, "repeat")
            same_anchor = r.anchor == suggestion.anchor
            if same_anchor and r.rule_key and r.rule_key == suggestion.rule_key:
                return SuppressionMatch(r, "same_rule_and_anchor")
            if (op_type == r.operation_type and proposal and proposal == normalise(r.new_text)
                    and (same_anchor or op_type in _WHOLE_PARAGRAPH)):
                return SuppressionMatch(r, "same_new_text")
            if (suggestion.kind is Kind.COMMENT and r.operation_type == "COMMENT" and same_anchor
                    and similarity(comment, normalise(r.comment_text)) >= self._threshold):
                return SuppressionMatch(r, "similar_comment")
        return None
