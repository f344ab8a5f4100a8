"""Who a finding is about, and whether changing it helps the party we act for.

A finding sits in a sentence with a subject: "IBM may terminate", "Distributor shall pay within 15 days",
"either party may, in its sole discretion, terminate". The *actor* is that subject: a party named in the
finding's own words, else the last party named before it in its sentence; "either party", "each party",
"neither party" and "the parties" make it mutual. A playbook red flag says whom its wording favours
(``favours``: the actor, or the counterparty); a threshold says whom its direction protects (``protects``).
From those and the side we act for, :func:`stance` says whether the finding works against our client (raise
it), for our client (leave it alone), or cannot be told (ask, never edit).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from .parties import Party

MUTUAL = "*mutual*"
_MUTUAL = r"either\s+party|each\s+party|neither\s+party|both\s+parties|the\s+parties|each\s+of\s+the\s+parties|either\s+of\s+the\s+parties"
_SUBJECT = re.compile(
    r"(?:['’]s?)?\s*(?:,[^,]{0,80},\s*)?(?:shall|will|may|must|agrees?|grants?|warrants?|represents?|fails?|"
    r"hereby|can(?:not)?|is|has|does|elects?|desires?|determines?|pays?|undertakes?|covenants?|acknowledges?|"
    r"commits?|guarantees?|indemnif\w+|provides?|sells?|licenses?|assigns?|reserves?)\b", re.IGNORECASE)
_JOINT = re.compile(r"\w\s+(?:or|and|and/or)\s+(?:the\s+)?$", re.IGNORECASE)
# "The Software is provided AS IS": a passive sentence about what is supplied names no party; its actor is the
# party that supplies, told by the roles.
_SUPPLIED = re.compile(r"\b(?:is|are|be|being)\s+(?:provided|supplied|delivered|licensed|furnished|sold|made\s+available)\b",
                       re.IGNORECASE)
_SUPPLYING = frozenset({"licensor", "supplier", "vendor", "seller", "provider", "service provider", "contractor",
                        "consultant"})
_RECEIVING = frozenset({"licensee", "customer", "client", "buyer", "purchaser", "distributor", "reseller"})
_SENTENCE = re.compile(r"(?<=[.;:])\s+(?=[A-Z(\"“])|\n")


class Stance(StrEnum):
    """What a side-dependent finding means for our client."""

    AGAINST = "against"  # works against our client: raise it, edit it
    FOR = "for"  # favours our client: leave it alone
    MUTUAL = "mutual"  # binds or benefits both alike
    UNKNOWN = "unknown"  # no side chosen, or no actor found: ask, never edit


@dataclass(frozen=True, slots=True)
class Cast:
    """The contract's parties as the review refers to them, and the one we act for (None: no side)."""

    parties: tuple[Party, ...]
    client: Party | None = None

    @property
    def side_name(self) -> str:
        """The client's name as the contract gives it ("" without a side)."""
        return self.client.name if self.client is not None else ""

    @property
    def names(self) -> tuple[str, ...]:
        """Every name a party goes by in the text (defined names and roles), longest first."""
        names = {n for p in self.parties for n in (p.name, p.role) if n}
        return tuple(sorted(names, key=len, reverse=True))

    def party_named(self, name: str) -> Party | None:
        """The party a mention ("the Distributor", "IBM") refers to."""
        key = " ".join(re.sub(r"^the\s+", "", name.strip(), flags=re.IGNORECASE).split()).lower()
        return next((p for p in self.parties if key in {p.name.lower(), p.role.lower()}), None)

    def other_of(self, name: str) -> Party | None:
        """The other party of a two-party contract, given one party's mention."""
        party = self.party_named(name)
        rest = [p for p in self.parties if p is not party]
        return rest[0] if party is not None and len(rest) == 1 else None

    def supplier(self) -> Party | None:
        """The party that supplies what the contract is about, told by the roles: the one with a supplying role
        ("Licensor"), or the other party of one with a receiving role ("Distributor"); None when unclear."""
        supplying = [p for p in self.parties if p.role.lower() in _SUPPLYING]
        receiving = [p for p in self.parties if p.role.lower() in _RECEIVING]
        if len(supplying) == 1 and not receiving:
            return supplying[0]
        if len(receiving) == 1 and len(self.parties) == 2 and not supplying:
            return self.other_of(receiving[0].name)
        if len(supplying) == 1 and len(receiving) == 1:
            return supplying[0]
        return None


def actor(text: str, start: int, end: int, cast: Cast) -> str | None:
    """The subject of ``text[start:end]``: a party name, :data:`MUTUAL`, or None when none is found."""
    rx = _mentions(cast.names)
    if rx is None:
        return None
    names = cast.names
    inside = [m for m in rx.finditer(text, start, end) if _is_mention(m, names)]
    if inside:
        # "The Company or the Contractor may terminate": a right given to both is mutual.
        if _JOINT.search(text, max(0, inside[0].start() - 60), inside[0].start()):
            return MUTUAL
        return _who(inside[0])
    sentence_start = max((m.end() for m in _SENTENCE.finditer(text, 0, start)), default=0)
    before = [m for m in rx.finditer(text, sentence_start, start) if _is_mention(m, names)]
    if before and start - before[-1].end() <= 3:  # "theglobe at its sole discretion": the party right before
        return _who(before[-1])
    subjects = [m for m in before if _SUBJECT.match(text, m.end())]
    if subjects:  # the party doing something ("Y fails to cure", "X grants"), not one named as an object
        return _who(subjects[-1])
    if before:
        return _who(before[-1])
    # A passive sentence names its actor after the finding: "payment shall be made by Distributor within …".
    stop = next((m.start() for m in _SENTENCE.finditer(text, end)), len(text))
    after = next((m for m in rx.finditer(text, end, stop) if _is_mention(m, names)), None)
    if after:
        return _who(after)
    supplier = cast.supplier() if _SUPPLIED.search(text, sentence_start, end) else None
    return supplier.name if supplier is not None else None


def terminating_party(text: str, start: int, cast: Cast) -> str | None:
    """The party given the right to terminate in the sentence around ``start`` ("… shall permit theglobe to
    terminate immediately if the breach is not cured within 12 hours"), or None."""
    rx = _mentions(cast.names)
    if rx is None:
        return None
    sentence_start = max((m.end() for m in _SENTENCE.finditer(text, 0, start)), default=0)
    stop = next((m.start() for m in _SENTENCE.finditer(text, start)), len(text))
    for m in rx.finditer(text, sentence_start, stop):
        if m.group("party") and re.match(r"[^.;]{0,40}?\bterminat", text[m.end() :]):
            return m.group("party")
    return None


def stance(who: str | None, cast: Cast, *, favours_actor: bool) -> Stance:
    """Whether wording that favours the actor (``favours_actor``) or the counterparty works against our client."""
    if who == MUTUAL:
        return Stance.MUTUAL
    if who is None or cast.client is None:
        return Stance.UNKNOWN
    party = cast.party_named(who)
    if party is None:
        return Stance.UNKNOWN
    ours = party is cast.client
    return Stance.FOR if ours == favours_actor else Stance.AGAINST


def _is_mention(m: re.Match[str], names: Sequence[str]) -> bool:
    """A party name written in lower case is an ordinary word ("each target", "the agent"), unless the contract
    defines the party in lower case ("theglobe")."""
    if m.group("mutual"):
        return True
    found = m.group("party")
    return not found.islower() or any(n.islower() and n.lower() == found.lower() for n in names)


def _who(m: re.Match[str]) -> str:
    return MUTUAL if m.group("mutual") else m.group("party")


@lru_cache(maxsize=256)
def _mentions(names: Sequence[str]) -> re.Pattern[str] | None:
    alternation = "|".join(re.escape(n).replace(r"\ ", r"\s+") for n in names)
    if not alternation:
        return re.compile(rf"\b(?P<mutual>{_MUTUAL})\b(?P<party>)", re.IGNORECASE)
    return re.compile(rf"\b(?:(?P<mutual>{_MUTUAL})|(?:the\s+)?(?P<party>{alternation}))(?![\w-])", re.IGNORECASE)
