"""A generated contract (numbered clauses, REF fields, tables, header fields) through
read → apply-ops, with the bench's mix of ops, judged by pandoc and LibreOffice."""

from __future__ import annotations

import json

import pytest

from redline.bench.processes import mixed_ops
from redline.ooxml.markdown import to_sidecar
from redline.ooxml.paragraphs import read_document
from tests.ooxml.write_helpers import judge, redline
from tests.support import oracles


@pytest.mark.slow
def test_mixed_ops_on_a_generated_contract(small_contract, tmp_path):
    result = read_document(small_contract.read_bytes(), anchor=True)
    paragraphs = result.paragraphs
    ops = mixed_ops(to_sidecar(paragraphs), 60)
    out = redline(result.docx, ops)
    path = tmp_path / "contract-redline.docx"
    path.write_bytes(out.docx)
    by_anchor = {x.anchor: i for i, x in enumerate(paragraphs)}
    accepted: list[list[str]] = [[x.text] for x in paragraphs]
    for op, res in zip(ops, out.results, strict=True):
        if res.status != "applied":
            continue
        i = by_anchor[op["Id"]]
        if op["Type"] in ("REWRITE_PARAGRAPH", "REPLACE_TEXT"):
            accepted[i] = [res.entry.new_text]
        elif op["Type"] == "DELETE_PARAGRAPH":
            accepted[i] = []
        elif op["Type"] == "INSERT":
            accepted[i] = accepted[i] + [op["Text"]]
    applied = [x for x in out.results if x.status == "applied"]
    assert len(applied) == len(ops), json.dumps([x.to_log() for x in out.results if x.status != "applied"])
    judge(path, [t for group in accepted for t in group], [x.text for x in paragraphs])
    stats = oracles.stats(path)
    assert stats["comments"] == sum(1 for o in ops if o.get("Comment"))
    assert stats["revisions_total"] == sum(x.revisions for x in applied)
