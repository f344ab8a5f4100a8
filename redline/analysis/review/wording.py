"""The contract's own words: whether new text speaks the contract's language, and the fixes that make it.

New text (a replacement, an inserted clause, the model's or the offline engine's alike) is re-read before it
is proposed. It must not bring capitalised terms the contract never uses ("the Supplier", "Services",
"Charges" in a licence between Licensor and Licensee), bracketed placeholders ("the courts of [England and
Wales]": a choice only the lawyer can make is a comment), spelling of the other convention ("endeavours" in
a US contract), or words and figures that disagree ("five hundred thousand dollars ($1,000,000)").
:func:`adapt` makes the mechanical fixes (spelling, "Party" or "party" as the contract writes it) and
lists what it cannot fix; a suggestion whose text still has problems is withheld as an edit.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from ..quantities import find_quantities

# British spellings and their US forms, as they occur in playbook language.
UK_TO_US: dict[str, str] = {
    "endeavour": "endeavor", "endeavours": "endeavors", "defence": "defense", "offence": "offense",
    "licence": "license", "licences": "licenses", "authorise": "authorize", "authorised": "authorized",
    "authorisation": "authorization", "organisation": "organization", "organisations": "organizations",
    "recognised": "recognized", "recognise": "recognize", "favour": "favor", "favourable": "favorable",
    "labour": "labor", "wilful": "willful", "judgement": "judgment", "programme": "program",
    "behaviour": "behavior", "honour": "honor", "unauthorised": "unauthorized", "minimise": "minimize",
    "realise": "realize", "utilise": "utilize", "analyse": "analyze", "cancelled": "canceled",
    "practise": "practice", "centre": "center", "fulfil": "fulfill", "anonymised": "anonymized",
    "summarise": "summarize", "apologise": "apologize", "prioritise": "prioritize", "colour": "color",
    "catalogue": "catalog", "modelling": "modeling", "travelling": "traveling", "enrol": "enroll",
    "pseudonymised": "pseudonymized", "characterise": "characterize", "acknowledgement": "acknowledgment",
}
# US forms that are also good British usage ("license" the verb, a computer "program", a "judgment") are no mismatch.
US_TO_UK = {us: uk for uk, us in UK_TO_US.items() if us not in {"practice", "license", "licenses", "program", "judgment"}}
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")
_PARTY_WORD = re.compile(r"(?<![.!?]\s)(?<!^)\b([Pp])art(?:y|ies)\b")  # "party" within a sentence, not opening one
_PLACEHOLDER = re.compile(r"\[[^\]\n]{0,80}\]|_{3,}|\bTBD\b|\bto be agreed\b", re.IGNORECASE)
_GARBLED = re.compile(r"\b(?:point|percent)\s+\d|\d\s*\(\s*[a-z]", re.IGNORECASE)
# Capitalised words any English clause may start a phrase with, or that are not terms.
_COMMON = frozenset({
    "I", "A", "An", "The", "This", "That", "These", "Those", "Each", "Either", "Neither", "Any", "All", "No", "Nothing",
    "If", "In", "On", "Upon", "For", "To", "Of", "By", "With", "Without", "Subject", "Notwithstanding", "Where",
    "Such", "Unless", "Except", "Save", "Provided", "However", "Within", "During", "After", "Before", "Following",
    "Agreement", "Section", "Sections", "Clause", "Clauses", "Article", "Exhibit", "Schedule", "Appendix", "Annex",
    "Effective", "Date", "Term", "Both", "Its", "Their", "It", "They", "Party", "Parties",
})


@dataclass(frozen=True, slots=True)
class ContractWords:
    """What the contract says and how: its capitalised words, spelling convention and how it writes "party"."""

    capitalised: frozenset[str]
    us_spelling: bool
    party_capital: bool

    @classmethod
    def of(cls, texts: Iterable[str]) -> ContractWords:
        """Read the convention from the contract's paragraphs."""
        capitalised: set[str] = set()
        us = uk = 0
        party = Counter[str]()
        words = Counter[str]()
        for text in texts:
            words.update(_WORD.findall(text))  # each distinct word is then looked at once
            party.update(_PARTY_WORD.findall(text))
        for w, n in words.items():
            lw = w.lower().removesuffix("'s").removesuffix("’s").strip("'’-")  # "the Supplier's" uses "Supplier"
            if w[0].isupper():
                capitalised.add(lw)
            if lw in UK_TO_US:
                uk += n
            elif lw in US_TO_UK:
                us += n
        return cls(frozenset(capitalised), us >= uk, party["P"] > party["p"])


@dataclass(frozen=True, slots=True)
class Adapted:
    """New text after the mechanical fixes, and the problems no fix could solve."""

    text: str
    problems: tuple[str, ...]


def adapt(new_text: str, words: ContractWords, *, before: str = "") -> Adapted:
    """``new_text`` in the contract's spelling and capitalisation, with what still does not fit.

    ``before`` is the text the new text replaces: terms it already uses are the contract's.
    """
    text = respell(new_text, words.us_spelling)
    if not words.party_capital:
        text = re.sub(r"(?<=[a-z,;] )Part(y|ies)\b", r"part\1", text)
    problems: list[str] = []
    foreign = foreign_terms(text, words, before)
    if foreign:
        problems.append("uses terms the contract never uses: " + ", ".join(foreign))
    if _PLACEHOLDER.search(text):
        problems.append(f"leaves a placeholder for the lawyer to fill: {_PLACEHOLDER.search(text).group(0)}")
    mismatch = words_digits_mismatch(text)
    if mismatch or _GARBLED.search(text):
        problems.append(f"words and figures disagree: {mismatch or _GARBLED.search(text).group(0)}")
    wrong = spelling_mismatches(text, words.us_spelling)
    if wrong:
        problems.append("spelling of the other convention: " + ", ".join(wrong))
    return Adapted(text, tuple(problems))


def foreign_terms(text: str, words: ContractWords, before: str = "") -> list[str]:
    """Capitalised words of ``text`` (not starting a sentence) that the contract never capitalises."""
    out: list[str] = []
    known = {w.lower() for w in _WORD.findall(before)}
    for m in _WORD.finditer(text):
        w = m.group(0).strip("'’-")
        if not w or not w[0].isupper() or w in _COMMON or (w.isupper() and len(w) <= 3):
            continue
        if _sentence_start(text, m.start()):
            continue
        lw = w.lower().removesuffix("'s").removesuffix("’s")
        if lw in words.capitalised or lw in known or lw.rstrip("s") in words.capitalised:
            continue
        if w not in out:
            out.append(w)
    return out


def spelling_mismatches(text: str, us_spelling: bool) -> list[str]:
    """Words of ``text`` spelt the other way from the contract."""
    table = UK_TO_US if us_spelling else US_TO_UK
    return sorted({w for w in _WORD.findall(text) if w.lower() in table})


def words_digits_mismatch(text: str) -> str:
    """The first "five (10)" style quantity whose words and figures disagree, or ""."""
    for q in find_quantities(text):
        if q.words_value is not None and abs(q.words_value - q.value) > 1e-9:
            return q.text
    return ""


def respell(text: str, us_spelling: bool) -> str:
    """``text`` in the US or the British spelling."""
    table = UK_TO_US if us_spelling else US_TO_UK

    def fix(m: re.Match[str]) -> str:
        w = m.group(0)
        new = table.get(w.lower())
        if new is None:
            return w
        return new.capitalize() if w[0].isupper() else new

    return _WORD.sub(fix, text)


def _sentence_start(text: str, i: int) -> bool:
    head = text[:i].rstrip()
    return not head or head[-1] in ".!?:;(\"“" or bool(re.search(r"(?:^|\n)\s*(?:\d+(?:\.\d+)*\.?|\([a-z0-9]+\))$", head))
