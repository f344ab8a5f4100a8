"""``redline hygiene-eval``: the drafting-hygiene review graded on defects planted in CUAD's dev contracts.

Issue #27 asks for recall of at least 95 % per kind and at most 0.3 s added per 100 pages, and for the
findings on contracts nobody touched to be counted and a sample rated, since recall bought with noise is no
use to a lawyer. Each dev contract is reviewed twice, end to end as ``redline review`` does it (anchored read,
contract graph, built-in playbook, offline provider): as it is, and with one defect of each kind planted by
:mod:`.hygiene_inject` (``per_kind`` of each, in paragraphs of their own, in one copy).

**When an injection counts as recalled.** A suggestion with ``rule_key == "hygiene.<kind>"`` that the
untouched contract did not already get (same rule, paragraph text and quote) and that is:

- ``blank``, ``drafting_note``, ``words_digits``, ``unpaired``, ``repeated_word``, ``missing_reference``:
  anchored at the edited paragraph, its quote overlapping the planted words (the blank or note, the
  "thirty (60)", the "the the", the changed "Section 4.6"; for ``unpaired`` the text from the "(" left open
  to the next ")", since a reader may pair the two and find the next "(" the one left open);
- ``undefined_term``: anywhere in the contract, its quote being the term whose definition was removed (any
  case, singular or plural: the finding belongs at a use of the term, the definition is gone);
- ``numbering_gap``: anchored at the clause after the gap or the one before it;
- ``two_values``: anchored at the restatement planted or at the statement it contradicts;
- ``empty_attachment``: anchored at the emptied attachment's heading, or anywhere quoting its name
  ("Exhibit B", where it is cited).

The added time is :func:`redline.retrieval.hygiene.check` and :func:`redline.analysis.two_values.check` alone (the graph is built for the review anyway):
the fastest of three runs on a freshly built graph, per contract, with pages counted at 500 words (as
``tests/support/make_contract.py`` writes them); ``time_long`` times one long contract directly.
"""

from __future__ import annotations

import random
import re
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from redline.analysis import two_values
from redline.analysis.cache import MemoryCache
from redline.analysis.clauses import clauses_from_paragraphs
from redline.analysis.pipeline import review
from redline.analysis.playbook.io import default_playbook
from redline.analysis.playbook.model import Playbook
from redline.analysis.providers.offline import OfflineProvider
from redline.analysis.suggestions import Suggestion
from redline.ooxml.paragraphs import Paragraph, read_document
from redline.retrieval.graph import ContractGraph
from redline.retrieval.hygiene import KINDS, check

from .cuad_dev import dev_ids
from .hygiene_inject import INJECTORS, Injection, inject

WORDS_PER_PAGE = 500
TARGET_RECALL = 95.0
TARGET_SECONDS_PER_100_PAGES = 0.3


@dataclass
class Figures:
    """What one run measured (see the module docstring); :meth:`to_dict` adds the rates."""

    seed: int = 0
    per_kind: int = 1
    contracts: int = 0
    pages: float = 0.0
    injected: Counter[str] = field(default_factory=Counter)
    recalled: Counter[str] = field(default_factory=Counter)
    no_place: Counter[str] = field(default_factory=Counter)  # contracts where a kind found nowhere to go
    paths: Counter[str] = field(default_factory=Counter)  # words_digits: changed / inserted
    paths_recalled: Counter[str] = field(default_factory=Counter)
    misses: list[dict[str, Any]] = field(default_factory=list)
    untouched: Counter[str] = field(default_factory=Counter)  # findings on the contracts as they are
    untouched_contracts: Counter[str] = field(default_factory=Counter)
    findings: list[dict[str, Any]] = field(default_factory=list)
    timings: list[dict[str, Any]] = field(default_factory=list)  # contract, pages, seconds of check()
    long: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready figures (every finding on the untouched contracts is left to :meth:`sample`)."""
        def rate(a: int, b: int) -> float | None:
            return round(100 * a / b, 1) if b else None

        per_100 = [t["seconds"] / t["pages"] * 100 for t in self.timings if t["pages"]]
        return {
            "contracts": self.contracts, "seed": self.seed, "per_kind": self.per_kind, "pages": round(self.pages, 1),
            "recall": {k: {"injected": self.injected[k], "recalled": self.recalled[k],
                           "percent": rate(self.recalled[k], self.injected[k]), "no_place": self.no_place[k]}
                       for k in INJECTORS},
            "all": {"injected": sum(self.injected.values()), "recalled": sum(self.recalled.values()),
                    "percent": rate(sum(self.recalled.values()), sum(self.injected.values()))},
            "below_target": [k for k in INJECTORS
                             if self.injected[k] and 100 * self.recalled[k] / self.injected[k] < TARGET_RECALL],
            "words_digits_paths": {p: {"injected": self.paths[p], "recalled": self.paths_recalled[p]}
                                   for p in ("changed", "inserted")},
            "untouched": {k: {"findings": self.untouched[k], "contracts": self.untouched_contracts[k]} for k in KINDS},
            "untouched_total": sum(self.untouched.values()),
            "timing": {
                "median_ms_per_contract": _ms(statistics.median(t["seconds"] for t in self.timings))
                if self.timings else None,
                "median_pages_per_contract": round(statistics.median(t["pages"] for t in self.timings), 1)
                if self.timings else None,
                "median_s_per_100_pages": round(statistics.median(per_100), 4) if per_100 else None,
                "max_s_per_100_pages": round(max(per_100), 4) if per_100 else None,
                "long": self.long, "target_s_per_100_pages": TARGET_SECONDS_PER_100_PAGES,
            },
            "misses": self.misses,
        }

    def sample(self, n: int) -> list[dict[str, Any]]:
        """``n`` findings on the untouched contracts, drawn with the run's seed, ready to be rated
        (``rating``: USEFUL, NOISE or WRONG, and a ``reason``, as ``docs/review-ratings/`` keeps them)."""
        picked = random.Random(f"sample:{self.seed}").sample(self.findings, min(n, len(self.findings)))
        return [{**f, "rating": "", "reason": ""} for f in picked]


def evaluate(data: Path, *, seed: int = 0, ids: Iterable[str] | None = None, per_kind: int = 1,
             kinds: Sequence[str] = tuple(INJECTORS), playbook: Playbook | None = None,
             progress: Callable[[str], None] | None = None) -> Figures:
    """Review each dev contract (``ids``, default all) as it is and with defects planted; grade and time."""
    playbook = playbook or default_playbook()
    figures = Figures(seed=seed, per_kind=per_kind)
    for cid in ids if ids is not None else dev_ids(data):
        raw = (data / "dev-docx" / f"{cid}.docx").read_bytes()
        before, paragraphs = review_hygiene(raw, playbook)
        figures.contracts += 1
        pages = sum(len(p.text.split()) for p in paragraphs) / WORDS_PER_PAGE
        figures.pages += pages
        figures.timings.append({"contract": cid, "pages": round(pages, 2), "seconds": time_check(paragraphs)})
        texts = {p.anchor: p.text for p in paragraphs if p.anchor}
        for kind, n in Counter(s.rule_key.removeprefix("hygiene.") for s in before).items():
            figures.untouched[kind] += n
            figures.untouched_contracts[kind] += 1
        index = {p.anchor: n for n, p in enumerate(paragraphs) if p.anchor}
        figures.findings += [{"contract": cid, "kind": s.rule_key.removeprefix("hygiene."), "severity": s.severity,
                              "quote": s.quote, "comment": s.comment, "paragraph_index": index.get(s.anchor),
                              "offset": quote_start(texts.get(s.anchor, ""), s.quote, s.occurrence),
                              "paragraph": _around(texts.get(s.anchor, ""), s)}
                             for s in before]  # the place (paragraph, offset in it), so a rating can be checked
        seen = {(s.rule_key, texts.get(s.anchor), s.quote) for s in before}
        injected, injections, missed = inject(raw, random.Random(f"{seed}:{cid}"), kinds=tuple(kinds),
                                              per_kind=per_kind)
        figures.no_place.update(missed)
        after, injected_paragraphs = review_hygiene(injected, playbook)
        now = {p.anchor: p.text for p in injected_paragraphs if p.anchor}
        fresh = [s for s in after if (s.rule_key, now.get(s.anchor), s.quote) not in seen]
        for injection in injections:
            hit = recalled(injection, fresh, injected_paragraphs)
            figures.injected[injection.kind] += 1
            figures.recalled[injection.kind] += hit
            if injection.path:
                figures.paths[injection.path] += 1
                figures.paths_recalled[injection.path] += hit
            if not hit:
                figures.misses.append(_miss(cid, injection, fresh, injected_paragraphs))
        if progress:
            progress(cid)
    return figures


def review_hygiene(data: bytes, playbook: Playbook) -> tuple[list[Suggestion], list[Paragraph]]:
    """Review a .docx as ``redline review`` does (anchored read, graph, offline provider); its hygiene
    suggestions and the paragraphs they are anchored in."""
    read = read_document(data, anchor=True)
    result = review(clauses_from_paragraphs(read.paragraphs), playbook, OfflineProvider(), cache=MemoryCache(),
                    graph=ContractGraph.from_paragraphs(read.paragraphs), hygiene=frozenset(KINDS))  # every check,
    # including those the product leaves off by default (DEFAULT_KINDS): their figures say when they may go on
    return [s for s in result.suggestions if s.source == "hygiene"], read.paragraphs


def recalled(injection: Injection, suggestions: Sequence[Suggestion], paragraphs: Sequence[Paragraph]) -> bool:
    """Whether one of ``suggestions`` (on the injected document, ``paragraphs``) reports ``injection``, by the
    rules of the module docstring."""
    key = f"hygiene.{injection.kind}"
    at = {paragraphs[i].anchor: i for i in injection.paragraphs if paragraphs[i].anchor}
    for s in suggestions:
        if s.rule_key != key:
            continue
        if injection.name and names(s.quote, injection.name, whole=injection.kind == "undefined_term"):
            return True
        if s.anchor not in at:
            continue
        if injection.span is None or at[s.anchor] != injection.paragraphs[0]:
            return True
        start = quote_start(paragraphs[at[s.anchor]].text, s.quote, s.occurrence)
        if start is not None and start < injection.span[1] and start + len(s.quote) > injection.span[0]:
            return True
    return False


def names(quote: str, name: str, *, whole: bool = False) -> bool:
    """Whether ``quote`` names ``name``: any case, any spacing, a plural "s" either way ("Recipients" for
    "Recipient", never "Exhibit BB" for "Exhibit B"). ``whole``: the quote is the name and nothing more (but
    a leading "the" or a trailing possessive), so "Customer Data" does not name "Customer"."""
    stems = {name, name[:-1]} if name.lower().endswith("s") and len(name) > 3 else {name}
    patterns = (r"\s+".join(map(re.escape, stem.split())) for stem in stems)
    if whole:
        return any(re.fullmatch(rf"\s*(?:the\s+)?{p}(?:s|es)?(?:['’]s?)?\s*", quote, re.IGNORECASE) for p in patterns)
    return any(re.search(rf"(?<!\w){p}(?:s|es)?(?!\w)", quote, re.IGNORECASE) for p in patterns)


def quote_start(text: str, quote: str, occurrence: int) -> int | None:
    """Where the ``occurrence``-th (1-based, non-overlapping) copy of ``quote`` starts in ``text``."""
    pos = -len(quote)
    for _ in range(max(occurrence, 1)):
        pos = text.find(quote, pos + len(quote))
        if pos < 0:
            return None
    return pos


def time_check(paragraphs: Sequence[Paragraph], repeats: int = 3) -> float:
    """Seconds the review's hygiene takes on these paragraphs' graph (:func:`check` and the two-values check): the
    fastest of ``repeats`` runs, each on a graph built afresh (a check may cache what it computed on the graph)."""
    best = float("inf")
    for _ in range(repeats):
        graph = ContractGraph.from_paragraphs(paragraphs)
        started = time.perf_counter()
        check(graph)
        two_values.check(graph)
        best = min(best, time.perf_counter() - started)
    return best


def time_long(data: bytes) -> dict[str, Any]:
    """The check timed directly on one long contract (e.g. ``make_contract.py --pages 100``)."""
    paragraphs = read_document(data, anchor=True).paragraphs
    words = sum(len(p.text.split()) for p in paragraphs)
    seconds = time_check(paragraphs)
    return {"words": words, "pages": round(words / WORDS_PER_PAGE, 1), "paragraphs": len(paragraphs),
            "seconds": round(seconds, 4), "s_per_100_pages": round(seconds / (words / WORDS_PER_PAGE) * 100, 4),
            "findings": dict(Counter(f.kind for f in check(ContractGraph.from_paragraphs(paragraphs))))}


def _miss(cid: str, injection: Injection, suggestions: Sequence[Suggestion],
          paragraphs: Sequence[Paragraph]) -> dict[str, Any]:
    """A missed injection, with what the review did say of that kind there (to tell a blind check from a
    misplaced quote)."""
    where = {paragraphs[i].anchor for i in injection.paragraphs}
    text = paragraphs[injection.paragraphs[0]].text if injection.paragraphs else ""
    span = injection.span or (0, 0)
    return {"contract": cid, **injection.to_dict(),
            "context": text[max(span[0] - 80, 0): span[1] + 80] if injection.span else text[:160],
            "reported_there": [{"rule": s.rule_key, "quote": s.quote[:120]} for s in suggestions if s.anchor in where]}


def _around(text: str, s: Suggestion, width: int = 300) -> str:
    """The paragraph a finding sits in, cut to ``width`` characters either side of its quote."""
    start = quote_start(text, s.quote, s.occurrence) or 0
    a, z = max(start - width, 0), min(start + len(s.quote) + width, len(text))
    return ("…" if a else "") + text[a:z] + ("…" if z < len(text) else "")


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 2)
