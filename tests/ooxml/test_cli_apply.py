"""`redline apply-ops`: the redline, run.log, comment_ids_map.json, exit codes; `redline bench` arguments."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from redline.cli.main import main
from redline.ooxml.docprops import get_doc_id
from redline.ooxml.package import Package
from tests.ooxml.write_helpers import anchor, anchored, p, r
from tests.support import oracles
from tests.support.validator import assert_no_new_findings

ROOT = Path(__file__).resolve().parents[2]
CUSTOM = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
          '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/custom-properties" '
          'xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">'
          '<property fmtid="{D5CDD505-2E9C-101B-9397-08002B2CF9AE}" pid="2" name="Client">'
          "<vt:lpwstr>ACME</vt:lpwstr></property></Properties>")


@pytest.fixture
def files(tmp_path):
    docx, paragraphs = anchored(p(r("Payment is due within 30 days.")) + p(r("Old clause.")))
    # the anchored file without its RedlineDocID: a document with no custom properties at all
    src = tmp_path / "anchored.docx"
    src.write_bytes(_without_custom_props(docx))
    ops = {"meta": {"author": "Meta Author"}, "ops": [
        {"Id": anchor(paragraphs, "Payment"), "Type": "REPLACE_TEXT", "Quote": "30", "Replacement": "45",
         "Comment": "Longer."},
        {"Id": anchor(paragraphs, "Old"), "Type": "DELETE_PARAGRAPH"},
        {"Id": "_RL_ffffffffffff", "Type": "COMMENT", "Comment": "Lost."},
    ]}
    ops_path = tmp_path / "ops.json"
    ops_path.write_text(json.dumps(ops), encoding="utf-8")
    return src, ops_path, tmp_path


def _without_custom_props(docx: bytes) -> bytes:
    import io
    import zipfile

    src = zipfile.ZipFile(io.BytesIO(docx))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as out:
        for info in src.infolist():
            data = src.read(info)
            if info.filename == "docProps/custom.xml":
                continue
            if info.filename in ("_rels/.rels", "[Content_Types].xml"):
                data = re.sub(rb"<(Relationship|Override)[^>]*custom[^>]*/>", b"", data)
            out.writestr(info, data)
    return buf.getvalue()


def args(src: Path, ops: Path, out: Path, *extra: str) -> list[str]:
    return ["apply-ops", "--input", str(src), "--ops", str(ops), "--out-redline", str(out / "out.docx"),
            "--log", str(out / "run.log"), "--comment-ids-map", str(out / "map.json"), *extra]


def test_apply_ops_writes_the_redline_the_log_and_the_map(files):
    src, ops, out = files
    assert get_doc_id(Package.open(src.read_bytes())) is None
    assert main(args(src, ops, out)) == 0
    log = [json.loads(line) for line in (out / "run.log").read_text(encoding="utf-8").splitlines()]
    assert [(x["index"], x["status"], x.get("reason")) for x in log] == [
        (0, "applied", None), (1, "applied", None), (2, "skipped", "anchor_not_found")]
    mapping = json.loads((out / "map.json").read_text(encoding="utf-8"))
    assert re.fullmatch(r"[0-9A-F]{16}", mapping["document_id"])
    assert get_doc_id(Package.open((out / "out.docx").read_bytes())) == mapping["document_id"]
    first, second = mapping["operations"]
    assert set(first) == {"id", "index", "operation_type", "durable_id", "comment_text", "bookmark_id",
                          "original_text", "new_text", "position"}
    assert first["operation_type"] == "REPLACE_TEXT" and first["new_text"] == "Payment is due within 45 days."
    assert first["durable_id"] == log[0]["durable_id"]
    assert second["operation_type"] == "DELETE" and second["original_text"] == "Old clause."
    out_docx = out / "out.docx"
    assert oracles.pandoc_text(out_docx, "accept") == ["Payment is due within 45 days."]
    assert oracles.pandoc_text(out_docx, "reject") == ["Payment is due within 30 days.", "Old clause."]
    assert set(oracles.stats(out_docx)["authors"]) == {"Meta Author"}


def test_author_flag_wins_and_existing_properties_and_doc_id_are_kept(files):
    src, ops, out = files
    assert main(args(src, ops, out, "--author", "Flag Author")) == 0
    first = json.loads((out / "map.json").read_text(encoding="utf-8"))["document_id"]
    assert set(oracles.stats(out / "out.docx")["authors"]) == {"Flag Author"}
    again = out / "again"
    again.mkdir()
    assert main(args(out / "out.docx", ops, again)) == 0
    assert json.loads((again / "map.json").read_text(encoding="utf-8"))["document_id"] == first
    docx, paragraphs = anchored(p(r("Text here.")), custom_props=CUSTOM)
    (out / "props.docx").write_bytes(docx)
    (out / "one.json").write_text(json.dumps([{"Id": paragraphs[0].anchor, "Type": "DELETE_PARAGRAPH"}]))
    assert main(args(out / "props.docx", out / "one.json", out)) == 0
    assert oracles.stats(out / "out.docx")["custom_property_names"] == ["Client", "RedlineDocID"]


@pytest.mark.parametrize(("ops_text", "code"), [("{not json", "invalid_ops"), ('{"ops": {}}', "invalid_ops")])
def test_bad_ops_exit_2_with_one_line(files, capsys, ops_text, code):
    src, _ops, out = files
    bad = out / "bad.json"
    bad.write_text(ops_text, encoding="utf-8")
    assert main(args(src, bad, out)) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {code}: ") and err.count("\n") == 1
    assert not (out / "out.docx").exists()


def test_bad_docx_exits_2_and_missing_file_too(files, capsys):
    _src, ops, out = files
    bad = out / "bad.docx"
    bad.write_bytes(b"PK\x03\x04 broken")
    assert main(args(bad, ops, out)) == 2
    assert capsys.readouterr().err.startswith("error: not_a_zip: ")
    assert main(args(out / "missing.docx", ops, out)) == 2
    assert capsys.readouterr().err.startswith("error: unreadable_input: ")


def test_bench_refuses_bad_arguments(capsys):
    assert main(["bench", "--pages", "ten"]) == 2
    assert capsys.readouterr().err.startswith("error: bad_arguments: ")
    assert main(["bench", "--repeat", "0"]) == 2


def test_the_console_entry_point_runs_apply_ops(files):
    src, ops, out = files
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "redline", *args(src, ops, out)], capture_output=True, text=True,
                          env=env, cwd=out)
    assert done.returncode == 0, done.stderr
    assert (out / "out.docx").exists() and len((out / "run.log").read_text().splitlines()) == 3
    assert_no_new_findings(src, out / "out.docx")  # written in another process: the spy does not see it
