"""Scoring the clause engine on CUAD's ``dev`` split, the way the product sees contracts.

The dev contracts are read from their .docx files through the OOXML engine
(as an upload would be), classified, and written as the data set's
prediction format with paragraph-anchored quotes; the data set's own
``score.py`` grades them. Nothing here is used to train.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

from . import ClauseModel, analyse
from .baseline import keyword_findings

Predictor = Callable[[list], dict]


def docx_paragraphs(path: Path) -> list:
    """The body paragraphs of a .docx as the product reads them after an upload (anchored)."""
    from redline.ooxml.paragraphs import read_document

    return read_document(path.read_bytes(), anchor=True).paragraphs


def model_predictor(model: ClauseModel, *, k: int = 5) -> Predictor:
    """The clause model as a predictor: paragraphs -> findings per CUAD category."""
    return lambda paragraphs: analyse(paragraphs, model=model, k=k).cuad


def keyword_predictor(paragraphs: list) -> dict:
    """The keyword baseline as a predictor."""
    return keyword_findings([p.text for p in paragraphs])


def prediction_lines(data: Path, ids: Iterable[str], predict: Predictor) -> list[dict]:
    """One scorer line per (contract, CUAD category): passages as paragraph + quote, score = probability."""
    lines = []
    for cid in ids:
        findings = predict(docx_paragraphs(data / "dev-docx" / f"{cid}.docx"))
        for name, finding in findings.items():
            lines.append({"contract": cid, "category": name, "score": round(finding.probability, 6),
                          "passages": [{"paragraph": p.paragraph, "text": p.text} for p in finding.passages]})
    return lines


def score(data: Path, predictions: Path) -> dict:
    """Run the data set's scorer on a prediction file (Markdown summary beside it); return its JSON results."""
    out = predictions.with_suffix(".score.json")
    cmd = [sys.executable, str(data / "score.py"), str(predictions), "--split", "dev", "--json", str(out),
           "--top", "41", "--md", str(predictions.with_suffix(".md"))]
    subprocess.run(cmd, check=True, capture_output=True, text=True)
    return json.loads(out.read_text())


def evaluate(data: str | Path, out: str | Path, predict: Predictor) -> dict:
    """Predict the dev split into ``out`` (JSONL) and score it."""
    data, out = Path(data), Path(out)
    lines = prediction_lines(data, json.loads((data / "splits.json").read_text())["dev"], predict)
    out.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return score(data, out)
