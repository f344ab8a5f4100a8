"""The defects ``redline hygiene-eval`` plants in real contracts, one injector per kind (issue #27).

A hygiene check graded only on contracts someone wrote defects into by hand is graded on the defects its
author thought of. Planting them in CUAD's dev contracts instead puts them in real text, with the real
neighbours that make checks cry wolf or go blind: a blank inside a long sentence, a definition removed from a
parties paragraph, a clause deleted from a lettered list. Each injector picks a place at random (seeded),
edits it through the document model (:class:`~.hygiene_draft.Draft`) and says where the review must report
it. Places are chosen with the contract graph (a *resolved* reference, a definition with one site and later
uses, numbered siblings that run on), so that what is planted is a defect a lawyer would call one; whether
the review then finds it is decided by the grader (:mod:`.hygiene_eval`), never here. The injectors that
choose their place with the graph are in :mod:`.hygiene_inject_graph`.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

from .hygiene_draft import Draft, Injection, Planned
from .hygiene_inject_graph import empty_attachment, missing_reference, numbering_gap, undefined_term
from .hygiene_places import balanced_pairs, number_pairs, sentence_ends, shuffled

Injector = Callable[[Draft, random.Random], Planned | None]

BLANKS = (", dated as of ____________, 20__", " for a fee of $[●]", " at the address set out in [insert address]",
          " within [ ] days of the request", " on or before [TBD]")
NOTES = ("[NOTE TO DRAFT: PARTIES TO CONFIRM THE FEE SCHEDULE]", "[Note to draft: Supplier to confirm the delivery "
         "address.]", "[NTD: Company to provide its insurance certificate.]",
         "[PRIOR TO EXECUTION, THE PARTIES WILL AGREE ON THE SERVICE LEVELS]")
_FALLBACK_PAIRS = (("thirty", 30), ("sixty", 60), ("ten", 10), ("fifteen", 15), ("ninety", 90))
_REPEATABLE = re.compile(r"(?<![\w'’-])(the|of|to|and)(?= [a-z])")
_RIGHT_WORDS = {"cure": (r"\bterminat\w*\s+(?:this|the)\s+agreement|\bagreement\s+may\s+be\s+terminat", r"\bbreach",
                         r"\b(?:cure|remedy)"), "convenience": (r"\bterminat", r"\bconvenience"),
                "non_renewal": (r"\b(?:non-renewal|not to renew)",)}
_RESTATED = {  # the right said again, with another period, as a later clause would say it
    "cure": "If a party breaches this Agreement and does not cure the breach within {} after written notice, the "
            "other party may terminate this Agreement.",
    "convenience": "Either party may terminate this Agreement for convenience on {}' written notice to the other.",
    "non_renewal": "A party that does not wish to renew this Agreement shall give the other written notice of "
                   "non-renewal at least {} before the end of the then-current term.",
}
_OTHER_RIGHT = re.compile(r"\bpa(?:y|yment)|insur|polic(?:y|ies)|coverage|force majeure")
_PERIOD = re.compile(r"((?:[a-z-]+\s+\()?(\d{1,3})\)?[\s-]+(?:business\s+|calendar\s+)?(days?|months?))")
_WORDS = {10: "ten", 15: "fifteen", 20: "twenty", 30: "thirty", 45: "forty-five", 60: "sixty", 90: "ninety",
          120: "one hundred twenty", 180: "one hundred eighty"}


# -- the injectors ---------------------------------------------------------------------------
def blank(d: Draft, rng: random.Random) -> Planned | None:
    """A blank left in a sentence: "…, dated as of ____________, 20__.", "… for a fee of $[●]."."""
    for b in shuffled(d.body_blocks(), rng):
        i = d.paragraph_of(b)
        ends = sentence_ends(d.texts[i])
        fragment = rng.choice(BLANKS)
        if ends and d.splice(i, (at := rng.choice(ends)), at, fragment):
            lead = len(fragment) - len(fragment.lstrip(", "))
            return d.plan("blank", [i], (at + lead, at + len(fragment)), change=fragment.lstrip(", "))
    return None


def drafting_note(d: Draft, rng: random.Random) -> Planned | None:
    """A note to draft left after a sentence: "… [NOTE TO DRAFT: PARTIES TO CONFIRM THE FEE SCHEDULE]"."""
    for b in shuffled(d.body_blocks(), rng):
        i = d.paragraph_of(b)
        ends = sentence_ends(d.texts[i])
        note = rng.choice(NOTES)
        if ends and d.splice(i, (at := rng.choice(ends) + 1), at, " " + note):
            return d.plan("drafting_note", [i], (at + 1, at + 1 + len(note)), change=note)
    return None


def words_digits(d: Draft, rng: random.Random) -> Planned | None:
    """Words and digits made to disagree: "thirty (30)" → "thirty (60)"; in a contract without such a pair,
    one is written into a sentence (``path`` "inserted": the report says how often each way ran)."""
    blocks = shuffled(d.body_blocks(min_chars=20), rng)
    for b in blocks:
        i = d.paragraph_of(b)
        pairs = number_pairs(d.texts[i])
        if not pairs:
            continue
        start, a, z, end = rng.choice(pairs)
        old = d.texts[i][a:z]
        new = str(2 * int(old.replace(",", "")))
        if d.splice(i, a, z, new):
            span = (start, end + len(new) - len(old))
            return d.plan("words_digits", [i], span, change=d.texts[i][span[0]: span[1]], path="changed")
    for b in blocks:
        i = d.paragraph_of(b)
        ends = sentence_ends(d.texts[i])
        word, value = rng.choice(_FALLBACK_PAIRS)
        pair = f"{word} ({2 * value})"
        if ends and d.splice(i, (at := rng.choice(ends)), at, f", and in any event within {pair} days"):
            at += len(", and in any event within ")
            return d.plan("words_digits", [i], (at, at + len(pair)), change=pair, path="inserted")
    return None


def unpaired(d: Draft, rng: random.Random) -> Planned | None:
    """A closing parenthesis dropped from a paragraph whose parentheses all paired up before: that of a
    phrase ("(at its own cost"), never of an enumerator ("(iii" is a mangled label, another defect)."""
    for b in shuffled(d.body_blocks(), rng):
        i = d.paragraph_of(b)
        pairs = [(a, z) for a, z in balanced_pairs(d.texts[i]) if " " in d.texts[i][a:z].strip("( ")]
        if pairs and d.splice(i, (z := (pair := rng.choice(pairs))[1]), z + 1, ""):
            # up to the next ")": a reader may pair ours with it and find the next "(" the one left open
            after = d.texts[i].find(")", z)
            span = (pair[0], after if after >= 0 else len(d.texts[i]))
            return d.plan("unpaired", [i], span, change=d.texts[i][pair[0]: pair[1]][:60])
    return None


def repeated_word(d: Draft, rng: random.Random) -> Planned | None:
    """A small word typed twice: "the" → "the the" (also "of", "to", "and")."""
    for b in shuffled(d.body_blocks(), rng):
        i = d.paragraph_of(b)
        found = list(_REPEATABLE.finditer(d.texts[i]))
        if found and d.splice(i, (m := rng.choice(found)).end(), m.end(), " " + m.group(1)):
            return d.plan("repeated_word", [i], (m.start(), m.end() + len(m.group(1)) + 1),
                          change=f"{m.group(1)} {m.group(1)}")
    return None


def two_values(d: Draft, rng: random.Random) -> Planned | None:
    """A right the contract states (a cure period before termination, notice to terminate for convenience or of
    non-renewal) stated again, with another period, at the end of a paragraph elsewhere: the edit that reached one
    place and not the other. Found with our own reading of the sentence, not the check's (a payment's cure or an
    insurer's notice of non-renewal or a force majeure that lasts is another right)."""
    blocks = shuffled(d.body_blocks(), rng)
    for b in blocks:
        i = d.paragraph_of(b)
        for sentence in re.split(r"(?<=[a-z)])\.\s+", d.texts[i]):
            low = sentence.lower()
            right = next((r for r, words in _RIGHT_WORDS.items() if all(re.search(w, low) for w in words)), None)
            periods = _PERIOD.findall(low)
            if right is None or len(periods) != 1 or _OTHER_RIGHT.search(low):
                continue
            days = int(periods[0][1]) * (30 if periods[0][2].startswith("month") else 1)
            new = next(v for v in rng.sample(sorted(_WORDS), len(_WORDS)) if abs(v - days) > 0.1 * days)
            restated = _RESTATED[right].format(f"{_WORDS[new]} ({new}) days")
            for c in (c for c in blocks if abs(d.paragraph_of(c) - i) > 3):
                k = d.paragraph_of(c)
                ends = sentence_ends(d.texts[k])
                if ends and d.editable(k) and d.splice(k, (at := ends[-1] + 1), at, " " + restated):
                    d.keep.add(i)
                    return d.plan("two_values", [k, i], change=f"{restated} (the contract says {periods[0][1]} {periods[0][2]})")
    return None


# In the order they are planted: deletions first, so the places later injections rely on are known.
INJECTORS: dict[str, Injector] = {
    "numbering_gap": numbering_gap, "empty_attachment": empty_attachment, "undefined_term": undefined_term,
    "missing_reference": missing_reference, "two_values": two_values, "words_digits": words_digits,
    "unpaired": unpaired, "repeated_word": repeated_word, "blank": blank, "drafting_note": drafting_note,
}


def inject(data: bytes, rng: random.Random, *, kinds: tuple[str, ...] = tuple(INJECTORS),
           per_kind: int = 1) -> tuple[bytes, list[Injection], list[str]]:
    """Plant ``per_kind`` defects of each of ``kinds`` in one copy of ``data``, each in paragraphs of its
    own; returns the new file, the injections and the kinds that found no place (one entry per miss)."""
    draft = Draft(data)
    planned, missed = [], []
    for _ in range(per_kind):
        for kind in (k for k in INJECTORS if k in kinds):
            done = INJECTORS[kind](draft, rng)
            if done is None:
                missed.append(kind)
            else:
                planned.append(done)
    out, injections = draft.finish(planned)
    return out, injections, missed
