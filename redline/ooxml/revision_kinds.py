"""How each kind of tracked change is accepted or rejected: one handler per (tag, where it sits).

Split from :mod:`redline.ooxml.revisions`, which selects the revisions to
resolve (by author, id, paragraph, with move partners) and runs these
handlers over them. Adding a revision kind means adding a handler here; the
tag constants are local so this module imports nothing of the selection.
"""

from __future__ import annotations

from collections.abc import Callable

from lxml import etree

from .markers import drop_content, remove_block
from .oxml import qn

_P = qn("w:p")
_P_PR = qn("w:pPr")
_R_PR = qn("w:rPr")
_TBL = qn("w:tbl")
_TBL_PR = qn("w:tblPr")
_TR = qn("w:tr")
_TR_PR = qn("w:trPr")
_TC = qn("w:tc")
_TC_PR = qn("w:tcPr")
_NUM_PR = qn("w:numPr")
_SECT_PR = qn("w:sectPr")
_CUSTOM_XML = qn("w:customXml")
_CUSTOM_XML_PR = qn("w:customXmlPr")
_V_MERGE = qn("w:vMerge")
_VAL = qn("w:val")
INS, DEL, MOVE_FROM, MOVE_TO = qn("w:ins"), qn("w:del"), qn("w:moveFrom"), qn("w:moveTo")
CELL_INS, CELL_DEL, CELL_MERGE = qn("w:cellIns"), qn("w:cellDel"), qn("w:cellMerge")

Handler = Callable[[etree._Element, etree._Element, bool], "etree._Element | None"]

# Property change records → the properties element each records.
PROPERTY_CHANGES = {
    qn("w:rPrChange"): qn("w:rPr"),
    qn("w:pPrChange"): qn("w:pPr"),
    qn("w:sectPrChange"): _SECT_PR,
    qn("w:tblPrChange"): _TBL_PR,
    qn("w:tblGridChange"): qn("w:tblGrid"),
    qn("w:tblPrExChange"): qn("w:tblPrEx"),
    qn("w:trPrChange"): _TR_PR,
    qn("w:tcPrChange"): _TC_PR,
}
# What a property record does not cover, per container: (children that stay at
# the head, where the restored properties follow them; children that stay at the tail).
_UNRECORDED: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    _P_PR: (frozenset(), frozenset((_R_PR, _SECT_PR))),  # ECMA-376 §17.13.5.29
    _R_PR: (frozenset((INS, DEL, MOVE_FROM, MOVE_TO)), frozenset()),  # a paragraph mark's own revision
    _SECT_PR: (frozenset((qn("w:headerReference"), qn("w:footerReference"))), frozenset()),
    _TR_PR: (frozenset(), frozenset((INS, DEL))),
    _TC_PR: (frozenset(), frozenset((CELL_INS, CELL_DEL, CELL_MERGE))),
}
# Property elements a table or a section break cannot lose, even when empty.
_REQUIRED_PROPS = frozenset((_TBL_PR, qn("w:tblGrid"), _SECT_PR))

# Named move ranges: start tag → the kind of move content it brackets.
MOVE_STARTS = {qn("w:moveFromRangeStart"): MOVE_FROM, qn("w:moveToRangeStart"): MOVE_TO}

# Custom XML markup ranges: start tag → True when the markup was inserted (or moved here).
CUSTOM_XML_STARTS = {
    qn("w:customXmlInsRangeStart"): True,
    qn("w:customXmlDelRangeStart"): False,
    qn("w:customXmlMoveToRangeStart"): True,
    qn("w:customXmlMoveFromRangeStart"): False,
}

# Property containers: a w:ins/w:del inside one records a property revision, not content.
_PROPERTY_PARENTS = frozenset(
    qn(f"w:{t}") for t in ("rPr", "pPr", "numPr", "tcPr", "tblPr", "trPr", "sectPr", "tblPrEx")
)
_RENAME_ON_RESTORE = {qn("w:delText"): qn("w:t"), qn("w:delInstrText"): qn("w:instrText")}

# Where a w:vMerge goes in w:tcPr: after these (ECMA-376 §17.4.66 sequence).
_BEFORE_V_MERGE = frozenset(qn(f"w:{t}") for t in ("cnfStyle", "tcW", "gridSpan", "hMerge"))


def handler(el: etree._Element, parent: etree._Element) -> Handler | None:
    """How to resolve ``el`` given where it sits (None: not a revision we resolve)."""
    tag = el.tag
    handler = _BY_TAG.get(tag)
    if handler is not None:
        return handler
    if parent.tag == _R_PR:
        grand = parent.getparent()
        return _resolve_paragraph_mark if grand is not None and grand.tag == _P_PR else None
    if parent.tag == _TR_PR:
        return _resolve_row if tag in (INS, DEL) else None
    if parent.tag == _NUM_PR:
        return _resolve_numbering_insertion if tag == INS else None
    if parent.tag in _PROPERTY_PARENTS:
        return None
    return _resolve_content


def _resolve_marker(el: etree._Element, parent: etree._Element, accepting: bool) -> None:
    parent.remove(el)


def _resolve_property_change(el: etree._Element, parent: etree._Element, accepting: bool) -> None:
    if not accepting:
        _restore_properties(parent, el)
    parent.remove(el)
    if not accepting and len(parent) == 0 and parent.tag not in _REQUIRED_PROPS and parent.getparent() is not None:
        parent.getparent().remove(parent)  # the recorded original was empty: no such properties


def _resolve_paragraph_mark(el: etree._Element, parent: etree._Element, accepting: bool) -> etree._Element | None:
    """The mark goes when an insertion is rejected or a deletion accepted; its
    paragraph then joins the next one (returned for merging last)."""
    parent.remove(el)
    if (el.tag in (INS, MOVE_TO)) != accepting:
        return parent.getparent().getparent()
    return None


def _resolve_row(el: etree._Element, parent: etree._Element, accepting: bool) -> None:
    parent.remove(el)
    if (el.tag == INS) != accepting:
        tr = parent.getparent()
        tbl = tr.getparent()
        remove_block(tr)
        if tbl is not None and tbl.tag == _TBL and next(tbl.iter(_TR), None) is None:
            _remove_table(tbl)


def _resolve_cell(el: etree._Element, parent: etree._Element, accepting: bool) -> None:
    """An inserted cell goes on reject, a deleted one on accept (and a row left
    without cells goes with it)."""
    parent.remove(el)
    if (el.tag == CELL_INS) != accepting:
        tc = parent.getparent()
        tr = tc.getparent()
        remove_block(tc)
        if tr is not None and tr.tag == _TR and next(tr.iter(_TC), None) is None:
            tbl = tr.getparent()
            remove_block(tr)
            if tbl is not None and tbl.tag == _TBL and next(tbl.iter(_TR), None) is None:
                _remove_table(tbl)


def _resolve_cell_merge(el: etree._Element, parent: etree._Element, accepting: bool) -> None:
    """Set the cell's vertical merge to the revised (accept) or original (reject)
    state recorded on ``w:cellMerge`` ("rest": starts a merge, "cont": continues
    one, absent: not merged)."""
    state = el.get(qn("w:vMerge") if accepting else qn("w:vMergeOrig"))
    parent.remove(el)
    v_merge = parent.find(_V_MERGE)
    if state not in ("rest", "cont"):
        if v_merge is not None:
            parent.remove(v_merge)
        return
    if v_merge is None:
        v_merge = etree.Element(_V_MERGE)
        at = 0
        while at < len(parent) and parent[at].tag in _BEFORE_V_MERGE:
            at += 1
        parent.insert(at, v_merge)
    if state == "rest":
        v_merge.set(_VAL, "restart")
    else:
        v_merge.attrib.pop(_VAL, None)  # continue is the default


def _resolve_numbering_insertion(el: etree._Element, parent: etree._Element, accepting: bool) -> None:
    """``w:numPr/w:ins``: the numbering was added; rejecting removes it."""
    parent.remove(el)
    if not accepting and parent.getparent() is not None:
        parent.getparent().remove(parent)


def _resolve_custom_xml_range(el: etree._Element, parent: etree._Element, accepting: bool) -> None:
    """A custom XML start or end tag inserted or deleted; when it goes, its
    ``w:customXml`` element is unwrapped (the markup goes, the content stays).

    The range brackets the tag: the element is the one right after the range
    start (its start tag) or the one the range start sits in (its end tag).
    """
    following = el.getnext()
    parent.remove(el)
    if CUSTOM_XML_STARTS[el.tag] == accepting:
        return
    target = following if following is not None and following.tag == _CUSTOM_XML else parent
    if target.tag == _CUSTOM_XML and target.getparent() is not None:
        for props in target.findall(_CUSTOM_XML_PR):
            target.remove(props)
        _unwrap(target)


def _resolve_content(el: etree._Element, parent: etree._Element, accepting: bool) -> None:
    if (el.tag in (INS, MOVE_TO)) == accepting:
        if not accepting:
            for old in el.iter(*_RENAME_ON_RESTORE):
                old.tag = _RENAME_ON_RESTORE[old.tag]
        _unwrap(el)
    else:
        drop_content(el)


_BY_TAG: dict[str, Handler] = {
    **{tag: _resolve_marker for tag in MOVE_STARTS},
    **{tag: _resolve_custom_xml_range for tag in CUSTOM_XML_STARTS},
    **{tag: _resolve_property_change for tag in PROPERTY_CHANGES},
    qn("w:numberingChange"): _resolve_marker,
    CELL_INS: _resolve_cell,
    CELL_DEL: _resolve_cell,
    CELL_MERGE: _resolve_cell_merge,
}


def _remove_table(tbl: etree._Element) -> None:
    """Remove a table left without rows; a cell must still end with a paragraph."""
    container = tbl.getparent()
    remove_block(tbl)
    if container is not None and container.tag == _TC and (len(container) == 0 or container[-1].tag != _P):
        etree.SubElement(container, _P)


def _unwrap(el: etree._Element) -> None:
    """Replace an element by its children."""
    for child in list(el):
        el.addprevious(child)
    el.getparent().remove(el)


def _restore_properties(props: etree._Element, change: etree._Element) -> None:
    """Put the properties recorded in a ``w:*PrChange`` back into ``props``,
    keeping what the record does not cover (see ``_UNRECORDED``)."""
    recorded = change.find(PROPERTY_CHANGES[change.tag])
    head_tags, tail_tags = _UNRECORDED.get(props.tag, (frozenset(), frozenset()))
    insert_at = 0
    for child in list(props):
        if child is change or child.tag in tail_tags:
            continue
        if child.tag in head_tags:
            insert_at += 1
            continue
        props.remove(child)
    for child in list(recorded) if recorded is not None else []:
        props.insert(insert_at, child)
        insert_at += 1
