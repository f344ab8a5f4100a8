"""Token-level diff: words, numbers, whitespace and punctuation; never characters."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from redline.ooxml.diff import Hunk, apply_hunks, diff_text, tokenize


def test_tokens_are_words_numbers_spaces_and_single_punctuation():
    assert tokenize("The Supplier's fee is USD 1,000,000 (net).") == [
        "The", " ", "Supplier's", " ", "fee", " ", "is", " ", "USD", " ", "1,000,000", " ", "(", "net", ")", ".",
    ]
    assert tokenize("a  \tb") == ["a", "  \t", "b"]


def test_changed_words_are_small_hunks_not_a_paragraph_replacement():
    old = "The Supplier shall pay each invoice within thirty (30) days of receipt of a valid invoice."
    new = "The Supplier shall pay each invoice within sixty (60) days of receipt of a correct invoice."
    hunks = diff_text(old, new)
    assert hunks == [
        Hunk(old.index("thirty"), old.index("thirty") + len("thirty (30)"), "sixty (60)"),
        Hunk(old.index("valid"), old.index("valid") + 5, "correct"),
    ]


def test_a_number_in_words_and_figures_is_struck_and_replaced_whole():
    # Issue #26: "~~one~~twelve (~~1~~12) ~~year~~months" and "~~ninety~~thirty (~~90~~30)" read like a machine's.
    assert diff_text("one (1) year", "twelve (12) months") == [Hunk(0, 12, "twelve (12) months")]
    assert diff_text("ninety (90) days", "thirty (30) days") == [Hunk(0, 11, "thirty (30)")]
    assert diff_text("fifty percent (50%) of the fees", "one hundred percent (100%) of the fees") == [
        Hunk(0, 19, "one hundred percent (100%)")]
    assert diff_text("Twenty-Five (25) days", "Thirty (30) days") == [Hunk(0, 16, "Thirty (30)")]


def test_whole_words_are_replaced_never_letters():
    assert diff_text("The Buyer agrees.", "The Buyers agree.") == [Hunk(4, 16, "Buyers agree")]
    assert diff_text("USD 1,000,000 cap", "USD 2,000,000 cap") == [Hunk(4, 13, "2,000,000")]


def test_a_lone_space_between_two_changes_is_folded_into_one_change():
    assert diff_text("the Supplier shall pay", "the Customer must pay") == [Hunk(4, 18, "Customer must")]


def test_longer_kept_text_between_changes_stays_kept():
    hunks = diff_text("alpha beta gamma delta epsilon", "ALPHA beta gamma delta EPSILON")
    assert [(h.start, h.end) for h in hunks] == [(0, 5), (23, 30)]


def test_pure_insertion_and_deletion_and_identity():
    assert diff_text("pay within 30 days", "pay within 30 calendar days") == [Hunk(14, 14, "calendar ")]
    assert diff_text("pay promptly within 30 days", "pay within 30 days") == [Hunk(4, 13, "")]
    assert diff_text("same", "same") == []
    assert diff_text("", "new text") == [Hunk(0, 0, "new text")]


_WORDS = st.sampled_from(["the", "Supplier", "shall", "pay", "30", "1,000", "days", "(", ")", ",", ".", "Section",
                          "4.2", "’s", "not", "fee"])
_SPACE = st.sampled_from([" ", "  ", "\t", ""])
_TEXT = st.lists(st.tuples(_WORDS, _SPACE), max_size=25).map(lambda xs: "".join(w + s for w, s in xs))


@settings(max_examples=300, deadline=None)
@given(_TEXT, _TEXT)
def test_hunks_always_rebuild_the_new_text_and_cut_only_at_token_edges(old, new):
    hunks = diff_text(old, new)
    assert apply_hunks(old, hunks) == new
    edges = {0}
    for token in tokenize(old):
        edges.add(max(edges) + len(token))
    for h in hunks:
        assert h.start in edges and h.end in edges
    assert all(a.end < b.start for a, b in itertools.pairwise(hunks))


def test_a_deletion_is_not_shifted_into_a_longer_run_of_spaces():
    old, new = "Supplier the  the ", "Supplier  the "  # found by hypothesis: the shift cut a two-space token
    hunks = diff_text(old, new)
    assert apply_hunks(old, hunks) == new
    assert hunks == [Hunk(8, 12, "")]  # " the", left where it is
