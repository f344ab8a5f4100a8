"""Which paragraphs a rule applies to, and whether its clause exists.

Where a missing clause goes is :mod:`.placement.place`'s job.

Selection is cheap and deterministic, and it decides what a model is shown, so
it errs towards inclusion: a paragraph is selected when its own wording is of
the rule's category, when it sits under a heading of that category, when it
contains one of the rule's keywords, or when one of the rule's red flags
matches it (a red flag applies wherever it appears). Headings are never
selected. A definition is selected only through a keyword or red flag: terms
such as a renewal period are often set in the definitions, but a definition
mentioning "liabilities" is not a liability clause.
"""

from __future__ import annotations

import re
from functools import lru_cache

from redline.clauses import COMPLETE, PLAYBOOK_TO_CUAD
from redline.clauses.prefilter import Matcher, matcher

from .categories import Category
from .document import Document
from .playbook.model import Rule, compile_pattern, flag_regex, party_pattern

# A definition reaches a rule through the clause engine only at this probability or more (a definition can
# hold the clause: "Renewal Term" means ...), not on the small chance that routes an operative paragraph.
DEFINITION_ROUTE = 0.01


@lru_cache(maxsize=1024)
def _keywords(keywords: tuple[str, ...]) -> Matcher | None:
    if not keywords:
        return None
    words = sorted(keywords, key=len, reverse=True)
    alternation = "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in words)
    return matcher(re.compile(r"\b(?:" + alternation + r")", re.IGNORECASE))


def rule_matchers(doc: Document, rule: Rule) -> tuple[Matcher | None, list[Matcher]]:
    """The rule's keyword matcher (None: no keyword occurs in the document) and its red flags that can
    match somewhere in it, with the document's party names."""
    keywords = _keywords(rule.keywords)
    everything = doc.lowered_all
    alternation = party_pattern(doc.parties)
    flags = [m for f in rule.red_flags if (m := matcher(flag_regex(f, alternation))).possible(everything)]
    if keywords is not None and not keywords.possible(everything):
        keywords = None
    return keywords, flags


def select_clauses(doc: Document, rule: Rule) -> list[int]:
    """Indices of the clauses ``rule`` applies to, in document order.

    The clause engine's candidates for the rule's category are always given
    (a definition only from :data:`DEFINITION_ROUTE` up).
    For a category CUAD covers completely (governing law, assignment, ...)
    they replace the keyword classifier's reading of a paragraph's own text;
    for the others the classifier adds what the engine was not trained on
    (payment terms besides revenue sharing, termination for cause). The
    section headings, the rule's own keywords and its red flags always add
    what they match. ``docs/clauses.md`` has the measured context recall.
    """
    covered = rule.category.value in COMPLETE
    routed = doc.found.routed(rule.category.value)
    keywords, flags = rule_matchers(doc, rule)
    chosen: set[int] = set()  # what the rule's keywords or red flags match, wherever it is
    for m in ([keywords] if keywords is not None else []) + flags:
        chosen |= doc.corpus.matching(m.rx)
    chosen.update(i for i, p in routed.items() if p >= DEFINITION_ROUTE
                  or Category.DEFINITIONS not in (doc.categories[i] | doc.section_categories[i]))
    own, under = _by_category(doc)
    if not covered:
        chosen.update(own.get(rule.category, ()))
    chosen.update(under.get(rule.category, ()))
    return sorted(i for i in chosen if not doc.is_heading[i])


def _by_category(doc: Document) -> tuple[dict[Category, list[int]], dict[Category, list[int]]]:
    """The clauses (definitions left out) of each category by their own words, and by the headings above
    them: computed once per document, for every rule's selection."""
    found = doc.memo.get("by_category")
    if found is None:
        own: dict[Category, list[int]] = {}
        under: dict[Category, list[int]] = {}
        for i, cats in enumerate(doc.categories):
            if Category.DEFINITIONS in cats:
                continue
            for cat in cats:
                own.setdefault(cat, []).append(i)
            for cat in doc.section_categories[i]:
                under.setdefault(cat, []).append(i)
        found = doc.memo["by_category"] = (own, under)
    return found


def rule_present(doc: Document, rule: Rule, selected: list[int]) -> bool:
    """Whether the document has a clause that satisfies a required rule.

    With ``detect`` patterns, any body clause matching one counts; otherwise a
    selected clause whose own wording is of the rule's category or contains a
    keyword. Headings and definitions never count: a heading "Limitation of
    Liability" over unrelated text, or a defined term, is not the clause.

    For a category the clause engine covers, the clause also counts as present
    unless the engine is confident it is absent: a lawyer shown a "missing"
    clause that is really there stops trusting every other finding. For the
    other categories, a section headed for the category with text under it
    ("13. NOTICES" over the notice clause) is the clause, whatever its wording.
    """
    if rule.category.value in PLAYBOOK_TO_CUAD and not doc.found.confidently_absent(rule.category.value):
        return True
    if rule.category.value not in PLAYBOOK_TO_CUAD and _headed_section(doc, rule):
        return True
    if rule.detect:
        patterns = [matcher(compile_pattern(p)) for p in rule.detect]
        candidates = range(len(doc.clauses))
    else:
        patterns = []
        candidates = selected
    keywords = _keywords(rule.keywords)
    worded: set[int] = set()
    for m in patterns or ([keywords] if keywords is not None else []):
        worded |= doc.corpus.matching(m.rx)
    return any(
        not doc.is_heading[i] and Category.DEFINITIONS not in doc.categories[i]
        and (i in worded or (not patterns and rule.category in doc.categories[i]))
        for i in candidates
    )


def _headed_section(doc: Document, rule: Rule) -> bool:
    """Whether a body paragraph (not a definition) sits under a heading announcing the rule's category."""
    return any(
        not doc.is_heading[i] and rule.category in doc.section_categories[i]
        and Category.DEFINITIONS not in doc.categories[i]
        for i in range(len(doc.clauses))
    )
