"""Ask the contract: extractive answers whose quotes are verified verbatim."""

from __future__ import annotations

from redline.retrieval.ask import NO_ANSWER, ask, verify_quote
from redline.retrieval.search import SearchIndex


def test_answer_quotes_are_verbatim_and_anchored(graph):
    answer = ask(SearchIndex(graph, unit_chars=200), "When may a party terminate for Cause?")
    assert answer.citations
    for c in answer.citations:
        assert verify_quote(graph, c.anchor, c.quote)
        assert graph.text[c.start:c.end] == c.quote
        assert f'"{c.quote}"' in answer.text
    quotes = " ".join(c.quote for c in answer.citations)
    assert "Either Party may terminate this Agreement for Cause" in quotes


def test_sentence_with_section_numbers_is_not_cut(graph):
    answer = ask(SearchIndex(graph, unit_chars=200), "How are prices set?")
    quote = "Prices are set out in Schedule A, subject to Sections 2.1 and 2.2 and Article III."
    assert quote in [c.quote for c in answer.citations]


def test_verify_quote_rejects_what_is_not_there(graph):
    anchor = graph.blocks[0].anchor
    assert verify_quote(graph, anchor, graph.blocks[0].text[:10])
    assert not verify_quote(graph, anchor, "MASTER  SUPPLY")
    assert not verify_quote(graph, "_RL_missing", "MASTER")
    assert not verify_quote(graph, anchor, "")


def test_no_answer_without_matching_text(graph):
    answer = ask(SearchIndex(graph), "zebra xylophone quantum")
    assert answer.text == NO_ANSWER and answer.citations == []
