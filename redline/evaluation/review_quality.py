"""``redline review-eval``: the offline review's suggestions measured against CUAD's dev contracts.

The measures are written here, apart from the review, from the contract's text and CUAD's gold, so the code
under judgement never grades itself (numbers are read by this module's own small parser, vocabulary is
compared with the contract's raw text):

- **on target**: a suggestion of a rule with a CUAD counterpart (:data:`RULE_TO_CUAD`), other than a
  missing-clause claim, lands in a paragraph CUAD marks for that counterpart;
- **no-op / wrong direction**: a number change that leaves the value where it was (in one unit: a year is
  twelve months) or moves it away from the playbook's limit;
- **foreign vocabulary**: a capitalised word of new text that the contract never capitalises; **placeholders**
  ("[England and Wales]", "____"); **spelling** of the other convention (British words in a US contract);
- **missing claims**: a "missing" claim of a rule whose clause CUAD decides (:data:`MISSING_DECIDED`) is
  right when CUAD has no span of it; recall counts the contracts CUAD shows without it that were claimed or
  asked about (an "ask": the engine neither finds the clause nor rules it out).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from redline.analysis.cache import MemoryCache
from redline.analysis.pipeline import review
from redline.analysis.playbook.io import default_playbook
from redline.analysis.playbook.model import Playbook
from redline.analysis.providers.offline import OfflineProvider

from .cuad_dev import DevContract, Spans, contract_texts, dev_ids, gold_spans, read_dev_contract

# The CUAD categories whose clauses a rule reviews (rules without a CUAD counterpart are not scored on target).
RULE_TO_CUAD: dict[str, tuple[str, ...]] = {
    "limitation-of-liability": ("Cap On Liability", "Uncapped Liability", "Liquidated Damages"),
    "termination-for-convenience": ("Termination For Convenience",),
    "auto-renewal": ("Renewal Term", "Notice Period To Terminate Renewal", "Expiration Date"),
    "governing-law": ("Governing Law",),
    "assignment": ("Anti-Assignment", "Change Of Control"),
    "non-solicitation": ("No-Solicit Of Employees", "No-Solicit Of Customers"),
    "exclusivity": ("Exclusivity", "Non-Compete", "Competitive Restriction Exception", "Rofr/Rofo/Rofn"),
    "audit-rights": ("Audit Rights",),
    "insurance": ("Insurance",),
    "license-scope": ("License Grant", "Non-Transferable License", "Irrevocable Or Perpetual License",
                      "Unlimited/All-You-Can-Eat-License", "Affiliate License-Licensor", "Affiliate License-Licensee"),
    "ip-ownership": ("Ip Ownership Assignment", "Joint Ip Ownership"),
    "price-changes": ("Price Restrictions", "Most Favored Nation"),
}
# Not scored on target: warranty disclaimers ("AS IS") and indemnities, confidentiality, payment, notices, force
# majeure, data protection, termination for cause: CUAD labels no such category ("Warranty Duration" is the
# length of a warranty, not a disclaimer).
# "Missing" claims CUAD can decide: the rule's clause is absent iff CUAD has no span of these.
MISSING_DECIDED: dict[str, tuple[str, ...]] = {
    "limitation-of-liability": ("Cap On Liability", "Uncapped Liability"),
    "governing-law": ("Governing Law",),
}
_UK = frozenset({"endeavour", "endeavours", "defence", "authorised", "authorise", "organisation", "recognised",
                 "favour", "labour", "wilful", "programme", "behaviour", "unauthorised", "licence", "licences",
                 "minimise", "utilise", "centre", "fulfil", "colour", "judgement", "honour", "analyse"})
_US = frozenset({"endeavor", "endeavors", "defense", "authorized", "authorize", "organization", "recognized",
                 "favor", "labor", "willful", "behavior", "unauthorized", "minimize", "utilize", "center",
                 "fulfill", "color", "honor", "analyze"})
_NUMBER_WORDS = {w: i for i, w in enumerate(
    ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"])} | {"thirty": 30, "forty": 40, "forty-five": 45, "fifty": 50,
                                                    "sixty": 60, "ninety": 90, "hundred": 100}
_DURATION = re.compile(r"(?:(?P<w>[a-z-]+)\s*\(\s*)?(?P<d>\d+(?:\.\d+)?)?\s*\)?\s*[- ]?(?P<mod>business |working )?"
                       r"(?P<u>day|week|month|year|hour)s?\b", re.IGNORECASE)
_PERCENT = re.compile(r"(?P<d>\d+(?:\.\d+)?)\s*%")
_DAYS = {"hour": 1 / 24, "day": 1.0, "week": 7.0, "month": 365 / 12, "year": 365.0}
_CAPITALISED = re.compile(r"(?<![.!?:;(\"“]\s)(?<!^)\b[A-Z][a-z][A-Za-z-]*")
_PLACEHOLDER = re.compile(r"\[[^\]]{0,80}\]|_{3,}")


@dataclass
class Figures:
    """The measures over a set of contracts (see the module docstring)."""

    contracts: int = 0
    suggestions: int = 0
    by_kind: Counter[str] = field(default_factory=Counter)
    on_target: int = 0
    scored_for_target: int = 0
    off_target: list[dict[str, Any]] = field(default_factory=list)
    number_changes: int = 0
    no_op: list[dict[str, Any]] = field(default_factory=list)
    wrong_direction: list[dict[str, Any]] = field(default_factory=list)
    new_texts: int = 0
    foreign: list[dict[str, Any]] = field(default_factory=list)
    placeholders: list[dict[str, Any]] = field(default_factory=list)
    spelling: list[dict[str, Any]] = field(default_factory=list)
    missing_claims: int = 0
    asks: int = 0
    asks_decided: int = 0
    asks_right: int = 0
    wrong_asks: list[dict[str, Any]] = field(default_factory=list)
    missing_right: int = 0
    gold_absent: int = 0
    gold_absent_claimed: int = 0
    silent: list[dict[str, str]] = field(default_factory=list)  # CUAD-absent, neither claimed nor asked
    per_rule: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready figures with rates."""
        def rate(a: int, b: int) -> float | None:
            return round(100 * a / b, 1) if b else None

        return {
            "contracts": self.contracts, "suggestions": self.suggestions, "by_kind": dict(self.by_kind),
            "on_target": {"hits": self.on_target, "scored": self.scored_for_target,
                          "percent": rate(self.on_target, self.scored_for_target), "misses": self.off_target},
            "numbers": {"changes": self.number_changes, "no_op": self.no_op, "wrong_direction": self.wrong_direction},
            "new_texts": self.new_texts, "foreign_vocabulary": self.foreign, "placeholders": self.placeholders,
            "spelling_mismatch": self.spelling,
            "missing": {"claims": self.missing_claims, "right": self.missing_right, "asks": self.asks,
                        "asks_decided_by_cuad": self.asks_decided, "asks_right": self.asks_right,
                        "wrong_asks": self.wrong_asks,
                        "precision": rate(self.missing_right, self.missing_claims),
                        "gold_absent": self.gold_absent, "gold_absent_claimed_or_asked": self.gold_absent_claimed,
                        "recall": rate(self.gold_absent_claimed, self.gold_absent), "silent": self.silent},
            "per_rule": {k: dict(v) for k, v in sorted(self.per_rule.items())},
        }


def evaluate(data: Path, *, sides: dict[str, str] | None = None, ids: Iterable[str] | None = None,
             playbook: Playbook | None = None, progress: Callable[[str], None] | None = None) -> Figures:
    """Review the dev contracts (``ids``, default all) acting for ``sides[cid]`` and measure the suggestions."""
    playbook = playbook or default_playbook()
    ids = list(ids or dev_ids(data))
    sides = sides or {}
    gold = gold_spans(data)
    texts = contract_texts(data, set(ids))
    thresholds = {r.key: r.thresholds for r in playbook.rules}
    figures = Figures()
    for cid in ids:
        contract = read_dev_contract(data, cid)
        result = review(contract.clauses, playbook, OfflineProvider(), cache=MemoryCache(),
                        acting_for=sides.get(cid, ""))
        figures.contracts += 1
        _measure(figures, contract, texts[cid], gold, [s.to_dict() for s in result.suggestions], thresholds)
        if progress:
            progress(cid)
    return figures


def _measure(fig: Figures, contract: DevContract, text: str, gold: dict[tuple[str, str], Spans],
             suggestions: list[dict[str, Any]], thresholds: dict[str, Any]) -> None:
    position = {c.anchor: i for i, c in enumerate(contract.clauses)}
    us = sum(len(re.findall(rf"\b{w}\b", text, re.I)) for w in _US) >= sum(
        len(re.findall(rf"\b{w}\b", text, re.I)) for w in _UK)
    capitalised = {m.group(0).lower() for m in re.finditer(r"\b[A-Z][A-Za-z-]*", text)}
    claimed = set()
    for s in suggestions:
        fig.suggestions += 1
        fig.by_kind[s["kind"]] += 1
        rule = s["rule"]
        fig.per_rule[rule][s["kind"]] += 1
        where = {"contract": contract.id, "rule": rule, "quote": s["quote"][:120], "new_text": s["new_text"][:160]}
        if s["source"] == "ask":  # a question about a clause the engine neither finds nor rules out
            claimed.add(rule)
            fig.asks += 1
            if rule in MISSING_DECIDED:
                fig.asks_decided += 1
                fig.asks_right += not any(gold.get((contract.id, c)) for c in MISSING_DECIDED[rule])
                if any(gold.get((contract.id, c)) for c in MISSING_DECIDED[rule]):
                    fig.wrong_asks.append(where)
        elif s["source"] == "missing":
            claimed.add(rule)
            fig.missing_claims += rule in MISSING_DECIDED
            fig.missing_right += rule in MISSING_DECIDED and not any(
                gold.get((contract.id, c)) for c in MISSING_DECIDED[rule])
        elif rule in RULE_TO_CUAD:
            fig.scored_for_target += 1
            held = {i for c in RULE_TO_CUAD[rule] for i in contract.holding(gold.get((contract.id, c), []))}
            if position[s["anchor"]] in held:
                fig.on_target += 1
                fig.per_rule[rule]["on_target"] += 1
            else:
                fig.off_target.append(where)
        if s["kind"] == "replace" and s["source"] == "threshold":
            fig.number_changes += 1
            problem = _number_problem(s["quote"], s["new_text"], thresholds.get(rule, ()))
            if problem:
                getattr(fig, problem).append(where)
        if s["new_text"]:
            fig.new_texts += 1
            new = s["new_text"]
            foreign = sorted({w for w in (m.group(0) for m in _CAPITALISED.finditer(new))
                              if w.lower() not in capitalised and w.lower().rstrip("s") not in capitalised})
            if foreign:
                fig.foreign.append(where | {"terms": foreign})
            if _PLACEHOLDER.search(new):
                fig.placeholders.append(where)
            words = {w.lower() for w in re.findall(r"[A-Za-z]+", new)}
            if words & (_UK if us else _US):
                fig.spelling.append(where | {"words": sorted(words & (_UK if us else _US))})
    for rule, categories in MISSING_DECIDED.items():
        if not any(gold.get((contract.id, c)) for c in categories):
            fig.gold_absent += 1
            fig.gold_absent_claimed += rule in claimed
            if rule not in claimed:
                fig.silent.append({"contract": contract.id, "rule": rule})


def _value(text: str) -> tuple[str, float] | None:
    """The one quantity in ``text`` as (kind, value): durations in days, percentages as given."""
    durations = list(_DURATION.finditer(text))
    if len(durations) == 1:
        m = durations[0]
        n = float(m.group("d")) if m.group("d") else _NUMBER_WORDS.get((m.group("w") or "").lower())
        if n is None:
            return None
        factor = _DAYS[m.group("u").lower()] * (7 / 5 if m.group("mod") else 1)
        return "duration", n * factor
    percents = list(_PERCENT.finditer(text))
    if len(percents) == 1:
        return "percent", float(percents[0].group("d"))
    return None


def _number_problem(old: str, new: str, thresholds: Iterable[Any]) -> str:
    a, b = _value(old), _value(new)
    if a is None or b is None or a[0] != b[0]:
        return ""
    if abs(a[1] - b[1]) <= 0.02 * max(abs(a[1]), 1e-9):
        return "no_op"
    kind = a[0]
    ops = {t.operator for t in thresholds if (t.unit == "percent") == (kind == "percent")}
    if ops and ops <= {">=", ">"}:
        return "wrong_direction" if b[1] < a[1] else ""
    if ops and ops <= {"<=", "<"}:
        return "wrong_direction" if b[1] > a[1] else ""
    return ""


def ratings_summary(records: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """A lawyer-rated set (``docs/review-ratings/*.json``): the share of each rating, and the validator's verdicts
    against them (a WRONG suggestion must not PASS). Records marked ``still_proposed: false`` (withdrawn by a later
    change aimed at their rating) are counted apart."""
    records = list(records)
    rows = [r for r in records if r.get("still_proposed", True)]
    ratings = Counter(r["rating"] for r in rows)
    total = len(rows)
    verdicts = Counter(f"{r['rating']}/{r.get('validator') or 'none'}" for r in rows)
    return {"suggestions": total, "withdrawn": sum(1 for r in records if not r.get("still_proposed", True)),
            "ratings": {k: {"count": ratings[k], "percent": round(100 * ratings[k] / total, 1) if total else None}
                        for k in ("USEFUL", "NOISE", "WRONG")},
            "validator": dict(sorted(verdicts.items())), "wrong_passed": verdicts["WRONG/PASS"]}
