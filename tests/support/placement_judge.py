"""The tests' own judge of where the review inserts a missing clause: take a clause out of a real contract, ask.

Why this lives in the tests and not in the product: ``redline/evaluation/placement_audit.py`` is product
code and was changed in the same commits as the placement it grades, so a change could move the answer and
the grading together (issue #32, item 3). This judge is a copy of that harness's rules taken once and
**frozen**: its patterns below must not follow the product's. When the product's harness changes its rules,
this file stays; the test that compares the two then says which rule now differs.

What may still come from the product is the thing under judgement and the data reading:
:func:`~redline.analysis.placement.place_missing` on :func:`~redline.analysis.document.build_document`,
the default playbook's rules, and the CUAD dev readers of :mod:`redline.evaluation.cuad_dev`.

The rules, read off plain paragraph texts (so ``tests/analysis/test_placement_judge.py`` can grade the judge
on hand-labelled contracts without any product code):

* **signatures**: the first paragraph, in the last 60% of the contract, with "IN WITNESS WHEREOF", "/s/" or
  a signatory label ("By:", "Name:", "Title:", "Signature:", "Its:"); a clause put after it is wrong;
* **front matter**: up to the last paragraph, in the first fifth, that holds a CUAD Parties span, or, in the
  first 30%, opens with "WHEREAS"; a clause put there is wrong;
* **same section**: the paragraph the clause follows is in the drafter's top-level section (the typed "7",
  "7.2", "Section 7.02", "ARTICLE VII" carried forward to the paragraphs below it);
* **distance**: characters between the insertion point and the drafter's place, as a share of the contract;
* **after a general provision**: a substantive clause (not governing law or assignment) put right after a
  boilerplate clause ("Counterparts", "Notices", ...) when the drafter's place was not after one;
* **a number taken**: the typed number the inserted clause opens with is one a kept paragraph opens with;
* **baseline**: appending every clause after the last kept paragraph before the signatures.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from redline.analysis.categories import Category
from redline.analysis.document import build_document
from redline.analysis.placement.place import place_missing
from redline.analysis.playbook.io import default_playbook
from redline.evaluation.cuad_dev import dev_ids, gold_spans, read_dev_contract

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

# Frozen on purpose (copied from redline/evaluation/placement_audit.py at 3470009): do not edit them to match
# the product's harness. A judge that moves with the code it grades grades nothing.
SIGNATURE = re.compile(r"IN WITNESS WHEREOF|/s/|^\W*(?:By|Name|Title|Signature|Its)\s*:", re.IGNORECASE)
RECITAL = re.compile(r"^\W*WHEREAS\b", re.IGNORECASE)
GENERAL = re.compile(
    r"^\W*(?:(?:section|article)\s+)?[\dIVX.]*\s*(?:counterparts|entire agreement|integration|severab|waiver|amendment"
    r"|notices?|governing law|headings|further assurances|miscellaneous|general|independent contractor|relationship of"
    r"|force majeure|assignment|successors|attorneys'? fees|language|construction|interpretation)", re.IGNORECASE)
OWN_GENERAL = frozenset({C.GOVERNING_LAW, C.ASSIGNMENT})  # clauses that are themselves general provisions
OPENING_NUMBER = re.compile(r"^\s*(?:(?:ARTICLE|Article|SECTION|Section)\s+)?(\d{1,3}[A-Z]?(?:\.\d+[A-Z]?)*)\.?\s")
TOP = re.compile(r"^\s*(?:(?:ARTICLE|Article|SECTION|Section)\s+)?(\d{1,2}|[IVX]{1,5})(?:\.\d+)*\.?\s+\S")


def signature_start(texts: Sequence[str]) -> int:
    """The first signatory paragraph in the last 60% of the contract (``len(texts)``: none)."""
    n = len(texts)
    return next((i for i, text in enumerate(texts) if 5 * i >= 2 * n and SIGNATURE.search(text)), n)


def front_matter_end(texts: Sequence[str], parties: Iterable[int]) -> int:
    """The last paragraph of the parties block and recitals (-1: none); ``parties`` holds CUAD Parties spans."""
    n = len(texts)
    return max([i for i in parties if 5 * i < n]
               + [i for i, text in enumerate(texts) if 10 * i < 3 * n and RECITAL.match(text)], default=-1)


def top_numbers(texts: Sequence[str]) -> list[str | None]:
    """Each paragraph's top-level section number as typed, carried forward from the last one that has one."""
    out: list[str | None] = []
    current = None
    for text in texts:
        if m := TOP.match(text):
            current = m.group(1)
        out.append(current)
    return out


def opening_number(text: str) -> str | None:
    """The typed number a paragraph opens with ("16", "9.14", "15A"), or None."""
    m = OPENING_NUMBER.match(text)
    return m.group(1) if m else None


def is_general(text: str) -> bool:
    """Whether a paragraph opens as a boilerplate ("general") provision."""
    return bool(GENERAL.match(text))


def ranges_of(texts: Sequence[str]) -> list[tuple[int, int]]:
    """Character ranges of paragraphs laid end to end, one newline apart (for contracts written by hand)."""
    out, start = [], 0
    for text in texts:
        out.append((start, start + len(text)))
        start += len(text) + 1
    return out


@dataclass(frozen=True, slots=True)
class Landmarks:
    """What the judge reads off a contract once, whatever clause is taken out of it."""

    signatures: int
    front: int
    tops: list[str | None]
    numbers: list[str | None]


def landmarks(texts: Sequence[str], parties: Iterable[int]) -> Landmarks:
    """The signature start, front-matter end, top-level numbers and opening numbers of a contract."""
    return Landmarks(signature_start(texts), front_matter_end(texts, parties), top_numbers(texts),
                     [opening_number(t) for t in texts])


@dataclass(frozen=True, slots=True)
class Verdict:
    """The judge's reading of one insertion, and of the baseline's for the same clause."""

    baseline: int
    same_section: bool
    baseline_same_section: bool
    distance: float
    baseline_distance: float
    in_signatures: bool
    in_front_matter: bool
    after_general: bool
    number_taken: bool


def judge(texts: Sequence[str], ranges: Sequence[tuple[int, int]], marks: Landmarks, held: Sequence[int],
          after: int, inserted: str, *, own_general: bool = False) -> Verdict:
    """Grade inserting after paragraph ``after`` (-1: at the top) once the paragraphs ``held`` are taken out.

    Indices are into the whole contract; ``inserted`` is the clause's text as inserted (its number read off
    its opening); ``own_general`` marks a clause that is itself a general provision.
    """
    gone = set(held)
    kept = [i for i in range(len(texts)) if i not in gone]
    home, tops = held[0], marks.tops
    baseline = max((i for i in kept if i < marks.signatures), default=kept[-1])

    def end_of(i: int) -> int:  # where text inserted after paragraph i starts (-1: the top)
        return ranges[i][1] if i >= 0 else ranges[0][0]

    place, total = end_of(home - 1), max(ranges[-1][1], 1)
    number = opening_number(inserted)
    return Verdict(
        baseline=baseline,
        same_section=after >= 0 and tops[after] is not None and tops[after] == tops[home],
        baseline_same_section=tops[baseline] is not None and tops[baseline] == tops[home],
        distance=abs(end_of(after) - place) / total, baseline_distance=abs(end_of(baseline) - place) / total,
        in_signatures=after >= marks.signatures, in_front_matter=after <= marks.front,
        after_general=(after >= 0 and not own_general and is_general(texts[after])
                       and not (home and is_general(texts[home - 1]))),
        number_taken=number is not None and number in {marks.numbers[i] for i in kept} - {None})


@dataclass(frozen=True, slots=True)
class Case:
    """One clause taken out of one dev contract and put back: what placement was given, its answer, the grade."""

    contract: str
    category: str
    reason: str  # the placement rule that chose the place
    held: tuple[int, ...]  # the paragraphs taken out (the drafter's place is right before the first)
    after: int  # the paragraph the review inserts the clause after (index into the whole contract)
    given: tuple[str, ...]  # the texts of the document placement was given
    verdict: Verdict


def measure(data: str | Path) -> list[Case]:
    """A :class:`Case` per (dev contract, :data:`PRIMARY` category it has, not in every paragraph)."""
    data = Path(data)
    rules = {}
    for rule in default_playbook().rules:
        rules.setdefault(rule.category, rule)  # one rule per category: placement reads only its category
    gold = gold_spans(data)
    cases = []
    for cid in dev_ids(data):
        contract = read_dev_contract(data, cid)
        texts = [c.text for c in contract.clauses]
        marks = landmarks(texts, contract.holding(gold.get((cid, "Parties"), [])))
        for category, cuad in PRIMARY.items():
            held = contract.holding(gold.get((cid, cuad), []))
            if category not in rules or not held or len(held) == len(texts):
                continue
            gone = set(held)
            kept = [i for i in range(len(texts)) if i not in gone]
            doc = build_document([contract.clauses[i] for i in kept])
            placement = place_missing(doc, rules[category])
            after = kept[min(placement.after, len(kept) - 1)] if placement.after >= 0 else -1
            verdict = judge(texts, contract.ranges, marks, held, after, placement.apply("The clause."),
                            own_general=category in OWN_GENERAL)
            cases.append(Case(cid, category.value, placement.reason, tuple(held), after,
                              tuple(c.text for c in doc.clauses), verdict))
    return cases


def summary(cases: Sequence[Case]) -> dict[str, float | int]:
    """The figures ``redline clauses-placement`` prints, under the same names, from this judge's verdicts."""
    v = [c.verdict for c in cases]
    n = max(len(v), 1)

    def share(flags: Iterable[bool]) -> float:
        return round(100 * sum(flags) / n, 1)

    def median(values: list[float]) -> float:
        return round(100 * statistics.median(values), 1) if values else 0.0

    return {
        "cases": len(v),
        "same_section": share(x.same_section for x in v),
        "near": share(x.distance <= NEAR for x in v),
        "median_distance": median([x.distance for x in v]),
        "in_signatures": sum(x.in_signatures for x in v),
        "in_front_matter": sum(x.in_front_matter for x in v),
        "after_general": sum(x.after_general for x in v),
        "numbers_taken": sum(x.number_taken for x in v),
        "baseline_same_section": share(x.baseline_same_section for x in v),
        "baseline_near": share(x.baseline_distance <= NEAR for x in v),
        "baseline_median_distance": median([x.baseline_distance for x in v]),
    }
