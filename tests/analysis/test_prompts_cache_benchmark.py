"""Prompt routing and rendering, the in-memory cache, and the offline speed target."""

from __future__ import annotations

import subprocess
import sys

import pytest

from redline.analysis.benchmark import benchmark_offline
from redline.analysis.cache import MemoryCache
from redline.analysis.prompts import (
    PROMPT_FILES,
    PromptMode,
    batch_prompt,
    load_prompt,
    number_paragraphs,
    render,
    system_prompt,
)
from redline.analysis.rejections import Rejection

from .conftest import ROOT


def test_mode_picks_the_prompt_file_without_conditionals_in_the_prompts():
    first = system_prompt(PromptMode.FIRST_RUN)
    rerun = system_prompt(PromptMode.RERUN, prior_rejections=[Rejection("COMMENT", comment_text="Drop this.")],
                          preferences_text="Prefer 45 days.")
    assert "first review" in first and "reviewed before" not in first
    assert "reviewed before" in rerun and "Drop this." in rerun and "Prefer 45 days." in rerun
    assert "(No preferences recorded yet)" in system_prompt(PromptMode.RERUN)
    for name in PROMPT_FILES:  # routing is code's job: no prompt branches on the mode
        text = load_prompt(name).lower()
        assert "if this is a re-run" not in text and "if first run" not in text


def test_rendering_refuses_missing_values():
    with pytest.raises(KeyError):
        render("rerun", output_rules="x")
    with pytest.raises(KeyError):
        load_prompt("../secrets")


def test_batch_prompt_lists_each_rule_once_and_names_each_paragraphs_rules(playbook):
    late, law = playbook.rule("late-payment"), playbook.rule("governing-law")
    paragraphs = number_paragraphs([(1, "Interest accrues at 2% per month.", "6 Payment", "6.2"),
                                    (2, "Interest is simple.", "6 Payment", "6.3"), (3, "Second.", "", None)],
                                   rules={1: ["R1"], 2: ["R1"], 3: []}, inserts={3: ["R2"]})
    text = batch_prompt([("R1", late), ("R2", law)], paragraphs, missing=[("R2", law.title, 3)], side="the Customer",
                        parties=["Acme Ltd (the Supplier)", "Beta plc (the Customer)"], terms=["Charges", "Services"])
    assert "[1] (in: 6 Payment · numbered 6.2 · rules: R1)\nInterest accrues at 2% per month." in text
    assert "[2] (numbered 6.3 · rules: R1)" in text  # the section is named where it changes only
    assert "[3] (insertion point for R2)\nSecond." in text
    assert text.count("late interest rate <= 1.5 percent per month") == 1 and "### R2: Governing law" in text
    assert "You act for the Customer." in text and '- Defined terms: "Charges", "Services"' in text
    assert "- R2 (Governing law): insert after paragraph [3]" in text
    # the suggested language is the draft of a missing clause: only the rule drafted here carries it
    assert f"Suggested language: {law.suggested_language}" in text and late.suggested_language not in text
    assert "(should be flagged)" not in text  # the playbook's examples test the playbook, they are not sent


def test_memory_cache_expires_and_evicts():
    now = [0.0]
    cache = MemoryCache(max_entries=2, clock=lambda: now[0])
    cache.set("a", 1, ttl=10)
    cache.set_many({"b": [2], "c": {"x": 3}})
    assert cache.get("a") is None and len(cache) == 2  # least recently used went first
    assert cache.get_many(["b", "c", "z"]) == {"b": [2], "c": {"x": 3}}
    cache.set("d", 4, ttl=5)
    now[0] = 5.0
    assert cache.get("d") is None and cache.get("c") == {"x": 3}


@pytest.mark.slow
def test_benchmark_reviews_a_long_contract_and_reruns_it_without_provider_calls(tmp_path):
    """The benchmark's own behaviour (timings are for `redline bench`, not for tests on a shared machine)."""
    out = tmp_path / "c30.docx"
    subprocess.run([sys.executable, str(ROOT / "tests/support/make_contract.py"), "--pages", "30", "-o", str(out)],
                   check=True, capture_output=True)
    report = benchmark_offline(out.read_bytes(), repeats=1)
    assert report["paragraphs"] > 900 and report["suggestions"] > 20
    assert report["rerun_provider_calls"] == 0 and report["stats"]["provider_calls"] > 0, report
