"""What each op reports: skip reasons, stable ids, and that a failed proof writes nothing."""

from __future__ import annotations

import json

import pytest

from redline.ooxml import writer
from redline.ooxml.errors import DocxError
from redline.ooxml.ops import SKIP_REASONS, op_from_json, parse_ops
from redline.ooxml.package import Package
from tests.ooxml.write_helpers import anchor, anchored, p, r, redline, statuses

BODY = "".join([
    p(r("The fee is payable monthly and the fee is fixed.")),
    p(r("Second paragraph stays.")),
])


@pytest.fixture(scope="module")
def doc():
    return anchored(BODY)


def test_skip_reasons(doc):
    docx, paragraphs = doc
    a = anchor(paragraphs, "The fee")
    ops = [
        {"Id": "_RL_000000000000", "Type": "COMMENT", "Comment": "x"},
        {"Id": a, "Type": "REPLACE_TEXT", "Quote": "weekly", "Replacement": "daily"},
        {"Id": a, "Type": "REPLACE_TEXT", "Quote": "fee", "Replacement": "charge"},
        {"Id": a, "Type": "REPLACE_TEXT", "Quote": "fee", "Replacement": "charge", "Occurrence": 3},
        {"Id": a, "Type": "REWRITE_PARAGRAPH", "NewText": "The fee is payable monthly and the fee is fixed."},
        {"Id": a, "Type": "REPLACE_TEXT", "Quote": "fixed", "Replacement": "fixed"},
        {"Id": a, "Type": "FROBNICATE"},
        {"Id": a, "Type": "INSERT", "Text": "   "},
        {"Id": a, "Type": "INSERT", "Text": "x", "Position": "sideways"},
        {"Id": a, "Type": "REPLACE_TEXT", "Quote": "fee", "Replacement": "cost", "Occurrence": 0},
        {"Type": "COMMENT", "Comment": "no id"},
        "not an object",
    ]
    out = redline(docx, ops)
    assert statuses(out) == [
        "skipped:anchor_not_found", "skipped:quote_not_found", "skipped:ambiguous_quote", "skipped:quote_not_found",
        "skipped:no_change", "skipped:no_change", "skipped:invalid_op", "skipped:invalid_op", "skipped:invalid_op",
        "skipped:invalid_op", "skipped:invalid_op", "skipped:invalid_op",
    ]
    assert all(x.entry is None and x.message and x.reason in SKIP_REASONS for x in out.results)
    assert out.comment_ids_map()["operations"] == []
    # nothing written: the body reads as before and has no revision or comment part
    pkg = Package.open(out.docx)
    assert not pkg.has("word/comments.xml")
    assert b"w:ins " not in pkg.blob("word/document.xml")


def test_a_quote_is_found_despite_curly_quotes_and_spacing():
    docx, paragraphs = anchored(p(r("The \u201cSupplier\u201d  shall pay.")))
    out = redline(docx, [{"Id": paragraphs[0].anchor, "Type": "REPLACE_TEXT", "Quote": '"Supplier" shall',
                          "Replacement": "\u201cVendor\u201d shall"}])
    assert statuses(out) == ["applied"]
    assert out.results[0].entry.new_text == "The \u201cVendor\u201d shall pay."


def test_entry_ids_are_stable_hashes_of_type_anchor_and_content(doc):
    docx, paragraphs = doc
    a = anchor(paragraphs, "The fee")
    rewrite = {"Id": a, "Type": "REWRITE_PARAGRAPH", "NewText": "The fee is payable yearly and the fee is fixed."}
    first = redline(docx, [rewrite]).results[0].entry
    again = redline(docx, [rewrite]).results[0].entry
    other = redline(docx, [{**rewrite, "NewText": "Different."}]).results[0].entry
    assert first.id == again.id and first.id != other.id and len(first.id) == 16
    assert op_from_json(0, {**rewrite, "Type": "DELETE_PARAGRAPH"}).entry_id != first.id


def test_same_input_gives_the_same_bytes(doc):
    docx, paragraphs = doc
    ops = [{"Id": anchor(paragraphs, "The fee"), "Type": "INSERT", "Text": "New.", "Comment": "Why."}]
    assert redline(docx, ops).docx == redline(docx, ops).docx


def test_a_change_that_fails_its_proof_is_not_written(doc, monkeypatch):
    docx, paragraphs = doc
    monkeypatch.setattr(writer, "accept", lambda *a, **k: 0)  # accepting now changes nothing: the proof must fail
    ops = [
        {"Id": anchor(paragraphs, "The fee"), "Type": "REWRITE_PARAGRAPH", "NewText": "The fee is waived.",
         "Comment": "Why."},
        {"Id": anchor(paragraphs, "Second"), "Type": "COMMENT", "Comment": "Comments have no revisions to accept."},
    ]
    out = redline(docx, ops)
    assert statuses(out) == ["skipped:roundtrip_failed", "applied"]
    pkg = Package.open(out.docx)
    assert b"w:del " not in pkg.blob("word/document.xml")
    assert pkg.blob("word/comments.xml").count(b"<w:comment ") == 1


def test_malformed_ops_files_are_refused():
    for bad in (b"{", b'{"ops": 3}', b'"text"'):
        with pytest.raises(DocxError) as err:
            parse_ops(bad)
        assert err.value.code == "invalid_ops"
    meta, ops = parse_ops(json.dumps([{"Id": "_RL_0", "Type": "DELETE_PARAGRAPH"}]))
    assert meta == {} and ops[0].type == "DELETE_PARAGRAPH"
