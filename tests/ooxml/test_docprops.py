"""RedlineDocID: added once to docProps/custom.xml, kept after, other properties untouched."""

from __future__ import annotations

import io
import re
import zipfile

from redline.ooxml.docprops import USER_DEFINED_FMTID, ensure_doc_id, get_doc_id
from redline.ooxml.oxml import parse_xml, qn
from redline.ooxml.package import Package
from redline.ooxml.paragraphs import read_document
from tests.support import oracles
from tests.support.docx_builder import build_docx, para

CUSTOM = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/custom-properties" '
    'xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">'
    '<property fmtid="{D5CDD505-2E9C-101B-9397-08002B2CF9AE}" pid="2" name="Client"><vt:lpwstr>ACME</vt:lpwstr></property>'
    '<property fmtid="{D5CDD505-2E9C-101B-9397-08002B2CF9AE}" pid="5" name="MatterNo"><vt:i4>42</vt:i4></property>'
    "{extra}</Properties>"
)


def part(docx: bytes, name: str) -> bytes:
    return zipfile.ZipFile(io.BytesIO(docx)).read(name)


def test_document_without_custom_properties_gets_the_part_type_and_relationship(tmp_path):
    data = build_docx(para("x"))
    assert get_doc_id(Package.open(data)) is None
    result = read_document(data)
    assert re.fullmatch(r"[0-9A-F]{16}", result.doc_id)
    props = parse_xml(part(result.docx, "docProps/custom.xml"))
    [prop] = props.iterchildren(qn("cp:property"))
    assert (prop.get("fmtid"), prop.get("pid"), prop.get("name")) == (USER_DEFINED_FMTID, "2", "RedlineDocID")
    assert prop.findtext(qn("vt:lpwstr")) == result.doc_id
    assert b'PartName="/docProps/custom.xml"' in part(result.docx, "[Content_Types].xml")
    assert b"relationships/custom-properties" in part(result.docx, "_rels/.rels")
    path = tmp_path / "a.docx"
    path.write_bytes(result.docx)
    assert oracles.stats(path)["custom_property_names"] == ["RedlineDocID"]
    assert get_doc_id(Package.open(result.docx)) == result.doc_id


def test_existing_custom_properties_are_kept_and_pid_continues():
    data = build_docx(para("x"), custom_props=CUSTOM.replace("{extra}", ""))
    result = read_document(data)
    props = parse_xml(part(result.docx, "docProps/custom.xml"))
    rows = [(p.get("pid"), p.get("name"), p[0].text) for p in props.iterchildren(qn("cp:property"))]
    assert rows == [("2", "Client", "ACME"), ("5", "MatterNo", "42"), ("6", "RedlineDocID", result.doc_id)]
    assert part(result.docx, "_rels/.rels").count(b"custom-properties") == 1


def test_existing_doc_id_is_kept():
    extra = ('<property fmtid="{D5CDD505-2E9C-101B-9397-08002B2CF9AE}" pid="6" name="RedlineDocID">'
             "<vt:lpwstr>00112233AABBCCDD</vt:lpwstr></property>")
    data = build_docx(para("x"), custom_props=CUSTOM.replace("{extra}", extra))
    assert read_document(data).doc_id == "00112233AABBCCDD"
    assert read_document(data, anchor=False).doc_id == "00112233AABBCCDD"


def test_doc_id_is_derived_from_the_seed():
    a, b = Package.open(build_docx(para("x"))), Package.open(build_docx(para("x")))
    assert ensure_doc_id(a, seed=b"one") == ensure_doc_id(b, seed=b"one")
    c = Package.open(build_docx(para("x")))
    assert ensure_doc_id(c, seed=b"two") != ensure_doc_id(a, seed=b"one")
