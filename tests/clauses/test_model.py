"""The committed model: its metadata, its size, and what it says about a plain contract."""

import json
from dataclasses import dataclass

from redline.clauses import CONFIDENT_ABSENCE, PLAYBOOK_TO_CUAD, ClauseModel, analyse, default_model
from redline.clauses.model import MODEL_DIR


@dataclass
class Para:
    text: str
    heading_level: int | None = None
    anchor: str = ""


CONTRACT = [
    Para("DISTRIBUTION AGREEMENT", 0),
    Para('This Distribution Agreement (the "Agreement") is made as of March 3, 2021 by and between Acme Inc., a '
         'Delaware corporation ("Acme"), and Beta Ltd., an English company ("Distributor").'),
    Para("1. Appointment. Acme appoints Distributor as its exclusive distributor of the Products in the Territory."),
    Para("2. Term. This Agreement begins on the Effective Date and continues for three (3) years, and renews "
         "automatically for successive one-year periods unless either party gives ninety (90) days' notice."),
    Para("3. Governing Law. This Agreement shall be governed by the laws of the State of New York."),
    Para("4. Assignment. Neither party may assign this Agreement without the prior written consent of the other."),
    Para("IN WITNESS WHEREOF, the parties have executed this Agreement."),
]
for _i, _p in enumerate(CONTRACT):
    _p.anchor = f"a{_i}"


def test_metadata_names_its_data_split_and_licence():
    meta = json.loads((MODEL_DIR / "model.json").read_text())
    assert meta["data"]["name"] == "CUAD v1" and meta["data"]["split"] == "train"
    assert "CC BY 4.0" in meta["attribution"] and "Atticus" in meta["attribution"]
    assert len(meta["categories"]) == 41
    assert "dev" in meta["metrics"] and meta["metrics"]["dev"]["macro"]["F1"] > 0
    size = sum(p.stat().st_size for p in MODEL_DIR.iterdir())
    assert size <= 20 * 1024 * 1024


def test_a_plain_contract_is_read_right():
    report = analyse(CONTRACT)
    law = report.cuad["Governing Law"]
    assert law.present and law.passages[0].paragraph == 4
    assert law.passages[0].text == CONTRACT[4].text
    assert report.cuad["Parties"].present and report.cuad["Parties"].passages[0].paragraph == 1
    assert report.cuad["Document Name"].passages[0].paragraph == 0
    assert report.cuad["Anti-Assignment"].passages[0].paragraph == 5
    assert report.playbook["governing_law"].present
    assert report.confidently_absent("Source Code Escrow")
    assert not report.confidently_absent("Governing Law")
    assert 5 in report.routed("assignment")
    probs = [f.probability for f in report.cuad.values()]
    assert all(0.0 <= p <= 1.0 for p in probs)
    assert set(report.playbook) == set(PLAYBOOK_TO_CUAD)


def test_passages_are_verbatim_and_anchored():
    report = analyse(CONTRACT)
    for finding in report.cuad.values():
        for p in finding.passages:
            assert CONTRACT[p.paragraph].text[p.start:p.end] == p.text
    data = report.to_dict()
    assert data["cuad"][0]["category"] == "Document Name"
    assert all(q["anchor"] == f"a{q['paragraph']}" for f in data["cuad"] for q in f["passages"])


def test_an_empty_document_has_no_clause():
    report = analyse([])
    assert not any(f.present for f in report.cuad.values())
    assert all(f.probability < CONFIDENT_ABSENCE for f in report.cuad.values())


def test_loading_is_cached_and_deterministic():
    assert default_model() is default_model()
    again = ClauseModel.load(MODEL_DIR)
    assert analyse(CONTRACT, model=again).to_dict() == analyse(CONTRACT).to_dict()


def _one_word_model(word: str, probability: float, *, category: str = "Widgets", threshold: float = 0.5,
                    bonus: float = 0.0, confirms: float = 0.0) -> ClauseModel:
    """A one-category model whose only evidence is ``word``: a sentence with it scores ``probability``;
    ``bonus`` and ``confirms`` are the category's keyword ranking bonus and confirmation frequency."""
    import math
    import zlib

    import numpy as np

    buckets = 2 ** 16
    bias = -12.0
    weights = np.zeros((buckets, 1), dtype=np.int8)
    weights[zlib.crc32(f"w:{word}".encode()) % buckets, 0] = 127
    scale = (math.log(probability / (1 - probability)) - bias) / 127
    arrays = {"weights": weights, "scales": np.asarray([scale], dtype=np.float32),
              "bias": np.asarray([bias], dtype=np.float32), "calibration": np.asarray([[1.0, 0.0]]),
              "threshold": np.asarray([threshold]), "keyword_presence": np.asarray([False]),
              "keyword_probability": np.zeros((1, 2)), "keyword_bonus": np.asarray([bonus]),
              "keyword_confirms": np.asarray([confirms])}
    return ClauseModel(arrays, {"categories": [category], "buckets": buckets}, "test")


def test_a_keyword_hit_outside_the_headings_confirms_a_clause():
    from redline.clauses.document import units_of

    model = _one_word_model("ruritania", 0.9, category="Governing Law", confirms=0.97)
    clause = ["GOVERNING LAW", "This Agreement is governed by the laws of Ruritania."]
    heading_only = ["1. Notices and Governing Law", "Notices shall be in writing."]
    found = model.findings(model.score_units(units_of(clause), clause))["Governing Law"]
    assert found.present and found.probability > 0.96  # the search lifts the model's own 0.9
    found = model.findings(model.score_units(units_of(heading_only), heading_only))["Governing Law"]
    assert not found.present and found.probability < 0.01  # a heading naming the clause is not the clause
    unconfirmed = _one_word_model("ruritania", 0.9, category="Governing Law")
    found = unconfirmed.findings(unconfirmed.score_units(units_of(clause), clause))["Governing Law"]
    assert abs(found.probability - 0.9) < 1e-3


def test_the_keyword_bonus_lifts_a_matching_sentence_in_ranking_and_routing():
    from redline.clauses.document import units_of

    # "widgets" is the model's only evidence (1%); the second paragraph matches Change Of Control's keyword search
    texts = ["Widgets are delivered monthly.", "A merger of the Supplier is a notable event."]
    plain = _one_word_model("widgets", 0.01, category="Change Of Control", threshold=0.005)
    lifted = _one_word_model("widgets", 0.01, category="Change Of Control", threshold=0.005, bonus=10.0)
    for model, order, routed in ((plain, [0, 1], [0]), (lifted, [1, 0], [1, 0])):
        scores = model.score_units(units_of(texts), texts)
        found = model.findings(scores)["Change Of Control"]
        assert found.present and [p.paragraph for p in found.passages] == order
        assert abs(found.probability - 0.01) < 1e-3  # the bonus ranks; it does not decide presence
        assert [p for p, _ in model.routes(scores)["Change Of Control"]] == routed


def test_routing_asks_more_of_a_long_paragraph():
    from redline.clauses.document import units_of
    from redline.clauses.model import ROUTE_FLOOR

    model = _one_word_model("widget", ROUTE_FLOOR * 20)  # routed up to 400 characters, not beyond
    filler = " ".join(f"Clause {n} says nothing in particular about anything." for n in range(50))
    texts = ["The widget is delivered.", f"The widget is delivered. {filler}", filler]
    routes = model.routes(model.score_units(units_of(texts), texts))["Widgets"]
    assert [p for p, _ in routes] == [0]
    assert abs(routes[0][1] - ROUTE_FLOOR * 20) < 1e-4
