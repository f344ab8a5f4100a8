"""The provider contract: rules and numbered paragraphs in, raw findings out.

A provider is whatever produces findings for the playbook's rules — the offline
rule engine or a language model. The offline engine is asked one rule at a time
(:class:`RuleRequest`, :meth:`Provider.analyze`): its checks cost nothing per
call. A model is asked about the contract, not the rules (:class:`BatchRequest`,
``analyze_batch``): a call carries a contiguous run of paragraphs with every rule
routed to any of them, so each paragraph is read once however many rules apply.
Either way it sees paragraphs numbered locally from 1 (never an
anchor or id), with their section heading and the definitions and sections
they rely on as context, and answers with findings that name a paragraph
number (and, in a batch, the rule) and quote its text. Everything after
that (mapping numbers back to anchors, grounding quotes, validating, scoring,
caching) is the pipeline's job, identical for every provider.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol

from ..playbook.model import Rule
from ..prompts import PromptMode
from ..rejections import Rejection


@dataclass(frozen=True, slots=True)
class Related:
    """Text from elsewhere in the contract that a paragraph relies on: a definition of a
    term it uses, a section it cites, or its parent's lead-in. ``key`` identifies it, so
    a batch shows a definition once however many of its paragraphs use it."""

    kind: str  # "definition" | "reference" | "parent"
    key: str
    label: str
    text: str


@dataclass(frozen=True, slots=True)
class Item:
    """A paragraph as a provider sees it: local number, text, section heading path, list
    label, and what it relies on elsewhere (for reading; never quoted or edited)."""

    number: int
    text: str
    context: str = ""
    label: str | None = None
    related: tuple[Related, ...] = ()
    excerpt: bool = False  # ``text`` is the rule's excerpt of a long paragraph ("[…]" marks left-out text)
    rules: tuple[str, ...] = ()  # in a batch: the keys of the rules it is judged against (none: context only)


@dataclass(frozen=True, slots=True)
class RuleRequest:
    """Apply ``rule`` to ``items``.

    ``missing_after`` is set when the document has no clause the rule requires:
    the number of the item after which one should be inserted. ``parties`` are
    the document's party names; ``reciprocal`` is document-wide evidence for
    the rule's reciprocal red flags (flag index → parties doing the same thing);
    ``acting_for`` is the side a model is told it acts for.
    """

    rule: Rule
    items: tuple[Item, ...]
    mode: PromptMode = PromptMode.FIRST_RUN
    missing_after: int | None = None
    parties: tuple[str, ...] = ()
    reciprocal: Mapping[int, frozenset[str]] = field(default_factory=dict)
    prior_rejections: tuple[Rejection, ...] = ()
    preferences_text: str = ""
    acting_for: str = ""  # the party the review acts for, as the contract names it ("": no side)


@dataclass(frozen=True, slots=True)
class BatchRequest:
    """Apply each of ``rules`` to the ``items`` it is routed to (``Item.rules``).

    ``missing`` maps the key of a rule whose required clause the contract lacks to the number of the item
    after which it goes. ``terms`` are the contract's defined terms, so new text can use them; the rest is as
    in :class:`RuleRequest`.
    """

    rules: tuple[Rule, ...]
    items: tuple[Item, ...]
    mode: PromptMode = PromptMode.FIRST_RUN
    missing: Mapping[str, int] = field(default_factory=dict)
    parties: tuple[str, ...] = ()
    terms: tuple[str, ...] = ()
    prior_rejections: tuple[Rejection, ...] = ()
    preferences_text: str = ""
    acting_for: str = ""


@dataclass(frozen=True, slots=True)
class RawFinding:
    """A finding as a provider states it, before grounding.

    ``span`` is set by providers that know exactly where the quote is (the
    offline engine); a model only gives the quote.
    """

    paragraph: int
    kind: str
    quote: str
    new_text: str = ""
    comment: str = ""
    severity: str | None = None
    confidence: float = 1.0
    source: str = "model"
    span: tuple[int, int] | None = None
    check: str = ""  # the playbook check that found it ("red_flag:2"), for the review gate
    rule: str = ""  # in a batch: the key of the rule it is about ("" when the answer named no rule of the batch)


@dataclass(frozen=True, slots=True)
class PreferenceUpdate:
    """``update_preferences(action, lines)``: append lines to, or replace, the workspace preferences."""

    action: str  # "append" | "replace"
    lines: tuple[str, ...]


@dataclass(slots=True)
class Usage:
    """What calls cost: tokens, money (USD), provider requests made and the retries
    they needed (HTTP attempts = calls + retries)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    calls: int = 0
    retries: int = 0

    def add(self, other: Usage) -> None:
        """Accumulate ``other`` into this total."""
        self.prompt_tokens += other.prompt_tokens
        self.completion_tokens += other.completion_tokens
        self.cost_usd += other.cost_usd
        self.calls += other.calls
        self.retries += other.retries


@dataclass(frozen=True, slots=True)
class ProviderResponse:
    """Findings for one request, the usage it incurred, and any preference updates the
    model asked for (re-runs only: the seed's ``update_preferences`` tool)."""

    findings: tuple[RawFinding, ...]
    usage: Usage
    preference_updates: tuple[PreferenceUpdate, ...] = ()
    malformed: int = 0  # findings left out because they did not match the answer's schema


class ProviderError(Exception):
    """A provider could not answer: ``code`` for programs (rate_limited, timeout,
    connection, server_error, bad_request, auth, malformed_output, refused,
    truncated), ``message`` safe to show to users (never the raw upstream body),
    and the ``usage`` spent before failing (tokens of a malformed answer are still paid for)."""

    def __init__(self, code: str, message: str, usage: Usage | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.usage = usage or Usage()


class Provider(Protocol):
    """What the pipeline needs from a provider.

    ``identity`` names everything that changes its answers (engine version,
    model, prompt files) and keys the result cache. ``max_concurrency`` is how
    many requests may run at once; ``max_batch_chars`` bounds the paragraph
    text per request (None: no limit). ``excerpts``: whether it is given a
    rule's excerpt of a long paragraph instead of the whole paragraph
    (:mod:`redline.analysis.excerpts`; a model, not the offline engine, whose
    checks read whole paragraphs; a provider without the attribute gets
    whole paragraphs). ``reads_context``: whether it reads what a clause
    relies on elsewhere (definitions, referenced sections); the offline
    engine does not, so its requests and cache keys leave it out (a provider
    without the attribute is given it). A provider may also have
    ``could_find(rule, texts, parties, reciprocal) -> list[bool]``: it is then
    asked only about the selected paragraphs where that is true. A provider
    with ``analyze_batch(BatchRequest) -> ProviderResponse`` is asked in
    batches (``max_batch_chars`` then bounds a batch's paragraphs and rules; its
    context has a cap of its own) and never through ``analyze``.
    """

    name: str
    model: str
    max_concurrency: int
    max_batch_chars: int | None
    excerpts: bool
    reads_context: bool

    @property
    def identity(self) -> str: ...

    def analyze(self, request: RuleRequest) -> ProviderResponse: ...
