"""`redline revisions`, `redline accept`, `redline reject`: output, selection by author, exit codes."""

from __future__ import annotations

import json

import pytest

from redline.cli.main import main
from redline.ooxml.extract import extract_all
from redline.ooxml.resolve import resolve_docx
from tests.support import oracles
from tests.support.revision_docs import every_kind_docx


@pytest.fixture
def src(tmp_path):
    path = tmp_path / "every.docx"
    path.write_bytes(every_kind_docx())
    return path


def test_revisions_prints_one_page_of_json(src, capsys):
    assert main(["revisions", "--input", str(src), "--offset", "2", "--limit", "3"]) == 0
    page = json.loads(capsys.readouterr().out)
    assert (page["offset"], page["limit"], page["has_more"]) == (2, 3, True)
    assert page["paragraphs"] == extract_all(src.read_bytes()).paragraphs[2:5]


@pytest.mark.parametrize(("args", "code"), [(["--limit", "0"], "INVALID_LIMIT"), (["--limit", "501"], "INVALID_LIMIT"),
                                            (["--offset", "-3"], "INVALID_OFFSET")])
def test_revisions_refuses_a_bad_page_with_exit_2(src, capsys, args, code):
    assert main(["revisions", "--input", str(src), *args]) == 2
    err = capsys.readouterr()
    assert err.out == "" and err.err.startswith(f"error: {code}: ")


def test_accept_and_reject_everything(src, tmp_path, capsys):
    for action in ("accept", "reject"):
        out = tmp_path / f"{action}.docx"
        assert main([action, "--input", str(src), "--out", str(out)]) == 0
        assert oracles.stats(out)["revisions_total"] == 0
        assert oracles.pandoc_text(out, "all") == oracles.pandoc_text(src, action)
        count = resolve_docx(src.read_bytes(), action).count
        assert count > 30 and capsys.readouterr().err == f"{action}ed {count} revisions; wrote {out}\n"


def test_accept_by_author_leaves_the_others(src, tmp_path):
    out = tmp_path / "bob.docx"
    assert main(["accept", "--input", str(src), "--out", str(out), "--author", "Bob", "--author", "Carol"]) == 0
    authors = oracles.stats(out)["authors"]
    assert "Bob" not in authors and authors["Alice"] > 0


def test_a_missing_or_broken_input_exits_2(tmp_path, capsys):
    assert main(["accept", "--input", str(tmp_path / "nope.docx"), "--out", str(tmp_path / "x.docx")]) == 2
    assert capsys.readouterr().err.startswith("error: unreadable_input: ")
    bad = tmp_path / "bad.docx"
    bad.write_bytes(b"not a zip")
    assert main(["revisions", "--input", str(bad)]) == 2
    assert capsys.readouterr().err.startswith("error: not_a_zip: ")
    assert not (tmp_path / "x.docx").exists()
