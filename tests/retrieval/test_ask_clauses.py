"""Questions about a kind of clause are answered by the clause engine: whole sentences, or "not found"."""

from dataclasses import dataclass

from redline.clauses.questions import PLAIN_QUESTIONS, question_category
from redline.retrieval.ask import ask
from redline.retrieval.graph import ContractGraph
from redline.retrieval.search import SearchIndex


@dataclass
class Para:
    anchor: str
    text: str
    index: int = 0
    is_empty: bool = False
    heading_level: int | None = None
    style_name: str | None = None
    list_label: str | None = None
    table: object | None = None


TEXTS = [
    "SUPPLY AGREEMENT",
    'This Supply Agreement (the "Agreement") is made on 1 May 2023 between Acme Inc., a Delaware corporation '
    '("Supplier"), and Beta LLC, a Texas limited liability company ("Buyer").',
    "1. Supply. Supplier shall supply the Products ordered by Buyer. Buyer shall pay within thirty days.",
    "2. Governing Law. This Agreement shall be governed by the laws of the State of New York.",
    "3. Counterparts. This Agreement may be signed in counterparts.",
]


def index():
    return SearchIndex(ContractGraph.from_paragraphs([Para(f"_RL_{i:012x}", t, i) for i, t in enumerate(TEXTS)]))


def test_every_plain_question_is_routed_to_its_category_and_others_are_not():
    assert {c: question_category(q) for c, q in PLAIN_QUESTIONS.items()} == {c: c for c in PLAIN_QUESTIONS}
    for question in ("What are the payment terms?", "Who pays for shipping?", "What is the notice address?"):
        assert question_category(question) is None


def test_a_clause_question_cites_whole_sentences_from_the_engine():
    answer = ask(index(), "Which law governs the contract?")
    assert answer.clause["category"] == "Governing Law" and answer.clause["present"]
    first = answer.citations[0]
    assert first.quote == "2. Governing Law. This Agreement shall be governed by the laws of the State of New York."
    assert first.anchor == "_RL_000000000003"
    names = ask(index(), "Who are the parties to this contract?").citations
    assert names[0].anchor == "_RL_000000000001" and names[0].quote.startswith("This Supply Agreement")


def test_an_absent_clause_is_not_found_rather_than_the_nearest_words():
    answer = ask(index(), "Is source code held in escrow?")
    assert answer.citations == []
    assert answer.clause == {"category": "Source Code Escrow", "present": False,
                             "probability": answer.clause["probability"]}
    assert answer.text.startswith("Not found: the contract has no source code escrow clause")
