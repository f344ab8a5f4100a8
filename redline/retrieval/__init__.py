"""Contract graph and hybrid retrieval (pure: no Django, no network unless a client is injected).

Build a :class:`ContractGraph` from Word paragraphs or plain text, ask it what
a clause depends on (:func:`~redline.retrieval.context.clause_context`), index it with
:class:`SearchIndex` for hybrid retrieval, and answer questions with
:func:`ask`.
"""

from .ask import Answer, Citation, ask, verify_quote
from .context import ContextItem
from .edges import DEFINES, PARENT_OF, REFERENCES, USES_TERM, Edge
from .edits import EditWarning
from .embeddings import EmbeddingUnavailable, make_embedder
from .graph import ContractGraph
from .search import Hit, SearchIndex

__all__ = [
    "DEFINES", "PARENT_OF", "REFERENCES", "USES_TERM", "Answer", "Citation", "ContextItem", "ContractGraph", "Edge",
    "EditWarning", "EmbeddingUnavailable", "Hit", "SearchIndex", "ask", "make_embedder", "verify_quote",
]
