"""Small display filters shared by the dashboard's templates."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString

from ..markdown import render_markdown

register = template.Library()


@register.filter
def words(value: str) -> str:
    """A machine key as words: ``too_strict`` → "too strict"."""
    return str(value).replace("_", " ").replace("-", " ")


@register.filter
def percent(rate: float | None) -> str:
    """A 0–1 rate as a whole percentage; "—" when there was nothing to divide by."""
    return "—" if rate is None else f"{round(rate * 100)}%"


@register.filter
def markdown(text: str) -> SafeString:
    """Preferences Markdown as safe HTML (see :mod:`dashboard.markdown`)."""
    return render_markdown(text)
