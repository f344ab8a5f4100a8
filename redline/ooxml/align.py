"""Which paragraph of one version is which paragraph of the other.

Two versions of a contract share most of their paragraphs. When both carry our anchors (a document we
exported, edited and sent back), a paragraph is known by its anchor, so a paragraph rewritten beyond
recognition is still "the same paragraph, changed". Otherwise it is known by its text: equal paragraphs are
matched in order (``difflib`` over whole paragraphs), and in each stretch between them a paragraph is paired
with the most similar one on the other side, in order, when at least half of their words agree; the rest
were inserted or deleted. Pairing stretches in order keeps the result a redline a lawyer can read: a
paragraph never pairs with one far away, which would read as nonsense edits to both.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from difflib import SequenceMatcher
from functools import lru_cache

PAIR_SIMILARITY = 0.5  # share of words two paragraphs must agree on to be one paragraph, changed
_DP_LIMIT = 40_000  # stretch sizes (old × new) above which pairing is greedy instead of optimal
_ANCHORED_SHARE = 0.5  # anchors decide when at least this share of the old side's anchors is in the new one
_WORD = re.compile(r"\w+")  # words only: a shared full stop makes no two paragraphs alike
_SPACE = re.compile(r"\s+")

Pair = tuple[int | None, int | None]  # (old index, new index); None: the paragraph has no partner


@lru_cache(maxsize=1 << 16)
def normalise(text: str) -> str:
    """A paragraph's text as compared: whitespace runs as one space, trimmed (memoised: a comparison reads each
    paragraph's text several times, to align, to move and to prove)."""
    return _SPACE.sub(" ", text).strip()


def align(old: Sequence[str], new: Sequence[str], old_anchors: Sequence[str | None] = (),
          new_anchors: Sequence[str | None] = ()) -> list[Pair]:
    """The two sequences of paragraph texts as pairs in document order (monotone in both)."""
    by_anchor = _anchored(old_anchors, new_anchors)
    old_keys = [_key(t, a if by_anchor else None) for t, a in zip(old, _pad(old_anchors, len(old)), strict=True)]
    new_keys = [_key(t, a if by_anchor else None) for t, a in zip(new, _pad(new_anchors, len(new)), strict=True)]
    out: list[Pair] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, old_keys, new_keys, autojunk=False).get_opcodes():
        if tag == "equal":
            out.extend(zip(range(i1, i2), range(j1, j2), strict=True))
        else:
            out.extend((i if i is None else i1 + i, j if j is None else j1 + j)
                       for i, j in pair_stretch(old[i1:i2], new[j1:j2]))
    return out


def similarity(a: str, b: str) -> float:
    """Share of words the two texts agree on (difflib's ratio over their words)."""
    wa, wb = _WORD.findall(a.lower()), _WORD.findall(b.lower())
    if not wa or not wb:
        return 1.0 if normalise(a) == normalise(b) else 0.0
    matcher = SequenceMatcher(None, wa, wb, autojunk=False)
    return matcher.ratio() if matcher.real_quick_ratio() >= PAIR_SIMILARITY else 0.0


def pair_stretch(old: Sequence[str], new: Sequence[str]) -> list[Pair]:
    """Pairs for a stretch with no equal paragraphs: the most similar pairs, in order (a longest-path over
    similarities of at least :data:`PAIR_SIMILARITY`), the others alone."""
    if not old or not new:
        return [(i, None) for i in range(len(old))] + [(None, j) for j in range(len(new))]
    if len(old) * len(new) > _DP_LIMIT:
        return _greedy(old, new)
    sims = [[similarity(a, b) for b in new] for a in old]
    best = [[0.0] * (len(new) + 1) for _ in range(len(old) + 1)]
    for i in range(len(old) - 1, -1, -1):
        for j in range(len(new) - 1, -1, -1):
            paired = sims[i][j] + best[i + 1][j + 1] if sims[i][j] >= PAIR_SIMILARITY else -1.0
            best[i][j] = max(paired, best[i + 1][j], best[i][j + 1])
    out: list[Pair] = []
    i = j = 0
    while i < len(old) and j < len(new):
        if sims[i][j] >= PAIR_SIMILARITY and best[i][j] == sims[i][j] + best[i + 1][j + 1]:
            out.append((i, j))
            i, j = i + 1, j + 1
        elif best[i][j] == best[i + 1][j]:
            out.append((i, None))
            i += 1
        else:
            out.append((None, j))
            j += 1
    return out + [(k, None) for k in range(i, len(old))] + [(None, k) for k in range(j, len(new))]


def _greedy(old: Sequence[str], new: Sequence[str]) -> list[Pair]:
    """A long stretch: walk both sides, pairing each paragraph with the next similar one a few steps ahead."""
    out: list[Pair] = []
    i = j = 0
    while i < len(old) and j < len(new):
        ahead = next((k for k in range(j, min(j + 8, len(new))) if similarity(old[i], new[k]) >= PAIR_SIMILARITY),
                     None)
        if ahead is None:
            out.append((i, None))
            i += 1
            continue
        out.extend((None, k) for k in range(j, ahead))
        out.append((i, ahead))
        i, j = i + 1, ahead + 1
    return out + [(k, None) for k in range(i, len(old))] + [(None, k) for k in range(j, len(new))]


def _anchored(old_anchors: Sequence[str | None], new_anchors: Sequence[str | None]) -> bool:
    theirs = {a for a in old_anchors if a}
    return bool(theirs) and len(theirs & {a for a in new_anchors if a}) >= _ANCHORED_SHARE * len(theirs)


def _key(text: str, anchor: str | None) -> str:
    return f"a:{anchor}" if anchor else f"t:{normalise(text)}"


def _pad(anchors: Sequence[str | None], n: int) -> list[str | None]:
    return [*anchors, *([None] * (n - len(anchors)))][:n]
