"""Where a missing clause goes, in words (issue #30, point 4): "New §10.3 Governing law, after §10.1, at the
end of §10 General". Each place below is the end of a section the placement engine picks; the words must
name that place as the contract numbers it, never quote the paragraph as if it were the problem."""

from __future__ import annotations

import pytest

from redline.analysis.document import build_document
from redline.analysis.placement.place import Placement, place_missing
from redline.analysis.placement.where import after_phrase, describe
from redline.analysis.playbook.io import default_playbook

from .conftest import MSA, make_clauses

H1 = ("Heading 1", 1)


def doc_of(rows):
    return build_document(make_clauses([(t, *(H1 if h else (None, None))) for t, h in rows]))


def rule(key):
    return next(r for r in default_playbook().rules if r.key == key)


def test_the_services_agreement_names_the_new_number_and_the_section_it_ends():
    doc = build_document(make_clauses(MSA))
    where = describe(doc, place_missing(doc, rule("governing-law")))
    assert where == "New §10.2 Governing law, after §10.1, at the end of §10 General"  # (the review staggers
    # the two clauses placed there: governing law becomes §10.3, jurisdiction §10.2)


SECTIONS = [
    ("11. INTELLECTUAL PROPERTY", True),
    ("11.1 The Manufacturer owns the Marks.", False),
    ("12. CONFIDENTIALITY", True),
    ("12.1 Each party shall keep the other's information confidential, except information which:", False),
    ("(i) is public; or", False),
    ("(ii) was rightfully received from a third party.", False),
]


@pytest.mark.parametrize(("starts", "expected"), [
    ("(ii) was rightfully", "§12 CONFIDENTIALITY"),  # an unnumbered item ending 12.1 and §12: the section
    ("11.1 The Manufacturer", "§11.1, at the end of §11 INTELLECTUAL PROPERTY"),
])
def test_the_place_is_named_by_its_number_and_section(starts, expected):
    doc = doc_of(SECTIONS)
    i = next(n for n, c in enumerate(doc.clauses) if c.text.startswith(starts))
    assert after_phrase(doc, i) == expected


def test_a_one_paragraph_section_is_named_by_its_run_in_title_and_a_keyword_number_keeps_its_keyword():
    doc = doc_of([("27. Term. This Agreement runs for two years.", False),
                  ("28. Liability. In no event shall either party be liable for lost profits.", False)])
    assert after_phrase(doc, 1) == "§28 Liability"
    doc = doc_of([("Section 14. Notices. Notices are given in writing.", False),
                  ("Section 15. Definition of the term \"Business Day\". It means a weekday.", False)])
    assert after_phrase(doc, 1) == "Section 15"
    assert describe(doc, Placement(after=1, title="Governing law", number=doc.memo["outline"].numbers[1]
                                   .inserted_after())) == "New Section 15A Governing law, after Section 15"


def test_an_unnumbered_contract_is_named_by_the_paragraph_s_opening_words():
    doc = doc_of([("The Supplier shall deliver the goods on the dates agreed in writing by the parties.", False),
                  ("The Customer shall pay on delivery.", False)])
    where = describe(doc, Placement(after=1, title="Governing law"))
    assert where == "New clause “Governing law”, after “The Customer shall pay on delivery.”"


def test_trailing_marks_and_run_on_sub_clauses_are_not_part_of_a_title():
    doc = doc_of([("8. MISCELLANEOUS 8.1 Counterparts; Entire Agreement; Corporate Power.", True),
                  ("This Agreement may be executed in counterparts.", False),
                  ("5. USER DATA.", True), ("Each party owns its data.", False)])
    assert after_phrase(doc, 1) == "§8 MISCELLANEOUS"
    assert after_phrase(doc, 3) == "§5 USER DATA"
