"""The contract graph per document version (cached) and "ask the contract"."""

from __future__ import annotations

from typing import Any

from django.core.cache import cache

from ..models import DocumentVersion
from ..retrieval.ask import ask
from ..retrieval.graph import FORMAT_VERSION, ContractGraph
from ..retrieval.search import SearchIndex
from .files import document_version_read, docx_read

GRAPH_TTL_S = 7 * 24 * 3600


def contract_graph(*, version: DocumentVersion) -> ContractGraph:
    """The version's graph, built once and cached by content hash (versions never change)."""
    key = f"redline:graph:v{FORMAT_VERSION}:{version.sha256}"
    data = cache.get(key)
    if data is not None:
        return ContractGraph.from_dict(data)
    graph = ContractGraph.from_paragraphs(docx_read(document_version_read(version=version)).paragraphs)
    cache.set(key, graph.to_dict(), GRAPH_TTL_S)
    return graph


def contract_ask(*, version: DocumentVersion, question: str) -> dict[str, Any]:
    """An extractive answer whose every quote was verified verbatim in the document."""
    answer = ask(SearchIndex(contract_graph(version=version)), question)
    return answer.to_dict()
