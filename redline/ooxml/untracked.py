"""Changes the other side made without tracking them: the edit that hurts because nobody sees it.

``sent`` is the file we exported (our suggestions as tracked changes), ``returned`` what came back. Every
paragraph of the returned file, read with *all its tracked changes rejected*, is what it was before anyone
edited it with tracking on. If nobody edited it untracked, that text is one of the states our own suggestions
allow: all of ours in the paragraph accepted, all rejected, or some of each (the returned file no longer shows
the ones the lawyer accepted or rejected). Anything else was changed with tracking off, or accepted before
the file came back; paragraphs are paired by our anchors (:mod:`.align`), so a paragraph added or removed
without tracking shows up too. Their tracked edits and our pending ones are never listed: they are visible.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import combinations

from .align import align, normalise
from .diff import apply_hunks, diff_text
from .package import DEFAULT_LIMITS, Limits
from .paragraphs import Paragraph, read_document

_MAX_MIXES = 6  # suggestions in one paragraph beyond which only "all accepted" and "all rejected" are tried
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*%?|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|twelve|fifteen|"
                     r"twenty|thirty|forty|forty-five|fifty|sixty|ninety|hundred|thousand|million)\b", re.IGNORECASE)
_OBLIGATION = re.compile(r"\b(?:not|no|never|shall|must|may|will|without|unless|except|only|sole(?:ly)?|"
                         r"exclusive(?:ly)?|unlimited|indemnif\w*|liab\w*|waiv\w*|releas\w*)\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class UntrackedChange:
    """A paragraph changed (``changed``), added (``inserted``) or removed (``deleted``) without tracking.
    ``anchor`` is the paragraph in the returned file (for a removed one: in the sent file); ``severity`` is
    ``critical`` when a number or an obligation word changed (for a whole paragraph added or removed: when it
    states an obligation, a right or a limit), ``major`` for other wording, ``minor`` when only punctuation did."""

    kind: str
    anchor: str | None
    before: str
    after: str
    severity: str

    def to_dict(self) -> dict[str, str | None]:
        return {"kind": self.kind, "anchor": self.anchor, "before": self.before, "after": self.after,
                "severity": self.severity}


def untracked_changes(sent: bytes, returned: bytes, *, limits: Limits = DEFAULT_LIMITS) -> list[UntrackedChange]:
    """What changed between the file we sent and the one that came back without a tracked change to show it."""
    ours = [p for p in read_document(sent, anchor=False, limits=limits).paragraphs if not p.is_empty]
    theirs = [p for p in read_document(returned, anchor=False, limits=limits).paragraphs if p.original_text.strip()]
    pairs = align([p.original_text for p in ours], [p.original_text for p in theirs],
                  [p.anchor for p in ours], [p.anchor for p in theirs])
    out: list[UntrackedChange] = []
    for i, j in pairs:
        if i is not None and j is not None:
            found = normalise(theirs[j].original_text)
            allowed = _allowed(ours[i])
            if found not in allowed:
                before = min(allowed, key=lambda a: _distance(a, found))
                out.append(UntrackedChange("changed", theirs[j].anchor, before, found, _severity(before, found)))
        elif j is not None:
            found = normalise(theirs[j].original_text)
            out.append(UntrackedChange("inserted", theirs[j].anchor, "", found, _severity("", found)))
        elif i is not None and normalise(ours[i].original_text) and normalise(ours[i].text):
            # gone, and neither our insertion rejected (no original text) nor our deletion accepted (no text)
            gone = normalise(ours[i].original_text)
            out.append(UntrackedChange("deleted", ours[i].anchor, gone, "", _severity(gone, "")))
    return out


def _allowed(p: Paragraph) -> list[str]:
    """The texts a paragraph of the sent file may have come back with, its suggestions decided either way; the
    text as it was before our suggestions first (what a change is said to be "from" when it is as near)."""
    base, target = normalise(p.original_text), normalise(p.text)
    if base == target:
        return [base]
    hunks = diff_text(base, target)
    if len(hunks) > _MAX_MIXES:
        return [base, target]
    return list(dict.fromkeys(normalise(apply_hunks(base, list(chosen))) for n in range(len(hunks) + 1)
                              for chosen in combinations(hunks, n)))


def _distance(a: str, b: str) -> int:
    return sum(len(h.text) + h.end - h.start for h in diff_text(a, b))


def _severity(before: str, after: str) -> str:
    if not before or not after:  # a whole paragraph: its clause number is no changed figure
        return "critical" if _OBLIGATION.search(before or after) else "major"
    hunks = diff_text(before, after)
    changed = " ".join([before[h.start:h.end] for h in hunks] + [h.text for h in hunks])
    if _NUMBER.search(changed) or _OBLIGATION.search(changed):
        return "critical"
    return "major" if re.search(r"\w", changed) else "minor"
