"""A literal prefilter that lets most paragraphs skip most regexes.

Reviewing a 100-page contract runs a few hundred patterns (categories, red
flags, keywords) over thousands of paragraphs, and Python's regex engine tries
every alternative at every position. But nearly every pattern can only match
if some literal appears in the text: "{party} may terminate" needs
"terminate". :func:`matcher` reads the pattern's parse tree once, finds the
most selective set of literals of which at least one must occur, and checks
them with ``str.__contains__`` (which is fast) before running the regex.

The test is sound — it only ever skips texts the regex cannot match — and
patterns it cannot analyse simply run unfiltered. It reads the parse tree
through ``re._parser``; if a future Python changes that module, the prefilter
switches itself off rather than break.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

try:  # the regex parser is private; without it patterns run unfiltered
    from re import _constants as _c
    from re import _parser as _p
except ImportError:  # pragma: no cover - depends on the Python version
    _p = None

_MIN_NEEDLE = 3
_MAX_ALTERNATIVES = 64


@dataclass(frozen=True, slots=True)
class Matcher:
    """A compiled regex with its prefilter; callers pass the text and its ``lower()``."""

    rx: re.Pattern[str]
    needles: tuple[str, ...] | None

    def possible(self, lower: str) -> bool:
        """False only when the regex certainly cannot match."""
        if self.needles is None:
            return True
        for needle in self.needles:  # noqa: SIM110 - twice as fast as any(); runs ~10^5 times per review
            if needle in lower:
                return True
        return False

    def search(self, text: str, lower: str) -> re.Match[str] | None:
        """``rx.search(text)``, skipped when the prefilter rules it out."""
        return self.rx.search(text) if self.possible(lower) else None

    def finditer(self, text: str, lower: str) -> Iterator[re.Match[str]]:
        """``rx.finditer(text)``, skipped when the prefilter rules it out."""
        return self.rx.finditer(text) if self.possible(lower) else iter(())


@lru_cache(maxsize=4096)
def matcher(rx: re.Pattern[str]) -> Matcher:
    """The :class:`Matcher` for a compiled pattern (memoised)."""
    return Matcher(rx, needles(rx))


def needles(rx: re.Pattern[str]) -> tuple[str, ...] | None:
    """Lower-cased literals of which at least one occurs in any text ``rx`` matches, or None."""
    if _p is None or rx.flags & re.VERBOSE:
        return None
    try:
        tree = _p.parse(rx.pattern, rx.flags)
    except Exception:
        return None
    best = _best(_required(list(tree)))
    return tuple(sorted(best)) if best else None


def _best(sets: list[frozenset[str]]) -> frozenset[str] | None:
    usable = [s for s in sets if s and min(len(x) for x in s) >= _MIN_NEEDLE]
    return max(usable, key=lambda s: (min(len(x) for x in s), -len(s)), default=None)


def _exact(seq: list) -> frozenset[str] | None:
    """All strings a node sequence can match, when it is a small finite set of literals."""
    out = {""}
    for op, av in seq:
        if op is _c.LITERAL:
            out = {s + chr(av).lower() for s in out}
        elif op is _c.AT:
            continue
        elif op is _c.SUBPATTERN:
            sub = _exact(list(av[3]))
            if sub is None:
                return None
            out = {s + x for s in out for x in sub}
        elif op is _c.BRANCH:
            subs = [_exact(list(b)) for b in av[1]]
            if any(x is None for x in subs):
                return None
            out = {s + x for s in out for sub in subs for x in sub}
        else:
            return None
        if len(out) > _MAX_ALTERNATIVES:
            return None
    return frozenset(out)


def _required(seq: list) -> list[frozenset[str]]:
    """Sets of literals, each set having a member in every match of ``seq``."""
    found: list[frozenset[str]] = []
    run: set[str] = {""}

    def flush() -> None:
        nonlocal run
        if "" not in run:
            found.append(frozenset(run))
        run = {""}

    for op, av in seq:
        if op is _c.AT:
            continue  # zero-width: the literals on either side are still adjacent
        if op is _c.LITERAL:
            run = {s + chr(av).lower() for s in run}
            continue
        exact = _exact([(op, av)]) if op in (_c.SUBPATTERN, _c.BRANCH) else None
        if exact is not None and "" not in exact and len(run) * len(exact) <= _MAX_ALTERNATIVES:
            run = {s + x for s in run for x in exact}
            continue
        flush()
        if op is _c.SUBPATTERN:
            found.extend(_required(list(av[3])))
        elif op is _c.BRANCH:
            per_branch = [_best(_required(list(b))) for b in av[1]]
            if all(per_branch):
                found.append(frozenset().union(*per_branch))
        elif op in (_c.MAX_REPEAT, _c.MIN_REPEAT, _c.POSSESSIVE_REPEAT) and av[0] >= 1:
            found.extend(_required(list(av[2])))
        elif op is _c.ASSERT and av[0] == 1:
            found.extend(_required(list(av[1])))
    flush()
    return found
