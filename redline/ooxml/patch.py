"""Patches for the Word add-in: one op's result as a flat-OPC package.

The add-in replaces the anchored paragraph with ``Word.Range.insertOoxml``,
which takes a *flat OPC* document: one XML file (``pkg:package``) holding every
part inline. A patch holds the resulting paragraph(s) with their tracked
changes and anchor bookmark, any comment (with commentsExtended, commentsIds
and people), and the style and numbering definitions the paragraphs and the
comment use, so Word shows them as the full document would.

The op is applied by the same :class:`~redline.ooxml.writer.Redliner`, with the
same round-trip proof, to a small scratch document holding a copy of the
anchored paragraph (and of the one after it, which a deletion or insertion may
need to join with; it is not part of the patch). Comments already on the
paragraph travel with it, so replacing the paragraph does not lose them.
Footnote references inside the paragraph are not carried (known limit).

:func:`patch_to_docx` turns a patch into an ordinary .docx, for tests and
outside readers.
"""

from __future__ import annotations

import base64
import copy
import io
import posixpath
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass

from lxml import etree

from .anchors import anchor_map
from .comments import CONTENT_TYPES, template
from .errors import DocxError
from .ops import DEFAULT_AUTHOR, Op, OpResult
from .oxml import NSMAP, REL_TYPE, parse_xml, qn, serialize
from .package import MAIN_CT, Package
from .revisions import next_paragraph
from .text import paragraph_text
from .writer import Redliner

RELS_CT = "application/vnd.openxmlformats-package.relationships+xml"
_R_NS = NSMAP["r"]
_PKG_PART = qn("pkg:part")
_W_ID = qn("w:id")
_VAL = qn("w:val")
_STYLE = qn("w:style")
_STYLE_ID = qn("w:styleId")
_NUM = qn("w:num")
_ABSTRACT = qn("w:abstractNum")
_NUM_ID = qn("w:numId")
_ABSTRACT_ID = qn("w:abstractNumId")
_COMMENT_KINDS = ("comments", "commentsExtended", "commentsIds", "people")
_MAIN = "word/document.xml"
_CONTENT_TYPES = {
    **CONTENT_TYPES,
    "numbering": "application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml",
}
_STYLE_REFS = tuple(qn(f"w:{t}") for t in ("pStyle", "rStyle", "tblStyle"))
_STYLE_LINKS = tuple(qn(f"w:{t}") for t in ("basedOn", "link", "next"))
_LIST_STYLE_LINKS = tuple(qn(f"w:{t}") for t in ("styleLink", "numStyleLink"))


@dataclass(frozen=True, slots=True)
class Patch:
    """A flat-OPC patch for one op, and what applying the op reported.

    ``xml`` is None when the op was skipped (``result`` says why).
    """

    xml: bytes | None
    result: OpResult


@dataclass(frozen=True, slots=True)
class ComposedPatch:
    """One flat-OPC patch for several ops on one paragraph, with one result per op
    (in the order applied), the anchored paragraph's text once they are accepted,
    and how many of the patch's paragraphs are new ones before and after it (an
    insertion's), which a later patch of the same paragraph must replace too."""

    xml: bytes | None
    results: list[OpResult]
    text: str = ""
    before: int = 0
    after: int = 0


class PatchBuilder:
    """Builds patches for ops on one (anchored) document; the document is not changed."""

    def __init__(self, pkg: Package, *, author: str = DEFAULT_AUTHOR, date: str | None = None) -> None:
        self.pkg = pkg
        self.author = author
        self.date = date
        self._anchors = anchor_map(pkg.xml(pkg.main_part))

    def build(self, op: Op) -> Patch:
        """The patch for ``op`` against the document as it is now."""
        composed = self.compose([op])
        return Patch(composed.xml, composed.results[0])

    def compose(self, ops: Sequence[Op]) -> ComposedPatch:
        """One patch for several ops on the same anchored paragraph.

        The ops are applied in ``op.index`` order (the order
        :func:`~redline.ooxml.writer.redline_document` applies a run's ops in) by one
        :class:`~redline.ooxml.writer.Redliner` over the scratch copy, so the patch
        reads exactly as that paragraph does in the whole-document redline, whatever
        order the caller lists the ops in. ``xml`` is None when no op applied.
        """
        ordered = sorted(ops, key=lambda o: o.index)
        anchors = {o.anchor for o in ordered}
        if len(anchors) != 1:
            raise ValueError(f"compose() takes ops on one paragraph, got anchors {sorted(anchors)}")
        anchor = anchors.pop()
        p = self._anchors.get(anchor)
        if p is None:
            missing = [OpResult(o, "skipped", "anchor_not_found", f"No paragraph holds anchor {anchor}.")
                       for o in ordered]
            return ComposedPatch(None, missing)
        nxt = next_paragraph(p)
        scratch = _scratch(self.pkg, [p] + ([nxt] if nxt is not None else []))
        seed = "\0".join(o.entry_id for o in ordered).encode()
        redliner = Redliner(scratch, author=self.author, date=self.date, seed=seed)
        results = redliner.apply_all(ordered)
        if not any(r.status == "applied" for r in results):
            return ComposedPatch(None, results)
        body = scratch.xml(scratch.main_part).find(qn("w:body"))
        paragraphs = list(body)
        if nxt is not None:
            paragraphs = paragraphs[:-1]  # the follower was context, not content
        anchored = anchor_map(body)[anchor]  # an op may rewrite the paragraph, never drop its anchor
        at = paragraphs.index(anchored)
        text = paragraph_text(anchored)
        return ComposedPatch(_flat_opc(scratch, paragraphs), results, text, at, len(paragraphs) - at - 1)


def _scratch(pkg: Package, paragraphs: list[etree._Element]) -> Package:
    """A small package: copies of ``paragraphs`` in a body, the relationships they
    use (same ids), the source's styles and numbering, and the comments on them."""
    src_doc = pkg.xml(pkg.main_part)
    doc = etree.Element(src_doc.tag, nsmap=src_doc.nsmap, attrib=dict(src_doc.attrib))
    body = etree.SubElement(doc, qn("w:body"))
    for p in paragraphs:
        body.append(copy.deepcopy(p))
    parts: dict[str, bytes] = {
        "[Content_Types].xml": serialize(template("content-types.xml")),
        "_rels/.rels": serialize(template("package-rels.xml")),
        "word/document.xml": serialize(doc),
    }
    scratch = Package(parts, _MAIN)
    scratch.set_content_type(_MAIN, MAIN_CT)
    _copy_used_rels(pkg, scratch, body)
    for kind in ("styles", "numbering"):
        name = pkg.related_part(pkg.main_part, kind)
        if name and pkg.has(name):
            target = f"word/{kind}.xml"
            scratch.set_xml(target, parse_xml(pkg.blob(name)), _CONTENT_TYPES[kind])
            scratch.add_rel(_MAIN, kind, target)
    _copy_comments(pkg, scratch, body)
    return scratch


def _copy_used_rels(pkg: Package, scratch: Package, body: etree._Element) -> None:
    """Carry the relationships (hyperlinks, images) the paragraphs point at, same ids."""
    src_rels = Package.rels_name(pkg.main_part)
    used = _used_rids(body)
    if not used or not pkg.has(src_rels):
        return
    rels_root = etree.Element(qn("pr:Relationships"), nsmap={None: NSMAP["pr"]})
    for rel in pkg.xml(src_rels).iterchildren(qn("pr:Relationship")):
        if rel.get("Id") not in used:
            continue
        rels_root.append(copy.deepcopy(rel))
        if rel.get("TargetMode") != "External":
            target = posixpath.normpath(posixpath.join(posixpath.dirname(pkg.main_part), rel.get("Target", "")))
            if pkg.has(target):
                name = posixpath.normpath(posixpath.join("word", rel.get("Target", "")))
                scratch.set_blob(name, pkg.blob(target), pkg.content_type(target))
    scratch.set_xml(Package.rels_name(_MAIN), rels_root)


def _used_rids(tree: etree._Element) -> set[str]:
    """Relationship ids referenced from ``r:``-namespaced attributes under ``tree``."""
    return {v for el in tree.iter() for k, v in el.attrib.items() if k.startswith(f"{{{_R_NS}}}")}


def _copy_comments(pkg: Package, scratch: Package, body: etree._Element) -> None:
    """Copy the comments anchored in the paragraphs, so replacing them keeps those."""
    ids = {el.get(_W_ID) for el in body.iter(qn("w:commentRangeStart"), qn("w:commentReference"))}
    name = pkg.related_part(pkg.main_part, "comments")
    if not ids or not name or not pkg.has(name):
        return
    root = template("comments.xml")
    para_ids: set[str] = set()
    for c in pkg.xml(name).iterchildren(qn("w:comment")):
        if c.get(_W_ID) in ids:
            root.append(copy.deepcopy(c))
            para_ids.update(str(v) for v in c.xpath(".//@w14:paraId", namespaces={"w14": NSMAP["w14"]}))
    scratch.set_xml("word/comments.xml", root, CONTENT_TYPES["comments"])
    scratch.add_rel(_MAIN, "comments", "word/comments.xml")
    for kind, attr in (("commentsExtended", "w15:paraId"), ("commentsIds", "w16cid:paraId")):
        src = pkg.related_part(pkg.main_part, kind)
        if not src or not pkg.has(src):
            continue
        part = template(f"{kind}.xml")
        part.extend(copy.deepcopy(e) for e in pkg.xml(src) if e.get(qn(attr)) in para_ids)
        scratch.set_xml(f"word/{kind}.xml", part, CONTENT_TYPES[kind])
        scratch.add_rel(_MAIN, kind, f"word/{kind}.xml")


def _flat_opc(scratch: Package, paragraphs: list[etree._Element]) -> bytes:
    """Serialise the patch paragraphs and what they need as a ``pkg:package``."""
    src_doc = scratch.xml(scratch.main_part)
    doc = etree.Element(src_doc.tag, nsmap=src_doc.nsmap, attrib=dict(src_doc.attrib))
    body = etree.SubElement(doc, qn("w:body"))
    body.extend(paragraphs)
    main = scratch.main_part
    comment_parts = {k: scratch.related_part(main, k) for k in _COMMENT_KINDS}
    comments_root = scratch.xml(comment_parts["comments"]) if comment_parts["comments"] else None
    rels = etree.Element(qn("pr:Relationships"), nsmap={None: NSMAP["pr"]})
    parts: list[tuple[str, str, etree._Element | bytes]] = []
    used_rids = _used_rids(body)
    styles_name = scratch.related_part(main, "styles")
    numbering_name = scratch.related_part(main, "numbering")
    numbering = _numbering_subset(scratch, body) if numbering_name else None
    for rel in scratch.xml(Package.rels_name(main)).iterchildren(qn("pr:Relationship")):
        target = rel.get("Target", "")
        resolved = posixpath.normpath(posixpath.join("word", target))
        typ = rel.get("Type", "")
        keep = rel.get("Id") in used_rids
        if typ == REL_TYPE["styles"] and styles_name:
            parts.append((resolved, CONTENT_TYPES["styles"], _style_subset(scratch, body, comments_root, numbering)))
            keep = True
        elif typ == REL_TYPE["numbering"] and numbering is not None:
            parts.append((resolved, _CONTENT_TYPES["numbering"], numbering))
            keep = True
        elif any(typ == REL_TYPE[k] for k in _COMMENT_KINDS) and comment_parts["comments"]:
            parts.append((resolved, scratch.content_type(resolved) or "", scratch.xml(resolved)))
            keep = True
        elif keep and rel.get("TargetMode") != "External" and scratch.has(resolved):
            parts.append((resolved, scratch.content_type(resolved) or "application/octet-stream",
                          scratch.blob(resolved)))
        if keep:
            rels.append(copy.deepcopy(rel))
    pkg_rels = template("package-rels.xml")
    out = etree.Element(qn("pkg:package"), nsmap={"pkg": NSMAP["pkg"]})
    _add_part(out, "_rels/.rels", RELS_CT, pkg_rels)
    _add_part(out, "word/document.xml", MAIN_CT, doc)
    _add_part(out, "word/_rels/document.xml.rels", RELS_CT, rels)
    for name, ct, content in parts:
        _add_part(out, name, ct, content)
    head = b'<?xml version="1.0" standalone="yes"?>\n<?mso-application progid="Word.Document"?>\n'
    return head + etree.tostring(out, encoding="UTF-8")


def _add_part(package: etree._Element, name: str, content_type: str, content: etree._Element | bytes) -> None:
    part = etree.SubElement(package, _PKG_PART)
    part.set(qn("pkg:name"), "/" + name)
    part.set(qn("pkg:contentType"), content_type)
    if isinstance(content, bytes):
        part.set(qn("pkg:compression"), "store")
        etree.SubElement(part, qn("pkg:binaryData")).text = base64.b64encode(content).decode("ascii")
    else:
        etree.SubElement(part, qn("pkg:xmlData")).append(copy.deepcopy(content))


def _style_subset(scratch: Package, body: etree._Element, comments: etree._Element | None,
                  numbering: etree._Element | None) -> etree._Element:
    """The styles the patch uses (its paragraphs, comments and lists), with their
    basedOn/link/next chains and the document defaults (everything else in
    styles.xml is left out)."""
    root = scratch.xml(scratch.related_part(scratch.main_part, "styles"))
    by_id = {st.get(_STYLE_ID): st for st in root.iterchildren(_STYLE)}
    trees = [t for t in (body, comments, numbering) if t is not None]
    wanted = {el.get(_VAL) for tree in trees for el in tree.iter(*_STYLE_REFS, *_LIST_STYLE_LINKS)}
    wanted |= {st.get(_STYLE_ID) for st in by_id.values() if st.get(qn("w:default")) in ("1", "true", "on")}
    todo = list(wanted)
    while todo:
        st = by_id.get(todo.pop())
        if st is None:
            continue
        for link in st.iterchildren(*_STYLE_LINKS):
            if link.get(_VAL) not in wanted:
                wanted.add(link.get(_VAL))
                todo.append(link.get(_VAL))
    out = etree.Element(root.tag, nsmap=root.nsmap, attrib=dict(root.attrib))
    for child in root:
        if child.tag != _STYLE or child.get(_STYLE_ID) in wanted:
            if child.tag == qn("w:latentStyles"):
                continue
            out.append(copy.deepcopy(child))
    return out


def _numbering_subset(scratch: Package, body: etree._Element) -> etree._Element | None:
    """The lists the patch paragraphs (or their styles) number with, complete, or None.

    Complete means what Word needs to draw them: each ``w:num`` with its whole
    ``w:abstractNum``; for an abstractNum that follows a numbering style
    (``w:numStyleLink``), the list that style numbers with and its abstractNum
    (``w:styleLink``); and the picture bullets (``w:numPicBullet``) the levels use.
    Definitions are copied whole, in the source's order (the schema's).
    """
    root = scratch.xml(scratch.related_part(scratch.main_part, "numbering"))
    styles_name = scratch.related_part(scratch.main_part, "styles")
    styles = {st.get(_STYLE_ID): st for st in scratch.xml(styles_name).iterchildren(_STYLE)} if styles_name else {}
    nums = {n.get(_NUM_ID): n for n in root.iterchildren(_NUM)}
    abstracts = {a.get(_ABSTRACT_ID): a for a in root.iterchildren(_ABSTRACT)}
    num_ids = {el.get(_VAL) for el in body.iter(_NUM_ID)}
    num_ids |= {el.get(_VAL) for sid in {el.get(_VAL) for el in body.iter(qn("w:pStyle"))}
                if sid in styles for el in styles[sid].iter(_NUM_ID)}
    num_ids.discard("0")
    abstract_ids: set[str] = set()
    todo = list(num_ids)
    while todo:
        num = nums.get(todo.pop())
        ref = num.find(_ABSTRACT_ID) if num is not None else None
        abstract_id = ref.get(_VAL) if ref is not None else None
        if abstract_id is None or abstract_id in abstract_ids or abstract_id not in abstracts:
            continue
        abstract_ids.add(abstract_id)
        for link in abstracts[abstract_id].iterchildren(qn("w:numStyleLink")):
            style = styles.get(link.get(_VAL))
            for el in style.iter(_NUM_ID) if style is not None else ():
                if el.get(_VAL) not in num_ids:
                    num_ids.add(el.get(_VAL))
                    todo.append(el.get(_VAL))
    if not num_ids:
        return None
    pictures = {el.get(_VAL) for a in abstract_ids for el in abstracts[a].iter(qn("w:lvlPicBulletId"))}
    out = etree.Element(root.tag, nsmap=root.nsmap, attrib=dict(root.attrib))
    for child in root:
        if ((child.tag == _ABSTRACT and child.get(_ABSTRACT_ID) in abstract_ids)
                or (child.tag == _NUM and child.get(_NUM_ID) in num_ids)
                or (child.tag == qn("w:numPicBullet") and child.get(qn("w:numPicBulletId")) in pictures)):
            out.append(copy.deepcopy(child))
    return out


def patch_to_docx(xml: bytes) -> bytes:
    """An ordinary .docx holding exactly the parts of a flat-OPC patch."""
    try:
        root = parse_xml(xml)
    except etree.XMLSyntaxError as exc:
        raise DocxError("malformed_xml", f"The patch is not well-formed XML: {exc}") from None
    types = template("content-types.xml")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        files: list[tuple[str, bytes]] = []
        for part in root.iterchildren(_PKG_PART):
            name = part.get(qn("pkg:name"), "").lstrip("/")
            ct = part.get(qn("pkg:contentType"), "")
            xml_data = part.find(qn("pkg:xmlData"))
            if xml_data is not None and len(xml_data):
                files.append((name, serialize(xml_data[0])))
            else:
                files.append((name, base64.b64decode(part.findtext(qn("pkg:binaryData")) or "")))
            if not name.endswith(".rels"):
                etree.SubElement(types, qn("ct:Override"), PartName="/" + name, ContentType=ct)
        zf.writestr("[Content_Types].xml", serialize(types))
        for name, data in files:
            zf.writestr(name, data)
    return buf.getvalue()
