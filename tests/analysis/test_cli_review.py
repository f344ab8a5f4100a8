"""``redline review`` works with no server and no network, and fails in one clear line."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.ooxml.conftest import make_contract
from tests.support import oracles
from tests.support.docx_builder import build_docx
from tests.support.validator import assert_no_new_findings


def redline(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "redline", *args], capture_output=True, text=True, timeout=120)


def test_review_writes_a_redline_whose_rejection_is_the_original(tmp_path):
    src = make_contract(tmp_path / "c.docx", 3)
    out, report = tmp_path / "out.docx", tmp_path / "r.json"
    done = redline("review", "--input", str(src), "--out-redline", str(out), "--json", str(report),
                   "--for", "customer")
    assert done.returncode == 0, done.stderr
    body = json.loads(report.read_text())
    assert body["mode"] == "first_run" and body["suggestions"]
    assert body["stats"]["gate"]["acting_for"]["name"] == "Customer"
    assert all(op["status"] == "applied" for op in body["ops"])
    assert oracles.pandoc_text(out, "reject") == oracles.pandoc_text(src, "accept")
    assert oracles.pandoc_text(out, "accept") != oracles.pandoc_text(src, "accept")
    stats = oracles.stats(out)
    assert stats["comments"] >= 1 and stats["custom_property_names"] == ["RedlineDocID"]
    assert stats["authors"] == {"Redline AI": stats["revisions_total"]}
    assert_no_new_findings(src, out)  # written in another process: the spy does not see it


def test_bad_inputs_exit_2_with_one_line(tmp_path):
    empty = tmp_path / "empty.docx"
    empty.write_bytes(build_docx(""))
    bad_playbook = tmp_path / "p.yaml"
    bad_playbook.write_text("format: redline-playbook/1\nname: x\nrules: nope\n")
    src = make_contract(tmp_path / "c.docx", 1)
    for args, code in [
        (["--input", str(tmp_path / "missing.docx")], "unreadable_input"),
        (["--input", str(empty)], "empty_document"),
        (["--input", str(src), "--playbook", str(bad_playbook)], ""),
        (["--input", str(src), "--provider", "openai"], "provider_not_configured"),
        (["--input", str(src), "--for", "Nobody Ltd"], "unknown_party"),
    ]:
        done = subprocess.run([sys.executable, "-m", "redline", "review", *args, "--out-redline",
                               str(tmp_path / "o.docx")], capture_output=True, text=True, timeout=120,
                              env={"PATH": "/usr/bin:/bin"})
        assert done.returncode == 2, (args, done.stderr)
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"error: {code}"), lines
