"""What the lawyer did with each suggestion we wrote: the outcome of a known entry.

When a document comes back, every known entry (a suggestion as it was written
into the file) gets one of five outcomes (design.md §8):

* ``pending``: our tracked changes for it are still there, or our comment is
  still open;
* ``accepted``: our marks are gone and the text reads as suggested, or our
  comment was resolved;
* ``rejected``: our marks are gone and the text reads as the original, or our
  comment was deleted;
* ``modified``: neither — the lawyer wrote something else;
* ``missing``: the anchor and the text are both gone (the clause was removed).

Nothing is added to the document to make this possible: the signals are the
hidden anchor bookmark, our revision marks (by author, moves included), our
comments (durable id, else author + text + paragraph, see
:mod:`.comments`), the resolved flag, and the text itself, compared after
:func:`~redline.learning.text.normalise` and, when an anchor was lost,
relocated by fuzzy matching. A comment attached to a text change does not
decide that change's outcome: lawyers often accept a change and leave the
explanation in place.

Detection only reads the file, so it is deterministic and idempotent: the same
bytes and entries always give the same outcomes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

from redline.ooxml.ops import DEFAULT_AUTHOR
from redline.ooxml.package import Package

from .comments import CommentQuery, FoundComment, match_comments, read_comments
from .document import SIMILAR, DocumentView
from .text import normalise, similarity, span_edit

# Below this similarity to both versions, the paragraph under an anchor is some
# other paragraph (a merge carried the bookmark along), so look elsewhere.
_UNRELATED = 0.5

# Operation types as recorded (the seed's names) and as written in ops.json.
ENTRY_KINDS = {
    "COMMENT": "COMMENT",
    "REWRITE": "REWRITE",
    "REWRITE_PARAGRAPH": "REWRITE",
    "REPLACE_TEXT": "REPLACE_TEXT",
    "INSERT": "INSERT",
    "DELETE": "DELETE",
    "DELETE_PARAGRAPH": "DELETE",
}


class Status(StrEnum):
    """The outcome of a known entry."""

    PENDING = "pending"
    ACCEPTED = "accepted"
    REJECTED = "rejected"
    MODIFIED = "modified"
    MISSING = "missing"


class EntryLike(Protocol):
    """The fields of a known entry that detection reads (the seed's names;
    :class:`redline.ooxml.ops.KnownEntry` and the database record both fit)."""

    @property
    def id(self) -> str: ...
    @property
    def operation_type(self) -> str: ...
    @property
    def bookmark_id(self) -> str: ...
    @property
    def durable_id(self) -> str: ...
    @property
    def comment_text(self) -> str: ...
    @property
    def original_text(self) -> str: ...
    @property
    def new_text(self) -> str: ...
    @property
    def position(self) -> str: ...


@dataclass(frozen=True, slots=True)
class Outcome:
    """The outcome of one entry and why.

    ``located_by`` says how its place was found: ``"anchor"``, ``"text"``
    (the anchor was lost or moved and the text was matched), ``"comment"`` (our
    comment was found without the anchor), or None when nothing was found.
    ``current_text`` is what the place reads now (for an insertion, the matched
    paragraphs one per line; empty when missing), so a modification can be shown
    and learned from.
    """

    entry_id: str
    status: Status
    reason: str
    located_by: str | None = None
    current_text: str = ""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"entry_id": self.entry_id, "status": self.status.value, "reason": self.reason,
                "located_by": self.located_by, "current_text": self.current_text}


def detect_outcomes(data: bytes, entries: Sequence[EntryLike], *, author: str = DEFAULT_AUTHOR) -> list[Outcome]:
    """Decide the outcome of each entry in the returned .docx ``data``, in order.

    ``author`` is the revision and comment author the suggestions were written
    under. Raises :class:`~redline.ooxml.errors.DocxError` for a file the engine
    refuses, and ValueError for an entry of an unknown operation type.
    """
    pkg = Package.open(data)
    view = DocumentView(pkg, author=author)
    queries = [CommentQuery(e.id, e.durable_id, e.comment_text, _comment_place(view, e)[0])
               for e in entries if _kind(e) == "COMMENT"]
    reserved = [e.durable_id for e in entries if e.durable_id and _kind(e) != "COMMENT"]
    comments = match_comments(queries, read_comments(pkg, view), author=author, reserved=reserved)
    # Insertions first: the paragraphs they account for are then off limits to
    # the text searches of other entries (a suggested move deletes a clause and
    # inserts the same text elsewhere).
    order = sorted(range(len(entries)), key=lambda i: _kind(entries[i]) != "INSERT")
    # Several insertions at one place stack up (one missing clause after another),
    # so each looks for its lines across the paragraphs all of them may fill.
    for e in entries:
        if _kind(e) == "INSERT":
            place = (e.bookmark_id, e.position)
            view.insert_span[place] = view.insert_span.get(place, 0) + len(_insert_lines(e))
    found = {i: _JUDGES[_kind(entries[i])](view, entries[i], comments) for i in order}
    return [found[i] for i in range(len(entries))]


def _kind(entry: EntryLike) -> str:
    try:
        return ENTRY_KINDS[entry.operation_type.upper()]
    except KeyError:
        raise ValueError(f"unknown operation type {entry.operation_type!r} for entry {entry.id}") from None


def _outcome(entry: EntryLike, status: Status, reason: str, located_by: str | None, view: DocumentView,
             at: int | None) -> Outcome:
    if located_by == "text":
        reason += " (anchor lost; found by its text)"
    return Outcome(entry.id, status, reason, located_by, view.texts[at] if at is not None else "")


# -- comments -----------------------------------------------------------------------
def _comment_place(view: DocumentView, entry: EntryLike) -> tuple[int | None, str | None]:
    """The commented paragraph: by anchor, else the first containing the quoted text."""
    at = view.anchors.get(entry.bookmark_id)
    if at is not None:
        return at, "anchor"
    at = view.find_containing(normalise(entry.original_text))
    return (at, "text") if at is not None else (None, None)


def _judge_comment(view: DocumentView, entry: EntryLike, comments: Mapping[str, FoundComment]) -> Outcome:
    at, how = _comment_place(view, entry)
    found = comments.get(entry.id)
    if found is not None:
        if at is None:
            at, how = found.paragraph, "comment"
        if found.resolved:
            return _outcome(entry, Status.ACCEPTED, "our comment was resolved", how, view, at)
        return _outcome(entry, Status.PENDING, "our comment is still open", how, view, at)
    if at is None:
        return _outcome(entry, Status.MISSING, "our comment, the anchor and the commented text are all gone",
                        None, view, None)
    return _outcome(entry, Status.REJECTED, "our comment was deleted", how, view, at)


# -- rewrites and replacements -------------------------------------------------------
def _judge_edit(view: DocumentView, entry: EntryLike, comments: Mapping[str, FoundComment]) -> Outcome:
    old, new = normalise(entry.original_text), normalise(entry.new_text)
    verdict = _edit_verdict(entry, old, new)
    at, how = _edit_place(view, old, new, view.anchors.get(entry.bookmark_id))
    if at is None:
        return _outcome(entry, Status.MISSING, "the anchor and the text are both gone", None, view, None)
    # A rewrite owns its paragraph; a span replacement may share it with other
    # suggestions, so our marks only count when they change this one's verdict.
    if view.has_ours(at) and (_kind(entry) == "REWRITE" or verdict(view.texts[at]) != verdict(view.without_ours(at))):
        return _outcome(entry, Status.PENDING, "our tracked changes are still in the paragraph", how, view, at)
    status = verdict(view.texts[at])
    reason = {
        Status.ACCEPTED: "our change is no longer tracked and the paragraph reads as suggested",
        Status.REJECTED: "our change is no longer tracked and the paragraph still contains the original text",
        Status.MODIFIED: "the paragraph reads neither as the original nor as suggested",
    }[status]
    return _outcome(entry, status, reason, how, view, at)


def _edit_verdict(entry: EntryLike, old: str, new: str) -> Callable[[str], Status]:
    """accepted / rejected / modified for a paragraph text, as this entry sees it.

    A rewrite compares the whole paragraph. A span replacement also recognises
    its edit with the text around it, so other edits elsewhere in the paragraph
    (another suggestion, the lawyer's own) do not hide the outcome.
    """
    span = span_edit(old, new) if _kind(entry) == "REPLACE_TEXT" else None

    def verdict(text: str) -> Status:
        if text == new:
            return Status.ACCEPTED
        if text == old:
            return Status.REJECTED
        if span is not None:
            has_new, has_old = span.shows_new(text), span.shows_old(text)
            if has_new and not has_old:
                return Status.ACCEPTED
            if has_old and not has_new:
                return Status.REJECTED
        return Status.MODIFIED

    return verdict


def _edit_place(view: DocumentView, old: str, new: str, anchored: int | None) -> tuple[int | None, str | None]:
    """The paragraph of an edit: its anchor, unless the anchor now sits in an
    unrelated paragraph; else the paragraph reading exactly, then most like,
    either version."""
    if anchored is not None:
        text = view.texts[anchored]
        if text in (old, new) or max(similarity(text, old), similarity(text, new)) >= _UNRELATED:
            return anchored, "anchor"
    for target in (new, old):
        at = view.find_exact(target)
        if at is not None:
            return at, "text"
    if anchored is not None:
        return anchored, "anchor"
    hits = [h for h in (view.find_similar(new), view.find_similar(old)) if h is not None]
    if not hits:
        return None, None
    return min(hits, key=lambda h: (-h[1], h[0]))[0], "text"


# -- deletions -----------------------------------------------------------------------
def _judge_delete(view: DocumentView, entry: EntryLike, comments: Mapping[str, FoundComment]) -> Outcome:
    """A deletion leaves nothing behind when accepted, so "anchor and text gone"
    is its acceptance, not a missing clause."""
    old = normalise(entry.original_text)
    at = view.anchors.get(entry.bookmark_id)
    if at is not None:
        text = view.texts[at]
        if view.has_ours(at):
            return _outcome(entry, Status.PENDING, "our tracked deletion is still in the paragraph",
                            "anchor", view, at)
        if text == old:
            return _outcome(entry, Status.REJECTED, "the paragraph we suggested deleting is still there",
                            "anchor", view, at)
        if similarity(text, old) >= SIMILAR:
            return _outcome(entry, Status.MODIFIED, "the paragraph was kept but reworded", "anchor", view, at)
        # Accepting a deleted paragraph mark joins what is left to the next
        # paragraph, bookmark included.
        return _outcome(entry, Status.ACCEPTED, "the paragraph is gone; its anchor remains", "anchor", view, at)
    found = view.find_exact_without_ours(old)
    if found is not None:
        return _outcome(entry, Status.PENDING, "our tracked deletion is still in the paragraph", "text", view, found)
    found = view.find_exact(old)
    if found is not None:
        return _outcome(entry, Status.REJECTED, "the paragraph we suggested deleting is still there",
                        "text", view, found)
    similar = view.find_similar(old)
    if similar is not None:
        return _outcome(entry, Status.MODIFIED, "the paragraph was kept but reworded", "text", view, similar[0])
    return _outcome(entry, Status.ACCEPTED, "the paragraph and its anchor are gone", None, view, None)


# -- insertions ----------------------------------------------------------------------
def _insert_lines(entry: EntryLike) -> list[str]:
    return [normalise(line) for line in entry.new_text.split("\n") if line.strip()]


def _judge_insert(view: DocumentView, entry: EntryLike, comments: Mapping[str, FoundComment]) -> Outcome:
    lines = _insert_lines(entry)
    at = view.anchors.get(entry.bookmark_id)
    span = max(len(lines), view.insert_span.get((entry.bookmark_id, entry.position), 0))
    if at is None:
        window = range(len(view.texts))
    elif entry.position == "before":
        window = range(max(0, at - span - 1), at)
    else:
        window = range(at + 1, min(len(view.texts), at + span + 2))
    hits, exact = _find_lines(view, lines, window)
    view.claimed.update(hits)
    how = "anchor" if at is not None else ("text" if hits else None)
    current = "\n".join(view.texts[i] for i in hits)
    if any(view.has_ours(i) for i in hits):
        status, reason = Status.PENDING, "our tracked insertion is still there"
    elif hits and exact:
        status, reason = Status.ACCEPTED, "the inserted text is in the document"
    elif hits:
        status, reason = Status.MODIFIED, "the inserted text was kept but reworded"
    elif at is not None:
        status, reason = Status.REJECTED, "the inserted text is not in the document"
    else:
        status, reason = Status.MISSING, "the anchor and the inserted text are both gone"
    if how == "text":
        reason += " (anchor lost; found by its text)"
    return Outcome(entry.id, status, reason, how, current)


def _find_lines(view: DocumentView, lines: list[str], window: range) -> tuple[list[int], bool]:
    """Paragraphs in ``window`` reading as the inserted lines (exactly, else
    similar), each used once; and whether every line was found exactly."""
    used: list[int] = []
    exact = True
    for line in lines:
        hit = next((i for i in window if view.texts[i] == line and i not in used and i not in view.claimed), None)
        if hit is None:
            exact = False
            similar = view.find_similar(line, window)
            hit = similar[0] if similar is not None and similar[0] not in used else None
        if hit is not None:
            used.append(hit)
    return sorted(used), exact


_JUDGES: dict[str, Callable[[DocumentView, EntryLike, Mapping[str, FoundComment]], Outcome]] = {
    "COMMENT": _judge_comment,
    "REWRITE": _judge_edit,
    "REPLACE_TEXT": _judge_edit,
    "DELETE": _judge_delete,
    "INSERT": _judge_insert,
}
