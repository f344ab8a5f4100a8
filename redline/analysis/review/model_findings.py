"""A model's findings, asked the questions the offline engine's findings are asked.

The offline engine names the playbook check behind each finding ("red_flag:2"), so the review gate knows the
clause kind, the side and the limit it is about. A model names none, and a model is exactly what drifts: it
flags a termination notice under the renewal rule, shortens a period that already met the playbook, edits
its own client's right away, quotes half a number. So the gate reads the check back from the finding itself:

- the clause kind at its span (:func:`sentence_starts`: any sentence the finding touches may make it the
  rule's clause; a finding on another kind of clause is withheld as ``off_target``);
- the threshold whose quantity a replacement changes (:mod:`.numbers`: ``already_meets``, ``no_op``,
  ``wrong_direction``, and the threshold's side);
- the red flag whose wording the finding touches (:func:`flag_at`: its ``unless_anywhere``, reciprocity and
  side);
- whole quantities and words (:mod:`.phrases`, repaired when certain);
- the contract's words (:mod:`.wording`), with what could not be fixed named for people (:data:`PROBLEMS`).

Every outcome is counted under a reason a run can print as it stands ("dropped: off target 2, already meets
1; as comments: foreign terms 1; repaired: partial phrase 1").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..checks import party_key  # the engine's own key for a party mention
from ..playbook.model import RedFlag, Rule, compile_pattern, flag_regex, party_pattern

MODEL = "model"  # a finding's ``source`` when a model made it
OFF_TARGET = "off_target"
# What :func:`.wording.adapt` could not fix (its problems' first words), as the run's stats name it.
PROBLEMS: dict[str, str] = {
    "uses terms the contract never uses": "foreign_terms",
    "leaves a placeholder for the lawyer to fill": "placeholder",
    "words and figures disagree": "words_digits",
    "spelling of the other convention": "other_spelling",
}
_SENTENCE_END = re.compile(r"[.;:]\s+")


@dataclass(frozen=True, slots=True)
class FlagHit:
    """The red flag ``rule.red_flags[index]`` matched at ``text[start:end]``, naming ``party`` ("" : none)."""

    index: int
    flag: RedFlag
    start: int
    end: int
    party: str


def sentence_starts(text: str, start: int, end: int) -> list[int]:
    """``start`` and the start of every later sentence within ``text[start:end]``: a finding that spans
    several sentences is about the rule's clause when any of them is (a rewrite of a whole paragraph)."""
    return [start, *(start + m.end() for m in _SENTENCE_END.finditer(text[start:end]) if start + m.end() < end)]


def flag_at(rule: Rule, text: str, start: int, end: int, parties: tuple[str, ...]) -> FlagHit | None:
    """The rule's red flag whose wording most overlaps ``text[start:end]``, if one does and applies to the
    paragraph (its ``context`` matches and its ``unless`` does not, as the engine requires)."""
    alternation = party_pattern(parties)
    best: FlagHit | None = None
    most = 0
    for index, flag in enumerate(rule.red_flags):
        if flag.context and not compile_pattern(flag.context).search(text):
            continue
        if flag.unless and compile_pattern(flag.unless).search(text):
            continue
        for m in flag_regex(flag, alternation).finditer(text):
            overlap = min(end, m.end()) - max(start, m.start())
            if overlap > most:
                party = m.group("party") if "party" in m.re.groupindex and m.group("party") else ""
                best, most = FlagHit(index, flag, m.start(), m.end(), party), overlap
    return best


def done_by_another(hit: FlagHit, seen: frozenset[str]) -> bool:
    """Whether a party other than the one ``hit`` names does the same thing in the contract (``seen``: the
    parties that match the flag anywhere, as :func:`redline.analysis.checks.reciprocal_parties` gives them),
    so the one-sided wording is in fact mutual."""
    return bool(hit.party) and bool(seen - {party_key(hit.party)})


def problem_reason(problem: str) -> str:
    """The stats key for a problem :func:`.wording.adapt` reported ("uses terms …: Supplier" → "foreign_terms")."""
    head = problem.split(":")[0]
    return PROBLEMS.get(head, head.replace(" ", "_")[:40])

