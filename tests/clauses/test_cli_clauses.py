"""`redline clauses`: the clause overview of a .docx on the command line (real model)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from redline.cli.main import main
from redline.ooxml.paragraphs import read_document
from tests.support.clause_contract import CONTRACT, GOVERNING_LAW

ROOT = Path(__file__).resolve().parents[2]


def test_json_report_cites_governing_law_with_its_anchor(tmp_path, capsys):
    src = tmp_path / "msa.docx"
    src.write_bytes(CONTRACT)
    assert main(["clauses", "--input", str(src), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert len(report["cuad"]) == 41
    law = next(f for f in report["cuad"] if f["category"] == "Governing Law")
    anchors = [p.anchor for p in read_document(CONTRACT).paragraphs]  # what an upload of these bytes is keyed to
    assert law["present"] and law["passages"][0]["paragraph"] == 9
    assert law["passages"][0]["anchor"] == anchors[9] and law["passages"][0]["text"] in GOVERNING_LAW


def test_table_without_json(tmp_path, capsys):
    src = tmp_path / "msa.docx"
    src.write_bytes(CONTRACT)
    assert main(["clauses", "--input", str(src)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 41
    assert any(line.startswith("Governing Law") and " present " in line for line in lines)


def test_not_a_docx_exits_2_with_one_line(tmp_path):
    bad = tmp_path / "notes.txt"
    bad.write_text("just some text, not a Word file")
    done = subprocess.run([sys.executable, "-m", "redline", "clauses", "--input", str(bad), "--json"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    assert done.stderr.startswith("error: not_a_zip: ") and done.stderr.count("\n") == 1
