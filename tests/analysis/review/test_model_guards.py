"""Issue #29 point 4: a model's findings pass the same guards as the offline engine's (review/gate.py with
review/model_findings.py, numbers.py, phrases.py): another clause kind, a number that already met the rule,
the side a red flag or a threshold gives, half a quantity or half a word quoted, the playbook's words and
placeholders. Each bad finding is repaired when certain, otherwise withheld or made a comment, and counted
under a reason the run can print ("dropped: off target 1, already meets 1")."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from redline.analysis.cache import MemoryCache
from redline.analysis.clauses import Clause
from redline.analysis.document import build_document
from redline.analysis.pipeline import review
from redline.analysis.playbook.io import default_playbook
from redline.analysis.playbook.model import Playbook
from redline.analysis.providers.base import ProviderResponse, RawFinding, RuleRequest, Usage
from redline.analysis.providers.offline import OfflineProvider
from redline.analysis.review.gate import Gate
from redline.analysis.review.phrases import whole_phrase

PLAYBOOK = default_playbook()
LICENCE = ('This Software License Agreement is entered into by and between Acme Software, Inc., a Delaware '
           'corporation ("Licensor"), and Beta Corp., a California corporation ("Licensee").')
MSA = ('This Agreement is made between Acme Holdings Limited, a company incorporated in England and Wales (the '
       '"Customer"), and Widget Services Inc., a Delaware corporation (the "Supplier").')


def gate_for(paragraphs: list[str], acting_for: str = "") -> Gate:
    return Gate.for_document(build_document([Clause(f"_RL_{i:04d}", t) for i, t in enumerate(paragraphs)]), acting_for)


def model(text: str, quote: str, new_text: str = "", kind: str = "replace", comment: str = "Not market.",
          nth: int = 0) -> dict[str, Any]:
    """A grounded model finding on ``quote`` (its ``nth`` occurrence) in ``text``, as provider_calls makes it."""
    start = -1
    for _ in range(nth + 1):
        start = text.index(quote, start + 1)
    return {"kind": kind, "start": start, "end": start + len(quote), "new_text": new_text, "comment": comment,
            "severity": None, "confidence": 0.8, "source": "model", "check": ""}


def judge(paragraphs: list[str], rule: str, f: dict[str, Any], acting_for: str = "", at: int = 1):
    gate = gate_for(paragraphs, acting_for)
    return gate.judge(PLAYBOOK.rule(rule), at, f), gate.stats()


# ------------------------------------------------------------ 1. off target


TERMINATION = "Either party may terminate this Agreement without cause upon ninety (90) days written notice."


def test_a_renewal_edit_on_a_termination_for_convenience_notice_is_off_target():
    # Issue #26's complaint, made by a model: the auto-renewal rule shortening a termination notice.
    f = model(TERMINATION, "ninety (90) days", "thirty (30) days")
    judged, stats = judge([LICENCE, TERMINATION], "auto-renewal", f, "Licensee")
    assert judged is None and stats["withheld"] == {"off_target": 1}


def test_the_engines_own_finding_keeps_its_reason_and_a_general_rule_is_never_off_target():
    f = model(TERMINATION, "ninety (90) days", "thirty (30) days") | {"source": "threshold", "check": "threshold:0"}
    judged, stats = judge([LICENCE, TERMINATION], "auto-renewal", f, "Licensee")
    assert judged is None and stats["withheld"] == {"other_clause": 1}  # the offline path, as before
    discretion = "The Licensor may at its sole discretion approve any sublicense of the Software."
    f = model(discretion, "at its sole discretion", "acting reasonably")
    judged, stats = judge([LICENCE, discretion], "unilateral-discretion", f, "Licensee")
    assert judged is not None and judged["kind"] == "replace" and "off_target" not in stats["withheld"]


def test_a_whole_paragraph_rewrite_is_on_target_when_any_sentence_is_the_rules_clause():
    text = ("Licensee shall provide the reports described in Exhibit B. Licensee shall pay each invoice within "
            "ninety (90) days of receipt.")
    f = model(text, text, text.replace("ninety (90)", "sixty (60)"), kind="rewrite")
    judged, stats = judge([LICENCE, text], "payment-terms", f, "Licensor")
    assert judged is not None and stats["withheld"] == {}


# ------------------------------------------------------------ 2. quantities by role


PAYMENT = "The Customer shall pay each undisputed invoice within forty-five (45) days of receipt."


def test_a_payment_period_that_already_meets_the_playbook_is_not_changed():
    # Forty-five days is inside the playbook's 30-60 day range: the model's "thirty (30) days" is no finding.
    f = model(PAYMENT, "forty-five (45) days", "thirty (30) days")
    judged, stats = judge([MSA, PAYMENT], "payment-terms", f, "Supplier")
    assert judged is None and stats["withheld"] == {"already_meets": 1}


def test_a_number_moved_the_wrong_way_or_not_at_all_is_withheld():
    late = "The Customer shall pay each undisputed invoice within ninety (90) days of receipt."
    judged, stats = judge([MSA, late], "payment-terms", model(late, "ninety (90) days", "one hundred twenty (120) days"),
                          "Supplier")
    assert judged is None and stats["withheld"] == {"wrong_direction": 1}
    solicit = "Licensee shall not solicit any employee of Licensor during the term and for one (1) year thereafter."
    judged, stats = judge([LICENCE, solicit], "non-solicitation", model(solicit, "one (1) year", "twelve (12) months"),
                          "Licensee")
    assert judged is None and stats["withheld"] == {"no_op": 1}


def test_a_number_that_breaks_the_playbook_is_edited_only_for_the_side_it_hurts():
    solicit = ("Licensee shall not solicit or hire any employee of Licensor during the term and for twenty-four (24) "
               "months thereafter.")
    f = model(solicit, "twenty-four (24) months", "twelve (12) months")
    judged, _ = judge([LICENCE, solicit], "non-solicitation", f, "Licensee")  # the long restriction binds Licensee
    assert (judged["kind"], judged["new_text"]) == ("replace", "twelve (12) months")
    judged, stats = judge([LICENCE, solicit], "non-solicitation", f, "Licensor")
    assert judged is None and stats["withheld"] == {"favours_client": 1}
    judged, stats = judge([LICENCE, solicit], "non-solicitation", f)
    assert judged["kind"] == "comment" and "Which party do you act for?" in judged["comment"]
    assert stats["as_comment"] == {"no_side": 1}


def test_an_edit_of_the_words_around_an_unchanged_number_is_not_a_number_edit():
    f = model(PAYMENT, "within forty-five (45) days of receipt", "within forty-five (45) days of receipt of a valid "
                                                                   "invoice")
    judged, stats = judge([MSA, PAYMENT], "payment-terms", f, "Supplier")
    assert judged is not None and judged["kind"] == "replace" and stats["withheld"] == {}


# ------------------------------------------------------------ 3. the side a red flag gives


DISCRETION = "Licensor may, in its sole discretion, modify the Products at any time."


@pytest.mark.parametrize(("side", "outcome", "counted"), [
    ("Licensor", None, {"withheld": {"favours_client": 1}}),  # our client's own discretion is left alone
    ("Licensee", "replace", {}),  # the other side's is edited
    ("", "comment", {"as_comment": {"no_side": 1}}),  # no side: a question, never an edit
])
def test_a_one_sided_discretion_is_judged_by_the_side_we_act_for(side, outcome, counted):
    f = model(DISCRETION, "in its sole discretion", "acting reasonably and in good faith")
    judged, stats = judge([LICENCE, DISCRETION], "unilateral-discretion", f, side)
    assert (judged["kind"] if judged else None) == outcome
    assert {k: stats[k] for k in counted} == counted


def test_a_one_sided_indemnity_given_by_both_parties_is_no_finding():
    supplier = ("The Supplier shall indemnify the Customer against all losses arising from any claim that the "
                "Services infringe the intellectual property rights of a third party.")
    customer = ("The Customer shall indemnify the Supplier against all losses arising from its breach of the "
                "Acceptable Use Policy.")
    f = model(supplier, "The Supplier shall indemnify", comment="A one-sided indemnity from the Supplier.",
              kind="comment")
    judged, stats = judge([MSA, supplier, customer], "indemnity", f, "Supplier")
    assert judged is None and stats["withheld"] == {"mutual_elsewhere": 1}


def test_a_confidentiality_obligation_with_survival_elsewhere_is_answered_elsewhere():
    keep = "The Receiving Party shall hold the Discloser's Confidential Information in strict confidence."
    survive = "The obligations in this Section 7 shall survive termination of this Agreement for five (5) years."
    f = model(keep, "shall hold the Discloser's Confidential Information in strict confidence", kind="comment",
              comment="No survival period.")
    judged, stats = judge([LICENCE, keep, survive], "confidentiality", f, "Licensee")
    assert judged is None and stats["withheld"] == {"answered_elsewhere": 1}


# ------------------------------------------------------------ 4. whole phrases


SOLICIT = ("Licensee shall not solicit or hire any employee of Licensor during the term and for twenty-four (24) "
           "months thereafter.")


@pytest.mark.parametrize(("quote", "new_text", "fixed"), [
    ("twenty-four", "twelve", "twelve (12) months"),  # the words alone would leave "twelve (24) months"
    ("(24)", "(12)", "twelve (12) months"),  # the figures alone would leave "twenty-four (12) months"
    ("twenty-four (24)", "twelve (12) months", "twelve (12) months"),  # no "months months"
    ("for twenty-four", "for twelve", "for twelve (12) months"),
    ("(24) months thereafter", "(12) months thereafter", "twelve (12) months thereafter"),
])
def test_a_quote_that_cuts_a_quantity_is_widened_and_written_as_the_contract_writes_it(quote, new_text, fixed):
    f = model(SOLICIT, quote, new_text)
    judged, stats = judge([LICENCE, SOLICIT], "non-solicitation", f, "Licensee")
    assert SOLICIT[judged["start"] : judged["end"]] == fixed.replace("twelve (12)", "twenty-four (24)")
    assert judged["new_text"] == fixed and stats["repaired"] == {"partial_phrase": 1}


def test_a_quote_widened_by_grounding_keeps_the_half_the_model_changed():
    # "(90)" occurs twice, so grounding quoted "within ninety (90) days" and the model's "(60)" became
    # "within ninety (60) days": the figures are the edit.
    text = ("Licensee shall pay each invoice within ninety (90) days of receipt; disputed amounts shall be paid "
            "after ninety (90) days.")
    f = model(text, "within ninety (90) days", "within ninety (60) days")
    judged, stats = judge([LICENCE, text], "payment-terms", f, "Licensor")
    assert judged["new_text"] == "within sixty (60) days" and stats["repaired"] == {"partial_phrase": 1}


def test_a_cut_quantity_that_cannot_be_made_whole_with_certainty_is_withheld():
    cover = ("Licensee shall maintain commercial general liability insurance of not less than $1,000,000 per "
             "occurrence.")
    judged, stats = judge([LICENCE, cover], "insurance", model(cover, "1,000", "2,000"), "Licensor")
    assert judged is None and stats["withheld"] == {"partial_phrase": 1}  # "1,000" is not the number quoted
    judged, stats = judge([LICENCE, SOLICIT], "non-solicitation", model(SOLICIT, "twenty-four", "a reasonable"),
                          "Licensee")
    assert judged is None and stats["withheld"] == {"partial_phrase": 1}


def test_a_quote_that_cuts_a_word_is_widened_when_the_new_text_says_how():
    f = model(DISCRETION, "sole discretio", "reasonable discretion")
    judged, stats = judge([LICENCE, DISCRETION], "unilateral-discretion", f, "Licensee")
    assert DISCRETION[judged["start"] : judged["end"]] == "sole discretion"
    assert judged["new_text"] == "reasonable discretion" and stats["repaired"] == {"partial_word": 1}
    f = model(DISCRETION, "in its sole discretio", "in its reasonable discretio")  # the model kept the cut
    judged, _ = judge([LICENCE, DISCRETION], "unilateral-discretion", f, "Licensee")
    assert judged["new_text"] == "in its reasonable discretion"
    judged, stats = judge([LICENCE, DISCRETION], "unilateral-discretion", model(DISCRETION, "discretio", "judgment"),
                          "Licensee")
    assert judged is None and stats["withheld"] == {"partial_word": 1}


def test_whole_phrases_leave_a_whole_quote_alone():
    start = SOLICIT.index("twenty-four")
    phrase = whole_phrase(SOLICIT, "replace", start, SOLICIT.index(" thereafter"), "twelve (12) months")
    assert (phrase.start, phrase.new_text, phrase.repaired, phrase.withheld) == (start, "twelve (12) months", "", "")


# ------------------------------------------------------------ 5. the contract's words


LAW = "This Agreement shall be governed by the laws of the State of New York."


@pytest.mark.parametrize(("new_text", "reason"), [
    ("the laws of [insert jurisdiction]", "placeholder"),
    ("the laws of [●]", "placeholder"),
    ("the laws chosen by [Party A]", "placeholder"),
    ("the laws of England and Wales, without regard to the Supplier's conflict of laws rules", "foreign_terms"),
])
def test_placeholders_and_the_playbooks_words_make_a_comment_counted_by_name(new_text, reason):
    f = model(LAW, "the laws of the State of New York", new_text)
    judged, stats = judge([LICENCE, LAW], "governing-law", f, "Licensee")
    assert (judged["kind"], judged["new_text"]) == ("comment", "")
    assert stats["as_comment"] == {reason: 1}


# ------------------------------------------------------------ 6. the run's stats


class ScriptedModel:
    """A model answering each rule's request with fixed findings, on the paragraph that holds each quote."""

    name = "scripted"
    model = "script"
    max_concurrency = 1
    max_batch_chars = None
    identity = "scripted-model/1"

    def __init__(self, findings: list[tuple[str, str, str]]) -> None:
        self.findings = findings  # (rule key, quote, new text): replacements

    def analyze(self, request: RuleRequest) -> ProviderResponse:
        out = [RawFinding(item.number, "replace", quote, new, "Not market.")
               for item in request.items for key, quote, new in self.findings
               if key == request.rule.key and quote in item.text]
        return ProviderResponse(tuple(out), Usage(calls=1))


def test_the_run_counts_what_the_gate_dropped_repaired_and_made_a_comment():
    pay = "Licensee shall pay each invoice within ninety (90) days of receipt."
    notice = "Licensee may terminate this Agreement for convenience upon ninety (90) days prior written notice."
    paragraphs = [LICENCE, "1. TERMINATION", TERMINATION, notice, "2. FEES", pay, "3. GOVERNING LAW", LAW]
    clauses = [Clause(f"_RL_{i:04d}", t, "Heading 1" if t[0].isdigit() else None, 1 if t[0].isdigit() else None)
               for i, t in enumerate(paragraphs)]
    keys = ("auto-renewal", "termination-for-convenience", "payment-terms", "governing-law")
    playbook = replace(PLAYBOOK, rules=tuple(PLAYBOOK.rule(k) for k in keys))
    provider = ScriptedModel([
        ("auto-renewal", "without cause upon ninety (90) days", "without cause upon thirty (30) days"),  # off target
        ("termination-for-convenience", "upon ninety (90) days prior", "upon sixty (60) days prior"),  # meets >= 30
        ("payment-terms", "(90) days of receipt", "(60) days of receipt"),  # half a quantity: repaired
        ("governing-law", "the State of New York", "[insert jurisdiction]"),  # a placeholder: a comment
    ])
    result = review(clauses, playbook, provider, cache=MemoryCache(), acting_for="Licensor")
    gate = result.stats.gate
    assert (gate["withheld"], gate["as_comment"], gate["repaired"]) == (
        {"already_meets": 1, "off_target": 1}, {"placeholder": 1}, {"partial_phrase": 1})
    assert sorted((s.rule_key, s.kind.value, s.quote, s.new_text) for s in result.suggestions) == [
        ("governing-law", "comment", "the State of New York", ""),
        ("payment-terms", "replace", "ninety (90) days of receipt", "sixty (60) days of receipt")]


def test_the_offline_engines_findings_take_the_offline_path():
    # The engine's findings name their check and are judged exactly as before: none is repaired or renamed.
    result = review([Clause("_RL_0000", LICENCE), Clause("_RL_0001", DISCRETION), Clause("_RL_0002", SOLICIT)],
                    Playbook("p", (PLAYBOOK.rule("unilateral-discretion"), PLAYBOOK.rule("non-solicitation"))),
                    OfflineProvider(), cache=MemoryCache(), acting_for="Licensee")
    assert result.stats.gate["repaired"] == {}
    assert [(s.kind.value, s.quote, s.new_text) for s in result.suggestions if s.rule_key == "unilateral-discretion"] == [
        ("replace", "in its sole discretion", "acting reasonably and in good faith")]
