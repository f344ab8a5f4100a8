"""Every rule does something offline, or the review says it could not.

A rule written in the dashboard may have only prose: a standard position ("the obligations survive at least
five (5) years") and fallbacks, no red flag or threshold. The offline engine reads the numbers of its
positions as thresholds ("at least" → ``>=``, "no more than", "up to", "within" → ``<=``), found in the
rule's own clause kind (the review gate's clause check) and raised as comments, never edits: prose does not
say whose side the number protects. A rule with no check at all (no red flag, threshold, required clause or
number in its positions) is *not checked*, and runs, Try and the pane say so instead of "meets every rule".
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache

from ..playbook.model import Rule, Threshold
from ..quantities import find_quantities

PROSE_METRIC = "_position"  # the suffix of a threshold read from a rule's prose
_AT_LEAST = re.compile(r"\b(?:at\s+least|not\s+less\s+than|no\s+less\s+than|minimum(?:\s+of)?|a\s+minimum\s+of|"
                       r"or\s+more|or\s+longer)\W*$", re.IGNORECASE)
_AT_MOST = re.compile(r"\b(?:no\s+more\s+than|not\s+more\s+than|up\s+to|at\s+most|not\s+(?:to\s+)?exceed(?:ing)?|"
                      r"maximum(?:\s+of)?|a\s+maximum\s+of|within|no\s+later\s+than|not\s+later\s+than)\W*$",
                      re.IGNORECASE)


@lru_cache(maxsize=256)  # rules edited in the dashboard come and go: bounded
def offline_rule(rule: Rule) -> Rule:
    """``rule`` with the thresholds its prose positions state, when it has none of its own."""
    if rule.thresholds:
        return rule
    derived = prose_thresholds(rule)
    return replace(rule, thresholds=derived) if derived else rule


def prose_thresholds(rule: Rule) -> tuple[Threshold, ...]:
    """The numbers of the preferred position (else the first fallback) with the limit the words give them."""
    for text in (rule.preferred_position, *rule.fallbacks[:1]):
        found = []
        for q in find_quantities(text):
            if q.kind not in ("duration", "percent"):
                continue
            before = text[max(0, q.start - 40) : q.start]
            op = ">=" if _AT_LEAST.search(before) else "<=" if _AT_MOST.search(before) else None
            if op is None:
                continue
            found.append(Threshold(metric=f"{rule.key.replace('-', '_')}{PROSE_METRIC}", operator=op, value=q.value,
                                   unit=q.unit if q.kind == "duration" else "percent", near=".",
                                   message=f"{rule.title}: {{found}} does not meet the playbook position "
                                           f"(“{text.strip()}”)."))
        if found:
            return tuple(found[:2])
    return ()


def checked_offline(rule: Rule) -> bool:
    """Whether the offline engine has anything to check for ``rule``."""
    r = offline_rule(rule)
    return bool(r.red_flags or r.thresholds or r.required)


def is_prose_check(threshold: Threshold) -> bool:
    """Whether a threshold was read from a rule's prose (a comment only, whatever the side)."""
    return threshold.metric.endswith(PROSE_METRIC)
