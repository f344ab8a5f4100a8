"""The offline engine is asked only about the paragraphs where it can find something (a 100-page review's
speed), and that changes nothing it finds."""

from __future__ import annotations

from redline.analysis.cache import MemoryCache
from redline.analysis.checks import check_rule, might_hit, reciprocal_parties
from redline.analysis.pipeline import review
from redline.analysis.providers.offline import OfflineProvider
from redline.analysis.review.coverage import offline_rule

from .conftest import CountingProvider


def test_the_screen_never_rules_out_a_paragraph_the_checks_find_something_in(generated, playbook):
    texts = [c.text for c in generated]
    parties = ("Customer", "Supplier")
    found = ruled_out = 0
    for rule in map(offline_rule, playbook.rules):
        reciprocal = reciprocal_parties(rule, texts, parties)
        for text, maybe in zip(texts, might_hit(rule, texts, parties), strict=True):
            hit = bool(check_rule(rule, text, parties=parties, reciprocal=reciprocal))
            found += hit
            ruled_out += not maybe
            assert maybe or not hit, (rule.key, text)
    assert found >= 5 and ruled_out > len(texts)  # it finds things, and it rules most pairs out


class _Screened(OfflineProvider):
    def __init__(self) -> None:
        self.requests = []

    def analyze(self, request):
        self.requests.append(request)
        return super().analyze(request)


def test_a_screened_review_finds_exactly_what_asking_about_every_paragraph_finds(generated, playbook):
    asked_few = _Screened()
    screened = review(generated, playbook, asked_few, cache=MemoryCache(), acting_for="Customer")
    asked_all = CountingProvider()  # the same engine without the screen
    whole = review(generated, playbook, asked_all, cache=MemoryCache(), acting_for="Customer")
    assert screened.suggestions and [s.to_dict() for s in screened.suggestions] == \
        [s.to_dict() for s in whole.suggestions]
    assert screened.stats.selected == whole.stats.selected  # the run still reports what the rules select
    few, every = (sum(len(r.items) for r in p.requests) for p in (asked_few, asked_all))
    assert every >= whole.stats.selected and few < every / 4
