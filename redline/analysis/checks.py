"""The deterministic rule engine: red flags and numeric thresholds on one clause.

Both the offline provider (which turns hits into suggestions) and the
validator (which checks that a proposed rewrite no longer breaks the rule)
apply a rule through :func:`check_rule`, so "what the playbook forbids" has
exactly one implementation.

A threshold reads each quantity in the clause together with its neighbourhood:
the words up to 150 characters before and 60 after it, cut at the end of the
clause fragment (a sentence, a semicolon, or an "unless"/"provided that"
proviso). The ``near`` pattern must match there and ``unless`` must not, so
"pay within ninety (90) days" is a payment period while "notify disputes within
ten (10) days" is not.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from redline.clauses.prefilter import matcher

from .document import ROLE_NOUNS
from .playbook.model import Rule, Severity, Threshold, compile_pattern, flag_regex, party_pattern
from .quantities import (
    DAYS_PER_UNIT,
    DURATION_UNITS,
    Quantity,
    convert,
    describe,
    find_quantities,
    format_like,
    kind_of_unit,
    may_state,
)

_OPS = {"<=": operator.le, "<": operator.lt, ">=": operator.ge, ">": operator.gt, "==": operator.eq}
_BREAK = re.compile(r"[;:]|(?<=[.!?])\s+(?=[A-Z(\"“])|\s(?=(?:[Uu]nless|[Pp]rovided that|[Ss]ave that|[Ee]xcept that)\b)")
_BEFORE, _AFTER = 150, 60
_COUNTERPARTS = {
    "supplier": "Customer", "vendor": "Customer", "provider": "Customer", "service provider": "Customer",
    "contractor": "Client", "consultant": "Client", "licensor": "Licensee", "licensee": "Licensor",
    "customer": "Supplier", "client": "Contractor", "buyer": "Seller", "purchaser": "Seller", "seller": "Buyer",
    "company": "other Party", "distributor": "Supplier", "reseller": "Supplier",
}


@dataclass(frozen=True, slots=True)
class Hit:
    """One deviation found in a clause: a comment on ``text[start:end]``, a
    replacement of that span by ``new_text``, or an insertion of ``new_text``
    after the clause (``start``/``end`` then mark the wording that triggered it)."""

    kind: str
    start: int
    end: int
    message: str
    severity: Severity
    source: str
    new_text: str = ""
    check: str = ""  # which check: "red_flag:<index>" or "threshold:<index>" in the rule


def check_rule(
    rule: Rule,
    text: str,
    *,
    parties: tuple[str, ...] = (),
    reciprocal: Mapping[int, frozenset[str]] | None = None,
    one_sidedness: bool = True,
) -> list[Hit]:
    """Every red-flag and threshold hit of ``rule`` in ``text``, in text order.

    ``parties`` are the document's party names (for ``{party}``);
    ``reciprocal`` maps a reciprocal red flag's index to the parties seen
    doing the same thing anywhere in the document (see
    :func:`reciprocal_parties`); without it only ``text`` itself is looked at.
    ``one_sidedness=False`` skips reciprocal flags altogether: whether a
    clause is one-sided is a property of the whole document, not of a
    proposed clause judged alone.
    """
    if reciprocal is None:
        reciprocal = reciprocal_parties(rule, (text,), parties)
    hits = [*_red_flags(rule, text, parties, reciprocal, one_sidedness), *_thresholds(rule, text)]
    hits.sort(key=lambda h: (h.start, h.end, h.kind))
    return hits


def might_hit(rule: Rule, texts: Sequence[str], parties: tuple[str, ...] = ()) -> list[bool]:
    """A cheap screen before :func:`check_rule`, text by text: False only where it certainly finds nothing (no
    literal a red flag needs is in the text, and the rule has no threshold or the text states no quantity)."""
    alternation = party_pattern(parties)
    flags = [matcher(flag_regex(flag, alternation)) for flag in rule.red_flags]
    kinds = {kind_of_unit(t.unit) for t in rule.thresholds}
    out = []
    for text in texts:
        lower = text.lower()
        out.append(any(m.possible(lower) for m in flags)
                   or (any(may_state(lower, kind) for kind in kinds) and bool(find_quantities(text))))
    return out


def reciprocal_parties(rule: Rule, texts: Iterable[str], parties: tuple[str, ...]) -> dict[int, frozenset[str]]:
    """For each reciprocal red flag of ``rule``, the parties that match it anywhere in ``texts``.

    A flag such as "{party} shall indemnify" is one-sided only when no other
    party gives the same undertaking somewhere in the document.
    """
    flags = [(i, f) for i, f in enumerate(rule.red_flags) if f.reciprocal]
    if not flags:
        return {}
    alternation = party_pattern(parties)
    matchers = [(i, matcher(flag_regex(flag, alternation))) for i, flag in flags]
    seen: dict[int, set[str]] = {i: set() for i, _ in flags}
    for text in texts:
        lower = text.lower()
        for i, m in matchers:
            for match in m.finditer(text, lower):
                seen[i].add(party_key(match.group("party")))
    return {i: frozenset(s) for i, s in seen.items()}


def _red_flags(
    rule: Rule, text: str, parties: tuple[str, ...], reciprocal: Mapping[int, frozenset[str]], one_sidedness: bool
) -> list[Hit]:
    alternation = party_pattern(parties)
    lower = text.lower()
    hits: list[Hit] = []
    for i, flag in enumerate(rule.red_flags):
        if flag.reciprocal and not one_sidedness:
            continue
        candidates = matcher(flag_regex(flag, alternation)).finditer(text, lower)
        first = next(candidates, None)
        if first is None:
            continue
        if flag.context and not matcher(compile_pattern(flag.context)).search(text, lower):
            continue
        if flag.unless and matcher(compile_pattern(flag.unless)).search(text, lower):
            continue
        if flag.unless_anywhere and matcher(compile_pattern(flag.unless_anywhere)).search(text, lower):
            continue  # here within the clause; the review gate looks at the whole contract
        for m in (first, *candidates):
            names = _names(m, parties) if "party" in m.re.groupindex else {}
            if flag.reciprocal and reciprocal.get(i, frozenset()) - {party_key(m.group("party"))}:
                continue  # another party does the same thing elsewhere: not one-sided
            severity = flag.severity or rule.severity
            message = _fill(flag.message, names)
            if flag.replacement is not None:
                new = m.expand(flag.replacement) if flag.match == "regex" else flag.replacement
                new = _match_case(_fill(new, names), m.group(0))
                if new != m.group(0):
                    hits.append(Hit("replace", m.start(), m.end(), message, severity, "red_flag", new, f"red_flag:{i}"))
                continue  # every occurrence gets its own replacement
            if flag.insert is not None:
                hits.append(Hit("insert", m.start(), m.end(), message, severity, "red_flag", _fill(flag.insert, names),
                                f"red_flag:{i}"))
            else:
                hits.append(Hit("comment", m.start(), m.end(), message, severity, "red_flag", check=f"red_flag:{i}"))
            break  # one comment or insertion per flag per clause is enough
    return hits


def _thresholds(rule: Rule, text: str) -> list[Hit]:
    if not rule.thresholds:
        return []
    quantities = find_quantities(text)
    if not quantities:
        return []
    fragments = clause_fragments(text)
    hits: list[Hit] = []
    taken: set[tuple[int, int]] = set()
    for j, t in enumerate(rule.thresholds):
        near = compile_pattern(t.near)
        unless = compile_pattern(t.unless) if t.unless else None
        for q in quantities:
            if (q.start, q.end) in taken:
                continue
            actual = measure_for(q, t)
            if actual is None or meets_limit(actual, t):
                continue
            window = quantity_window(text, q, fragments)
            if not near.search(window) or (unless and unless.search(window)):
                continue
            taken.add((q.start, q.end))
            hits.append(replace(_threshold_hit(rule, t, q), check=f"threshold:{j}"))
    return hits


def meets_limit(actual: float, t: Threshold) -> bool:
    """Whether a measured value meets the limit; durations within 2% count as equal (two months is sixty
    days, one year is twelve months: a lawyer does not count the odd day)."""
    if t.unit in DURATION_UNITS and abs(actual - t.value) <= 0.02 * max(t.value, 1e-9):
        return True
    return _OPS[t.operator](actual, t.value)


def measure_for(q: Quantity, t: Threshold) -> float | None:
    if t.unit == "amount" and t.currency and q.unit != t.currency:
        return None
    return convert(q, t.unit, t.per)


def _threshold_hit(rule: Rule, t: Threshold, q: Quantity) -> Hit:
    limit = describe(t.value, t.unit if not t.currency else t.currency, t.per)
    template = t.message or f"{rule.title}: {{found}} is outside the playbook limit ({t.operator} {{limit}})."
    message = template.replace("{found}", q.text).replace("{limit}", limit)
    proposal = _proposal(t, q)
    if proposal is None:
        return Hit("comment", q.start, q.end, message, rule.severity, "threshold")
    return Hit("replace", q.start, q.end, message, rule.severity, "threshold", proposal)


def _proposal(t: Threshold, q: Quantity) -> str | None:
    """The quantity rewritten to the suggested value, in the drafter's own style.

    Strict limits without an explicit ``suggest`` and "twice the fees" style
    multiples get a comment instead: there is no clean like-for-like wording.
    """
    if q.style == "multiple" or (t.suggest is None and t.operator in ("<", ">")):
        return None
    target = t.value if t.suggest is None else t.suggest
    if t.unit in DURATION_UNITS:
        # Keep the drafter's unit when it is as fine as the limit's and the value is whole
        # ("three (3) months" → "twelve (12) months"); else write the limit's unit
        # ("seven (7) days" → "forty-eight (48) hours", not "two (2) days").
        in_source_unit = target * DAYS_PER_UNIT[t.unit] / DAYS_PER_UNIT[q.unit]
        same_scale = q.unit == t.unit or {q.unit, t.unit} <= {"months", "years", "weeks"}
        if same_scale and DAYS_PER_UNIT[q.unit] <= DAYS_PER_UNIT[t.unit] and abs(in_source_unit - round(in_source_unit)) < 1e-9:
            return format_like(q, round(in_source_unit))
        return format_like(q, target, t.unit)
    if t.unit == "percent" and t.per and q.per and q.per != t.per:
        target = target * 12 if q.per == "year" else target / 12
    return format_like(q, target)


@lru_cache(maxsize=8192)
def clause_fragments(text: str) -> tuple[tuple[int, int], ...]:
    bounds, start = [], 0
    for m in _BREAK.finditer(text):
        bounds.append((start, m.start()))
        start = m.end()
    bounds.append((start, len(text)))
    return tuple(bounds)


def quantity_window(text: str, q: Quantity, fragments: tuple[tuple[int, int], ...]) -> str:
    fs, fe = next(((s, e) for s, e in fragments if s <= q.start < max(e, s + 1)), (0, len(text)))
    return text[max(fs, q.start - _BEFORE) : min(fe, q.end + _AFTER)]


# ---------------------------------------------------------------- parties


def party_key(name: str) -> str:
    name = re.sub(r"^the\s+", "", name.strip(), flags=re.IGNORECASE)
    return re.sub(r"\s+", " ", re.sub(r"['’]s$", "", name)).lower()


def _names(m: re.Match[str], parties: tuple[str, ...]) -> dict[str, str]:
    """{party}, {Party}, {counterparty}, {Counterparty} for message and text templates."""
    key = party_key(m.group("party"))
    canonical = next((p for p in parties if p.lower() == key), None)
    party = canonical or key.title()
    others = [p for p in parties if p.lower() != key]
    counter = others[0] if others else _COUNTERPARTS.get(key, "other Party")
    ref, counter_ref = _refer(party), _refer(counter)
    return {
        "{party}": ref, "{Party}": ref[:1].upper() + ref[1:],
        "{counterparty}": counter_ref, "{Counterparty}": counter_ref[:1].upper() + counter_ref[1:],
    }


_ROLES = frozenset(r.lower() for r in ROLE_NOUNS) | {"other party"}


def _refer(name: str) -> str:
    """'the Supplier' for a role noun, 'Acme' for a proper name."""
    return f"the {name}" if name.lower() in _ROLES else name


def _fill(template: str, names: Mapping[str, str]) -> str:
    for placeholder, value in names.items():
        template = template.replace(placeholder, value)
    return template


def _match_case(new: str, old: str) -> str:
    """Capitalise a replacement that starts a sentence; templates are written in running-text case."""
    if new and old[:1].isupper() and new[0].islower():
        return new[0].upper() + new[1:]
    return new
