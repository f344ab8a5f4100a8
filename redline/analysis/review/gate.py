"""The review gate: every finding is judged before it becomes a suggestion.

A partner reads a junior's markup asking four questions, and so does the gate:

1. *Is this the clause the rule is about?* A rule's red flags and thresholds count only in a paragraph of
   the rule's clause kind (its own words, its heading, or the clause engine's sentence scores); a
   termination-for-convenience notice is not a renewal notice.
2. *Whose side is it on?* A red flag says whom its wording favours and a threshold whom its direction
   protects (:mod:`.sides`). A finding that favours our client is left alone; a one-sided right that is in
   fact mutual is no finding; without a side, a finding that depends on one is a comment that asks, never an
   edit.
3. *Do the numbers mean it?* A replacement that changes nothing ("one (1) year" for twelve months) or moves
   the wrong way is withdrawn, and the edited paragraph must keep its words and figures in agreement.
4. *Are these the contract's words?* New text is adapted to the contract's spelling and "party" style; text
   that still brings foreign terms or placeholders is withheld as an edit and the finding stays a comment.

A "missing" clause is claimed only when no wording of that clause is anywhere in the contract and the clause
fits the kind of contract. Every withheld finding is counted by reason in the run's stats.

The first three questions need the playbook check a finding came from, which only the offline engine names. A
model's findings are asked them all the same, the check read back from the finding (:mod:`.model_findings`: the
clause kind at its span, the red flag its wording touches, the threshold whose quantity it changes), and a
model's quote that cuts a quantity or a word in two is made whole when that is certain (:mod:`.phrases`); the
model itself is also told the side in its prompt. What the gate repaired is counted too.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..categories import Category, classify_text
from ..checks import reciprocal_parties
from ..document import Document
from ..playbook.model import RedFlag, Rule, Threshold, compile_pattern, flag_regex
from .coverage import is_prose_check, offline_rule
from .evidence import EVIDENCE, FIT, has_evidence, operative_text
from .model_findings import MODEL, OFF_TARGET, FlagHit, done_by_another, flag_at, problem_reason, sentence_starts
from .numbers import number_problem, quantity_role
from .parties import Party, review_cast
from .phrases import whole_phrase
from .sides import MUTUAL, Cast, Stance, actor, stance, terminating_party
from .wording import ContractWords, adapt, respell, words_digits_mismatch

# A sentence counts as the rule's clause kind from this clause-engine probability up.
SENTENCE_KIND = 0.3
_NEITHER_LIABLE = re.compile(r"\bneither\s+(?:party|of\s+the\s+parties)\b.{0,40}?\b(?:shall|will)\s+(?:\w+\s+)?be\s+liable"
                             r"\b.{0,160}?\b(?:indirect|consequential|special|incidental|punitive|lost\s+profits)\b")


# Missing clauses whose value depends on the side: the review says what is missing and never drafts it.
SIDE_DEPENDENT_CLAUSES: dict[Category, str] = {
    Category.LIMITATION_OF_LIABILITY: "neither party's liability is capped. A cap protects the party more likely "
                                      "to be liable; decide whether your client wants one, and at what level.",
}


_INDEMNIFIES = re.compile(r"\b(?:(?:shall|will|agrees?\s+to|hereby)\s+(?:defend,?\s+(?:and\s+)?)?(?:fully\s+)?"
                          r"indemnify|indemnifies)\b", re.IGNORECASE)


class SideError(ValueError):
    """``acting_for`` names none of the contract's parties; ``parties`` lists the ones it has."""

    def __init__(self, acting_for: str, parties: tuple[Party, ...]) -> None:
        names = ", ".join(p.name for p in parties) or "none found"
        super().__init__(f"{acting_for!r} is not a party of this contract (its parties: {names})")
        self.acting_for = acting_for
        self.parties = parties


@dataclass(slots=True)
class Gate:
    """Judges findings for one review of one document; see the module docstring."""

    doc: Document
    cast: Cast
    words: ContractWords
    body: str  # the operative text, read once: every missing-clause claim is checked against it
    withheld: Counter[str] = field(default_factory=Counter)
    downgraded: Counter[str] = field(default_factory=Counter)
    repaired: Counter[str] = field(default_factory=Counter)
    # the model's share of ``withheld`` and ``downgraded`` (the run says what became of the model's findings)
    by_model: dict[str, Counter[str]] = field(default_factory=lambda: {"withheld": Counter(), "as_comment": Counter()})
    judging_model: bool = False  # whether the finding being judged is a model's
    # per rule key: the parties doing what each reciprocal red flag says, anywhere in the contract (for a model)
    reciprocal: dict[str, dict[int, frozenset[str]]] = field(default_factory=dict)

    @classmethod
    def for_document(cls, doc: Document, acting_for: str = "") -> Gate:
        """The gate for ``doc`` acting for the party ``acting_for`` names ("" : no side). Raises :class:`SideError`."""
        parties, client = review_cast(doc.clauses, acting_for)
        if acting_for.strip() and client is None:
            raise SideError(acting_for, parties)
        return cls(doc, Cast(parties, client), ContractWords.of(c.text for c in doc.clauses), operative_text(doc))

    def judge(self, rule: Rule, i: int, f: dict[str, Any], *, missing: bool = False) -> dict[str, Any] | None:
        """The finding as it may be proposed (perhaps as a comment instead of an edit), or None when withheld."""
        # Comments too are written in the contract's spelling ("labor disputes" in a US contract).
        f = f | {"comment": respell(f["comment"], self.words.us_spelling)}
        self.judging_model = f.get("source") == MODEL
        if missing:
            return self._missing(rule, f)
        if f.get("source") == MODEL:
            return self._model(rule, i, f)
        text = self.doc.clauses[i].text
        check = _check(offline_rule(rule), f.get("check", ""))
        if isinstance(check, Threshold) and is_prose_check(check):
            # read from the rule's prose: its clause is checked, but prose does not say whose side it protects
            if not self._of_kind(rule, i, f["start"]):
                return self._withhold("other_clause")
            return f | {"kind": "comment", "new_text": ""}
        if check is not None and not self._of_kind(rule, i, f["start"]):
            return self._withhold("other_clause")
        if isinstance(check, RedFlag) and check.unless_anywhere and compile_pattern(check.unless_anywhere).search(
                self.doc.lowered_all):
            return self._withhold("answered_elsewhere")
        if check is not None:
            f = self._side(rule, check, text, f)
            if f is None:
                return None
        if f["kind"] == "replace" and isinstance(check, Threshold):
            reason = number_problem(check, text[f["start"] : f["end"]], f["new_text"])
            if reason:
                return self._withhold(reason)
        if f["kind"] in ("replace", "rewrite", "insert"):
            f = self._words(f, text)
        return f

    def stats(self) -> dict[str, Any]:
        """What the gate did, for the run's stats."""
        return {"acting_for": self.cast.client.to_dict() if self.cast.client else None,
                "parties": [p.to_dict() for p in self.cast.parties],
                "withheld": dict(sorted(self.withheld.items())), "as_comment": dict(sorted(self.downgraded.items())),
                "repaired": dict(sorted(self.repaired.items())),
                "model": {k: dict(sorted(v.items())) for k, v in self.by_model.items()}}

    # ------------------------------------------------------------ the four questions

    def _of_kind(self, rule: Rule, i: int, at: int) -> bool:
        cat = rule.category
        if cat is Category.GENERAL or cat in self.doc.categories[i] or cat in self.doc.section_categories[i]:
            return True
        if _keyword_in_sentence(rule, self.doc.clauses[i].text, at):  # "the Supplier's liability shall be unlimited"
            return True
        return any(s <= at < e and p >= SENTENCE_KIND
                   for s, e, p in self.doc.found.sentence_probabilities(cat.value, i))

    def _side(self, rule: Rule, check: RedFlag | Threshold, text: str, f: dict[str, Any]) -> dict[str, Any] | None:
        orientation = check.favours if isinstance(check, RedFlag) else check.protects
        if orientation is None:
            if isinstance(check, Threshold) and self.cast.client is not None:
                # A number whose direction the playbook does not tie to a side (a renewal term) is a commercial
                # choice: pushing it towards the playbook may well hurt the client.
                return self._withhold("commercial_choice")
            if isinstance(check, Threshold) and f["kind"] != "comment":
                return self._as_comment(f, "commercial_choice", "")
            return f
        if isinstance(check, RedFlag) and check.reciprocal and self._mutual_elsewhere(check):
            return self._withhold("mutual_elsewhere")
        # Wording that favours the actor; for a threshold, a breach of a limit that protects the actor hurts it.
        favours_actor = orientation == "actor" if isinstance(check, RedFlag) else orientation != "actor"
        who = actor(text, f["start"], f["end"], self.cast)
        if isinstance(check, Threshold) and check.metric.startswith("cure"):
            # The party that must cure is the one the terminating party may terminate against.
            terminating = terminating_party(text, f["start"], self.cast)
            other = self.cast.other_of(terminating) if terminating else None
            who = other.name if other is not None else who
        found = stance(who, self.cast, favours_actor=favours_actor)
        if found is Stance.FOR:
            return self._withhold("favours_client")
        if found is Stance.MUTUAL and isinstance(check, RedFlag):
            return self._withhold("mutual")
        if found is Stance.UNKNOWN and self.cast.client is not None:
            return self._withhold("no_actor")  # a side was chosen but this finding's party cannot be told
        if found is Stance.UNKNOWN and f["kind"] != "comment":
            ask = ("Which party do you act for? This cuts one way or the other; choose a side and Redline proposes "
                   "an edit only where it helps your client.")
            return self._as_comment(f, "no_side", ask)
        return f

    def _mutual_elsewhere(self, flag: RedFlag) -> bool:
        """Whether the contract says the same thing of both parties somewhere ("in no event shall either party
        be liable"): then the one-sided copy is no finding."""
        mutual = r"(?:either|each|neither)\s+party|both\s+parties|the\s+parties"
        if flag_regex(flag, mutual).search(self.doc.lowered_all):
            return True
        # An exclusion of liability is also mutual when written "neither party shall be liable".
        return "liable" in flag.pattern and bool(_NEITHER_LIABLE.search(self.doc.lowered_all))

    def _words(self, f: dict[str, Any], text: str, *, named: bool = False) -> dict[str, Any]:
        quote = text[f["start"] : f["end"]]
        adapted = adapt(f["new_text"], self.words, before=quote)
        if not adapted.problems and f["kind"] == "replace":
            edited = text[: f["start"]] + adapted.text + text[f["end"] :]
            if words_digits_mismatch(edited) and not words_digits_mismatch(text):
                return self._as_comment(f, "words_digits", "")
        if adapted.problems:
            if named:  # a model's reasons as the run prints them ("foreign terms 1")
                return self._as_comment(f, problem_reason(adapted.problems[0]), "")
            reason = adapted.problems[0].split(":")[0]
            return self._as_comment(f, reason.replace(" ", "_")[:40], "")
        return f | {"new_text": adapted.text}

    def _model(self, rule: Rule, i: int, f: dict[str, Any]) -> dict[str, Any] | None:
        """A model's finding, asked the four questions with the check read back from it (:mod:`.model_findings`)."""
        text = self.doc.clauses[i].text
        if not any(self._of_kind(rule, i, at) for at in sentence_starts(text, f["start"], f["end"])):
            return self._withhold(OFF_TARGET)
        phrase = whole_phrase(text, f["kind"], f["start"], f["end"], f["new_text"])
        if phrase.withheld:
            return self._withhold(phrase.withheld)
        f = f | {"start": phrase.start, "end": phrase.end, "new_text": phrase.new_text}
        judged: dict[str, Any] | None = f
        # The rule's own thresholds: a number read from its prose (coverage.py) says nothing of a side.
        role = quantity_role(rule.thresholds, text, f["start"], f["end"], f["new_text"]) if f["kind"] == "replace" else None
        if role is not None and role.withheld:
            return self._withhold(role.withheld)
        if role is not None and role.threshold is not None and role.quantity is not None:
            judged = self._side_at(rule, role.threshold, text, f, role.quantity.start, role.quantity.end)
        elif (hit := flag_at(rule, text, f["start"], f["end"], self.doc.parties)) is not None:
            if hit.flag.unless_anywhere and compile_pattern(hit.flag.unless_anywhere).search(self.doc.lowered_all):
                return self._withhold("answered_elsewhere")
            if hit.flag.reciprocal and self._done_by_another(rule, hit):
                return self._withhold("mutual_elsewhere")
            judged = self._side_at(rule, hit.flag, text, f, hit.start, hit.end)
        if judged is None:
            return None
        if judged["kind"] == "insert" and self._second_clause(rule, judged["new_text"]):
            # the contract already has the clause: a second one beside it would contradict it, not complete it
            note = (f"The contract already has a {rule.title.lower()} clause; amend it rather than add a second "
                    f"one. Proposed wording: “{_clip(judged['new_text'])}”")
            return self._as_comment(judged, "second_clause", note)
        if judged["kind"] in ("replace", "rewrite", "insert"):
            judged = self._words(judged, text, named=True)
        if phrase.repaired:
            self.repaired[phrase.repaired] += 1
        return judged

    def _second_clause(self, rule: Rule, new_text: str) -> bool:
        """Whether ``new_text`` is a clause of the rule's kind the contract already has (a proviso or a sentence
        of another kind is an addition, not a second clause)."""
        cat = rule.category
        if cat is Category.GENERAL or _QUALIFIES.match(new_text) or cat not in classify_text(new_text):
            return False
        return (cat in EVIDENCE and has_evidence(cat, self.body)) or any(cat in cats for cats in self.doc.categories)

    def _side_at(self, rule: Rule, check: RedFlag | Threshold, text: str, f: dict[str, Any], start: int,
                 end: int) -> dict[str, Any] | None:
        """:meth:`_side` for a model's finding, read at the wording of its check (``text[start:end]``: the flag's
        match, the threshold's quantity), as the engine's own finding would be; the finding keeps its span."""
        judged = self._side(rule, check, text, f | {"start": start, "end": end})
        if judged is None:
            return None
        return f | {k: judged[k] for k in ("kind", "new_text", "comment")}

    def _done_by_another(self, rule: Rule, hit: FlagHit) -> bool:
        if rule.key not in self.reciprocal:
            self.reciprocal[rule.key] = reciprocal_parties(rule, (c.text for c in self.doc.clauses), self.doc.parties)
        return done_by_another(hit, self.reciprocal[rule.key].get(hit.index, frozenset()))

    def _missing(self, rule: Rule, f: dict[str, Any]) -> dict[str, Any] | None:
        body = self.body
        if rule.category in EVIDENCE and has_evidence(rule.category, body):
            return self._withhold("missing_but_present")
        fit = FIT.get(rule.category)
        if fit is not None and not fit.search(body):
            return self._withhold("does_not_fit_contract")
        if rule.category in SIDE_DEPENDENT_CLAUSES and self._only_the_other_side_indemnifies(body):
            # A cap protects the party likely to be liable: when only the other side gives indemnities, our
            # client gains from liability left unlimited, and asking for a cap would invite one against it.
            return self._withhold("cap_would_protect_the_other_side")
        if rule.category in SIDE_DEPENDENT_CLAUSES and f["source"] == "missing":
            # Whether the client wants the clause depends on its side: say what is missing, do not draft it.
            note = SIDE_DEPENDENT_CLAUSES[rule.category]
            return self._as_comment(f | {"comment": f"The contract has no {rule.title.lower()} clause: {note}"},
                                    "side_dependent_clause", "")
        if f["kind"] == "insert":
            adapted = adapt(f["new_text"], self.words, before=rule.title)  # its caption may name the clause
            if adapted.problems:
                return self._as_comment(f, "insert_not_in_contract_words", "")
            return f | {"new_text": adapted.text}
        return f

    def _only_the_other_side_indemnifies(self, body: str) -> bool:
        if self.cast.client is None:
            return False
        givers = {g for m in _INDEMNIFIES.finditer(body)
                  if (g := actor(body, m.start(), m.end(), self.cast)) is not None}
        client = self.cast.client
        ours = any(g != MUTUAL and self.cast.party_named(g) is client for g in givers)
        theirs = any(g != MUTUAL and (p := self.cast.party_named(g)) is not None and p is not client for g in givers)
        return theirs and not ours and MUTUAL not in givers

    # ------------------------------------------------------------ outcomes

    def _withhold(self, reason: str) -> None:
        self.withheld[reason] += 1
        if self.judging_model:
            self.by_model["withheld"][reason] += 1
        return None

    def _as_comment(self, f: dict[str, Any], reason: str, note: str) -> dict[str, Any]:
        self.downgraded[reason] += 1
        if self.judging_model:
            self.by_model["as_comment"][reason] += 1
        comment = f["comment"] if not note or note in f["comment"] else f"{f['comment']} {note}".strip()
        return f | {"kind": "comment", "new_text": "", "comment": comment}


_QUALIFIES = re.compile(r"\s*(?:provided|notwithstanding|nothing\s+in|except|subject\s+to|save\s+(?:as|that|for))\b",
                       re.IGNORECASE)


def _clip(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[: limit].rsplit(" ", 1)[0] + " …"


def _keyword_in_sentence(rule: Rule, text: str, at: int) -> bool:
    """Whether one of the rule's own keywords ("liability", "renewal") is in the sentence of ``text`` at ``at``."""
    if not rule.keywords:
        return False
    start = max((m.end() for m in re.finditer(r"[.;:]\s", text[:at])), default=0)
    end = next((m.start() for m in re.finditer(r"[.;:](?:\s|$)", text[at:])), len(text) - at) + at
    sentence = text[start:end].lower()
    return any(re.search(rf"\b{re.escape(k.lower())}", sentence) for k in rule.keywords)


def _check(rule: Rule, ref: str) -> RedFlag | Threshold | None:
    """The red flag or threshold a finding's ``check`` reference ("red_flag:2") names."""
    kind, _, index = ref.partition(":")
    if not index.isdigit():
        return None
    items = rule.red_flags if kind == "red_flag" else rule.thresholds if kind == "threshold" else ()
    n = int(index)
    return items[n] if n < len(items) else None

