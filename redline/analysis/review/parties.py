"""The contracting parties, read from the contract's own preamble.

A review that edits for one side needs to know who the sides are: "D2 Technologies, Inc. … ("D2")" and
"Summa Four Inc. … ("LICENSEE")". The preamble is the text before the recitals or the first clause; a
party is a quoted name defined there right after an entity (a company form, an address, "a Delaware
corporation") or a role noun ("the Manufacturer"). Defined terms of the preamble that are not parties
("Agreement", "Effective Date") are left out. ``acting_for`` resolves against a party's defined name, its
legal name or its role, case-insensitively.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..clauses import Clause
from ..document import ROLE_NOUNS

_ROLES = frozenset(r.lower() for r in ROLE_NOUNS) | {
    "manufacturer", "franchisor", "franchisee", "developer", "publisher", "sponsor", "agent", "principal",
    "owner", "partner", "member", "affiliate", "contractor", "subcontractor", "licensor", "licensee", "lender",
    "borrower", "employer", "employee", "host", "network supplier", "recipient", "discloser", "purchaser",
    "manager", "marketer", "producer", "operator", "investor",
}
_STOP = re.compile(r"^(?:WHEREAS|RECITALS?|BACKGROUND|NOW,?\s+THEREFORE|W\s*I\s*T\s*N\s*E\s*S\s*S\s*E\s*T\s*H|"
                   r"(?:ARTICLE|SECTION)\s+(?:1|I)\b|1\.?\s+[A-Z])", re.IGNORECASE)
_DEFINED = re.compile(r"""(?:\(\s*)?(?:(?:the|hereinafter(?:\s+(?:referred\s+to\s+as|called))?|as)\s+)?(?:the\s+)?["“'‘](?:the\s+)?(?P<name>[^\W_][\w&.,' -]{0,40}?)["”'’](?:\s*\))?""")
_ENTITY = re.compile(
    r"\b(?:inc|incorporated|corp|corporation|company|co|llc|l\.l\.c|llp|lp|ltd|limited|plc|gmbh|ag|s\.a|b\.v|"
    r"n\.v|pty|trust|university|association|partnership|organi[sz]ed|principal (?:place|office)|"
    r"having (?:its|an) (?:office|address)|with (?:its )?offices?|an? individual|residing)\b",
    re.IGNORECASE,
)
_NOT_PARTY = frozenset({
    "agreement", "effective date", "party", "parties", "services", "contract", "execution date", "term",
    "territory", "products", "product", "work", "project", "base terms", "order forms",
})
_SCAN_PARAGRAPHS, _SCAN_CHARS = 14, 6000
_NAME_START = re.compile(r"(?:\bbetween\b|\band\b|\bBETWEEN:?|\bAND:?|^|\n|,\s*and)\s*"
                         r"(?P<n>[A-ZÀ-ÖØ-Þ][\w.&'-]*(?:[ ,]+(?:[A-ZÀ-ÖØ-Þ][\w.&'-]*|of|de|and|&))*)")


@dataclass(frozen=True, slots=True)
class Party:
    """A contracting party: ``name`` as the contract defines it ("Distributor", "D2"), the ``legal`` name
    before the definition when one was read, and its ``role`` noun when the name is one."""

    name: str
    legal: str = ""
    role: str = ""

    def match(self, wanted: str) -> int:
        """How well ``wanted`` (what a user typed as the side) names this party: 3 its defined name or role, 2 its
        legal name, 1 the first whole words of its legal name, 0 not at all."""
        key = _norm(wanted)
        if not key:
            return 0
        if key in {_norm(self.name), _norm(self.role)} - {""}:
            return 3
        legal = _norm(self.legal)
        if legal and key == legal:
            return 2
        return 1 if legal and len(key) >= 3 and (legal + " ").startswith(key + " ") else 0

    def to_dict(self) -> dict[str, str]:
        """JSON form for the API and the run's stats."""
        return {"name": self.name, "legal": self.legal, "role": self.role}


def contract_parties(clauses: Sequence[Clause]) -> tuple[Party, ...]:
    """The parties the preamble defines, in order of appearance (at most the first five)."""
    text = _preamble(clauses)
    found: list[Party] = []
    last = 0
    for m in _DEFINED.finditer(text):
        name = m.group("name").strip(" ,.")
        key = name.lower()
        before = text[last : m.start()]
        last = m.end()
        if key in _NOT_PARTY or len(name) < 2 or any(p.name.lower() == key for p in found):
            continue
        is_role = key in _ROLES
        if not (is_role or _ENTITY.search(before[-300:])):
            continue
        found.append(Party(name=name, legal=_legal_name(before), role=name if is_role else ""))
        if len(found) == 5:
            break
    return tuple(found)


def review_cast(clauses: Sequence[Clause], acting_for: str = "") -> tuple[tuple[Party, ...], Party | None]:
    """The parties a review knows and the one ``acting_for`` names (None: no side, or a name that is no party).

    Without a preamble (a pasted clause, paragraphs from the add-in) the parties are the role nouns the text
    gives them ("the Customer"), and a role noun the text does not use may still be chosen: a clause may name
    only the other side.
    """
    preamble = contract_parties(clauses)
    parties = preamble or _roles_used(clauses)
    wanted = " ".join(acting_for.split())
    if not wanted:
        return parties, None
    role = next((r for r in ROLE_NOUNS if r.lower() == re.sub(r"^the\s+", "", wanted, flags=re.I).lower()), None)
    if not preamble and role is not None and resolve_side(role, parties) is None:
        parties = (*parties, Party(name=role, role=role))
    return parties, resolve_side(wanted, parties)


def resolve_side(acting_for: str, parties: Sequence[Party]) -> Party | None:
    """The party ``acting_for`` names best (a defined name before a legal name before the first words of one:
    "IBM" is "IBM", not "IBM Credit LLC"), or None when it names none of them or two equally well."""
    scored = sorted(((p.match(acting_for), i) for i, p in enumerate(parties)), reverse=True)
    if not scored or scored[0][0] == 0 or (len(scored) > 1 and scored[1][0] == scored[0][0]):
        return None
    return parties[scored[0][1]]


def _roles_used(clauses: Sequence[Clause]) -> tuple[Party, ...]:
    text = "\n".join(c.text for c in clauses[:200])
    found = dict.fromkeys(m.group(1) for m in re.finditer(rf"\b[Tt]he ({'|'.join(ROLE_NOUNS)})\b", text))
    return tuple(Party(name=n, role=n) for n in found)


def _preamble(clauses: Sequence[Clause]) -> str:
    parts: list[str] = []
    size = 0
    for clause in clauses[:_SCAN_PARAGRAPHS]:
        text = clause.text.strip()
        if parts and _STOP.match(text):
            break
        parts.append(text)
        size += len(text)
        if size > _SCAN_CHARS:
            break
    return "\n".join(parts)


def _legal_name(before: str) -> str:
    """The entity name just before a definition: the capitalised words after "between", "and" or a line start."""
    tail = before[-300:]
    m = None
    for m in _NAME_START.finditer(tail):  # noqa: B007  (the last match is the one before the definition)
        continue
    if m is None:
        return ""
    return re.split(r",\s*(?:an?|with|having|whose|located)\b", m.group("n"))[0].strip(" ,")


def _norm(text: str) -> str:
    text = re.sub(r"^the\s+", "", text.strip(), flags=re.IGNORECASE)
    return re.sub(r"[^\w]+", " ", text.lower()).strip()
