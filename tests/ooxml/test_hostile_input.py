"""Hostile and broken .docx input: the reader only ever raises ``DocxError``, in bounded time and memory.

A seed corpus of the project's own test documents (builder documents with
lists, tables, content controls, every kind of tracked change and comments,
and a generated one-page contract) is mutated by hypothesis at the zip level
(dropped, swapped, renamed and duplicated entries, stored instead of
deflated, truncation, flipped bytes) and at the XML level (cut, inserted and
copied bytes, hostile tokens, attribute values such as ``"²"`` or twenty-digit
numbers, grafted and removed elements). Every input is read in a forked child
(tests/support/bounded.py) so a time limit, a memory measurement and an
address-space safety net apply to each one. Then the classic attacks, one by one.

Found by this fuzzing and fixed in ``redline/ooxml``: corrupt deflate streams
(``zlib.error``) and a too-new "version needed" field (``NotImplementedError``)
escaped as untyped errors; Unicode digits (``w:ilvl="²"``, bookmark ids,
outline levels) passed ``str.isdigit`` and crashed ``int()``; and a tiny file
could ask for a gigantic list label (``w:start`` in the billions with letter
or roman numbering, or a custom number format megabytes wide).
"""

from __future__ import annotations

import copy
import functools
import io
import os
import subprocess
import sys
import tempfile
import warnings
import zipfile
from pathlib import Path

import msoffcrypto.format.ooxml
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from redline.ooxml.numbering import format_number
from redline.ooxml.oxml import decimal_number
from redline.ooxml.package import OLE_MAGIC
from redline.ooxml.paragraphs import read_document
from tests.ooxml.read_helpers import abstract, lvl, np, num, numbering
from tests.support.bounded import Outcome, bounded
from tests.support.docx_builder import build_docx, para
from tests.support.revision_docs import every_kind_docx

PER_INPUT_S = 10.0  # generous for a loaded CI machine; a typical mutated input reads in well under 0.2 s
PER_INPUT_MIB = 256
FUZZ_EXAMPLES = 200  # per test; each input costs a fork and a read: about 15 s for both tests
FUZZ = settings(max_examples=FUZZ_EXAMPLES, deadline=None, derandomize=os.environ.get("CI") == "true",
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

MAKE_CONTRACT = Path(__file__).resolve().parents[1] / "support" / "make_contract.py"
NUMBERING = numbering(abstract(1, lvl(0, "decimal", "%1."), lvl(1, "lowerLetter", "%1.%2(%2)"),
                               lvl(2, "upperRoman", "(%3)")), num(1, 1), num(2, 1))


@functools.cache
def seeds() -> tuple[bytes, ...]:
    """The corpus: small builder documents, every revision kind, and a generated one-page contract."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "contract.docx"
        subprocess.run([sys.executable, str(MAKE_CONTRACT), "--pages", "1", "-o", str(out)], check=True,
                       capture_output=True)
        contract = out.read_bytes()
    lists = build_docx(
        np("First", 1, 0) + np("Second", 1, 1) + np("Third", 2, 2)
        + '<w:tbl><w:tr><w:tc><w:sdt><w:sdtContent>' + para("In a cell") + "</w:sdtContent></w:sdt></w:tc></w:tr></w:tbl>"
        + '<w:p><w:pPr><w:outlineLvl w:val="1"/></w:pPr><w:bookmarkStart w:id="7" w:name="_RL_00000000000a"/>'
          '<w:r><w:t>Anchored</w:t></w:r><w:bookmarkEnd w:id="7"/></w:p>',
        numbering=NUMBERING,
    )
    simple = build_docx(para("1. Definitions", style="Heading1") + para("The Supplier shall deliver the Goods."))
    return simple, lists, every_kind_docx(), contract


def summary(data: bytes) -> tuple[int, list[str | None]]:
    """Read (anchoring), then read the anchored output again: it must open and keep its anchors."""
    first = read_document(data)
    again = read_document(first.docx, anchor=False)
    anchors = [p.anchor for p in first.paragraphs]
    assert [p.anchor for p in again.paragraphs] == anchors, "anchors changed on re-reading the anchored output"
    return len(first.paragraphs), anchors


def assert_refused_or_read(outcome: Outcome, budget_s: float = PER_INPUT_S, budget_mib: float = PER_INPUT_MIB,
                           case: object = "") -> None:
    """``case`` names the input in failure messages (hypothesis cannot print arguments a fork consumed)."""
    assert not outcome.timed_out, f"no answer within {budget_s} s: {case}"
    assert outcome.error_type in (None, "DocxError"), f"{case}\n{outcome.error_text}"
    assert outcome.error_type is None or outcome.error_code, f"DocxError without a code: {case}"
    assert outcome.peak_growth_mib <= budget_mib, f"peak memory grew {outcome.peak_growth_mib:.0f} MiB: {case}"


# -- mutations -----------------------------------------------------------------------------

TOKENS = (
    "", "<", ">", "&", '"', "&amp;", "&#0;", "&#xD800;", "]]>", "<!DOCTYPE x>", "<?pi?>", "<w:p>", "</w:p>",
    "<w:tbl>", "<w:tr><w:tc>", "<w:ins w:id=\"1\">", "<w:fldChar w:fldCharType=\"begin\"/>",
    "<w:sdt><w:sdtContent>", "<w:numPr><w:ilvl w:val=\"8\"/><w:numId w:val=\"1\"/></w:numPr>",
    "-1", "0", "8", "9", "²", "٣", "99999999999999999999", "2147483647", "-2147483648", "1" * 5000,
    "abc", "%9%1", "%", "lowerLetter", "upperRoman", "bullet", "custom", "decimalZero",
    "rId1", "rId999", "/", "../../../etc/passwd", "word/document.xml", "http://example.invalid/x",
    "_RL_000000000001", "Heading1", "Normal", "\u202e", "\U0001f600",
)
ENTRY_NAMES = ("word/document.xml", "[Content_Types].xml", "_rels/.rels", "word/_rels/document.xml.rels",
               "word/styles.xml", "word/numbering.xml", "/word/document.xml", "WORD/DOCUMENT.XML", "word/extra.bin")
W_ATTRS = tuple(f"{{http://schemas.openxmlformats.org/wordprocessingml/2006/main}}{a}"
                for a in ("val", "id", "name", "ilvl", "numId", "fldCharType", "abstractNumId", "styleId"))
PLAIN_ATTRS = ("Target", "Type", "Id", "TargetMode", "PartName", "ContentType", "Extension")

ZIP_OPS = ("drop", "swap", "rename", "duplicate_name", "stored", "truncate", "flip")
XML_OPS = ("cut", "insert", "copy", "attr", "remove", "graft", "text")

zip_op = st.tuples(st.sampled_from(ZIP_OPS), st.integers(0, 1 << 20), st.integers(0, 255),
                   st.sampled_from(ENTRY_NAMES))
xml_op = st.tuples(st.sampled_from(XML_OPS), st.integers(0, 1 << 20), st.integers(0, 1 << 20),
                   st.sampled_from(TOKENS))


def _entries(data: bytes) -> list[tuple[str, bytes]]:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return [(i.filename, z.read(i)) for i in z.infolist()]


def _zip(entries: list[tuple[str, bytes]], compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression) as z:
        for name, blob in entries:
            z.writestr(zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), blob, compress_type=compression)
    return buf.getvalue()


def mutate_zip(data: bytes, ops: list[tuple[str, int, int, str]]) -> bytes:
    """Entry-level operations first, then byte-level damage to the finished zip."""
    entries = _entries(data)
    compression = zipfile.ZIP_DEFLATED
    for kind, a, b, name in ops:
        i = a % len(entries) if entries else 0
        if kind == "drop" and entries:
            entries.pop(i)
        elif kind == "swap" and entries:
            entries[i] = (entries[i][0], entries[b % len(entries)][1])
        elif kind == "rename" and entries:
            entries[i] = (name, entries[i][1])
        elif kind == "duplicate_name" and entries:
            entries.append((entries[i][0], entries[b % len(entries)][1]))
        elif kind == "stored":
            compression = zipfile.ZIP_STORED
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns about the duplicate names we add on purpose
        raw = bytearray(_zip(entries, compression))
    for kind, a, b, _ in ops:
        if kind == "truncate" and raw:
            del raw[a % len(raw):]
        elif kind == "flip" and raw:
            raw[a % len(raw)] = b
    return bytes(raw)


_TREE_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)


def _mutate_tree(xml: bytes, kind: str, a: int, b: int, token: str) -> bytes:
    try:
        root = etree.fromstring(xml, _TREE_PARSER)
    except etree.XMLSyntaxError:
        return xml
    elements = list(root.iter())
    el = elements[a % len(elements)]
    safe = token if _xml_safe(token) else "x"
    if kind == "attr":
        names = list(el.attrib) or list(W_ATTRS + PLAIN_ATTRS)
        el.set(names[b % len(names)], safe)
    elif kind == "remove" and el.getparent() is not None:
        el.getparent().remove(el)
    elif kind == "graft":
        donor = elements[b % len(elements)]
        if el is not donor and el not in donor.iterancestors():
            el.append(copy.deepcopy(donor))
    elif kind == "text":
        el.text = safe
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8")


def _xml_safe(token: str) -> bool:
    try:
        etree.Element("x").text = token
    except ValueError:
        return False
    return "<" not in token and "&" not in token


def mutate_xml(data: bytes, ops: list[tuple[str, int, int, str]]) -> bytes:
    """Damage the XML parts (the main document most often): bytes, tokens and tree surgery."""
    entries = _entries(data)
    xml_at = [i for i, (n, _) in enumerate(entries) if n.endswith((".xml", ".rels"))]
    main = next(i for i, (n, _) in enumerate(entries) if n == "word/document.xml")
    for kind, a, b, token in ops:
        target = main if b % 2 else xml_at[b % len(xml_at)]
        name, blob = entries[target]
        buf = bytearray(blob)
        pos = a % (len(buf) + 1)
        if kind == "cut":
            del buf[pos:pos + 1 + b % 64]
        elif kind == "insert":
            buf[pos:pos] = token.encode()
        elif kind == "copy":
            src = b % (len(buf) + 1)
            buf[pos:pos] = buf[src:src + 1 + a % 512]
        else:
            buf = bytearray(_mutate_tree(bytes(buf), kind, a, b, token))
        entries[target] = (name, bytes(buf))
    return _zip(entries)


@FUZZ
@given(seed=st.integers(0, 3), ops=st.lists(zip_op, min_size=1, max_size=4))
def test_mutated_zip_structure_is_read_or_refused_with_a_typed_error(seed, ops):
    data = mutate_zip(seeds()[seed], ops)
    assert_refused_or_read(bounded(lambda: summary(data), seconds=PER_INPUT_S), case=(seed, ops))


@FUZZ
@given(seed=st.integers(0, 3), ops=st.lists(xml_op, min_size=1, max_size=5))
def test_mutated_xml_is_read_or_refused_with_a_typed_error(seed, ops):
    data = mutate_xml(seeds()[seed], ops)
    assert_refused_or_read(bounded(lambda: summary(data), seconds=PER_INPUT_S), case=(seed, ops))


# -- the classic attacks, one by one ---------------------------------------------------------


def refused(data: bytes, *, seconds: float = PER_INPUT_S, mib: float = PER_INPUT_MIB) -> str:
    """The DocxError code for ``data``, checked to arrive within the time and memory budget."""
    outcome = bounded(lambda: summary(data), seconds=seconds)
    assert_refused_or_read(outcome, seconds, mib)
    assert outcome.error_type == "DocxError", f"read instead of refused: {outcome.value!r}"
    return outcome.error_code


def replace_part(data: bytes, name: str, blob: bytes | None) -> bytes:
    return _zip([(n, blob if n == name else b) for n, b in _entries(data) if n != name or blob is not None])


def zip_bomb(expanded: int) -> bytes:
    """A valid .docx whose main part inflates from a few hundred KB to ``expanded`` bytes of spaces."""
    base = seeds()[0]
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for name, blob in _entries(base):
            if name != "word/document.xml":
                z.writestr(name, blob)
        with z.open("word/document.xml", "w", force_zip64=True) as fh:
            fh.write(blob_start := b'<?xml version="1.0"?>')
            chunk = b" " * (1 << 20)
            for _ in range((expanded - len(blob_start)) // len(chunk)):
                fh.write(chunk)
    return buf.getvalue()


def test_zip_bomb_is_refused_from_the_directory_without_inflating():
    bomb = zip_bomb(300 << 20)  # 300 MiB of spaces (over the 250 MiB limit) in under half a megabyte
    assert len(bomb) < 1 << 19
    assert refused(bomb, mib=64) == "zip_bomb"


def test_entry_just_under_the_size_limit_but_over_the_ratio_is_a_zip_bomb():
    assert refused(zip_bomb(64 << 20), mib=64) == "zip_bomb"


BILLION_LAUGHS = (
    b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
    + b"".join(f'<!ENTITY lol{i} "{("&lol" + str(i - 1) + ";") * 10 if i > 1 else "&lol;" * 10}">'.encode()
               for i in range(1, 10))
    + b']><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
      b"<w:body><w:p><w:r><w:t>&lol9;</w:t></w:r></w:p></w:body></w:document>"
)
EXTERNAL_ENTITY = (
    b'<?xml version="1.0"?><!DOCTYPE d [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>'
    b'<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
    b"<w:body><w:p><w:r><w:t>&xxe;</w:t></w:r></w:p></w:body></w:document>"
)
PARAMETER_ENTITY = (
    b'<?xml version="1.0"?><!DOCTYPE d [<!ENTITY % remote SYSTEM "http://127.0.0.1:9/x.dtd"> %remote;]>'
    b'<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body/></w:document>'
)


@pytest.mark.parametrize("part", ["word/document.xml", "word/styles.xml", "[Content_Types].xml", "_rels/.rels"])
@pytest.mark.parametrize("xml", [BILLION_LAUGHS, EXTERNAL_ENTITY, PARAMETER_ENTITY],
                         ids=["billion_laughs", "external_entity", "parameter_entity"])
def test_entity_attacks_in_any_part_are_refused_cheaply(xml, part):
    assert refused(replace_part(seeds()[0], part, xml), seconds=5, mib=32) == "malformed_xml"


@pytest.mark.parametrize(("opener", "closer"), [
    ("<w:tbl><w:tr><w:tc>", "</w:tc></w:tr></w:tbl>"),
    ("<w:sdt><w:sdtContent>", "</w:sdtContent></w:sdt>"),
    ("<w:p><w:hyperlink>", "</w:hyperlink></w:p>"),
    ("<w:customXml>", "</w:customXml>"),
], ids=["tables", "content_controls", "hyperlinks", "custom_xml"])
def test_ten_thousand_deep_nesting_is_refused(opener, closer):
    body = opener * 10_000 + para("deep") + closer * 10_000
    assert refused(build_docx(body), seconds=5, mib=64) == "malformed_xml"


def test_nesting_within_the_parser_limit_is_read():
    body = "<w:tbl><w:tr><w:tc>" * 80 + para("deep") + "</w:tc></w:tr></w:tbl>" * 80
    outcome = bounded(lambda: summary(build_docx(body)), seconds=PER_INPUT_S)
    assert_refused_or_read(outcome)
    assert outcome.value[0] == 1


def test_hundred_thousand_paragraphs_are_read_in_bounded_time_and_memory():
    body = "".join(para(f"{i}. The Supplier shall deliver the Goods on the Delivery Date.") for i in range(100_000))
    data = build_docx(body)

    def read_anchored() -> tuple[int, int]:
        result = read_document(data)
        return len(result.paragraphs), sum(p.anchor is not None for p in result.paragraphs)

    outcome = bounded(read_anchored, seconds=90)
    assert_refused_or_read(outcome, 90, 1024)
    assert outcome.value == (100_000, 100_000)
    print(f"100,000 paragraphs: {outcome.seconds:.1f} s, peak +{outcome.peak_growth_mib:.0f} MiB")


def test_truncated_zip_is_refused_wherever_it_is_cut():
    data = seeds()[3]
    for cut in (len(data) // 2, len(data) - 1, len(data) - 22, 30, 4):
        assert refused(data[:cut]) == "not_a_zip", cut


def test_wrong_content_types_are_refused():
    data = seeds()[0]
    ct = dict(_entries(data))["[Content_Types].xml"]
    spreadsheet = ct.replace(b"wordprocessingml.document.main+xml", b"spreadsheetml.sheet.main+xml")
    assert refused(replace_part(data, "[Content_Types].xml", spreadsheet)) == "not_a_docx"
    assert refused(replace_part(data, "[Content_Types].xml", None)) == "not_a_docx"
    assert refused(replace_part(data, "[Content_Types].xml", b"<Types")) == "malformed_xml"


def test_doc_renamed_docx_is_legacy_doc():
    word97 = OLE_MAGIC + b"\0" * 504 + "WordDocument".encode("utf-16-le") + b"\0" * 4096
    assert refused(word97) == "legacy_doc"


def test_password_protected_docx_is_encrypted():
    out = io.BytesIO()
    msoffcrypto.format.ooxml.OOXMLFile(io.BytesIO(seeds()[3])).encrypt("secret", out)  # real ECMA-376 agile encryption
    assert out.getvalue().startswith(OLE_MAGIC)
    assert refused(out.getvalue()) == "encrypted"


def test_image_renamed_docx_is_not_a_zip():
    jpeg = dict(_entries(seeds()[3]))["docProps/thumbnail.jpeg"]
    png = b"\x89PNG\r\n\x1a\n" + b"\0\0\0\rIHDR" + b"\0" * 64
    assert refused(jpeg) == "not_a_zip"
    assert refused(png) == "not_a_zip"


def test_empty_file_is_not_a_zip():
    assert refused(b"") == "not_a_zip"


# -- what the fuzzing found, pinned ---------------------------------------------------------


def test_corrupt_deflate_stream_is_not_a_zip():
    data = _zip([("[Content_Types].xml", b"<Types/>" + b"x" * 4000)])
    start = data.index(b"[Content_Types].xml") + len("[Content_Types].xml")
    broken = data[:start + 2] + bytes(b ^ 0x5A for b in data[start + 2:start + 40]) + data[start + 40:]
    assert refused(broken) == "not_a_zip"


def test_a_zip_entry_with_no_name_is_not_a_zip():
    data = bytearray(seeds()[0])
    cd = data.index(b"PK\x01\x02")  # the first central directory record: its name length is at +28
    name_length = int.from_bytes(data[cd + 28:cd + 30], "little")
    del data[cd + 46:cd + 46 + name_length]
    data[cd + 28:cd + 30] = b"\0\0"
    end = data.index(b"PK\x05\x06")  # the directory is shorter now
    size = int.from_bytes(data[end + 12:end + 16], "little")
    data[end + 12:end + 16] = (size - name_length).to_bytes(4, "little")
    assert refused(bytes(data)) == "not_a_zip"


def test_too_new_zip_version_is_not_a_zip():
    data = bytearray(seeds()[0])
    cd = data.index(b"PK\x01\x02")
    data[cd + 6:cd + 8] = (99).to_bytes(2, "little")  # "version needed to extract": 9.9
    assert refused(bytes(data)) == "not_a_zip"


@pytest.mark.parametrize("value", ["²", "٣", "1" * 5000, "99999999999", "-5", " 3 ", "+2"])
def test_numbers_are_ascii_int32_or_ignored(value):
    expected = {"-5": -5, " 3 ": 3, "+2": 2}.get(value)
    assert decimal_number(value) == expected


def test_unicode_digits_in_levels_and_ids_are_ignored_not_crashed_on():
    body = ('<w:p><w:pPr><w:outlineLvl w:val="²"/><w:numPr><w:ilvl w:val="²"/><w:numId w:val="1"/></w:numPr></w:pPr>'
            '<w:bookmarkStart w:id="²" w:name="x"/><w:r><w:t>Text</w:t></w:r><w:bookmarkEnd w:id="²"/></w:p>')
    paragraphs = read_document(build_docx(body, numbering=NUMBERING)).paragraphs
    assert [(p.text, p.heading_level, p.list_label) for p in paragraphs] == [("Text", None, "1.")]


def test_a_huge_list_start_gives_a_plain_number_not_a_gigantic_label():
    numbered = numbering(abstract(1, lvl(0, "lowerLetter", "(%1)", start=2_000_000_000)), num(1, 1))
    outcome = bounded(lambda: [p.list_label for p in read_document(build_docx(np("a", 1) * 3, numbering=numbered),
                                                                    anchor=False).paragraphs])
    assert_refused_or_read(outcome, budget_mib=32)
    assert outcome.value == ["(2000000000)", "(2000000001)", "(2000000002)"]
    assert len(format_number(32767, "upperLetter")) == 1261  # the largest label letters may spell
    assert format_number(32768, "upperLetter") == "32768"
    assert format_number(7, "custom:" + "0" * 10_000) == "0000000007"


def test_an_anchor_in_a_nested_paragraph_belongs_to_that_paragraph():
    text_box = ('<w:p><w:r><w:t>Outer</w:t></w:r><w:r><w:pict><w:txbxContent><w:p>'
                '<w:bookmarkStart w:id="1" w:name="_RL_0000000000b1"/><w:r><w:t>In a text box</w:t></w:r>'
                '<w:bookmarkEnd w:id="1"/></w:p></w:txbxContent></w:pict></w:r></w:p>')
    assert [p.anchor for p in read_document(build_docx(text_box), anchor=False).paragraphs] == [None]
    assert summary(build_docx(text_box))[0] == 1
