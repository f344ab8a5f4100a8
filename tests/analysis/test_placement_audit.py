"""Where missing clauses go in real contracts: the remove-and-reinsert measure on the CUAD slice.

The dev figures (60 contracts, 329 clauses) are in docs/clauses.md; here the
slice's 9 dev contracts (49 clauses) hold the floors. Before the signature
block was read as filings write it, 14 of these 49 insertions landed in or
after the signatures.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from redline.evaluation.cuad_dev import contract_texts, gold_spans, read_dev_contract
from redline.evaluation.placement_audit import PRIMARY, measure, summary

SLICE = Path(__file__).resolve().parents[1] / "support" / "cuad_slice"


@pytest.fixture(scope="module")
def cases():
    return measure(SLICE)


def test_no_clause_is_proposed_in_the_signatures_or_the_front_matter(cases):
    assert len(cases) == 49
    assert [c for c in cases if c.in_signatures or c.in_front_matter] == []


def test_a_substantive_clause_is_not_proposed_after_the_boilerplate(cases):
    # measured: 1 of 49, an exclusivity clause after "15. Language This Agreement shall ...", a title the
    # outline cannot tell from its sentence; the previous cut put 5 there
    assert sum(c.after_general for c in cases) <= 1


def test_no_inserted_clause_repeats_a_number_the_contract_has(cases):
    # two of the slice's filings run the witness line into their last clause ("16. Counterparts ... IN WITNESS
    # WHEREOF"): the clause goes before it, and "16." stays that clause's number
    assert [c for c in cases if c.number_taken] == []


def test_clauses_go_back_near_where_their_drafters_had_them(cases):
    figures = summary(cases)
    # measured: 42.9% in the drafter's section (appending: 14.3%), 30.6% within 5% of the contract (2.0%),
    # median distance 8.7% of the contract (48.6%)
    assert figures["same_section"] >= 40 and figures["same_section"] >= 2 * figures["baseline_same_section"]
    assert figures["near"] >= 25 and figures["near"] > 5 * figures["baseline_near"]
    assert figures["median_distance"] <= 10 and figures["median_distance"] < figures["baseline_median_distance"] / 4


def test_the_clause_taken_out_is_the_one_cuad_marks(cases):
    """The paragraph the measure calls the drafter's place holds the start of CUAD's first gold span, read
    from CUAD's text (not through the measure's own offset mapping)."""
    gold = gold_spans(SLICE)
    texts = contract_texts(SLICE, {c.contract for c in cases})
    cuad_of = {category.value: name for category, name in PRIMARY.items()}
    for case in cases:
        first = min(copies[0] for copies in gold[(case.contract, cuad_of[case.category])])
        words = " ".join(texts[case.contract][first[0]: first[1]].split()[:4])
        paragraph = " ".join(read_dev_contract(SLICE, case.contract).clauses[case.home].text.split())
        assert words in paragraph, (case.contract, case.category, words)
        assert case.after != case.home  # the answer is a paragraph that is still there


def test_the_command_prints_the_same_figures_and_refuses_a_bad_folder(cases, tmp_path):
    done = subprocess.run([sys.executable, "-m", "redline", "clauses-placement", "--data", str(SLICE), "--json"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    printed = json.loads(done.stdout)
    assert printed["total"] == summary(cases)
    assert sum(row["cases"] for row in printed["categories"].values()) == len(printed["cases"]) == len(cases)
    table = subprocess.run([sys.executable, "-m", "redline", "clauses-placement", "--data", str(SLICE)],
                           capture_output=True, text=True, timeout=300)
    assert table.stdout.splitlines()[-1].split()[:3] == ["all", "49", f"{summary(cases)['same_section']:.1f}%"]
    bad = subprocess.run([sys.executable, "-m", "redline", "clauses-placement", "--data", str(tmp_path)],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and bad.stderr.startswith("error: bad_data:")
