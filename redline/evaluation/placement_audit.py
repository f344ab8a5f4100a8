"""Where the review inserts a missing clause, measured on real contracts: take a clause out, ask where it goes.

For each CUAD dev contract and each playbook category with a CUAD category
that sits in one place (:data:`PRIMARY`), the clauses holding that category's
gold spans are removed, the document is rebuilt, and
:func:`~redline.analysis.placement.place_missing` is asked where the clause
goes. The answer is judged against the contract's own drafter, from outside
the placement code:

* **same section**: the insertion follows a paragraph of the top-level section
  (the typed number "7", "7.2", "Section 7.02", "ARTICLE VII") the drafter had
  the clause in, read by a plain pattern here, not by the placement's parser;
* **distance**: characters between the insertion point and the drafter's
  place, as a share of the contract;
* **in the signatures**: after the first paragraph, in the second 60% of the
  contract, that has "IN WITNESS WHEREOF", "/s/" or a signatory line ("By:",
  "Name:", "Title:") — a clause proposed after the signatures is wrong whatever
  its wording;
* **in the front matter**: not after the last paragraph naming the parties
  (CUAD's Parties spans in the first fifth) or holding a recital ("WHEREAS");
* **after a general provision**: a substantive clause (not governing law or
  assignment) proposed right after "Counterparts", "Headings", "Notices" or
  another boilerplate clause, when the drafter's place was not after one;
* **a number taken**: the typed number the inserted clause opens with ("16.",
  "9.14") is one a paragraph of the contract already opens with.

A baseline that appends every clause after the last paragraph before the
signatures is scored the same way. ``redline clauses-placement`` prints the
figures; docs/clauses.md has them.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from redline.analysis.categories import Category
from redline.analysis.clauses import Clause
from redline.analysis.document import build_document
from redline.analysis.placement.place import place_missing
from redline.analysis.playbook.io import default_playbook
from redline.analysis.playbook.model import Playbook, Rule

from .cuad_dev import DevContract, Spans, dev_ids, gold_spans, read_dev_contract

C = Category

# The CUAD category whose clause is the playbook category's clause, for categories a contract has in one place.
PRIMARY: dict[Category, str] = {
    C.GOVERNING_LAW: "Governing Law",
    C.LIMITATION_OF_LIABILITY: "Cap On Liability",
    C.INSURANCE: "Insurance",
    C.AUDIT_RIGHTS: "Audit Rights",
    C.ASSIGNMENT: "Anti-Assignment",
    C.NON_SOLICITATION: "No-Solicit Of Employees",
    C.TERMINATION: "Termination For Convenience",
    C.TERM_AND_RENEWAL: "Renewal Term",
    C.LICENSE_GRANT: "License Grant",
    C.EXCLUSIVITY: "Exclusivity",
}
NEAR = 0.05  # "near the drafter's place": within 5% of the contract's characters

_SIGNATURE = re.compile(r"IN WITNESS WHEREOF|/s/|^\W*(?:By|Name|Title|Signature|Its)\s*:", re.IGNORECASE)
_RECITAL = re.compile(r"^\W*WHEREAS\b", re.IGNORECASE)
_GENERAL = re.compile(
    r"^\W*(?:(?:section|article)\s+)?[\dIVX.]*\s*(?:counterparts|entire agreement|integration|severab|waiver|amendment"
    r"|notices?|governing law|headings|further assurances|miscellaneous|general|independent contractor|relationship of"
    r"|force majeure|assignment|successors|attorneys'? fees|language|construction|interpretation)", re.IGNORECASE)
_OWN_GENERAL = frozenset({C.GOVERNING_LAW, C.ASSIGNMENT})  # clauses that are themselves general provisions
_OPENING_NUMBER = re.compile(r"^\s*(?:(?:ARTICLE|Article|SECTION|Section)\s+)?(\d{1,3}[A-Z]?(?:\.\d+[A-Z]?)*)\.?\s")
_TOP = re.compile(r"^\s*(?:(?:ARTICLE|Article|SECTION|Section)\s+)?(\d{1,2}|[IVX]{1,5})(?:\.\d+)*\.?\s+\S")


@dataclass(frozen=True, slots=True)
class Case:
    """One clause taken out of one contract and put back: where, and how that compares."""

    contract: str
    category: str
    reason: str  # the placement rule that chose the place
    home: int  # the first clause that held it (the drafter's place is right before it)
    after: int  # the clause the review inserts it after (indices into the whole contract)
    baseline: int  # where appending before the signatures puts it
    same_section: bool
    baseline_same_section: bool
    distance: float  # share of the contract between the insertion point and the drafter's place
    baseline_distance: float
    in_signatures: bool
    in_front_matter: bool
    after_general: bool
    number_taken: bool


def measure(data: str | Path, *, playbook: Playbook | None = None, ids: list[str] | None = None) -> list[Case]:
    """A :class:`Case` per (dev contract, :data:`PRIMARY` category the contract has)."""
    data = Path(data)
    playbook = playbook or default_playbook()
    rules = {}
    for rule in playbook.rules:
        rules.setdefault(rule.category, rule)  # one rule per category: placement reads only its category
    gold = gold_spans(data)
    cases = []
    for cid in dev_ids(data):
        if ids is not None and cid not in ids:
            continue
        contract = read_dev_contract(data, cid)
        marks = _landmarks(contract, gold.get((cid, "Parties"), []))
        for category, cuad in PRIMARY.items():
            held = contract.holding(gold.get((cid, cuad), []))
            if category in rules and held and len(held) < len(contract.clauses):
                cases.append(_case(contract, marks, rules[category], held))
    return cases


@dataclass(frozen=True, slots=True)
class _Landmarks:
    """What the judge reads off a contract once, whatever clause is taken out of it."""

    signatures: int  # the first signatory line (len(clauses): none)
    front: int  # the last paragraph of the parties block and recitals (-1: none)
    tops: list[str | None]  # each clause's top-level section number
    numbers: list[str | None]  # the number each clause opens with


def _landmarks(contract: DevContract, parties: Spans) -> _Landmarks:
    clauses = contract.clauses
    n = len(clauses)
    signatures = next((i for i, c in enumerate(clauses) if 5 * i >= 2 * n and _SIGNATURE.search(c.text)), n)
    front = max([i for i in contract.holding(parties) if 5 * i < n]
                + [i for i, c in enumerate(clauses) if 10 * i < 3 * n and _RECITAL.match(c.text)], default=-1)
    numbers = [m.group(1) if (m := _OPENING_NUMBER.match(c.text)) else None for c in clauses]
    return _Landmarks(signatures, front, _top_numbers(clauses), numbers)


def _case(contract: DevContract, marks: _Landmarks, rule: Rule, held: list[int]) -> Case:
    clauses, ranges, tops = contract.clauses, contract.ranges, marks.tops
    gone = set(held)
    kept = [i for i in range(len(clauses)) if i not in gone]
    placement = place_missing(build_document([clauses[i] for i in kept]), rule)
    after = kept[min(placement.after, len(kept) - 1)] if placement.after >= 0 else -1  # -1: before everything
    baseline = max((i for i in kept if i < marks.signatures), default=kept[-1])
    number = _OPENING_NUMBER.match(placement.apply("The clause."))
    taken = {marks.numbers[i] for i in kept} - {None}
    home = held[0]

    def end_of(i: int) -> int:  # where text inserted after paragraph i starts (-1: the top)
        return ranges[i][1] if i >= 0 else ranges[0][0]

    place, total = end_of(home - 1), max(ranges[-1][1], 1)
    return Case(
        contract=contract.id, category=rule.category.value, reason=placement.reason, home=home, after=after,
        baseline=baseline,
        same_section=after >= 0 and tops[after] is not None and tops[after] == tops[home],
        baseline_same_section=tops[baseline] is not None and tops[baseline] == tops[home],
        distance=abs(end_of(after) - place) / total, baseline_distance=abs(end_of(baseline) - place) / total,
        in_signatures=after >= marks.signatures, in_front_matter=after <= marks.front,
        after_general=(after >= 0 and rule.category not in _OWN_GENERAL and bool(_GENERAL.match(clauses[after].text))
                       and not (home and _GENERAL.match(clauses[home - 1].text))),
        number_taken=number is not None and number.group(1) in taken)


def _top_numbers(clauses: Sequence[Clause]) -> list[str | None]:
    """Each clause's top-level section number as typed, carried forward from the last clause that has one."""
    out: list[str | None] = []
    current = None
    for clause in clauses:
        m = _TOP.match(clause.text)
        if m:
            current = m.group(1)
        out.append(current)
    return out


def summary(cases: list[Case]) -> dict[str, float | int]:
    """The shares, medians and counts the docs report, for the review and for the baseline."""
    n = max(len(cases), 1)
    return {
        "cases": len(cases),
        "same_section": round(100 * sum(c.same_section for c in cases) / n, 1),
        "near": round(100 * sum(c.distance <= NEAR for c in cases) / n, 1),
        "median_distance": round(100 * statistics.median(c.distance for c in cases), 1) if cases else 0.0,
        "in_signatures": sum(c.in_signatures for c in cases),
        "in_front_matter": sum(c.in_front_matter for c in cases),
        "after_general": sum(c.after_general for c in cases),
        "numbers_taken": sum(c.number_taken for c in cases),
        "baseline_same_section": round(100 * sum(c.baseline_same_section for c in cases) / n, 1),
        "baseline_near": round(100 * sum(c.baseline_distance <= NEAR for c in cases) / n, 1),
        "baseline_median_distance": (round(100 * statistics.median(c.baseline_distance for c in cases), 1)
                                     if cases else 0.0),
    }
