from __future__ import annotations

from ninja import Field, Schema

from .common import Id


class AppliedIn(Schema):
    """Suggestions (``pk`` from the suggestions list) whose patches the add-in inserted into the document."""

    suggestions: list[Id] = Field(min_length=1, max_length=2000)


class AppliedOut(Schema):
    recorded: list[int]  # the suggestion pks now recorded as known entries (all of those sent)


class RuleGuidanceOut(Schema):
    """What the pane shows beside a result: the rule and why it matters."""

    key: str
    title: str
    category: str
    severity: str
    guidance: str
    preferred_position: str
