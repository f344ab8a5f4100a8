"""The literal prefilter must never skip a text its regex matches."""

from __future__ import annotations

import re

import pytest

from redline.analysis.categories import _SIGNALS, _TITLES
from redline.analysis.playbook.io import default_playbook
from redline.analysis.playbook.model import compile_pattern, flag_regex, party_pattern
from redline.analysis.validator import _DANGEROUS
from redline.clauses.keywords import COMPILED
from redline.clauses.prefilter import matcher, needles
from redline.clauses.scan import Corpus


def all_patterns() -> list[re.Pattern[str]]:
    pb = default_playbook()
    party = party_pattern(("Customer", "Supplier"))
    out = [m.rx for _, m in _SIGNALS + _TITLES] + [m.rx for m, _, _ in _DANGEROUS]
    for rule in pb.rules:
        out += [flag_regex(f, party) for f in rule.red_flags]
        out += [compile_pattern(p) for f in rule.red_flags for p in (f.context, f.unless) if p]
        out += [compile_pattern(p) for p in rule.detect]
        out += [compile_pattern(t.near) for t in rule.thresholds]
    return out


def corpus(generated) -> list[str]:
    pb = default_playbook()
    texts = [c.text for c in generated]
    for rule in pb.rules:
        texts += [e.text for e in rule.examples] + [rule.guidance, rule.suggested_language, rule.preferred_position]
    return texts


def test_prefilter_is_sound_on_every_pattern_and_text(generated):
    texts = [(t, t.lower()) for t in corpus(generated)]
    patterns = all_patterns()
    filtered = 0
    for rx in patterns:
        m = matcher(rx)
        filtered += m.needles is not None
        for text, lower in texts:
            if rx.search(text):
                assert m.possible(lower), (rx.pattern, text)
    assert filtered / len(patterns) > 0.9  # nearly every pattern gets a prefilter


@pytest.mark.parametrize("pattern,expected", [
    (r"\bsole discretion\b", ("sole discretion",)),
    (r"(?:the\s+)?Supplier\s+may\s+terminate", ("terminate",)),
    (r"\bany breach\b|\bmaterial default\b", ("any breach", "material default")),
    (r"\bpay(?:ment|able)?\b", ("pay",)),
    (r"x(?=.{0,9}?confidential)", ("confidential",)),
    (r"\b\w+ly\b", None),  # nothing literal to require
    (r"ab|\d+", None),  # one branch has no literal
])
def test_needles(pattern, expected):
    assert needles(re.compile(pattern, re.IGNORECASE)) == expected


def test_a_corpus_finds_exactly_the_texts_each_pattern_matches(generated):
    texts = corpus(generated)
    scanned = Corpus(texts)
    patterns = all_patterns() + list(COMPILED.values())
    for rx in patterns:
        assert scanned.matching(rx) == {i for i, t in enumerate(texts) if rx.search(t)}, rx.pattern


@pytest.mark.parametrize("pattern", [
    r"\bnotice\s+period",  # \s could reach across the newline that joins the texts
    r"period\b",  # the last word of a text
    r"^notice",  # anchored: searched text by text
    r"(?<!no )notice",
    r"the İ",  # lower() makes this character two: offsets must be the lowered text's
    r"x*",  # matches the empty string, in every text
])
def test_a_corpus_scan_is_exact_at_the_edges_of_texts(pattern):
    texts = ["this notice", "period applies", "notice period", "no notice", "the İ notice", "", "notice"]
    rx = re.compile(pattern, re.IGNORECASE)
    assert Corpus(texts).matching(rx) == {i for i, t in enumerate(texts) if rx.search(t)}
    assert Corpus([]).matching(rx) == frozenset()
