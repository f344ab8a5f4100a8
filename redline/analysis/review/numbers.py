"""Do the numbers mean it? The review gate's third question, for the engine's thresholds and a model's edits.

The offline engine knows which threshold a replacement comes from (its ``check``); a model only says "replace
'thirty (30) days' by 'sixty (60) days'". :func:`quantity_role` finds the threshold that quantity is about the
way the engine does (a quantity of the threshold's unit whose neighbourhood the threshold's ``near`` matches)
and asks what the engine's own finding would have been asked: did the number already meet the playbook (then
changing it is no finding: a partner's first complaint about a junior's markup), does the new number move
the right way, does it change anything at all. It decides only when it is certain: one quantity before and
one after, of one threshold's metric; otherwise it leaves the finding to the other questions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..checks import (  # the engine's own reading of a threshold
    clause_fragments,
    measure_for,
    meets_limit,
    quantity_window,
)
from ..playbook.model import Threshold, compile_pattern
from ..quantities import DURATION_UNITS, Quantity, convert, find_quantities


@dataclass(frozen=True, slots=True)
class Role:
    """What a replacement's quantity is to the rule: ``withheld`` (why it is no finding), or the ``threshold``
    it breaks with the ``quantity`` that breaks it (the side question is then asked with that threshold), or
    neither (not a quantity the rule's thresholds certainly speak of)."""

    withheld: str = ""
    threshold: Threshold | None = None
    quantity: Quantity | None = None


def number_problem(t: Threshold, old: str, new: str) -> str:
    """"no_op" or "wrong_direction" when replacing ``old`` by ``new`` does not move towards the limit."""
    before = [q for q in find_quantities(old) if convert(q, t.unit, t.per) is not None]
    after = [q for q in find_quantities(new) if convert(q, t.unit, t.per) is not None]
    if len(before) != 1 or len(after) != 1:
        return ""
    a, b = convert(before[0], t.unit, t.per), convert(after[0], t.unit, t.per)
    assert a is not None and b is not None
    if _same(t, a, b):
        return "no_op"
    towards_more = t.operator in (">=", ">")
    if (b > a) != towards_more:
        return "wrong_direction"
    return ""


def quantity_role(thresholds: tuple[Threshold, ...], text: str, start: int, end: int, new: str) -> Role:
    """The role of the quantity that replacing ``text[start:end]`` by ``new`` changes, for the rule's
    ``thresholds``; see the module docstring."""
    if not thresholds:
        return Role()
    olds = [q for q in find_quantities(text) if start <= q.start and q.end <= end]
    news = find_quantities(new)
    if not olds or not news:
        return Role()
    candidates: list[tuple[Threshold, Quantity, Quantity]] = []
    for t in thresholds:
        before = [q for q in olds if measure_for(q, t) is not None]
        after = [q for q in news if measure_for(q, t) is not None]
        if len(before) == 1 and len(after) == 1 and _speaks_of(t, text, before[0]):
            candidates.append((t, before[0], after[0]))
    if not candidates:
        return Role()
    changed = [(t, b, a) for t, b, a in candidates if not _same(t, _value(b, t), _value(a, t))]
    if not changed:
        # The number stays what it was: "one (1) year" for "twelve (12) months" is no edit at all, but an edit
        # of the words around an unchanged number is not about the number.
        _, b, a = candidates[0]
        return Role("no_op") if _bare(text[start:end], b.text) == _bare(new, a.text) else Role()
    broken = [(t, b, a) for t, b, a in changed if not meets_limit(_value(b, t), t)]
    if not broken:
        return Role("already_meets")
    if len(broken) > 1:
        return Role()  # two limits broken at once: which one the edit answers is not certain
    t, b, a = broken[0]
    problem = number_problem(t, b.text, a.text)
    return Role(problem) if problem else Role(threshold=t, quantity=b)


def _speaks_of(t: Threshold, text: str, q: Quantity) -> bool:
    """Whether ``q`` is the threshold's metric, read as the engine reads it (``near`` around it, not ``unless``)."""
    window = quantity_window(text, q, clause_fragments(text))
    return bool(compile_pattern(t.near).search(window)) and not (t.unless and compile_pattern(t.unless).search(window))


def _value(q: Quantity, t: Threshold) -> float:
    value = measure_for(q, t)
    assert value is not None  # only measurable quantities are candidates
    return value


def _same(t: Threshold, a: float, b: float) -> bool:
    """Equal values; durations within 2% (two months is sixty days: a lawyer does not count the odd day)."""
    tolerance = 0.02 * max(abs(a), 1e-9) if t.unit in DURATION_UNITS else 1e-9
    return abs(a - b) <= tolerance


def _bare(text: str, quantity: str) -> str:
    """``text`` without ``quantity``, for telling whether an edit changes anything else."""
    return " ".join(re.sub(r"\W+", " ", text.replace(quantity, " ", 1)).lower().split())
