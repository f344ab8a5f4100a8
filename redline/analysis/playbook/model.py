"""Playbooks: the rule model of the open interchange format, and its patterns.

A playbook is what a legal team knows about a kind of contract, written down
so a machine can apply it and a lawyer can audit it: per rule, what to look
for (category, keywords, red-flag patterns, numeric thresholds), why it
matters (guidance, severity, risk dimensions), and how to fix it (preferred
position, ordered fallbacks, suggested language). The format is YAML or JSON,
checked against ``schema.json`` and then semantically (regexes
compile, replacement templates name real groups, keys are unique), so a bad
upload fails at import with a :class:`PlaybookError` that says where, not
halfway through a review; reading, checking and writing the format is
:mod:`redline.analysis.playbook.io`. See ``docs/playbook-format.md``.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache, lru_cache
from typing import Any

from ..categories import Category
from ..document import ROLE_NOUNS

FORMAT = "redline-playbook/1"
PARTY_PLACEHOLDER = "{party}"


class Severity(StrEnum):
    """How bad a deviation is; ordered critical > major > minor."""

    CRITICAL = "critical"
    MAJOR = "major"
    MINOR = "minor"


class RiskDimension(StrEnum):
    """The five risk dimensions a clause is scored on."""

    FINANCIAL = "financial"
    LEGAL_COMPLIANCE = "legal_compliance"
    OPERATIONAL = "operational"
    TIMELINE = "timeline"
    STRATEGIC_REPUTATIONAL = "strategic_reputational"


class PlaybookError(ValueError):
    """A playbook that cannot be used: ``code`` for programs, ``message`` for people,
    ``path`` (JSON-pointer style, "/rules/3/thresholds/0/near") for where."""

    def __init__(self, code: str, message: str, path: str = "",
                 problems: tuple[tuple[str, str], ...] = ()) -> None:
        super().__init__(f"{message} (at {path})" if path else message)
        self.code = code
        self.message = message
        self.path = path
        # Every problem found, as (path, message), this one first: people fix a file in one go.
        self.problems = problems or ((path, message),)


@dataclass(frozen=True, slots=True)
class RedFlag:
    """Wording that signals a problem. ``match`` is "regex" or "keyword" (a literal
    phrase, whitespace-tolerant). ``{party}`` in a pattern stands for any party
    name. ``context`` limits the flag to paragraphs it matches ("any breach"
    only matters in a termination right); ``unless`` suppresses the flag when
    it matches the paragraph;
    ``reciprocal`` suppresses it when another party does the same thing
    somewhere in the document. ``replacement`` turns the flag into a span
    replacement (regex templates may use groups, e.g. ``\\g<party>``);
    ``insert`` into an insertion after the paragraph; otherwise it is a comment.
    ``favours`` says whom the flagged wording favours: "actor" (the party it names as subject: "X may
    terminate at any time", "in X's sole discretion") or "counterparty" ("X shall indemnify"); the review
    raises it only when that is not the party we act for (see ``redline.analysis.review.sides``).
    ``unless_anywhere`` suppresses the flag when it matches anywhere in the contract (a confidentiality
    obligation with no survival period is no finding when a survival clause elsewhere covers it)."""

    pattern: str
    message: str
    match: str = "regex"
    severity: Severity | None = None
    context: str | None = None
    unless: str | None = None
    reciprocal: bool = False
    replacement: str | None = None
    insert: str | None = None
    favours: str | None = None
    unless_anywhere: str | None = None


@dataclass(frozen=True, slots=True)
class Threshold:
    """A numeric limit: ``metric`` ``operator`` ``value`` ``unit``, read from quantities
    whose surrounding words match ``near`` (and not ``unless``). ``per`` qualifies
    percent rates; ``currency`` restricts amounts; ``suggest`` is the value a
    replacement proposes (default ``value``). ``protects`` says whose interest the limit's direction
    serves: "actor" (the party the clause binds: the payer's payment period, the breaching party's cure
    period) or "counterparty" (the other: a cap on the actor's liability, the actor's warranty period)."""

    metric: str
    operator: str
    value: float
    unit: str
    near: str
    per: str | None = None
    currency: str | None = None
    unless: str | None = None
    suggest: float | None = None
    message: str | None = None
    protects: str | None = None


@dataclass(frozen=True, slots=True)
class Example:
    """A clause the rule should flag or pass: documentation for people and a test for the engine."""

    text: str
    expect: str
    note: str | None = None


@dataclass(frozen=True, slots=True)
class Rule:
    """One playbook rule; see the module docstring and docs/playbook-format.md."""

    key: str
    title: str
    category: Category
    severity: Severity
    risk_dimensions: tuple[RiskDimension, ...] = ()
    guidance: str = ""
    preferred_position: str = ""
    fallbacks: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    detect: tuple[str, ...] = ()
    red_flags: tuple[RedFlag, ...] = ()
    thresholds: tuple[Threshold, ...] = ()
    required: bool = False
    suggested_language: str = ""
    enabled: bool = True
    examples: tuple[Example, ...] = ()

    @property
    def fingerprint(self) -> str:
        """Content hash of the rule: its "version" in cache keys, so editing one rule
        re-asks only that rule."""
        return _fingerprint(self)

    def to_dict(self) -> dict[str, Any]:
        """The interchange form (defaults omitted, so files stay short)."""
        out: dict[str, Any] = {"key": self.key, "title": self.title, "category": self.category.value,
                               "severity": self.severity.value}
        if self.risk_dimensions:
            out["risk_dimensions"] = [d.value for d in self.risk_dimensions]
        for name in ("guidance", "preferred_position", "suggested_language"):
            if getattr(self, name):
                out[name] = getattr(self, name)
        for name in ("fallbacks", "keywords", "detect"):
            if getattr(self, name):
                out[name] = list(getattr(self, name))
        if self.red_flags:
            out["red_flags"] = [_drop_defaults(f, RedFlag) for f in self.red_flags]
        if self.thresholds:
            out["thresholds"] = [_drop_defaults(t, Threshold) for t in self.thresholds]
        if self.required:
            out["required"] = True
        if not self.enabled:
            out["enabled"] = False
        if self.examples:
            out["examples"] = [_drop_defaults(e, Example) for e in self.examples]
        return out


@dataclass(frozen=True, slots=True)
class Playbook:
    """A named, versioned list of rules. ``version`` is the author's number; the
    database's immutable versions are the lead's concern, not this format's."""

    name: str
    rules: tuple[Rule, ...]
    version: int = 1
    contract_type: str = ""
    perspective: str = "balanced"
    description: str = ""
    format: str = field(default=FORMAT)

    @property
    def enabled_rules(self) -> tuple[Rule, ...]:
        """The rules a review applies."""
        return tuple(r for r in self.rules if r.enabled)

    def rule(self, key: str) -> Rule:
        """The rule with ``key``; KeyError when absent."""
        for r in self.rules:
            if r.key == key:
                return r
        raise KeyError(key)

    def to_dict(self) -> dict[str, Any]:
        """The interchange form, ready for JSON or YAML."""
        out: dict[str, Any] = {"format": self.format, "name": self.name, "version": self.version}
        if self.contract_type:
            out["contract_type"] = self.contract_type
        out["perspective"] = self.perspective
        if self.description:
            out["description"] = self.description
        out["rules"] = [r.to_dict() for r in self.rules]
        return out


def _drop_defaults(obj: object, cls: type) -> dict[str, Any]:
    defaults = {name: f.default for name, f in cls.__dataclass_fields__.items()}  # type: ignore[attr-defined]
    out: dict[str, Any] = {}
    for name in defaults:
        value = getattr(obj, name)
        if value == defaults[name]:
            continue
        out[name] = value.value if isinstance(value, StrEnum) else value
    return out


@cache
def _fingerprint(rule: Rule) -> str:
    canonical = json.dumps(rule.to_dict(), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]


# ---------------------------------------------------------------- patterns


@lru_cache(maxsize=4096)
def compile_pattern(pattern: str, party: str = "", *, path: str = "") -> re.Pattern[str]:
    """Compile a playbook regex case-insensitively, expanding ``{party}`` to the party
    alternation (the first occurrence as the named group ``party``)."""
    if PARTY_PLACEHOLDER in pattern:
        alternation = party or default_party_pattern()
        head, _, tail = pattern.partition(PARTY_PLACEHOLDER)
        pattern = f"{head}(?P<party>{alternation}){tail.replace(PARTY_PLACEHOLDER, f'(?:{alternation})')}"
    try:
        return re.compile(pattern, re.IGNORECASE)
    except re.error as exc:
        raise PlaybookError("bad_regex", f"invalid regular expression: {exc}", path) from exc


def flag_regex(flag: RedFlag, party: str = "", *, path: str = "") -> re.Pattern[str]:
    """The compiled pattern of a red flag (a keyword becomes a whole-phrase regex)."""
    if flag.match == "keyword":
        words = [re.escape(w) for w in flag.pattern.split()]
        return compile_pattern(r"\b" + r"\s+".join(words) + r"\b", party, path=path)
    return compile_pattern(flag.pattern, party, path=path)


@cache
def default_party_pattern() -> str:
    """Party alternation used when a document defines no party names."""
    return party_pattern(())


@lru_cache(maxsize=256)
def party_pattern(names: tuple[str, ...]) -> str:
    """Regex alternation for "the Supplier", "Acme" …: the document's party names plus role nouns."""
    words = sorted({*names, *ROLE_NOUNS}, key=len, reverse=True)
    return r"\b(?:the\s+)?(?:" + "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in words) + r")\b"
