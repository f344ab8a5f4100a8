from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from ninja import Field, Schema


class RunIn(Schema):
    version_id: int | None = None  # default: the document's latest version
    playbook_id: int | None = None  # default: the workspace's first playbook, newest version
    provider: Literal["offline", "openai"] | None = None  # default: the server's REDLINE_PROVIDER
    # The party we act for: its defined name, legal name or role (GET documents/{id}/parties); "" for no side.
    acting_for: str = Field(default="", max_length=200)


class PartyOut(Schema):
    name: str  # as the contract defines it ("Distributor", "D2"): what acting_for is stored as
    legal: str  # the legal name before the definition, when read
    role: str  # the role noun, when the defined name is one


class PartiesOut(Schema):
    version_id: int
    parties: list[PartyOut]
    last_acting_for: str  # the side the document's last run took ("" : none yet)


class ExportIn(Schema):
    """Which suggestions to write (their stable ``id``s); empty: all of the run's."""

    suggestions: list[str] = Field(default=[], max_length=5000)


class RuleLineOut(Schema):
    key: str
    title: str
    severity: str
    # does_not_meet, not_found (required clause missing, or no clause of its kind), not_sure (human review),
    # not_checked (nothing the provider could check), meets
    status: str
    label: str  # the status in words
    note: str  # why, in words: new suggestions, earlier ones still open, answered before
    anchor: str  # the paragraph it concerns ("" when none)
    suggestions: int  # new suggestions of this rule in the run


class RunSummaryOut(Schema):
    """What a finished run can honestly say (never "meets every rule" while anything is open or unchecked)."""

    headline: str
    not_repeated: str  # earlier suggestions not proposed again, by reason ("" when none)
    open_earlier: int  # earlier suggestions still open in the document
    new: int
    rules: list[RuleLineOut]
    # paragraphs changed, added or removed without tracking since the redline last downloaded, worst first:
    # {kind: changed|inserted|deleted, anchor, before, after, severity: critical|major|minor}
    untracked: list[dict[str, str | None]] = []


class RunCostOut(Schema):
    """What the run asked of the model and its estimated cost (``stats`` has the same figures, unworded)."""

    # In words, as the run page shows it: "Model: gpt-4o-mini · 12 calls · 48,210 tokens in / 3,120 out ·
    # est. $0.0091", "Model: gpt-4o-mini · 0 calls — all 240 answers from cache", "Offline engine · no model calls"
    line: str
    model: str  # "" for the offline engine
    calls: int  # model calls (each retried attempt counts in ``retries``, not here)
    retries: int
    prompt_tokens: int
    completion_tokens: int
    cost_usd: float | None  # estimate from the server's price table; null: no price for the model (unknown, not 0)
    cache_hits: int  # answers taken from the cache instead of a call
    cache_misses: int
    # what became of the model's findings: "Model findings: 9 · dropped: off target 2 · kept as comments:
    # foreign terms 1 · repaired: partial phrase 1" ("" for the offline engine, or when it found nothing)
    guards: str


class RunOut(Schema):
    id: int
    document_id: int
    version_id: int
    playbook_id: int
    playbook_version: int
    preferences_version: int | None
    provider: str
    model: str
    acting_for: str  # the contract's own name for the party we act for; "" when the run took no side
    status: str
    progress: dict[str, Any] | None
    stats: dict[str, Any]
    error_message: str
    job_id: int | None
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    summary: RunSummaryOut | None = None  # once the run is done
    cost: RunCostOut | None = None  # once the run has stats


class SuggestionOut(Schema):
    pk: int  # for feedback: POST /api/suggestions/{pk}/feedback
    id: str  # the stable suggestion id (rule × anchor × content)
    anchor: str
    kind: str
    rule: str
    rule_title: str
    category: str
    severity: str
    quote: str
    occurrence: int
    new_text: str
    position: str | None
    comment: str
    # Which check made it: "hygiene" (drafting hygiene: blanks, defined terms, cross-references, numbering,
    # figures; rule "hygiene.<kind>", category "drafting_<group>"), else the playbook rule's own kind of finding.
    source: str = "model"
    # A missing clause (an insertion, or a comment where it would go): where it goes, in words
    # ("New §12A Governing law, after §12 Confidentiality"); "" for every other suggestion.
    placement: str = ""
    risk: dict[str, Any] | None
    validation: dict[str, Any] | None
    op: dict[str, Any]
    patch: str | None  # flat-OPC pkg:package for Word.Range.insertOoxml
    patch_status: str
    # What the lawyer did with it: null until it was exported or applied (then "pending" until the
    # document came back), else accepted, rejected, modified or missing.
    outcome: str | None = None
    outcome_at: datetime | None = None  # when that outcome was first seen
    outcome_version_id: int | None = None  # the returned version it was read from
    lawyer_text: str | None = None  # for "modified": what the lawyer wrote instead
