"""The offline provider: the playbook applied by the deterministic rule engine.

No network, no model, the same answer every time. Red flags become comments,
span replacements or insertions; numeric thresholds become replacements in the
drafter's own style ("ninety (90) days" → "sixty (60) days"); a required
clause the document lacks becomes an insertion of the rule's suggested
language after the right section (or a comment when the playbook offers no
language). Confidence reflects how the finding was made: a number against a
limit is near-certain, a wording pattern less so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..checks import check_rule, might_hit
from ..playbook.model import Rule
from ..review.coverage import offline_rule
from .base import Item, ProviderResponse, RawFinding, RuleRequest, Usage

ENGINE_VERSION = "offline-rules/2"
_CONFIDENCE = {"threshold": 0.95, "red_flag": 0.8, "missing": 0.85}
_LEAD_CHARS = 200


class OfflineProvider:
    """Deterministic rule engine; see the module docstring."""

    name = "offline"
    model = "rules"
    max_concurrency = 1
    max_batch_chars: int | None = None
    excerpts: bool = False  # its checks read whole paragraphs
    reads_context: bool = False  # ... and nothing else: a changed definition changes none of its answers

    @property
    def identity(self) -> str:
        """Cache identity: bump ENGINE_VERSION when the engine's answers change."""
        return ENGINE_VERSION

    def could_find(self, rule: Rule, texts: Sequence[str], parties: tuple[str, ...],
                   reciprocal: Mapping[int, frozenset[str]]) -> list[bool]:
        """Whether :meth:`analyze` could find anything in each of ``texts`` for ``rule``: the pipeline asks it
        about the paragraphs where it can, not all the rule selects (most of a long contract, for most rules)."""
        checked = offline_rule(rule)
        return [maybe and bool(check_rule(checked, text, parties=parties, reciprocal=reciprocal))
                for text, maybe in zip(texts, might_hit(checked, texts, parties), strict=True)]

    def analyze(self, request: RuleRequest) -> ProviderResponse:
        """Apply the rule to each item, then propose the missing clause if asked."""
        rule = offline_rule(request.rule)  # a rule with prose positions only is checked from them
        findings: list[RawFinding] = []
        for item in request.items:
            for hit in check_rule(rule, item.text, parties=request.parties, reciprocal=request.reciprocal):
                comment = hit.message
                if hit.kind == "comment" and rule.preferred_position:
                    comment = f"{comment} Playbook position: {rule.preferred_position}"
                findings.append(
                    RawFinding(
                        paragraph=item.number,
                        kind=hit.kind,
                        quote=item.text[hit.start : hit.end],
                        new_text=hit.new_text,
                        comment=comment,
                        severity=hit.severity.value,
                        confidence=_CONFIDENCE[hit.source],
                        source=hit.source,
                        span=(hit.start, hit.end),
                        check=hit.check,
                    )
                )
        if request.missing_after is not None:
            anchor = next(i for i in request.items if i.number == request.missing_after)
            findings.append(_missing(request, anchor))
        return ProviderResponse(tuple(findings), Usage(calls=1))


def _missing(request: RuleRequest, after: Item) -> RawFinding:
    rule = request.rule
    lead = _lead(after.text)
    summary = rule.guidance.split(". ")[0].rstrip(".") + "." if rule.guidance else ""
    if rule.suggested_language:
        comment = f"The contract has no {rule.title.lower()} clause. {summary}".strip()
        return RawFinding(after.number, "insert", lead, rule.suggested_language, comment, rule.severity.value,
                          _CONFIDENCE["missing"], "missing", (0, len(lead)))
    comment = f"The contract has no {rule.title.lower()} clause; the playbook requires one. {summary}".strip()
    return RawFinding(after.number, "comment", lead, "", comment, rule.severity.value,
                      _CONFIDENCE["missing"], "missing", (0, len(lead)))


def _lead(text: str) -> str:
    """The paragraph, or its first words when long: the quote that locates an insertion."""
    if len(text) <= _LEAD_CHARS:
        return text
    cut = text.rfind(" ", 0, _LEAD_CHARS)
    return text[: cut if cut > 0 else _LEAD_CHARS]
