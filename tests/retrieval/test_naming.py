"""What a question names: each mention read once, longest first; one-word titles only as names; ambiguous
numbers read by the question's other words."""

from __future__ import annotations

import pytest

from redline.retrieval.graph import ContractGraph
from redline.retrieval.naming import named_in
from redline.retrieval.references import extract

# A main agreement and a second one attached to it, each with its own "Section 2"; a term defined inside
# another ("Software User" contains "Software"); an interpretation clause that "defines" "Section".
TEXT = """\
LICENSE AGREEMENT

1. Definitions

"Software" means the programs listed in Exhibit A.

"Software User" means a person the Customer allows to use the Software.

References to a "Section" are to a section of this Agreement.

2. Obligations

The Supplier shall deliver the Software to each Software User.

3. Indemnification

The Supplier shall indemnify the Customer against claims that the Software infringes.

EXHIBIT A
SOFTWARE

The accounting suite.

EXHIBIT B
HOSTING AGREEMENT

1. Services

The Supplier hosts the Software.

2. Term and Termination

Either party may terminate the hosting for material breach on thirty days' notice.
"""


@pytest.fixture(scope="module")
def graph() -> ContractGraph:
    return ContractGraph.from_text(TEXT)


def _labels(graph, named):
    return [graph.section(s).label for s in named.sections], [graph.definition_by_id(d).term for d in named.terms]


def test_a_reference_word_is_not_a_defined_term(graph):
    sections, terms = _labels(graph, named_in(graph, "Section 3 references Section 1. How do they relate?"))
    assert terms == []
    assert sections == ["Section 3 Indemnification", "Section 1 Definitions"]


def test_a_term_inside_a_longer_named_term_is_not_named_again(graph):
    sections, terms = _labels(graph, named_in(graph, 'How is "Software User" defined in this agreement?'))
    assert terms == ["Software User"]
    assert sections == []  # nor is the exhibit titled "Software"


def test_a_one_word_title_names_its_section_only_when_written_as_a_name(graph):
    assert _labels(graph, named_in(graph, "What obligations does it create?"))[0] == []
    assert _labels(graph, named_in(graph, "What do the Obligations require?"))[0] == ["Section 2 Obligations"]


def test_an_ambiguous_number_is_read_by_the_question_s_other_words(graph):
    termination = named_in(graph, "What events can trigger termination rights under Section 2?")
    assert _labels(graph, termination)[0] == ["Section 2 Term and Termination"]
    # without a word that tells them apart, the main agreement's reading stands
    assert _labels(graph, named_in(graph, "What does Section 2 say?"))[0] == ["Section 2 Obligations"]
    readings = graph.readings(extract("Section 2")[0])
    assert [graph.section(s).label for s in readings] == ["Section 2 Obligations", "Section 2 Term and Termination"]
