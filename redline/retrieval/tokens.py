"""Tokenising for lexical scoring and feature hashing.

Section numbers stay whole ("8.2" is one token, so "Section 8.2" does not match
every "8" and "2" in the contract), words are lower-cased and lightly
singularised so "Products" finds "Product".
"""

from __future__ import annotations

import re

_TOKEN_RE = re.compile(r"[a-z0-9]+(?:[.\-][a-z0-9]+)*")
STOPWORDS = frozenset(
    ["a", "an", "and", "are", "as", "at", "be", "been", "but", "by", "for", "from", "had", "has", "have", "he", "her", "his", "if", "in", "into", "is", "it", "its", "of", "on", "or", "our", "shall", "should", "such", "that", "the", "their", "them", "then", "there", "these", "they", "this", "those", "to", "under", "upon", "was", "we", "were", "what", "when", "where", "which", "while", "who", "will", "with", "would", "you", "your", "how", "do", "does", "any", "all", "other", "than", "not", "no", "may"]
)


def tokens(text: str) -> list[str]:
    """Lower-cased word tokens, stopwords removed, plurals folded."""
    out = []
    for tok in _TOKEN_RE.findall(text.lower()):
        if tok in STOPWORDS:
            continue
        out.append(_fold(tok))
    return out


def _fold(tok: str) -> str:
    if len(tok) > 4 and tok.endswith("ies"):
        return tok[:-3] + "y"
    if len(tok) > 3 and tok.endswith("s") and not tok.endswith(("ss", "us", "is")) and tok.isalpha():
        return tok[:-1]
    return tok
