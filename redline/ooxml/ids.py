"""Identifiers that must be unique across a document's story parts.

Word keys paragraphs by ``w14:paraId`` and comments by ``w16cid:durableId``:
both are 8 hex digits, must be unique in the document, and must stay below
0x80000000 (paraId) or 0x7FFFFFFF (durableId) or Word repairs the file. We
derive them from a seed instead of drawing random numbers, so writing the same
suggestion into the same file twice gives byte-identical output.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from lxml import etree

from .oxml import NSMAP
from .package import Package

PARA_ID_LIMIT = 0x80000000
DURABLE_ID_LIMIT = 0x7FFFFFFF

# Parts whose text is a story of the document (they hold paragraphs and revisions).
_STORY_RELS = ("/header", "/footer", "/footnotes", "/endnotes", "/comments")


class HexIds:
    """Hands out 8-hex ids below ``limit`` that collide with none already used."""

    def __init__(self, used: Iterable[str], limit: int) -> None:
        self._used = {u.upper() for u in used}
        self._limit = limit

    def next(self, seed: str) -> str:
        """A fresh id derived from ``seed`` (retrying with a counter on collision)."""
        n = 0
        while True:
            digest = hashlib.sha256(f"{seed}\0{n}".encode()).digest()
            value = int.from_bytes(digest[:4], "big") % self._limit
            candidate = f"{value:08X}"
            if value and candidate not in self._used:
                self._used.add(candidate)
                return candidate
            n += 1


def story_roots(pkg: Package) -> list[etree._Element]:
    """The main document and its headers, footers, footnotes, endnotes and comments."""
    roots = [pkg.xml(pkg.main_part)]
    for target, rel_type in pkg.rels(pkg.main_part).values():
        if rel_type.endswith(_STORY_RELS) and pkg.has(target):
            roots.append(pkg.xml(target))
    return roots


def used_para_ids(roots: Iterable[etree._Element]) -> set[str]:
    """Every ``w14:paraId`` in the given parts."""
    out: set[str] = set()
    for root in roots:
        out.update(str(v) for v in root.xpath("//@w14:paraId", namespaces={"w14": NSMAP["w14"]}))
    return out
