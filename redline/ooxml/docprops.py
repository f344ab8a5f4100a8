"""Document identity: the ``RedlineDocID`` custom document property.

A custom property in ``docProps/custom.xml`` survives renaming, e-mail and
saving by Word or LibreOffice, so when a reviewed file comes back we can find
its earlier runs. It is added once and kept afterwards; other custom
properties are left exactly as they were.
"""

from __future__ import annotations

import hashlib

from lxml import etree

from .oxml import NSMAP, decimal_number, qn
from .package import Package

DOC_ID_PROPERTY = "RedlineDocID"
CUSTOM_PART = "docProps/custom.xml"
CUSTOM_CT = "application/vnd.openxmlformats-officedocument.custom-properties+xml"
# The format id Office uses for user-defined custom properties.
USER_DEFINED_FMTID = "{D5CDD505-2E9C-101B-9397-08002B2CF9AE}"

_PROPERTY = qn("cp:property")
_LPWSTR = qn("vt:lpwstr")


def get_doc_id(pkg: Package) -> str | None:
    """The document's ``RedlineDocID``, or None when it has none."""
    prop = _find_property(pkg)
    if prop is None:
        return None
    value = prop.find(_LPWSTR)
    text = (value.text or "").strip() if value is not None else ""
    return text or None


def ensure_doc_id(pkg: Package, *, seed: bytes, value: str | None = None) -> str:
    """Return the document's ``RedlineDocID``, adding one if missing.

    A new id is 16 uppercase hex characters derived from ``seed`` (the input's
    bytes or their hash), so processing the same file twice gives the same id;
    callers that want a fresh identity for identical bytes pass their own seed,
    and callers that already know the id (the add-in sent it) pass ``value``.
    The custom-properties part, its content type and the package relationship
    are created when missing.
    """
    existing = get_doc_id(pkg)
    if existing:
        return existing
    doc_id = value or hashlib.sha256(b"RedlineDocID\0" + seed).hexdigest()[:16].upper()
    root = _custom_root(pkg)
    stale = _find_property(pkg)
    if stale is not None:  # present but empty: replace it in place
        root.remove(stale)
    pids = [n for p in root.iterchildren(_PROPERTY) if (n := decimal_number(p.get("pid"))) is not None]
    prop = etree.SubElement(root, _PROPERTY)
    prop.set("fmtid", USER_DEFINED_FMTID)
    prop.set("pid", str(max([1, *pids]) + 1))
    prop.set("name", DOC_ID_PROPERTY)
    etree.SubElement(prop, _LPWSTR).text = doc_id
    return doc_id


def _find_property(pkg: Package) -> etree._Element | None:
    part = _custom_part_name(pkg)
    if part is None:
        return None
    for prop in pkg.xml(part).iterchildren(_PROPERTY):
        if prop.get("name") == DOC_ID_PROPERTY:
            return prop
    return None


def _custom_part_name(pkg: Package) -> str | None:
    name = pkg.related_part("", "custom-properties")
    if name is not None and pkg.has(name):
        return name
    return None


def _custom_root(pkg: Package) -> etree._Element:
    """The custom-properties root, creating the part, content type and relationship."""
    name = _custom_part_name(pkg)
    if name is not None:
        return pkg.xml(name)
    root = etree.Element(qn("cp:Properties"), nsmap={None: NSMAP["cp"], "vt": NSMAP["vt"]})
    pkg.set_xml(CUSTOM_PART, root, CUSTOM_CT)
    pkg.add_rel("", "custom-properties", CUSTOM_PART)
    return root
