"""The contract graph: sections, definitions and references, with the edges between them.

Nodes are sections (with their hierarchy) and defined terms; edges
(:mod:`redline.retrieval.edges`) are ``PARENT_OF`` (section → subsection),
``DEFINES`` (section → term), ``USES_TERM`` (section → term) and
``REFERENCES`` (section → section). Every
node is tied to the anchors of its paragraphs, so whatever the graph returns
can be pointed at in Word and quoted verbatim.

The graph is deterministic (no model calls) and JSON-serialisable, so it is
built once per document version and cached. It only builds and looks up; the
readers (:mod:`~redline.retrieval.context` for what a clause depends on,
:mod:`~redline.retrieval.edits` for what an edit breaks, search, ask) take a
graph and import this module, never the other way round.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .blocks import Block, ParagraphLike, blocks_from_paragraphs, blocks_from_text
from .definitions import Definition, DefinitionSite, Usage, find_definitions, find_usages, is_pointer, term_key
from .edges import Edge, make_edges
from .layout import Role, classify
from .references import RawRef, Reference, extract, find_references, normalise_number, split_ident
from .sections import Section, build_sections

FORMAT_VERSION = 1


@dataclass(slots=True)
class ContractGraph:
    """Sections, definitions, references and edges of one document version.

    Build it with :meth:`from_text` or :meth:`from_paragraphs`; cache it with
    :meth:`to_dict` / :meth:`from_dict`.
    """

    text: str
    blocks: list[Block]
    roles: list[Role]
    sections: list[Section]
    owner: list[str | None]
    definitions: list[Definition]
    usages: list[Usage]
    references: list[Reference]
    edges: list[Edge] = field(default_factory=list)
    _section_by_id: dict[str, Section] = field(default_factory=dict, repr=False)
    _block_by_anchor: dict[str, int] = field(default_factory=dict, repr=False)
    _out: dict[str, list[Edge]] = field(default_factory=dict, repr=False)
    _in: dict[str, list[Edge]] = field(default_factory=dict, repr=False)
    _keys: dict[str, list[str]] = field(default_factory=dict, repr=False)
    _definition_by_id: dict[str, Definition] = field(default_factory=dict, repr=False)
    _usages_by_block: dict[int, list[Usage]] = field(default_factory=dict, repr=False)
    _refs_by_block: dict[int, list[Reference]] = field(default_factory=dict, repr=False)
    _definition_blocks: frozenset[int] = field(default=frozenset(), repr=False)
    _spread: dict[str, float] = field(default_factory=dict, repr=False)

    # -- building ---------------------------------------------------------------------
    @classmethod
    def from_text(cls, text: str) -> ContractGraph:
        """Build the graph of a plain-text contract (numbering read from the text itself)."""
        return cls.build(text, blocks_from_text(text))

    @classmethod
    def from_paragraphs(cls, paragraphs: Iterable[ParagraphLike]) -> ContractGraph:
        """Build the graph of a Word document from :func:`redline.ooxml.paragraphs.read_document` paragraphs."""
        text, blocks = blocks_from_paragraphs(paragraphs)
        return cls.build(text, blocks)

    @classmethod
    def build(cls, text: str, blocks: list[Block]) -> ContractGraph:
        """Build the graph from blocks whose offsets point into ``text``."""
        roles = classify(blocks)
        sections, owner = build_sections(blocks, roles)
        skip = {i for i, r in enumerate(roles) if r is not Role.BODY}
        graph = cls(text, blocks, roles, sections, owner, [], [], [])
        graph._index()
        graph.definitions = find_definitions([b for b in blocks if b.index not in skip], graph.definition_blocks())
        graph.usages = find_usages(blocks, graph.definitions, skip)
        headings = {s.first for s in sections}
        graph.references = find_references(blocks, owner, graph._resolve_raw, skip, headings)
        graph.edges = make_edges(blocks, sections, owner, graph.definitions, graph.usages, graph.references)
        graph._index()
        return graph

    def _index(self) -> None:
        self._section_by_id = {s.id: s for s in self.sections}
        self._block_by_anchor = {b.anchor: b.index for b in self.blocks}
        self._out, self._in = defaultdict(list), defaultdict(list)
        for edge in self.edges:
            self._out[edge.source].append(edge)
            self._in[edge.target].append(edge)
        self._definition_by_id = {d.id: d for d in self.definitions}
        self._usages_by_block, self._refs_by_block = defaultdict(list), defaultdict(list)
        users: dict[str, set[str]] = defaultdict(set)
        for u in self.usages:
            self._usages_by_block[u.block].append(u)
            if self.owner[u.block]:
                users[u.definition].add(self.owner[u.block] or "")
        for r in self.references:
            self._refs_by_block[r.block].append(r)
        self._spread = {did: len(owners) / max(1, len(self.sections)) for did, owners in users.items()}
        defining: set[int] = set()
        for s in self.sections:
            if any("definition" in (a.title or "").lower() for a in self.ancestors(s.id, include_self=True)):
                defining.update(range(s.first, s.own_end + 1))
        self._definition_blocks = frozenset(defining)
        self._keys = defaultdict(list)
        for s in self.sections:
            for key in s.keys:
                self._keys[_norm_key(key)].append(s.id)

    def definition_blocks(self) -> frozenset[int]:
        """Blocks of sections titled as definitions, where unquoted "Affiliate means …" entries count too."""
        return self._definition_blocks

    # -- resolution ---------------------------------------------------------------------
    def _resolve_raw(self, raw: RawRef, source: str) -> tuple[str | None, str]:
        if raw.kind == "schedule":
            found = self._pick(self._keys.get(f"{raw.word} {raw.ident.lower()}", []), source)
            return (found, "resolved") if found else (None, "unresolved")
        if raw.kind == "article":
            number = normalise_number(raw.ident)
            found = self._pick(self._keys.get(f"article {number}", []) or self._keys.get(number, []), source)
            return (found, "resolved") if found else (None, "unresolved")
        base, parts = split_ident(raw.ident)
        if not base:
            found = self._relative(parts, source)
            return (found, "resolved") if found else (None, "unresolved")
        number = normalise_number(base)
        sections, articles = self._keys.get(number, []), self._keys.get(f"article {number}", [])
        # "Section 1" where the body has Article 1 and only a schedule has a "1.": the article
        found = self._pick(self._near(sections, source) or self._near(articles, source) or sections or articles,
                           source)
        if found is None:
            return None, "unresolved"
        for part in parts:
            child = self._child_labelled(found, part)
            if child is None:
                return found, "partial"
            found = child
        return found, "resolved"

    def _pick(self, candidates: list[str], source: str) -> str | None:
        """Among sections with the same number, the one in the source's own schedule, else the first."""
        if not candidates:
            return None
        home = self._top(source)
        for c in candidates:
            if self._top(c) == home and self._section_by_id[home].kind == "schedule":
                return c
        main = [c for c in candidates if self._section_by_id[self._top(c)].kind != "schedule"]
        return (main or candidates)[0]

    def _near(self, candidates: list[str], source: str) -> list[str]:
        """The candidates in the main body or in the source's own schedule."""
        home = self._top(source)
        return [c for c in candidates if self._top(c) == home or self._section_by_id[self._top(c)].kind != "schedule"]

    def _top(self, sid: str) -> str:
        s = self._section_by_id[sid]
        while s.parent is not None:
            s = self._section_by_id[s.parent]
        return s.id

    def _child_labelled(self, sid: str, part: str) -> str | None:
        """A descendant (two levels at most) whose number ends in "(part)"."""
        frontier = list(self._section_by_id[sid].children)
        for _ in range(2):
            for cid in frontier:
                number = self._section_by_id[cid].number or ""
                if number.lower().endswith(f"({part})"):
                    return cid
            frontier = [g for c in frontier for g in self._section_by_id[c].children]
        return None

    def _relative(self, parts: list[str], source: str) -> str | None:
        """"paragraph (c)": the nearest "(c)" among the children of the source and of its ancestors."""
        for ancestor in self.ancestors(source, include_self=True):
            found: str | None = ancestor.id
            for part in parts:
                found = self._child_labelled(found, part) if found else None
            if found:
                return found
        return None

    def resolve_raw(self, raw: RawRef, *, near: str | None = None) -> str | None:
        """Resolve an extracted reference from where ``near`` (an anchor) is, else from the top."""
        return self.resolution(raw, near=near)[0]

    def resolution(self, raw: RawRef, *, near: str | None = None) -> tuple[str | None, str]:
        """The target and status ("resolved", "partial", "unresolved") of a reference written at ``near``."""
        section = self.section_of(near) if near else None
        source = section.id if section else (self.sections[0].id if self.sections else None)
        if source is None:
            return None, "unresolved"
        return self._resolve_raw(raw, source)

    def readings(self, raw: RawRef) -> list[str]:
        """Every section a reference read without context may mean, the default reading first.

        A contract that carries a schedule or a second agreement has two
        "Section 8"s; where a reference is written, its place decides, but a
        question has no place, so its other words must (:mod:`.naming`).
        """
        default = self.resolve_raw(raw)
        if raw.kind == "schedule":
            candidates = list(self._keys.get(f"{raw.word} {raw.ident.lower()}", []))
        elif raw.kind == "article":
            number = normalise_number(raw.ident)
            candidates = list(self._keys.get(f"article {number}", []) or self._keys.get(number, []))
        else:
            base, parts = split_ident(raw.ident)
            number = normalise_number(base) if base else ""
            candidates = []
            for found in (self._keys.get(number, []) + self._keys.get(f"article {number}", [])) if number else []:
                for part in parts:
                    found = self._child_labelled(found, part) if found else None
                if found:
                    candidates.append(found)
        return list(dict.fromkeys(x for x in (default, *candidates) if x))

    def resolve(self, reference: str, *, near: str | None = None) -> Section | None:
        """The section a reference written like "Section 8.2", "Article IV" or "Exhibit B" points to.

        ``near`` (an anchor) resolves relative references such as "paragraph (c)".
        """
        raws = extract(reference)
        if not raws:
            raws = extract(f"Section {reference.strip()}")
        if not raws:
            return None
        target = self.resolve_raw(raws[0], near=near)
        return self._section_by_id.get(target) if target else None

    # -- lookups --------------------------------------------------------------------------
    def section(self, sid: str) -> Section:
        """A section by id."""
        return self._section_by_id[sid]

    def block_for(self, anchor: str) -> Block | None:
        """The paragraph (block) with this anchor."""
        index = self._block_by_anchor.get(anchor)
        return None if index is None else self.blocks[index]

    def section_of(self, anchor: str) -> Section | None:
        """The innermost section that holds the paragraph with this anchor."""
        index = self._block_by_anchor.get(anchor)
        if index is None or self.owner[index] is None:
            return None
        return self._section_by_id[self.owner[index]]

    def ancestors(self, sid: str, *, include_self: bool = False) -> list[Section]:
        """The section's ancestors, nearest first."""
        out = []
        s: Section | None = self._section_by_id[sid]
        if not include_self and s is not None:
            s = self._section_by_id.get(s.parent) if s.parent else None
        while s is not None:
            out.append(s)
            s = self._section_by_id.get(s.parent) if s.parent else None
        return out

    def definition(self, term: str) -> Definition | None:
        """The definition of a term, matched the way usages are (case and plural aware)."""
        key = term_key(term)
        return next((d for d in self.definitions if d.key == key), None)

    def usages_in(self, blocks: Iterable[int]) -> list[Usage]:
        """The term usages in these blocks, block by block."""
        return [u for b in sorted(blocks) for u in self._usages_by_block.get(b, ())]

    def references_in(self, blocks: Iterable[int]) -> list[Reference]:
        """The references written in these blocks, block by block."""
        return [r for b in sorted(blocks) for r in self._refs_by_block.get(b, ())]

    def term_spread(self, did: str) -> float:
        """The share of sections that use a term: "Agreement" near 1, a term of one clause near 0."""
        return self._spread.get(did, 0.0)

    def edges_from(self, node: str, kind: str | None = None) -> list[Edge]:
        """Outgoing edges of a node (optionally of one kind)."""
        return [e for e in self._out.get(node, []) if kind is None or e.kind == kind]

    def edges_to(self, node: str, kind: str | None = None) -> list[Edge]:
        """Incoming edges of a node (optionally of one kind)."""
        return [e for e in self._in.get(node, []) if kind is None or e.kind == kind]

    def block_range(self, sid: str, *, own: bool = True) -> range:
        """The blocks of a section: its own text, or (``own=False``) with all its subsections."""
        s = self._section_by_id[sid]
        last = s.own_end if own else s.end
        return range(s.first, last + 1)

    def body_blocks(self, sid: str, *, own: bool = True) -> list[Block]:
        """The body blocks of a section (furniture and contents left out)."""
        return [self.blocks[i] for i in self.block_range(sid, own=own) if self.roles[i] is Role.BODY]

    def anchors(self, sid: str, *, own: bool = True) -> tuple[str, ...]:
        """Anchors of the section's paragraphs, in order."""
        return tuple(b.anchor for b in self.body_blocks(sid, own=own))

    def section_text(self, sid: str, *, own: bool = True) -> str:
        """The section's text, paragraphs joined by newlines."""
        return "\n".join(b.text for b in self.body_blocks(sid, own=own))

    def definition_text(self, did: str) -> tuple[str, tuple[str, ...]]:
        """The text of a term's definition (every site) and the anchors it sits in."""
        d = self._definition_by_id[did]
        texts = [self.text[s.start:s.end] for s in d.sites]
        anchors = tuple(dict.fromkeys(self.blocks[s.block].anchor for s in d.sites))
        return "\n".join(texts), anchors

    def primary_sites(self, did: str) -> list[DefinitionSite]:
        """A term's sites, the ones that say what it means before those that only point elsewhere
        ("has the meaning set forth in Section 7.1"), each group in document order."""
        sites = self._definition_by_id[did].sites
        return sorted(sites, key=lambda s: (is_pointer(self.text[s.start:s.end]), s.start))

    def definition_by_id(self, did: str) -> Definition:
        """A definition by id."""
        return self._definition_by_id[did]

    def unresolved_references(self) -> list[Reference]:
        """References that point nowhere in this document (external ones excluded)."""
        return [r for r in self.references if r.status == "unresolved"]

    # -- serialisation ----------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (block texts are slices of ``text`` and are not stored twice)."""
        blocks = []
        for b in self.blocks:
            data = b.to_dict()
            del data["t"]
            blocks.append(data)
        return {
            "version": FORMAT_VERSION, "text": self.text, "blocks": blocks, "roles": [r.value for r in self.roles],
            "sections": [s.to_dict() for s in self.sections], "owner": self.owner,
            "definitions": [d.to_dict() for d in self.definitions],
            "usages": [[u.definition, u.block, u.start, u.end] for u in self.usages],
            "references": [r.to_dict() for r in self.references], "edges": [e.to_dict() for e in self.edges],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ContractGraph:
        """Inverse of :meth:`to_dict`; refuses a cache written by another format version."""
        if data.get("version") != FORMAT_VERSION:
            raise ValueError(f"unsupported graph format {data.get('version')!r}")
        text = data["text"]
        blocks = [Block.from_dict({**b, "t": text[b["s"]:b["e"]]}) for b in data["blocks"]]
        graph = cls(
            text=text, blocks=blocks, roles=[Role(r) for r in data["roles"]],
            sections=[Section.from_dict(s) for s in data["sections"]], owner=data["owner"],
            definitions=[Definition.from_dict(d) for d in data["definitions"]],
            usages=[Usage(*u) for u in data["usages"]],
            references=[Reference.from_dict(r) for r in data["references"]],
            edges=[Edge.from_dict(e) for e in data["edges"]],
        )
        graph._index()
        return graph

    def stats(self) -> dict[str, int]:
        """Counts for logs and reports."""
        by_kind: dict[str, int] = defaultdict(int)
        for e in self.edges:
            by_kind[e.kind] += 1
        return {
            "blocks": len(self.blocks), "sections": len(self.sections), "definitions": len(self.definitions),
            "references": len(self.references), "unresolved": len(self.unresolved_references()),
            **{k.lower(): v for k, v in sorted(by_kind.items())},
        }


def _norm_key(key: str) -> str:
    key = " ".join(key.lower().split())
    word, _, rest = key.partition(" ")
    if word == "article":
        return f"article {normalise_number(rest)}"
    if word in ("schedule", "exhibit", "annex", "appendix", "attachment", "addendum"):
        return key
    return normalise_number(key) if key and all(p.isdigit() for p in key.split(".")) else key
