"""The validator: a final PASS / WARN / FAIL check before advice reaches a lawyer.

Every proposed rewrite, and every clause whose risk is 40 or more, is checked
for completeness, dangerous patterns, contradictions (inside the clause and
across the document), vague language and policy violations (the playbook rule
still broken). The status follows the seed plan's rules exactly — see
:func:`decide_status` — so a verdict means the same thing whichever validator
produced it.

The offline validator is deterministic; its confidence says how much text it
had to judge (a fragment of a few words cannot be vouched for). Verdicts are
cached for 24 hours by clause hash through :func:`cached_validate`.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from redline.clauses.prefilter import Matcher, matcher

from .cache import Cache
from .checks import check_rule
from .playbook.model import Rule, Severity
from .quantities import convert, find_quantities

VALIDATION_RISK_THRESHOLD = 40
VERDICT_TTL = 24 * 3600
CONFIDENCE_FLOOR = 0.6


class Status(StrEnum):
    """Validator verdicts."""

    PASS = "PASS"  # noqa: S105 - a verdict, not a password
    WARN = "WARN"
    FAIL = "FAIL"


class IssueType(StrEnum):
    """What kind of problem a validation issue is."""

    COMPLETENESS = "completeness"
    CONTRADICTION = "contradiction"
    DANGEROUS_PATTERN = "dangerous_pattern"
    VAGUE_LANGUAGE = "vague_language"
    POLICY_VIOLATION = "policy_violation"


@dataclass(frozen=True, slots=True)
class ValidationIssue:
    """One problem found by the validator, with a hint where it is."""

    issue_type: IssueType
    severity: Severity
    description: str
    location_hint: str = ""

    def to_dict(self) -> dict[str, str]:
        """JSON-ready form."""
        return {"issue_type": self.issue_type.value, "severity": self.severity.value,
                "description": self.description, "location_hint": self.location_hint}


@dataclass(frozen=True, slots=True)
class ValidationResult:
    """A verdict: status, confidence (0–1) and the issues behind it."""

    status: Status
    confidence: float
    issues: tuple[ValidationIssue, ...]
    validator: str

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form (also the cached form)."""
        return {"status": self.status.value, "confidence": self.confidence,
                "issues": [i.to_dict() for i in self.issues], "validator": self.validator}

    @classmethod
    def from_dict(cls, data: dict) -> ValidationResult:
        """Inverse of :meth:`to_dict`."""
        issues = tuple(
            ValidationIssue(IssueType(i["issue_type"]), Severity(i["severity"]), i["description"], i["location_hint"])
            for i in data["issues"]
        )
        return cls(Status(data["status"]), data["confidence"], issues, data["validator"])


def decide_status(confidence: float, issues: Iterable[ValidationIssue]) -> Status:
    """The seed plan's status rules, exactly.

    FAIL when confidence is below 0.6 (too uncertain to recommend anything) or
    when any issue is critical (clearly broken); otherwise WARN when any issue
    is major (acceptable with caution); otherwise PASS (minor issues at most).
    """
    severities = {i.severity for i in issues}
    if confidence < CONFIDENCE_FLOOR or Severity.CRITICAL in severities:
        return Status.FAIL
    if Severity.MAJOR in severities:
        return Status.WARN
    return Status.PASS


# ---------------------------------------------------------------- document facts


@dataclass(frozen=True, slots=True)
class Fact:
    """A term the document states somewhere: ``metric`` = ``value``, read from ``snippet``."""

    metric: str
    value: str
    snippet: str
    source: str  # hash of the stating clause, so a clause is never compared with itself


@dataclass(frozen=True, slots=True)
class DocumentFacts:
    """The terms that must agree across the document (payment period, governing law,
    late-payment rate); ``signature`` enters verdict cache keys."""

    facts: tuple[Fact, ...] = ()

    @property
    def signature(self) -> str:
        """Stable hash of the facts."""
        canonical = "\n".join(sorted(f"{f.metric}={f.value}@{f.source}" for f in self.facts))
        return hashlib.sha256(canonical.encode()).hexdigest()[:16]


_PAYMENT = re.compile(r"\b(?:invoices?|pay|paid|payable|payment)\b", re.IGNORECASE)
_PERIOD_BEFORE = re.compile(r"\b(?:within|no later than|not later than|net)\s*$", re.IGNORECASE)
_PERIOD_AFTER = re.compile(r"^\W*(?:after|from|following|of)\s+(?:the\s+)?(?:receipt|date|invoice|issue)", re.IGNORECASE)
_NOT_PAYMENT = re.compile(r"\bdisput\w*|\bnotif\w*|\blate\b|\boverdue\b|\binterest\b|\bsuspen\w+|\bterminat\w*", re.IGNORECASE)
_INTEREST = re.compile(r"\binterest\b", re.IGNORECASE)
_LAW = re.compile(
    r"\b(?:governed by|construed in accordance with)\b.{0,40}?\blaws? of\s+(?:the\s+)?(?P<law>[A-Z][\w.]*(?:[ ,]+(?:and\s+)?[A-Z][\w.]*)*)"
)


def text_hash(text: str) -> str:
    """Short content hash identifying a clause text in facts and cache keys."""
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def clause_facts(text: str) -> list[Fact]:
    """The cross-document terms stated in one clause."""
    out: list[Fact] = []
    source = text_hash(text)
    lower = text.lower()
    # a fact's number has payment or interest wording beside it: a clause with neither word has no such number
    payment_words = "pay" in lower or "paid" in lower or "invoice" in lower or "interest" in lower
    for q in find_quantities(text) if payment_words else ():
        window = text[max(0, q.start - 80) : q.end + 40]
        is_period = _PERIOD_BEFORE.search(text[max(0, q.start - 25) : q.start]) or _PERIOD_AFTER.search(text[q.end :])
        if q.kind == "duration" and is_period and _PAYMENT.search(window) and not _NOT_PAYMENT.search(window):
            days = convert(q, "days")
            if days is not None:
                out.append(Fact("payment period", f"{days:g} days", q.text, source))
        elif q.kind == "percent" and q.per and _INTEREST.search(window):
            monthly = convert(q, "percent", "month")
            if monthly is not None:
                out.append(Fact("late-payment interest", f"{monthly:g}% per month", q.text, source))
    if "governed by" in lower or "construed in accordance" in lower:
        for m in _LAW.finditer(text):
            out.append(Fact("governing law", m.group("law").strip(" ,"), m.group(0), source))
    return out


def document_facts(texts: Iterable[str]) -> DocumentFacts:
    """Collect the cross-document terms of every clause, once per review."""
    return DocumentFacts(tuple(f for text in texts for f in clause_facts(text)))


# ---------------------------------------------------------------- offline validator


class Validator(Protocol):
    """Anything that can validate a clause; ``identity`` keys its cached verdicts."""

    identity: str

    def validate(
        self,
        text: str,
        *,
        rules: Sequence[Rule] = (),
        facts: DocumentFacts,
        parties: tuple[str, ...] = (),
        replaces: str | None = None,
    ) -> ValidationResult: ...


def _phrases(*words: str) -> re.Pattern[str]:
    """Case-sensitive after the first letter, so defined terms ("Good Industry Practice") are not vague."""
    alts = [f"[{w[0].upper()}{w[0].lower()}]{re.escape(w[1:])}" for w in words]
    return re.compile(r"\b(?:" + "|".join(alts) + r")\b")


_VAGUE = _phrases(
    "reasonable efforts", "reasonable endeavours", "best efforts", "best endeavours", "commercially reasonable",
    "promptly", "as soon as practicable", "as soon as reasonably practicable", "from time to time", "material",
    "materially", "substantially", "appropriate", "adequate", "satisfactory", "timely", "industry standard",
    "and/or", "etc", "to the extent possible", "sufficient",
)
_DANGEROUS: tuple[tuple[Matcher, Severity, str], ...] = tuple(
    (matcher(re.compile(p, re.IGNORECASE)), s, d)
    for p, s, d in (
        (r"\bunlimited liability\b|\bliability (?:shall be |is )?unlimited\b", Severity.CRITICAL, "unlimited liability"),
        (r"\bindemnif\w+.{0,200}?\b(?:regardless of|even if caused by)\b.{0,30}?\bnegligence\b", Severity.CRITICAL,
         "indemnity for the indemnified party's own negligence"),
        (r"\bwaives?\b.{0,20}?\b(?:any and )?all (?:rights|claims|remedies)\b", Severity.MAJOR, "waiver of all rights or remedies"),
        (r"\b(?:sole|absolute|unfettered) discretion\b", Severity.MAJOR, "one-sided discretion"),
        (r"\bwithout (?:any )?(?:prior )?notice\b", Severity.MAJOR, "action without notice"),
        (r"\bfor any reason or (?:for )?no reason\b|\bwith or without cause\b", Severity.MAJOR, "termination without reason"),
        (r"\bperpetual,?\s+(?:and\s+)?irrevocable\b", Severity.MAJOR, "perpetual, irrevocable grant"),
        (r"\bautomatic(?:ally)?\s+renew\w*\b|\bauto[\s-]?renew\w*\b", Severity.MAJOR, "automatic renewal"),
        (r"\bmay\s+(?:unilaterally\s+)?(?:amend|modify|change|vary)\s+(?:this agreement|these terms|the terms)\b",
         Severity.MAJOR, "unilateral amendment"),
        (r"\btime (?:is|shall be) of the essence\b", Severity.MINOR,
         "time is of the essence: any delay may justify termination"),
    )
)
_MODAL = re.compile(r"\b(?:shall|must|will|agrees? to|undertakes? to|is required to|is responsible for|may)\b", re.IGNORECASE)
_DUTY = re.compile(r"\b(?:shall|must|agrees? to|undertakes? to|is required to)\b", re.IGNORECASE)
_PARTY = re.compile(
    r"\b(?:part(?:y|ies)|supplier|customer|client|vendor|provider|contractor|consultant|licensor|licensee|buyer|seller|"
    r"purchaser|company|recipient|discloser|it|its|each|either|neither|we|you|they)\b",
    re.IGNORECASE,
)
_ACTION = re.compile(r"\b(?:pay|deliver|notify|provide|remedy|return|respond|submit|complete|destroy|refund)\b", re.IGNORECASE)
_TIME = re.compile(
    r"\b(?:within|by|no later than|before|after|prior to|until|during|days?|weeks?|months?|years?|hours?|promptly|"
    r"immediately|forthwith|without undue delay|on demand|date|term|period|annually|monthly|at all times|on request)\b",
    re.IGNORECASE,
)
_CONSEQUENCE = re.compile(
    r"\b(?:breach|terminat\w*|liab\w+|credit\w*|interest|remed\w+|damages|fail\w*|entitled|suspend\w*|indemnif\w*|refund\w*)\b",
    re.IGNORECASE,
)
_PLACEHOLDER = re.compile(r"\[[^\]]{0,60}\]|\[●\]|_{3,}")


class OfflineValidator:
    """Deterministic validator; see the module docstring."""

    identity = "offline-validator/1"

    def validate(
        self,
        text: str,
        *,
        rules: Sequence[Rule] = (),
        facts: DocumentFacts,
        parties: tuple[str, ...] = (),
        replaces: str | None = None,
    ) -> ValidationResult:
        """Check ``text``: a clause, or a clause as a suggestion would leave it, in which
        case ``replaces`` is the clause's current text (its terms are not "elsewhere").
        ``rules`` are the playbook rules the text must now satisfy."""
        issues = [
            *self._completeness(text, parties),
            *self._dangerous(text),
            *self._contradictions(text, facts, text_hash(replaces) if replaces is not None else None),
            *self._vague(text),
            *self._policy(text, rules, parties),
        ]
        words = len(text.split())
        confidence = 0.9 if words >= 6 else 0.5
        return ValidationResult(decide_status(confidence, issues), confidence, tuple(issues), self.identity)

    def _completeness(self, text: str, parties: Sequence[str]) -> list[ValidationIssue]:
        out = []
        if m := _PLACEHOLDER.search(text):
            out.append(ValidationIssue(IssueType.COMPLETENESS, Severity.MAJOR,
                                       "contains a placeholder that must be completed", m.group(0)))
        if not _MODAL.search(text):
            if len(text.split()) >= 8:
                out.append(ValidationIssue(IssueType.COMPLETENESS, Severity.MINOR, "states no obligation or right"))
            return out
        names = re.compile(r"\b(?:" + "|".join(re.escape(p) for p in parties) + r")\b") if parties else None
        if not _PARTY.search(text) and not (names and names.search(text)):
            out.append(ValidationIssue(IssueType.COMPLETENESS, Severity.MAJOR,
                                       "does not say which party the obligation binds"))
        duty = _DUTY.search(text)
        if duty and (action := _ACTION.search(text)) and not _TIME.search(text):
            out.append(ValidationIssue(IssueType.COMPLETENESS, Severity.MINOR,
                                       "sets an obligation without a time limit", action.group(0)))
        if duty and not _CONSEQUENCE.search(text):
            out.append(ValidationIssue(IssueType.COMPLETENESS, Severity.MINOR,
                                       "does not state the consequence of failing to perform", duty.group(0)))
        return out

    def _dangerous(self, text: str) -> list[ValidationIssue]:
        lower = text.lower()
        return [
            ValidationIssue(IssueType.DANGEROUS_PATTERN, severity, description, m.group(0))
            for rx, severity, description in _DANGEROUS
            if (m := rx.search(text, lower))
        ]

    def _contradictions(self, text: str, facts: DocumentFacts, replaced: str | None) -> list[ValidationIssue]:
        out = []
        for q in find_quantities(text):
            if q.words_value is not None and q.words_value != q.value:
                out.append(ValidationIssue(IssueType.CONTRADICTION, Severity.CRITICAL,
                                           f"words and figures disagree ({_fmt(q.words_value)} vs {_fmt(q.value)})", q.text))
        own = clause_facts(text)
        by_metric: dict[str, list[Fact]] = {}
        for f in own:
            by_metric.setdefault(f.metric, []).append(f)
        for metric, mine in by_metric.items():
            values = sorted({f.value for f in mine})
            if len(values) > 1:
                out.append(ValidationIssue(IssueType.CONTRADICTION, Severity.MAJOR,
                                           f"states two different {metric}s in the same clause: {', '.join(values)}",
                                           "; ".join(f.snippet for f in mine)))
            source = mine[0].source
            others = [
                f for f in facts.facts
                if f.metric == metric and f.source not in (source, replaced) and f.value not in values
            ]
            if others:
                elsewhere = sorted({f.value for f in others})
                out.append(ValidationIssue(
                    IssueType.CONTRADICTION, Severity.MAJOR,
                    f"{metric} of {', '.join(values)} differs from elsewhere in the contract ({', '.join(elsewhere[:3])})",
                    others[0].snippet,
                ))
        return out

    def _vague(self, text: str) -> list[ValidationIssue]:
        terms = list(dict.fromkeys(m.group(0).lower() for m in _VAGUE.finditer(text)))
        if not terms:
            return []
        return [ValidationIssue(IssueType.VAGUE_LANGUAGE, Severity.MINOR,
                                "undefined or subjective standard: " + ", ".join(terms), terms[0])]

    def _policy(self, text: str, rules: Sequence[Rule], parties: tuple[str, ...]) -> list[ValidationIssue]:
        return [
            ValidationIssue(IssueType.POLICY_VIOLATION, hit.severity, f"{rule.title}: {hit.message}", text[hit.start : hit.end])
            for rule in rules
            for hit in check_rule(rule, text, parties=parties, one_sidedness=False)
        ]


def _fmt(value: float) -> str:
    return f"{value:g}"


def cached_validate(
    validator: Validator,
    cache: Cache | None,
    text: str,
    *,
    rules: Sequence[Rule] = (),
    facts: DocumentFacts,
    parties: tuple[str, ...] = (),
    replaces: str | None = None,
) -> tuple[ValidationResult, bool]:
    """Validate through the verdict cache (24 h TTL); returns (verdict, was_cached).

    The key is the clause hash plus everything else the verdict depends on:
    the validator, the rule version and the document's cross-clause facts.
    """
    def run() -> ValidationResult:
        return validator.validate(text, rules=rules, facts=facts, parties=parties, replaces=replaces)

    if cache is None:
        return run(), False
    parts = (validator.identity, text_hash(text), text_hash(replaces or ""), ",".join(r.fingerprint for r in rules),
             facts.signature, ",".join(parties))
    key = "verdict:" + text_hash("\x1f".join(parts))
    hit = cache.get(key)
    if hit is not None:
        return ValidationResult.from_dict(hit), True
    result = run()
    cache.set(key, result.to_dict(), ttl=VERDICT_TTL)
    return result, False

