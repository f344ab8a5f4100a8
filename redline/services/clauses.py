"""The clause overview of a stored document version: which kinds of clause it has, how sure, and where.

The clause engine (:mod:`redline.clauses`) classifies the version's paragraphs;
the report is cached by content hash and model identity (versions never change,
and a new model is a new key). :func:`clause_overview` turns a report into the
rows every interface shows (API, dashboard, task pane), so they agree on what
"absent" means: only a category below :data:`~redline.clauses.CONFIDENT_ABSENCE`
is absent; one neither present nor confidently absent is "not sure". Each state has a one-line meaning
(:data:`STATUS_MEANINGS`) and each category a name in a lawyer's words (:data:`LABELS`), not the data set's
("Rofr/Rofo/Rofn"). The probability is not shown beside the state: the engine decides "present" against a
threshold of its own per kind, so "present 26%" beside "not sure 27%" would read as a contradiction.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, fields
from typing import Any, Literal

from django.core.cache import cache

from ..clauses import CONFIDENT_ABSENCE, ClauseModel, ClauseReport, Finding, Passage, analyse, default_model
from ..models import DocumentVersion
from .files import document_version_read, docx_read

CLAUSES_TTL_S = 7 * 24 * 3600

# CUAD's 41 categories and their thematic group, in CUAD's order (from the CUAD data set's categories.json).
CUAD_GROUPS: dict[str, str] = {
    "Document Name": "Basic information",
    "Parties": "Basic information",
    "Agreement Date": "Basic information",
    "Effective Date": "Basic information",
    "Expiration Date": "Term, renewal and termination",
    "Renewal Term": "Term, renewal and termination",
    "Notice Period To Terminate Renewal": "Term, renewal and termination",
    "Governing Law": "Basic information",
    "Most Favored Nation": "Pricing and commercial terms",
    "Competitive Restriction Exception": "Restrictive covenants",
    "Non-Compete": "Restrictive covenants",
    "Exclusivity": "Restrictive covenants",
    "No-Solicit Of Customers": "Restrictive covenants",
    "No-Solicit Of Employees": "Restrictive covenants",
    "Non-Disparagement": "Restrictive covenants",
    "Termination For Convenience": "Term, renewal and termination",
    "Rofr/Rofo/Rofn": "Assignment, control and third parties",
    "Change Of Control": "Assignment, control and third parties",
    "Anti-Assignment": "Assignment, control and third parties",
    "Revenue/Profit Sharing": "Pricing and commercial terms",
    "Price Restrictions": "Pricing and commercial terms",
    "Minimum Commitment": "Pricing and commercial terms",
    "Volume Restriction": "Pricing and commercial terms",
    "Ip Ownership Assignment": "Intellectual property and licenses",
    "Joint Ip Ownership": "Intellectual property and licenses",
    "License Grant": "Intellectual property and licenses",
    "Non-Transferable License": "Intellectual property and licenses",
    "Affiliate License-Licensor": "Intellectual property and licenses",
    "Affiliate License-Licensee": "Intellectual property and licenses",
    "Unlimited/All-You-Can-Eat-License": "Intellectual property and licenses",
    "Irrevocable Or Perpetual License": "Intellectual property and licenses",
    "Source Code Escrow": "Intellectual property and licenses",
    "Post-Termination Services": "Term, renewal and termination",
    "Audit Rights": "Pricing and commercial terms",
    "Uncapped Liability": "Liability, warranty and insurance",
    "Cap On Liability": "Liability, warranty and insurance",
    "Liquidated Damages": "Liability, warranty and insurance",
    "Warranty Duration": "Liability, warranty and insurance",
    "Insurance": "Liability, warranty and insurance",
    "Covenant Not To Sue": "Restrictive covenants",
    "Third Party Beneficiary": "Assignment, control and third parties",
}
PLAYBOOK_GROUP = "Playbook categories"

# Every category in a lawyer's words (CUAD's names are its column headers: "Ip Ownership Assignment").
LABELS: dict[str, str] = {
    "Document Name": "Document name", "Parties": "Parties", "Agreement Date": "Agreement date",
    "Effective Date": "Effective date", "Expiration Date": "Expiry date", "Renewal Term": "Renewal term",
    "Notice Period To Terminate Renewal": "Notice to stop renewal", "Governing Law": "Governing law",
    "Most Favored Nation": "Most-favoured nation", "Competitive Restriction Exception": "Exception to a competition restriction",
    "Non-Compete": "Non-compete", "Exclusivity": "Exclusivity", "No-Solicit Of Customers": "No solicitation of customers",
    "No-Solicit Of Employees": "No solicitation of employees", "Non-Disparagement": "Non-disparagement",
    "Termination For Convenience": "Termination for convenience",
    "Rofr/Rofo/Rofn": "Right of first refusal / offer / negotiation", "Change Of Control": "Change of control",
    "Anti-Assignment": "Restriction on assignment", "Revenue/Profit Sharing": "Revenue or profit sharing",
    "Price Restrictions": "Price restrictions", "Minimum Commitment": "Minimum commitment",
    "Volume Restriction": "Volume restriction", "Ip Ownership Assignment": "IP ownership assignment",
    "Joint Ip Ownership": "Joint IP ownership", "License Grant": "Licence grant",
    "Non-Transferable License": "Non-transferable licence",
    "Affiliate License-Licensor": "Licence of the licensor's affiliates' IP",
    "Affiliate License-Licensee": "Licence extended to the licensee's affiliates",
    "Unlimited/All-You-Can-Eat-License": "Unlimited licence", "Irrevocable Or Perpetual License": "Irrevocable or perpetual licence",
    "Source Code Escrow": "Source code escrow", "Post-Termination Services": "Services after termination",
    "Audit Rights": "Audit rights", "Uncapped Liability": "Uncapped liability", "Cap On Liability": "Cap on liability",
    "Liquidated Damages": "Liquidated damages", "Warranty Duration": "Warranty period", "Insurance": "Insurance",
    "Covenant Not To Sue": "Covenant not to sue", "Third Party Beneficiary": "Third-party beneficiaries",
    # playbook categories whose key does not read well as words
    "license_grant": "Licence grant", "pricing_and_fees": "Pricing and fees",
}

Kind = Literal["cuad", "playbook"]
Status = Literal["present", "absent", "not_sure"]
STATUS_LABELS: dict[str, str] = {"present": "present", "absent": "absent", "not_sure": "not sure"}
STATUS_MEANINGS: dict[str, str] = {
    "present": "The clause engine found this kind of clause; the link shows where.",
    "absent": "The engine is confident the contract has none (under {threshold} likely).",
    "not_sure": "Neither found nor ruled out: read the contract for it before relying on the map.",
}


@dataclass(frozen=True, slots=True)
class ClauseQuote:
    """A passage the model cites for a category: its paragraph (number and anchor), text and score."""

    anchor: str | None
    paragraph: int
    text: str
    score: float


@dataclass(frozen=True, slots=True)
class ClauseRow:
    """One category of one version as the interfaces show it."""

    category: str
    kind: Kind
    group: str
    present: bool
    probability: float
    status: Status
    quotes: tuple[ClauseQuote, ...]

    @property
    def label(self) -> str:
        """The category in a lawyer's words ("IP ownership assignment"; ``governing_law`` → "Governing law")."""
        return LABELS.get(self.category) or self.category.replace("_", " ").capitalize()

    @property
    def status_label(self) -> str:
        return STATUS_LABELS[self.status]

    @property
    def anchors(self) -> list[str]:
        """The anchors of the cited paragraphs, best passage first, each once."""
        return list(dict.fromkeys(q.anchor for q in self.quotes if q.anchor))

    @property
    def anchor(self) -> str | None:
        """The best passage's paragraph (what a link to the clause goes to)."""
        return next(iter(self.anchors), None)

    @property
    def percent(self) -> str:
        """The probability as a percentage that never rounds to a certainty it does not have."""
        return percent_label(self.probability)


@dataclass(frozen=True, slots=True)
class ClauseGroup:
    name: str
    rows: tuple[ClauseRow, ...]

    @property
    def present(self) -> int:
        return sum(1 for r in self.rows if r.status == "present")


def document_clauses(*, version: DocumentVersion) -> ClauseReport:
    """The clause report of a stored version, computed once per content and model (then cached)."""
    model = default_model()
    key = _cache_key(version.sha256, model)
    report = cache.get(key)
    if isinstance(report, ClauseReport):
        return report
    paragraphs = docx_read(document_version_read(version=version)).paragraphs
    report = analyse(paragraphs, model=model)
    cache.set(key, report, CLAUSES_TTL_S)
    return report


def percent_label(probability: float) -> str:
    """0.004 → "<1%", 0.42 → "42%", 0.9996 → ">99%" (and exactly 0 or 1 as they are)."""
    if 0 < probability < 0.01:
        return "<1%"
    if 0.99 < probability < 1:
        return ">99%"
    return f"{round(probability * 100)}%"


def clause_status(finding: Finding) -> Status:
    """present (the engine's own decision); absent (only with high confidence: below ``CONFIDENT_ABSENCE``);
    otherwise not sure."""
    if finding.present:
        return "present"
    return "absent" if finding.probability < CONFIDENT_ABSENCE else "not_sure"


def status_meanings() -> dict[str, str]:
    """What each state means, in one line each (the legend of every clause map)."""
    return {k: v.format(threshold=percent_label(CONFIDENT_ABSENCE)) for k, v in STATUS_MEANINGS.items()}


def clause_overview(*, report: ClauseReport) -> list[ClauseRow]:
    """One row per CUAD category (CUAD's order), then per playbook category the model covers."""
    rows = []
    for kind, findings in (("cuad", report.cuad), ("playbook", report.playbook)):
        for name, finding in findings.items():
            group = CUAD_GROUPS.get(name, "Other") if kind == "cuad" else PLAYBOOK_GROUP
            quotes = tuple(ClauseQuote(report.anchor_of(p), p.paragraph, p.text, round(p.score, 4))
                           for p in finding.passages)
            rows.append(ClauseRow(name, kind, group, finding.present, round(finding.probability, 4),
                                  clause_status(finding), quotes))
    return rows


def clause_groups(*, rows: list[ClauseRow]) -> list[ClauseGroup]:
    """Rows by group, groups in the order they first appear (CUAD's order, playbook categories last)."""
    by_group: dict[str, list[ClauseRow]] = {}
    for row in rows:
        by_group.setdefault(row.group, []).append(row)
    return [ClauseGroup(name, tuple(members)) for name, members in by_group.items()]


def clause_model_info() -> dict[str, Any]:
    """What the overview was made with: the training data's version and its attribution."""
    meta = default_model().meta
    data = meta.get("data") if isinstance(meta.get("data"), dict) else {}
    return {"data_name": str(data.get("name", "")), "data_version": str(data.get("version", "")),
            "feature_version": str(meta.get("feature_version", "")), "attribution": str(meta.get("attribution", ""))}


# -- cache ------------------------------------------------------------------------------
def _cache_key(sha256: str, model: ClauseModel) -> str:
    """Content hash, the model artifact's fingerprint and the report's shape.

    A retrained model (same data, new weights or thresholds) is a new key. The report is
    cached as it is (Django's cache pickles it); its shape (the fields of the report,
    finding and passage classes) is in the key, so a report cached by older code is never
    read back into a class that has changed since.
    """
    return f"redline:clauses:{model.fingerprint}:{_SHAPE}:{sha256}"


def _shape() -> str:
    names = [f"{cls.__module__}.{cls.__qualname__}:{','.join(f.name for f in fields(cls))}"
             for cls in (ClauseReport, Finding, Passage)]
    return hashlib.sha256("|".join(names).encode()).hexdigest()[:12]


_SHAPE = _shape()
