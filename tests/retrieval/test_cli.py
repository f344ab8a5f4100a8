"""``redline ask`` and ``redline retrieval-bench``: outputs and exit codes."""

from __future__ import annotations

import json

from redline.cli.main import main
from tests.retrieval.conftest import CONTRACT


def test_ask_docx(generated_docx, capsys):
    assert main(["ask", "--input", str(generated_docx), "--json", "What are the Supplier's obligations on termination?"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["citations"] and all(c["anchor"].startswith("_RL_") for c in out["citations"])


def test_ask_text(tmp_path, capsys):
    path = tmp_path / "contract.txt"
    path.write_text(CONTRACT, encoding="utf-8")
    assert main(["ask", "--input", str(path), "When may a party terminate for Cause?"]) == 0
    out = capsys.readouterr().out
    assert "[1]" in out and "Either Party may terminate" in out


def test_ask_missing_file_exits_2(tmp_path, capsys):
    assert main(["ask", "--input", str(tmp_path / "nope.docx"), "q"]) == 2
    assert capsys.readouterr().err.startswith("error: unreadable_input:")


def test_ask_not_a_docx_exits_2(tmp_path, capsys):
    path = tmp_path / "bad.docx"
    path.write_bytes(b"not a zip")
    assert main(["ask", "--input", str(path), "q"]) == 2


def _dataset(tmp_path):
    questions = [
        {"id": "c_mh_0", "contract_id": "c", "question": "Section 3.2 references Section 2.2. How do they relate?",
         "question_type": "cross_reference", "hop_count": 2, "reasoning_chain": ["3.2", "2.2"]},
        {"id": "c_mh_1", "contract_id": "c", "question": 'How is "Cause" defined in this agreement?',
         "question_type": "definition_usage", "hop_count": 2, "reasoning_chain": ["1.1", "3.2"]},
    ]
    data = {"contracts": [{"id": "c", "text": CONTRACT}], "questions": questions}
    (tmp_path / "multihop_qa_dataset.json").write_text(json.dumps(data), encoding="utf-8")
    return tmp_path


def test_retrieval_bench_smoke(tmp_path, capsys):
    out = tmp_path / "preds.jsonl"
    assert main(["retrieval-bench", "--data", str(_dataset(tmp_path)), "--out", str(out), "--k", "5"]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["question_id"] for r in rows] == ["c_mh_0", "c_mh_1"]
    first = rows[0]["passages"]
    assert 0 < len(first) <= 5
    spans = [CONTRACT[p["start"]:p["end"]] for p in first]
    assert any("3.2 Termination for Cause" in s for s in spans) and any("2.2 Quality" in s for s in spans)
    assert any('"Cause" means' in CONTRACT[p["start"]:p["end"]] for p in rows[1]["passages"])
    assert "2 questions over 1 contracts" in capsys.readouterr().err


def test_retrieval_bench_missing_data_exits_2(tmp_path, capsys):
    assert main(["retrieval-bench", "--data", str(tmp_path), "--out", str(tmp_path / "p.jsonl")]) == 2
    assert "error: unreadable_input:" in capsys.readouterr().err


def test_retrieval_bench_unavailable_backend_exits_2(tmp_path, capsys, monkeypatch):
    import redline.retrieval.embeddings as embeddings

    def unavailable(*_args, **_kwargs):
        raise embeddings.EmbeddingUnavailable("no model here")

    monkeypatch.setattr(embeddings, "make_embedder", unavailable)
    assert main(["retrieval-bench", "--data", str(_dataset(tmp_path)), "--out", str(tmp_path / "p.jsonl"),
                 "--backend", "local"]) == 2
    assert "error: backend_unavailable: no model here" in capsys.readouterr().err
