"""A picture of the old version carried into the result: its run, its media part and its relationship.

The redline is the new version's package, which does not hold a picture the old version had and the new one
dropped or replaced. To show it deleted, its run is copied, and what the run refers to comes with it: each
media part it names (``r:embed``, ``r:link``, ``r:id``) is copied under a new name with a new relationship
from the main part (an identical part already in the package is reused), and the part's content type is
declared (a default for its extension when there is none, else an override). Only DrawingML pictures of
plain media are copied: a VML picture or embedded object (whose shape ids a copy could duplicate), or a target
that has relationships of its own (a chart) or lives outside the package, is refused, so the caller names the
picture instead of writing half of it.

Drawing ids (``wp:docPr/@id``) must be unique in the document, so the copy gets fresh ones; markup in a
namespace the old version marks ignorable and the new one does not (``wp14`` ids, Office 2010 sizes) is
dropped from the copy, as a reader that does not know it would do, so the new root need not declare it.
"""

from __future__ import annotations

import copy
import posixpath

from lxml import etree

from .ids import story_roots
from .oxml import NSMAP, qn
from .package import Package

_R_NS = "{" + NSMAP["r"] + "}"
_DOC_PR = qn("wp:docPr")
_VML = (qn("w:pict"), qn("w:object"))  # VML shapes carry ids of their own that a copy could duplicate
_IGNORABLE = qn("mc:Ignorable")
_DEFAULT = qn("ct:Default")
_CT = "[Content_Types].xml"


class MediaCopier:
    """Copies old runs into one result package (``new``) from the old package (``old``)."""

    def __init__(self, old: Package, new: Package) -> None:
        self.old, self.new = old, new
        self._old_rels = old.rels(old.main_part)
        self._drop = _ignorable(old.xml(old.main_part)) - _ignorable(new.xml(new.main_part))
        self._next_doc_pr = 1 + max((int(v) for root in story_roots(new) for el in root.iter(_DOC_PR)
                                     if (v := el.get("id", "")).isdigit()), default=0)
        self._copied: dict[str, str] = {}  # old part → the relationship id of its copy

    def run(self, run: etree._Element) -> etree._Element | None:
        """A copy of ``run`` (an old picture) whose relationships point into the result, or None when what it
        refers to cannot be carried over."""
        if next(run.iter(*_VML), None) is not None:
            return None
        out = copy.deepcopy(run)
        for el in [el for el in out.iter() if isinstance(el.tag, str) and etree.QName(el).namespace in self._drop]:
            if el.getparent() is not None:
                el.getparent().remove(el)
        for el in out.iter():
            if not isinstance(el.tag, str):
                continue
            for name in list(el.attrib):
                if name.startswith("{") and name[1:].split("}")[0] in self._drop:
                    del el.attrib[name]
                elif name.startswith(_R_NS):
                    rid = self._rel(el.get(name, ""))
                    if rid is None:
                        return None
                    el.set(name, rid)
        for doc_pr in out.iter(_DOC_PR):
            doc_pr.set("id", str(self._next_doc_pr))
            self._next_doc_pr += 1
        return out

    def _rel(self, old_rid: str) -> str | None:
        """The relationship id in the result for an old relationship id, copying its part the first time."""
        target = self._old_rels.get(old_rid)
        if target is None or not self.old.has(target[0]) or self.old.rels(target[0]):
            return None  # external, missing, or a part with parts of its own
        part, rel_type = target
        if part not in self._copied:
            data = self.old.blob(part)
            name = next((n for n in self.new.names() if "/media/" in n and self.new.blob(n) == data), None)
            if name is None:
                name = self._free_name(part)
                self.new.set_blob(name, data)
                self._declare(name, self.old.content_type(part))
            self._copied[part] = self.new.add_rel(self.new.main_part, rel_type, name)
        return self._copied[part]

    def _free_name(self, part: str) -> str:
        folder, base = posixpath.split(part)
        stem, ext = posixpath.splitext(base)
        n = 1
        while self.new.has(name := posixpath.join(folder, f"{stem}-old{'' if n == 1 else n}{ext}")):
            n += 1
        return name

    def _declare(self, name: str, content_type: str | None) -> None:
        """The copied part's content type: a default for its extension when none is there, else an override."""
        if content_type is None or self.new.content_type(name) == content_type:
            return
        ext = posixpath.splitext(name)[1].lstrip(".")
        types = self.new.xml(_CT)
        if ext and not any(d.get("Extension", "").lower() == ext.lower() for d in types.iterchildren(_DEFAULT)):
            defaults = list(types.iterchildren(_DEFAULT))
            default = etree.Element(_DEFAULT, Extension=ext, ContentType=content_type)
            if defaults:
                defaults[-1].addnext(default)
            else:
                types.insert(0, default)
        else:
            self.new.set_content_type(name, content_type)


def _ignorable(root: etree._Element) -> set[str]:
    """The namespaces a part's root marks ignorable (``mc:Ignorable``)."""
    return {root.nsmap[p] for p in root.get(_IGNORABLE, "").split() if p in root.nsmap}
