"""Sentence units: complete sentences, contract abbreviations, captions, long sentences."""

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from redline.clauses.units import MAX_CHARS, sentence_spans


def pieces(text):
    return [text[s.start:s.end] for s in sentence_spans(text)]


def test_abbreviations_and_references_do_not_end_a_sentence():
    text = ("This Agreement is made by ABC Inc. and XYZ Corp., a Delaware corporation, under Section 2.1 of the "
            "U.S. Code. The Distributor shall pay all fees within 30 days.")
    assert pieces(text) == [
        "This Agreement is made by ABC Inc. and XYZ Corp., a Delaware corporation, under Section 2.1 of the U.S. Code.",
        "The Distributor shall pay all fees within 30 days.",
    ]


def test_a_numbered_caption_opens_the_sentence_it_belongs_to():
    text = "12. Governing Law. This Agreement shall be governed by the laws of the State of New York."
    assert pieces(text) == [text]


def test_a_sentence_continuing_in_lower_case_is_not_cut():
    text = "The term is five (5) yrs. and renews automatically unless either party objects in writing."
    assert pieces(text) == [text]


def test_a_page_long_sentence_is_cut_at_semicolons_only():
    items = "; ".join(f"the Supplier shall maintain insurance of type {i} with a reputable insurer" for i in range(40))
    text = f"During the Term: {items}."
    spans = pieces(text)
    assert len(spans) > 1
    assert all(len(p) <= MAX_CHARS + 100 for p in spans)
    assert all(p.endswith((";", ".", "; and", "; or")) for p in spans)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["Inc.", "The", "party", "shall", "pay.", "Section", "2.1", "(a)", "U.S.", "fees;",
                                 "Notice!", "\"Term\"", "means", "1.", "x" * 50, "\n"]), max_size=80))
def test_units_cover_every_word_in_order_without_overlap(words):
    text = " ".join(words)
    spans = sentence_spans(text)
    assert all(a.end <= b.start for a, b in itertools.pairwise(spans))
    covered = "".join(text[s.start:s.end] for s in spans)
    assert "".join(text.split()) == "".join(covered.split())
    assert all(text[s.start:s.end] == text[s.start:s.end].strip() and s.end > s.start for s in spans)
