"""Context recall of the review's routing, on the CUAD slice that travels with the tests.

The dev figures (60 contracts) are in docs/clauses.md; this checks the
measure itself on the slice's 9 dev contracts: the offsets that place a
sentence of a ``.docx`` paragraph in CUAD's text, and that the excerpt view
counts what a model is given, never more than the whole paragraphs.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from redline.analysis.clauses import clauses_from_paragraphs
from redline.evaluation.cuad_dev import contract_texts
from redline.evaluation.routing_recall import _offsets, measure
from redline.ooxml.paragraphs import read_document

SLICE = Path(__file__).resolve().parents[1] / "support" / "cuad_slice"


@pytest.fixture(scope="module")
def figures():
    return measure(SLICE)


def test_every_character_of_a_paragraph_is_placed_on_the_same_character_of_the_contract():
    dev = json.loads((SLICE / "splits.json").read_text())["dev"]
    texts = contract_texts(SLICE, set(dev))
    checked = 0
    for cid in dev:
        result = read_document((SLICE / "dev-docx" / f"{cid}.docx").read_bytes(), anchor=True)
        paragraph_map = json.loads((SLICE / "dev-docx" / f"{cid}.map.json").read_text())
        index_of = {p.anchor: p.index for p in result.paragraphs if p.anchor}
        for clause in clauses_from_paragraphs(result.paragraphs):
            start, end = paragraph_map[index_of[clause.anchor]][:2]
            offsets = _offsets(clause.text, texts[cid], start, end)
            assert len(offsets) == len(clause.text)
            assert all(texts[cid][o] == ch for o, ch in zip(offsets, clause.text, strict=True) if not ch.isspace())
            assert offsets == sorted(offsets) and start <= offsets[0] and offsets[-1] < end
            checked += 1
    assert checked > 900  # 952 paragraphs


def test_what_a_batch_shows_finds_the_spans_whole_paragraphs_find(figures):
    for views in figures.values():
        engine, excerpts = views["engine"], views["batches"]
        assert excerpts.total == engine.total and excerpts.found <= engine.found
        assert excerpts.chars <= engine.chars
    total = {name: [sum(getattr(v[name], f) for v in figures.values()) for f in ("found", "total", "chars")]
             for name in ("engine", "keywords", "batches")}
    (found, spans, chars), whole = total["batches"], total["engine"]
    assert spans == whole[1] > 100
    assert chars < whole[2]  # a long paragraph only rules reading excerpts of it read is cut down
    assert found >= 0.95 * spans  # measured 141 of 142, as with whole paragraphs
