"""``redline review-eval`` and ``redline review-ratings``: the measures themselves can fail, and the review meets
the issue's zero targets on the CUAD dev contracts that travel with the tests."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from redline.analysis.playbook.io import default_playbook
from redline.evaluation.review_quality import _number_problem, evaluate, ratings_summary

ROOT = Path(__file__).resolve().parents[2]
SLICE = ROOT / "tests" / "support" / "cuad_slice"


def test_the_number_judge_sees_no_ops_and_wrong_directions():
    renewal = default_playbook().rule("auto-renewal").thresholds  # renewal terms at most twelve months
    assert _number_problem("one (1) year", "twelve (12) months", renewal) == "no_op"
    assert _number_problem("six (6) months", "twelve (12) months", renewal) == "wrong_direction"
    assert _number_problem("two (2) years", "twelve (12) months", renewal) == ""
    cure = default_playbook().rule("termination-for-cause").thresholds  # cure periods at least thirty days
    assert _number_problem("ten (10) days", "five (5) days", cure) == "wrong_direction"


def test_ratings_summary_counts_shares_and_wrong_suggestions_the_validator_passed():
    records = [{"rating": "USEFUL", "validator": "PASS"}, {"rating": "WRONG", "validator": "PASS"},
               {"rating": "NOISE", "validator": None}, {"rating": "WRONG", "validator": "WARN", "still_proposed": False}]
    summary = ratings_summary(records)
    assert summary["suggestions"] == 3 and summary["withdrawn"] == 1
    assert summary["ratings"]["USEFUL"] == {"count": 1, "percent": 33.3}
    assert summary["wrong_passed"] == 1 and summary["validator"]["NOISE/none"] == 1


@pytest.mark.parametrize("name", ["before", "round1", "round2", "round3", "round4"])
def test_the_kept_ratings_are_complete_with_a_reason_each(name):
    records = json.loads((ROOT / "docs" / "review-ratings" / f"{name}.json").read_text())
    assert records and all(r["rating"] in {"USEFUL", "NOISE", "WRONG"} and r["reason"].strip() for r in records)
    assert all(r["quote"] is not None for r in records)  # every rating is tied to the suggestion it judged


def test_the_review_meets_the_zero_targets_on_the_dev_slice():
    figures = evaluate(SLICE)
    assert figures.contracts == 9 and figures.suggestions > 0
    assert figures.no_op == [] and figures.wrong_direction == []
    assert figures.foreign == [] and figures.placeholders == [] and figures.spelling == []
    assert figures.missing_right == figures.missing_claims  # every "missing" claim CUAD decides is right


def test_review_eval_and_review_ratings_on_the_command_line(tmp_path):
    out = tmp_path / "figures.json"
    done = subprocess.run([sys.executable, "-m", "redline", "review-eval", "--data", str(SLICE), "--only", "c0001",
                           "--json", str(out)], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "on target" in done.stdout and json.loads(out.read_text())["contracts"] == 1
    bad = subprocess.run([sys.executable, "-m", "redline", "review-eval", "--data", str(tmp_path)],
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert bad.returncode == 2 and bad.stderr.strip().startswith("error: bad_data")
    rated = subprocess.run([sys.executable, "-m", "redline", "review-ratings",
                            str(ROOT / "docs" / "review-ratings" / "round4.json")],
                           capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert rated.returncode == 0 and json.loads(rated.stdout)["wrong_passed"] == 0
