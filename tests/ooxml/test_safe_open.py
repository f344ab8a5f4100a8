"""Safe open: every refusal is a DocxError with a stable code, before any harm is done."""

from __future__ import annotations

import io
import struct
import zipfile

import pytest

from redline.ooxml.errors import DocxError
from redline.ooxml.package import OLE_MAGIC, Limits
from redline.ooxml.paragraphs import read_document
from tests.support.docx_builder import NS_DECL, build_docx, para


def refused(data: bytes, limits: Limits | None = None) -> str:
    with pytest.raises(DocxError) as info:
        read_document(data, **({"limits": limits} if limits else {}))
    return info.value.code


def rezip(data: bytes, replace: dict[str, bytes | None] | None = None, add: dict[str, bytes] | None = None,
          compress: int = zipfile.ZIP_DEFLATED) -> bytes:
    """Copy a zip, replacing (None: dropping) or adding entries."""
    replace = replace or {}
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compress) as z:
        for name in src.namelist():
            if name in replace:
                if replace[name] is not None:
                    z.writestr(name, replace[name])
                continue
            z.writestr(name, src.read(name))
        for name, blob in (add or {}).items():
            z.writestr(name, blob)
    return out.getvalue()


def ole(stream_name: str) -> bytes:
    """An OLE compound-file header followed by a directory entry naming ``stream_name``."""
    return OLE_MAGIC + b"\0" * 504 + stream_name.encode("utf-16-le") + b"\0" * 512


GOOD = build_docx(para("Hello"))


def test_good_file_reads():
    assert [p.text for p in read_document(GOOD).paragraphs] == ["Hello"]


@pytest.mark.parametrize("data", [b"", b"hello world", b"PK\x03\x04 truncated zip"])
def test_not_a_zip(data):
    assert refused(data) == "not_a_zip"


def test_zip_without_content_types_is_not_a_docx():
    assert refused(rezip(GOOD, {"[Content_Types].xml": None})) == "not_a_docx"


def test_spreadsheet_is_not_a_docx():
    ct = zipfile.ZipFile(io.BytesIO(GOOD)).read("[Content_Types].xml").replace(
        b"wordprocessingml.document.main+xml", b"spreadsheetml.sheet.main+xml")
    assert refused(rezip(GOOD, {"[Content_Types].xml": ct})) == "not_a_docx"


def test_password_protected_file_is_encrypted():
    assert refused(ole("EncryptionInfo")) == "encrypted"


def test_binary_word_97_file_is_legacy_doc():
    assert refused(ole("WordDocument")) == "legacy_doc"


def test_file_over_the_size_limit_is_too_large():
    assert refused(GOOD, Limits(max_compressed=len(GOOD) - 1)) == "too_large"


def test_high_compression_ratio_entry_is_a_zip_bomb():
    bomb = rezip(GOOD, add={"word/media/zeros.bin": b"\0" * (8 * 1024 * 1024)})
    assert len(bomb) < 100_000
    assert refused(bomb) == "zip_bomb"


def test_total_expansion_over_the_limit_is_a_zip_bomb():
    assert refused(GOOD, Limits(max_uncompressed=1000)) == "zip_bomb"


def test_too_many_entries_is_a_zip_bomb():
    many = rezip(GOOD, add={f"customXml/item{i}.xml": b"<a/>" for i in range(30)})
    assert refused(many, Limits(max_entries=20)) == "zip_bomb"


def test_entry_expanding_beyond_its_declared_size_is_refused():
    # A zip bomb trick: the central directory declares a tiny uncompressed size so
    # the limits pass, but the entry inflates to more. It must never be read in full.
    data = rezip(GOOD, add={"word/media/blob.bin": b"x" * 5000})
    name_at = data.rfind(b"word/media/blob.bin")
    cd = data.rfind(b"PK\x01\x02", 0, name_at)
    assert struct.unpack("<I", data[cd + 24:cd + 28]) == (5000,)
    lying = data[:cd + 24] + struct.pack("<I", 100) + data[cd + 28:]
    assert refused(lying) == "not_a_zip"


def test_malformed_document_xml():
    assert refused(rezip(GOOD, {"word/document.xml": b"<w:document><w:body>"})) == "malformed_xml"


def test_malformed_styles_part_is_reported_when_read():
    assert refused(rezip(GOOD, {"word/styles.xml": b"<w:styles"})) == "malformed_xml"


def test_missing_main_part():
    assert refused(rezip(GOOD, {"word/document.xml": None})) == "missing_part"


def test_strict_ooxml_is_refused():
    strict = (b'<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://purl.oclc.org/ooxml/wordprocessingml/main">'
              b"<w:body><w:p/></w:body></w:document>")
    assert refused(rezip(GOOD, {"word/document.xml": strict})) == "unsupported_strict"


BILLION_LAUGHS = (
    '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
    '<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">'
    '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>'
    f'<w:document {NS_DECL}><w:body><w:p><w:r><w:t>&lol3;</w:t></w:r></w:p></w:body></w:document>'
)
EXTERNAL_ENTITY = (
    '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>'
    f'<w:document {NS_DECL}><w:body><w:p><w:r><w:t>&xxe;</w:t></w:r></w:p></w:body></w:document>'
)


@pytest.mark.parametrize("xml", [BILLION_LAUGHS, EXTERNAL_ENTITY], ids=["billion_laughs", "external_entity"])
def test_entity_tricks_are_refused(xml):
    assert refused(rezip(GOOD, {"word/document.xml": xml.encode()})) == "malformed_xml"


def test_entity_tricks_in_a_secondary_part_are_refused():
    styles = EXTERNAL_ENTITY.replace("w:document", "w:styles").replace("<w:body><w:p><w:r><w:t>&xxe;</w:t></w:r></w:p></w:body>", "")
    assert refused(rezip(GOOD, {"word/styles.xml": styles.encode()})) == "malformed_xml"
