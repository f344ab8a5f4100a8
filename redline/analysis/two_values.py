"""One right stated twice with different values: "thirty (30) days" to cure in §10.2, "sixty (60) days" in §15.

Issue #27's seventh check. Contracts state the same period in more than one place (the termination clause and
the default clause, the body and a schedule), and an edit that reaches one and not the other leaves two values
for one right: the kind of inconsistency that ends up argued over. Most numbers that share a topic are not that
(ten days to cure a missed payment and thirty for any other breach are two rights, deliberately), so a right is
read here only where its sentence says unmistakably which right it is, and two readings conflict only when
nothing in either sentence sets them apart: the same right, the same party, no narrower case named.

Each right is a sentence pattern and the period it governs (:data:`RIGHTS`); the periods are read with the
review's own quantity reader (:mod:`.quantities`), so "thirty (30) days", "30 days" and "one month" compare as
the numbers they are. A pure module (no Django): the review adds its findings to the hygiene ones.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from redline.retrieval.graph import ContractGraph
from redline.retrieval.hygiene import Finding
from redline.retrieval.hygiene.termdoc import where
from redline.retrieval.layout import Role

from .quantities import DAYS_PER_UNIT, Quantity, find_quantities, may_state

_SENTENCE = re.compile(r"[^.;]*(?:\.(?=\d)[^.;]*)*(?:[.;]|$)")  # "Section 4.2" does not end a sentence
_ITEM = re.compile(r";|\s\((?:[ivx]{1,4}|[a-h])\)\s")  # where a list's items begin
_NOTICE = r"(?:['’]s?)?\s+(?:prior\s+|advance\s+)?(?:written\s+)?notice"


@dataclass(frozen=True, slots=True)
class Right:
    """A right a contract gives a period for: ``sentence`` must match the sentence, ``unless`` must not (a
    narrower case: "payment", "insolvency"), and each of ``period`` finds the quantity that is the right's
    period (group ``q`` spans it). ``name`` is how the comment names the right."""

    name: str
    sentence: re.Pattern[str]
    period: tuple[re.Pattern[str], ...]
    unless: re.Pattern[str]


def _re(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


_DURATION = r"(?P<q>(?:\b[a-z][a-z-]*\s+){0,4}(?:\(\s*)?\d{1,3}(?:\s*\))?[\s-]+(?:business\s+|calendar\s+)?(?:days?|months?|years?))"
RIGHTS = (
    Right("notice to terminate for convenience",
          _re(r"\bterminat\w*\b.{0,160}\b(?:for\s+(?:its\s+)?convenience|without\s+cause|for\s+any\s+reason)\b|"
              r"\b(?:for\s+(?:its\s+)?convenience|without\s+cause)\b.{0,160}\bterminat\w*\b"),
          (_re(_DURATION + _NOTICE), _re(r"\bnotice\s+(?:period\s+)?of\s+(?:at\s+least\s+|not\s+less\s+than\s+)?" + _DURATION)),
          _re(r"\brenew\w*|\bbreach\w*|\binsolven\w*|\bbankrupt\w*|\bpayment\w*|\bchange\s+(?:of|in)\s+control")),
    Right("period to cure a breach before termination",
          _re(r"^(?=.*(?:\bterminat\w*\s+(?:this|the)\s+(?:\w+\s+){0,2}?agreement\b|\bagreement\s+(?:may|shall)\s+(?:\w+\s+)?"
              r"(?:be\s+)?terminat)).*?(?:\bbreach\w*\b.{0,200}\b(?:cure[sd]?|remed(?:y|ied|ies)|rectif\w*)\b|"
              r"\b(?:cure[sd]?|remed(?:y|ied|ies)|rectif\w*)\b.{0,200}\bbreach\w*\b)"),
          (_re(r"\b(?:within|of|for)\s+" + _DURATION), _re(_DURATION + _NOTICE),  # "after thirty (30) days' notice"
           _re(_DURATION + r"\s+(?:(?:in|within)\s+which\s+)?to\s+(?:cure|remedy|rectify)\b")),  # "sixty (60) days to cure"
          _re(r"\bpa(?:y|id|yment\w*|yable)\b|\bmonetary\b|\bfees?\b|\binvoice\w*|\bamounts?\s+(?:due|owed|owing)|"
              r"\binsolven\w*|\bbankrupt\w*|\bsafety\b|\bbreach\w*\s+(?:of\s+)?(?:any\s+(?:provision|term)\s+of\s+)?"
              r"(?:sections?|articles?|clauses?|paragraphs?)\s+(?:or\s+)?[\dIVX]")),  # a breach of named provisions
    Right("notice of non-renewal",
          _re(r"\b(?:not\s+to\s+(?:renew|extend)|non-?renewal|elect\w*\s+not\s+to\s+renew)\b"),
          (_re(_DURATION + r"(?:['’]s?)?\s+(?:prior\s+|advance\s+)?(?:written\s+)?(?:notice|before|prior\s+to)\b"),),
          _re(r"\bconvenience\b|\bbreach\w*|\bpayment\w*|\binsur\w*|\bpolic(?:y|ies)\b|\bcoverages?\b|"
              r"\bcertificat\w*")),  # an insurer's notice that a policy will not be renewed
)
_ACTOR = re.compile(r"\b((?i:either|each)\s+party|(?:the\s+)?[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*)?)\s+(?:shall\s+have\s+"
                    r"the\s+right\s+to|may|will\s+have\s+the\s+right\s+to)\s+(?:\w+\s+){0,3}?(?:terminat|elect|cure|remed)")


_BACK_RE = re.compile(r"\b(?:such|said|that|the\s+same)\s+$")
_BACK_ADJECTIVE_RE = re.compile(r"\b(?:such|said|that|the|the\s+same)\s+$")  # "the fifteen (15)-day period" (c0067)
_ANY = frozenset({"", "either party", "each party"})  # a right every party holds is also the one party's


@dataclass(frozen=True, slots=True)
class _Reading:
    right: Right
    days: float
    block: int
    start: int  # of the period in the block's text
    end: int
    actor: str  # who holds the right, as the sentence names it ("" when it does not)


def check(graph: ContractGraph) -> list[Finding]:
    """One finding per right stated with two values: at its second statement, naming the first."""
    readings: dict[str, list[_Reading]] = {}
    for block in graph.blocks:
        if graph.roles[block.index] is Role.BODY and may_state(block.text.lower(), "duration"):
            for reading in _read(block.index, block.text):
                readings.setdefault(reading.right.name, []).append(reading)
    out = []
    for found in readings.values():
        clash = next(((a, b) for i, a in enumerate(found) for b in found[i + 1:] if _conflict(a, b)), None)
        if clash is None:
            continue
        first, second = clash
        b = graph.blocks[second.block]
        quote, said = b.text[second.start:second.end], graph.blocks[first.block].text[first.start:first.end]
        here, there = where(graph, second.block), where(graph, first.block)
        place = "the same clause" if here == there else there
        out.append(Finding("two_values", second.block, b.anchor, quote,
                           f"The {second.right.name} is {quote} here ({here}) but {said} in {place}: one right, two "
                           "values. Say which governs, or make them the same.", start=second.start))
    return out


def _read(block: int, text: str) -> list[_Reading]:
    """The periods of rights the block's sentences state."""
    out = []
    for s in (m for m in _SENTENCE.finditer(text) if m.group(0).strip()):
        sentence = s.group(0)
        for right in RIGHTS:
            if not right.sentence.search(sentence):
                continue
            found: dict[float, Quantity] = {}  # the period's value in days: its first statement in the sentence
            for a, z in sorted({m.span("q") for p in right.period for m in p.finditer(sentence)}):
                if (q := _duration(text, s.start() + a, s.start() + z)) is None:
                    continue
                back = _BACK_ADJECTIVE_RE if re.search(r"-\s*(?:day|month|year)", q.text) else _BACK_RE
                if not back.search(text[max(0, q.start - 12):q.start]):
                    found.setdefault(q.value * DAYS_PER_UNIT[q.unit], q)  # "within such fifteen (15)-day period",
                    # "within the 60-day period": points back to a period stated before, not a statement of its own
            if len(found) != 1 or any(_alternative(sentence, (q.start - s.start(), q.end - s.start()))
                                      for q in found.values()):
                continue  # none, two ("sixty (60) days … ninety (90) days"), or one beside an alternative ("…, or …")
            ((days, quantity),) = found.items()
            if right.unless.search(_scope(sentence, quantity.start - s.start())):
                continue
            actor = " ".join(m.group(1).lower().removeprefix("the ").split()) if (m := _ACTOR.search(sentence)) else ""
            out.append(_Reading(right, days, block, quantity.start, quantity.end, actor))
    return out


def _scope(sentence: str, at: int) -> str:
    """What governs the period at ``at``: the sentence's lead-in and the item of a list it sits in ("… may
    terminate: (a) if … fails to cure within 15 days …, or (b) as provided in Section 2.6"), or the sentence."""
    cuts = [m.start() for m in _ITEM.finditer(sentence) if m.start() > 3]
    if not cuts:
        return sentence
    before = [c for c in cuts if c <= at]
    after = [c for c in cuts if c > at]
    return sentence[:cuts[0]] + sentence[before[-1] if before else 0:after[0] if after else len(sentence)]


def _alternative(sentence: str, span: tuple[int, int]) -> bool:
    """Whether another duration stands beside the period as an alternative to it ("…, or ninety (90) days")."""
    for q in find_quantities(sentence):
        gap = sentence[min(q.end, span[1]):max(q.start, span[0])]
        if q.kind == "duration" and (q.end <= span[0] or q.start >= span[1]) and len(gap) <= 40 and re.search(
                r"\b(?:or|and)\b", gap):
            return True
    return False


def _duration(text: str, start: int, end: int) -> Quantity | None:
    """The duration the quantity reader finds within ``text[start:end]`` (its words and figures together)."""
    return next((q for q in find_quantities(text) if q.kind == "duration" and q.unit in DAYS_PER_UNIT
                 and q.start < end and q.end > start), None)


def _conflict(a: _Reading, b: _Reading) -> bool:
    """Two statements of one right that disagree: values more than 2% apart (two months is sixty days), the
    same holder (or either party's, or one not named), in two places."""
    if abs(a.days - b.days) <= 0.02 * max(a.days, b.days) or (a.block, a.start) == (b.block, b.start):
        return False
    return not (a.actor not in _ANY and b.actor not in _ANY and a.actor != b.actor)
