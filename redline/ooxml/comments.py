"""Comments as Word writes them: the parts, the styles, the anchors in the text.

A comment Word shows properly needs five things to agree (ECMA-376 §17.13.4 and
Microsoft's [MS-DOCX] extensions):

* ``word/comments.xml``: the ``w:comment`` (id, author, date, initials) whose
  paragraphs use the *annotation text* style and start with an
  ``w:annotationRef`` run in the *annotation reference* style;
* ``word/commentsExtended.xml``: a ``w15:commentEx`` whose ``w15:paraId`` is the
  ``w14:paraId`` of the comment's last paragraph (replies and "resolved" hang
  off it);
* ``word/commentsIds.xml``: the same paraId with a ``w16cid:durableId`` — the id
  that survives Word's renumbering, which we record to find the comment later;
* ``word/people.xml``: the author;
* in the document, ``w:commentRangeStart``/``w:commentRangeEnd`` around the span
  and a reference run (``w:commentReference``) after it.

Parts, relationships, content types and styles are created on first use, so a
document without comments gets exactly what Word would add, and one with
comments keeps them (ids continue after the highest in use; styles are found
by their built-in *name*, so a German "Kommentarzeichen" style is reused).
"""

from __future__ import annotations

import copy
from importlib.resources import files

from lxml import etree

from .ids import DURABLE_ID_LIMIT, HexIds, story_roots
from .oxml import XML_SPACE, parse_xml, qn
from .package import Package

CONTENT_TYPES = {
    "comments": "application/vnd.openxmlformats-officedocument.wordprocessingml.comments+xml",
    "commentsExtended": "application/vnd.openxmlformats-officedocument.wordprocessingml.commentsExtended+xml",
    "commentsIds": "application/vnd.openxmlformats-officedocument.wordprocessingml.commentsIds+xml",
    "people": "application/vnd.openxmlformats-officedocument.wordprocessingml.people+xml",
    "styles": "application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml",
}
_PART_NAMES = {
    "comments": "word/comments.xml",
    "commentsExtended": "word/commentsExtended.xml",
    "commentsIds": "word/commentsIds.xml",
    "people": "word/people.xml",
    "styles": "word/styles.xml",
}
_EXTENSIBLE_REL = "http://schemas.microsoft.com/office/2018/08/relationships/commentsExtensible"

_ID = qn("w:id")
_VAL = qn("w:val")
_STYLE = qn("w:style")
_STYLE_ID = qn("w:styleId")
_TYPE = qn("w:type")
_NAME = qn("w:name")
_DEFAULT = qn("w:default")
_PARA_ID = qn("w14:paraId")
_TEXT_ID = qn("w14:textId")


def template(name: str) -> etree._Element:
    """A fresh copy of a default part from ``templates/``."""
    return parse_xml((files("redline.ooxml") / "templates" / name).read_bytes())


def initials(author: str) -> str:
    """Word's initials for an author: first letters of up to three words ("Redline AI" → "RA")."""
    return "".join(w[0] for w in author.split()[:3]).upper() or "AI"


class Comments:
    """The comments of one package: ids, parts and styles, created on demand.

    Comment ids continue after the highest id in ``comments.xml`` *and* in the
    range markers of every story part (a dangling reference must not be
    captured by a new comment). ``para_ids`` is shared with the writer so new paragraphs and
    comment paragraphs never collide.
    """

    def __init__(self, pkg: Package, para_ids: HexIds) -> None:
        self.pkg = pkg
        self._para_ids = para_ids
        main = pkg.main_part
        top = -1
        for root in story_roots(pkg):  # comments can be anchored in headers and notes too
            for el in root.iter(qn("w:comment"), qn("w:commentRangeStart"), qn("w:commentReference")):
                value = el.get(_ID, "")
                if value.lstrip("-").isdigit():
                    top = max(top, int(value))
        self._next_id = top + 1
        durable: list[str] = []
        for rel in ("commentsIds", _EXTENSIBLE_REL):
            part = pkg.related_part(main, rel)
            if part and pkg.has(part):
                durable += [str(v) for v in pkg.xml(part).xpath("//@*[local-name()='durableId']")]
        self._durable = HexIds(durable, DURABLE_ID_LIMIT)
        self._styles: tuple[str, str] | None = None
        self._roots: dict[str, etree._Element] = {}
        extensible = pkg.related_part(main, _EXTENSIBLE_REL)
        self._extensible = pkg.xml(extensible) if extensible and pkg.has(extensible) else None

    # -- ids and styles -----------------------------------------------------------
    def next_id(self) -> str:
        """A comment id not used by any comment or range marker."""
        value = self._next_id
        self._next_id += 1
        return str(value)

    def styles(self) -> tuple[str, str]:
        """(reference character style id, text paragraph style id), added if missing."""
        if self._styles is None:
            self._styles = _ensure_comment_styles(self.pkg)
        return self._styles

    # -- document side ------------------------------------------------------------
    def reference_run(self, cid: str) -> etree._Element:
        """The run that shows the comment mark: ``w:r/w:commentReference``."""
        run = etree.Element(qn("w:r"))
        rpr = etree.SubElement(run, qn("w:rPr"))
        etree.SubElement(rpr, qn("w:rStyle")).set(_VAL, self.styles()[0])
        etree.SubElement(run, qn("w:commentReference")).set(_ID, cid)
        return run

    def mark(self, before: etree._Element, after: etree._Element, cid: str) -> None:
        """Put the range start before ``before``, the range end and the reference
        run after ``after`` (both run-level places in the text)."""
        start = etree.Element(qn("w:commentRangeStart"))
        start.set(_ID, cid)
        before.addprevious(start)
        end = etree.Element(qn("w:commentRangeEnd"))
        end.set(_ID, cid)
        after.addnext(end)
        end.addnext(self.reference_run(cid))

    def mark_paragraphs(self, first: etree._Element, last: etree._Element, cid: str) -> None:
        """Span whole paragraphs: the range starts after ``first``'s properties and
        leading bookmark starts, and ends before ``last``'s trailing bookmark ends
        (so it sits inside the paragraphs' anchors)."""
        start = etree.Element(qn("w:commentRangeStart"))
        start.set(_ID, cid)
        at = 0
        while at < len(first) and first[at].tag in (qn("w:pPr"), qn("w:bookmarkStart")):
            at += 1
        first.insert(at, start)
        end = etree.Element(qn("w:commentRangeEnd"))
        end.set(_ID, cid)
        at = len(last)
        while at and last[at - 1].tag == qn("w:bookmarkEnd"):
            at -= 1
        last.insert(at, end)
        end.addnext(self.reference_run(cid))

    # -- parts side ---------------------------------------------------------------
    def add(self, cid: str, text: str, *, author: str, date: str, seed: str) -> str:
        """Write comment ``cid`` into the comment parts; returns its durable id.

        ``text`` lines become the comment's paragraphs. ``seed`` (the op's stable
        id) makes the paraId and durable id deterministic.
        """
        _ref_style, text_style = self.styles()
        for kind in ("commentsExtended", "commentsIds", "people"):  # backfilled before ours joins
            self._part(kind)
        comment = etree.SubElement(self._part("comments"), qn("w:comment"))
        comment.set(_ID, cid)
        comment.set(qn("w:author"), author)
        comment.set(qn("w:date"), date)
        comment.set(qn("w:initials"), initials(author))
        para_id = ""
        for i, line in enumerate(text.split("\n")):
            para_id = self._para_ids.next(f"comment\0{seed}\0{i}")
            p = etree.SubElement(comment, qn("w:p"))
            p.set(_PARA_ID, para_id)
            p.set(_TEXT_ID, "77777777")
            ppr = etree.SubElement(p, qn("w:pPr"))
            etree.SubElement(ppr, qn("w:pStyle")).set(_VAL, text_style)
            if i == 0:
                ref = etree.SubElement(p, qn("w:r"))
                etree.SubElement(etree.SubElement(ref, qn("w:rPr")), qn("w:rStyle")).set(_VAL, self.styles()[0])
                etree.SubElement(ref, qn("w:annotationRef"))
            if line:
                t = etree.SubElement(etree.SubElement(p, qn("w:r")), qn("w:t"))
                t.text = line
                t.set(XML_SPACE, "preserve")
        durable = self._durable.next(f"durable\0{seed}")
        ex = etree.SubElement(self._part("commentsExtended"), qn("w15:commentEx"))
        ex.set(qn("w15:paraId"), para_id)
        ex.set(qn("w15:done"), "0")
        cid_el = etree.SubElement(self._part("commentsIds"), qn("w16cid:commentId"))
        cid_el.set(qn("w16cid:paraId"), para_id)
        cid_el.set(qn("w16cid:durableId"), durable)
        if self._extensible is not None:  # Word 2019+ files: keep it complete
            ext = etree.SubElement(self._extensible, qn("w16cex:commentExtensible"))
            ext.set(qn("w16cex:durableId"), durable)
            ext.set(qn("w16cex:dateUtc"), date)
        self._ensure_person(author)
        return durable

    def _part(self, kind: str) -> etree._Element:
        """The root of a comment part, created with its relationship and content type."""
        if kind in self._roots:
            return self._roots[kind]
        main = self.pkg.main_part
        name = self.pkg.related_part(main, kind)
        if name and self.pkg.has(name):
            self._roots[kind] = self.pkg.xml(name)
            return self._roots[kind]
        name = _PART_NAMES[kind]
        root = self._roots[kind] = template(f"{kind}.xml")
        self.pkg.set_xml(name, root, CONTENT_TYPES[kind])
        self.pkg.add_rel(main, kind, name)
        self._backfill(kind, root)
        return root

    def _backfill(self, kind: str, root: etree._Element) -> None:
        """Give a new mirror part an entry for each comment already in ``comments.xml``.

        A file written without them (LibreOffice keeps only ``comments.xml``) would
        otherwise end up with mirrors that cover our comments and not the others:
        Word writes one entry per comment (keyed by the ``w14:paraId`` of its last
        paragraph) and one person per author, and so do we.
        """
        if kind == "comments":
            return
        existing = list(self._part("comments").iterchildren(qn("w:comment")))
        if kind == "people":
            for author in dict.fromkeys(c.get(qn("w:author")) for c in existing):
                if author:
                    self._ensure_person(author)
            return
        for comment in existing:
            paras = comment.findall(qn("w:p"))
            para_id = paras[-1].get(_PARA_ID) if paras else None
            if not para_id:
                continue
            if kind == "commentsExtended":
                ex = etree.SubElement(root, qn("w15:commentEx"))
                ex.set(qn("w15:paraId"), para_id)
                ex.set(qn("w15:done"), "0")
            else:
                entry = etree.SubElement(root, qn("w16cid:commentId"))
                entry.set(qn("w16cid:paraId"), para_id)
                entry.set(qn("w16cid:durableId"), self._durable.next(f"durable\0existing\0{para_id}"))

    def _ensure_person(self, author: str) -> None:
        people = self._part("people")
        for person in people.iterchildren(qn("w15:person")):
            if person.get(qn("w15:author")) == author:
                return
        person = etree.SubElement(people, qn("w15:person"))
        person.set(qn("w15:author"), author)
        info = etree.SubElement(person, qn("w15:presenceInfo"))
        info.set(qn("w15:providerId"), "None")
        info.set(qn("w15:userId"), author)


def styles_root(pkg: Package) -> etree._Element:
    """The document's ``styles.xml`` root, created from the template if absent."""
    main = pkg.main_part
    name = pkg.related_part(main, "styles")
    if name and pkg.has(name):
        return pkg.xml(name)
    root = template("styles.xml")
    pkg.set_xml(_PART_NAMES["styles"], root, CONTENT_TYPES["styles"])
    pkg.add_rel(main, "styles", _PART_NAMES["styles"])
    return root


def _ensure_comment_styles(pkg: Package) -> tuple[str, str]:
    """Add Word's comment styles where missing; return the ids to use.

    A style is matched by type and built-in name; a missing one is copied from
    ``templates/comment-styles.xml`` under a free id, and its ``basedOn``/
    ``next``/``link`` are pointed at the document's own default styles (or
    dropped when the document has none). Word 2010 files also carry
    ``stylesWithEffects.xml``, a mirror of the style list that Word reads
    alongside ``styles.xml``; a style added to one is added to the other.
    """
    root = styles_root(pkg)
    by_name: dict[tuple[str | None, str], str] = {}
    ids: set[str] = set()
    defaults: dict[str | None, str] = {}
    for st in root.iterchildren(_STYLE):
        sid = st.get(_STYLE_ID, "")
        ids.add(sid)
        name_el = st.find(_NAME)
        if name_el is not None:
            by_name[(st.get(_TYPE), (name_el.get(_VAL) or "").lower())] = sid
        if st.get(_DEFAULT) in ("1", "true", "on"):
            defaults[st.get(_TYPE)] = sid
    wanted = list(template("comment-styles.xml").iterchildren(_STYLE))
    mapping = {"Normal": defaults.get("paragraph"), "DefaultParagraphFont": defaults.get("character")}
    missing = []
    for st in wanted:
        key = (st.get(_TYPE), st.find(_NAME).get(_VAL).lower())
        tid = st.get(_STYLE_ID)
        if key in by_name:
            mapping[tid] = by_name[key]
            continue
        sid, n = tid, 1
        while sid in ids:
            sid, n = f"{tid}{n}", n + 1
        ids.add(sid)
        mapping[tid] = sid
        missing.append(st)
    added: list[etree._Element] = []
    for st in missing:
        new = copy.deepcopy(st)
        new.set(_STYLE_ID, mapping[st.get(_STYLE_ID)])
        for ref in list(new.iterchildren(qn("w:basedOn"), qn("w:next"), qn("w:link"))):
            target = mapping.get(ref.get(_VAL))
            if target:
                ref.set(_VAL, target)
            else:
                new.remove(ref)
        root.append(new)
        added.append(new)
    _mirror_styles(pkg, added)
    return str(mapping["CommentReference"]), str(mapping["CommentText"])


def _mirror_styles(pkg: Package, added: list[etree._Element]) -> None:
    """Add copies of ``added`` to ``stylesWithEffects.xml`` when the document has one."""
    name = pkg.related_part(pkg.main_part, "stylesWithEffects")
    if not added or not name or not pkg.has(name):
        return
    mirror = pkg.xml(name)
    present = {st.get(_STYLE_ID) for st in mirror.iterchildren(_STYLE)}
    for st in added:
        if st.get(_STYLE_ID) not in present:
            mirror.append(copy.deepcopy(st))

