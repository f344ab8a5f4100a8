"""`redline compare`: the redline file, the JSON of its changes, and one-line refusals with exit 2."""

from __future__ import annotations

import json

import pytest

from redline.cli.main import main
from tests.support import oracles
from tests.support.docx_builder import build_docx, para

from .test_compare_stories import docx, story


@pytest.fixture
def versions(tmp_path):
    old, new = tmp_path / "old.docx", tmp_path / "new.docx"
    old.write_bytes(build_docx(para("Term.") + para("Notice of ninety (90) days.") + para("Gone.")))
    new.write_bytes(build_docx(para("Term.") + para("Notice of thirty (30) days.") + para("Added.")))
    return old, new


def test_compare_writes_the_redline_and_prints_its_changes(versions, tmp_path, capsys):
    old, new = versions
    out = tmp_path / "cmp.docx"
    assert main(["compare", "--old", str(old), "--new", str(new), "--out", str(out), "--author", "Opposing Counsel",
                 "--json"]) == 0
    printed = capsys.readouterr()
    body = json.loads(printed.out)
    assert body["views"] == "accepted" and body["counts"] == {"changed": 1, "inserted": 1, "deleted": 1}
    assert [(c["kind"], c["before"], c["after"]) for c in body["changes"]] == [
        ("changed", "Notice of ninety (90) days.", "Notice of thirty (30) days."), ("deleted", "Gone.", ""),
        ("inserted", "", "Added.")]
    assert "1 changed, 1 inserted, 1 deleted" in printed.err
    assert oracles.pandoc_text(out, "accept") == ["Term.", "Notice of thirty (30) days.", "Added."]
    assert oracles.pandoc_text(out, "reject") == ["Term.", "Notice of ninety (90) days.", "Gone."]
    assert set(oracles.stats(out)["authors"]) == {"Opposing Counsel"}


def test_compare_says_what_else_it_redlined(tmp_path, capsys):
    old, new, out = tmp_path / "old.docx", tmp_path / "new.docx", tmp_path / "cmp.docx"
    old.write_bytes(docx(para("Term."), headers={"default": story("hdr", "DRAFT")}))
    new.write_bytes(docx(para("Term."), headers={"default": story("hdr", "FINAL")}))
    assert main(["compare", "--old", str(old), "--new", str(new), "--out", str(out), "--json"]) == 0
    printed = capsys.readouterr()
    body = json.loads(printed.out)
    assert body["also_redlined"] == ["headers"] and body["uncompared"] == [] and body["changes"] == []
    assert "also redlined: headers" in printed.err


@pytest.mark.parametrize(("which", "content", "code"), [
    ("old", None, "unreadable_input"), ("new", b"not a zip", "not_a_zip"), ("old", b"", "not_a_zip")])
def test_bad_input_exits_2_with_one_line(versions, tmp_path, capsys, which, content, code):
    old, new = versions
    target = old if which == "old" else new
    if content is None:
        target.unlink()
    else:
        target.write_bytes(content)
    assert main(["compare", "--old", str(old), "--new", str(new), "--out", str(tmp_path / "x.docx")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"error: {code}: ") and "\n" not in err
    assert not (tmp_path / "x.docx").exists()
