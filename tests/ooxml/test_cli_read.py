"""`redline read`: files out, exit codes, one-line errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from redline.cli.main import main
from redline.ooxml.paragraphs import read_document
from tests.support.docx_builder import build_docx, para

ROOT = Path(__file__).resolve().parents[2]


def test_read_writes_markdown_sidecar_and_anchored_docx(tmp_path):
    src = tmp_path / "in.docx"
    src.write_bytes(build_docx(para("Payment", "Heading1") + para("Pay within 30 days.")))
    md, side, out = tmp_path / "doc.md", tmp_path / "sidecar.json", tmp_path / "anchored.docx"
    code = main(["read", "--input", str(src), "--out-md", str(md), "--sidecar", str(side), "--out-bookmarked", str(out)])
    assert code == 0
    assert md.read_text(encoding="utf-8") == "# [1] Payment\n\n[2] Pay within 30 days.\n"
    sidecar = json.loads(side.read_text(encoding="utf-8"))
    anchors = [p.anchor for p in read_document(out.read_bytes(), anchor=False).paragraphs]
    assert list(sidecar) == anchors
    assert sidecar[anchors[1]]["text"] == "Pay within 30 days."


def test_bad_input_exits_2_with_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.docx"
    bad.write_bytes(b"not a zip at all")
    assert main(["read", "--input", str(bad), "--out-md", str(tmp_path / "x.md")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: not_a_zip: ") and err.count("\n") == 1
    assert not (tmp_path / "x.md").exists()


def test_missing_input_exits_2(tmp_path, capsys):
    assert main(["read", "--input", str(tmp_path / "nope.docx")]) == 2
    assert capsys.readouterr().err.startswith("error: unreadable_input: ")


def test_internal_error_exits_1(tmp_path, capsys, monkeypatch):
    src = tmp_path / "in.docx"
    src.write_bytes(build_docx(para("x")))

    def boom(*args, **kwargs):
        raise RuntimeError("unexpected\nstate")

    monkeypatch.setattr("redline.ooxml.paragraphs.read_document", boom)
    assert main(["read", "--input", str(src)]) == 1
    assert capsys.readouterr().err == "error: internal: RuntimeError: unexpected state\n"


def test_python_dash_m_redline(tmp_path):
    src = tmp_path / "in.docx"
    src.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-m", "redline", "read", "--input", str(src)],
                          capture_output=True, text=True, env=env, cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr == "error: legacy_doc: This is a legacy Word 97-2003 (.doc) file; save it as .docx and upload again.\n"
