"""What a proposed edit does to the rest of the contract: defined terms and cross-references.

A suggestion is written for one paragraph, but a contract is a web: renaming
"Cause" in its definition leaves every clause that says "Cause" pointing at
nothing, rewording the definition changes all of them at once, "for cause" in
lower case is no longer the defined term, and "Section 14.3" in new wording
must exist. None of that is visible from the paragraph alone, so it is
checked here against the graph and returned as warnings for the lawyer; the
edit itself is not blocked, because changing a definition is sometimes
exactly the point.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .blocks import Block
from .definitions import definition_sites, find_usages, term_key
from .labels import parse_label
from .references import extract

if TYPE_CHECKING:
    from .graph import ContractGraph

_MAX_NAMED = 3


@dataclass(frozen=True, slots=True)
class EditWarning:
    """A consequence of an edit outside its paragraph.

    ``code`` is one of ``defined_term_renamed``, ``definition_removed``,
    ``definition_changed``, ``term_redefined``, ``term_case_changed``,
    ``broken_reference``, ``referenced_section_deleted`` and
    ``referenced_section_renumbered``; ``anchors`` are the paragraphs affected
    (the clauses that use the term or cite the section), so the add-in can
    show them.
    """

    code: str
    message: str
    anchors: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"code": self.code, "message": self.message, "anchors": list(self.anchors)}


def edit_warnings(graph: ContractGraph, anchor: str, new_text: str | None, *, insert: bool = False) -> list[EditWarning]:
    """Warnings for replacing the paragraph at ``anchor`` with ``new_text``.

    ``new_text`` None deletes the paragraph; ``insert`` adds ``new_text`` as a
    new paragraph after ``anchor`` (nothing of the old paragraph goes). An
    anchor the graph does not know gives no warnings.
    """
    block = graph.block_for(anchor)
    if block is None:
        return []
    old = "" if insert else block.text
    new = new_text or ""
    scratch = Block(index=-1, anchor=anchor, text=new, start=0, end=len(new))
    checker = _Checker(graph, block, old, new, scratch, insert)
    return [*checker.definitions(), *checker.term_case(), *checker.references(), *checker.citations(new_text is None)]


class _Checker:
    """The checks of :func:`edit_warnings`, sharing what they compute."""

    def __init__(self, graph: ContractGraph, block: Block, old: str, new: str, scratch: Block, insert: bool) -> None:
        self.graph, self.block, self.old, self.new, self.scratch = graph, block, old, new, scratch
        self.own = set() if insert else {block.index}
        self.in_definitions = block.index in graph.definition_blocks()

    # -- definitions -------------------------------------------------------------------
    def definitions(self) -> list[EditWarning]:
        g = self.graph
        before = {d.key: d for d in g.definitions if any(s.block in self.own for s in d.sites)}
        after = {term_key(term): (term, site) for term, site in definition_sites(self.scratch, self.in_definitions)}
        out: list[EditWarning] = []
        added = [after[k][0] for k in after if k not in before]
        for key, d in before.items():
            users, anchors = self._users(d.id)
            if key in after:
                old_site = next(s for s in d.sites if s.block in self.own)
                site = after[key][1]
                if users and _squash(g.text[old_site.start:old_site.end]) != _squash(self.new[site.start:site.end]):
                    out.append(EditWarning("definition_changed", f'changes the definition of "{d.term}", which also '
                                           f"applies in {_join(users)}", anchors))
                continue
            if not users or len(d.sites) > 1:
                continue  # nothing else relies on it, or it is defined elsewhere too
            if len(added) == 1:
                out.append(EditWarning("defined_term_renamed", f'renames the defined term "{d.term}" to "{added[0]}"; '
                                       f'"{d.term}" is still used in {_join(users)}', anchors))
            else:
                out.append(EditWarning("definition_removed", f'removes the definition of "{d.term}", still used '
                                       f"in {_join(users)}", anchors))
        for key in after:
            if key in before:
                continue
            existing = g.definition(after[key][0])
            if existing is not None and any(s.block not in self.own for s in existing.sites):
                where = [self._label_of(s.block) for s in existing.sites]
                out.append(EditWarning("term_redefined", f'defines "{existing.term}" again; the agreement already '
                                       f"defines it in {_join(where)}",
                                       tuple(dict.fromkeys(g.blocks[s.block].anchor for s in existing.sites))))
        return out

    def term_case(self) -> list[EditWarning]:
        """A capitalised defined term that the new wording writes in lower case is no longer the defined term."""
        g = self.graph
        if not self.new:
            return []
        before = {u.definition for u in g.usages if u.block in self.own}
        after = {u.definition for u in find_usages([self.scratch], g.definitions, set())}
        out = []
        for did in before - after:
            d = g.definition_by_id(did)
            if d.term.lower() == d.term:
                continue
            m = re.search(rf"(?<![\w-]){re.escape(d.term)}", self.new, re.IGNORECASE)
            if m:
                where = _join([self._label_of(s.block) for s in d.sites])
                out.append(EditWarning("term_case_changed", f'"{m.group(0)}" is not the defined term "{d.term}" '
                                       f"(defined in {where}), so its meaning changes",
                                       tuple(dict.fromkeys(g.blocks[s.block].anchor for s in d.sites))))
        return out

    # -- cross-references ---------------------------------------------------------------
    def references(self) -> list[EditWarning]:
        """References the new wording adds that lead nowhere in this agreement."""
        g = self.graph
        existing = {(r.kind, r.ident.lower()) for r in extract(self.old)}
        out = []
        for raw in extract(self.new):
            if raw.external or (raw.kind, raw.ident.lower()) in existing:
                continue
            target, status = g.resolution(raw, near=self.block.anchor)
            if status == "unresolved":
                out.append(EditWarning("broken_reference", f'refers to "{raw.text}", which this agreement does not have'))
            elif status == "partial" and target is not None:
                out.append(EditWarning("broken_reference", f'refers to "{raw.text}", but {g.section(target).label} '
                                       "has no such subdivision", g.anchors(target)[:1]))
        return out

    def citations(self, deleted: bool) -> list[EditWarning]:
        """Deleting or renumbering a section that other clauses cite leaves their references dangling."""
        g = self.graph
        section = g.section_of(self.block.anchor)
        if not self.own or section is None or section.first != self.block.index:
            return []
        citing = [e for e in g.edges_to(section.id, "REFERENCES") if e.source != section.id]
        if not citing:
            return []
        places = [g.section(e.source).label for e in citing]
        anchors = tuple(dict.fromkeys(a for e in citing for a in e.anchors))
        if deleted:  # the paragraph that carries the section's number (or heading) goes
            return [EditWarning("referenced_section_deleted", f"deletes {section.label}, cited in {_join(places)}",
                                anchors)]
        if self.block.label is not None:
            return []  # Word numbers it; the text carries no number to change
        old, new = parse_label(self.old), parse_label(self.new)
        if old is None or (new is not None and new[0].key == old[0].key):
            return []
        now = f" (now {new[0].text})" if new else ""
        return [EditWarning("referenced_section_renumbered", f"changes the number of {section.label}{now}, cited in "
                            f"{_join(places)}", anchors)]

    # -- helpers -------------------------------------------------------------------------------
    def _users(self, did: str) -> tuple[list[str], tuple[str, ...]]:
        """Sections (labels) and paragraphs (anchors) outside the edited paragraph that use a term."""
        g = self.graph
        labels: list[str] = []
        anchors: list[str] = []
        for u in g.usages:
            if u.definition != did or u.block in self.own:
                continue
            anchors.append(g.blocks[u.block].anchor)
            labels.append(self._label_of(u.block))
        return list(dict.fromkeys(labels)), tuple(dict.fromkeys(anchors))

    def _label_of(self, block: int) -> str:
        owner = self.graph.owner[block]
        return self.graph.section(owner).label if owner else "the preamble"


def _squash(text: str) -> str:
    return " ".join(text.split())


def _join(names: list[str]) -> str:
    names = list(dict.fromkeys(names))
    if len(names) > _MAX_NAMED:
        return ", ".join(names[:_MAX_NAMED]) + f" and {len(names) - _MAX_NAMED} more"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
