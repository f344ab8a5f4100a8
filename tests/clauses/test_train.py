"""`redline clauses-train` rebuilds a model deterministically from a data set folder."""

import json
import subprocess
import sys

import numpy as np

from redline.clauses import ClauseModel, analyse, default_model
from redline.clauses.cuad import Dataset
from redline.clauses.document import units_of


class Para:
    def __init__(self, text):
        self.text = text


def train(cuad_slice, out):
    cmd = [sys.executable, "-m", "redline", "clauses-train", "--data", str(cuad_slice), "--out", str(out),
           "--contracts", "8", "--folds", "2", "--jobs", "1"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done


def test_retraining_on_a_slice_is_deterministic_and_usable(cuad_slice, tmp_path):
    train(cuad_slice, tmp_path / "a")
    train(cuad_slice, tmp_path / "b")
    meta = json.loads((tmp_path / "a" / "model.json").read_text())
    assert meta["data"]["contracts"] == 8 and meta["data"]["split"] == "train"
    assert meta["data"]["version"] == Dataset(cuad_slice).version()
    assert "CC BY 4.0" in meta["attribution"]
    with np.load(tmp_path / "a" / "clauses.npz") as a, np.load(tmp_path / "b" / "clauses.npz") as b:
        assert set(a.files) == set(b.files)
        for name in a.files:
            assert np.array_equal(a[name], b[name]), name
        assert a["weights"].dtype == np.int8 and a["weights"].shape == (meta["buckets"], 41)
    model = ClauseModel.load(tmp_path / "a")
    assert model.fingerprint != default_model().fingerprint  # a new artifact is a new cache key for reports
    # the eight shortest training contracts name their parties but have hardly any other clause
    text = "This Agreement is entered into by and between Acme Inc., a Delaware corporation, and Beta LLC."
    scores = model.score_units(units_of([text]), [text])
    assert scores.logits.shape == (1, 41)
    assert model.categories[int(scores.logits[0].argmax())] == "Parties"
    report = analyse([Para(text)], model=model)
    assert len(report.cuad) == 41 and report.cuad["Parties"].present
    assert not report.cuad["Source Code Escrow"].present  # a category the slice never shows never fires


def test_bad_data_folder_is_a_one_line_error(tmp_path):
    done = subprocess.run([sys.executable, "-m", "redline", "clauses-train", "--data", str(tmp_path), "--out",
                           str(tmp_path / "m")], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("error: bad_data:")
    assert not (tmp_path / "m").exists()

