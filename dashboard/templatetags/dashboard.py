"""Small display filters shared by the dashboard's templates."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString

from redline.services.run_cost import dollars as _dollars

from ..diffs import WordChange, word_diff
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
def thousands(count: int) -> str:
    """A count with thousands separators: 48210 → "48,210" (token counts are read at a glance)."""
    return f"{count:,}"


@register.filter
def dollars(cost: float | None) -> str:
    """An estimated cost as the run page says it; "unknown" when there is no price."""
    return _dollars(cost)


@register.filter
def markdown(text: str) -> SafeString:
    """Preferences Markdown as safe HTML (see :mod:`dashboard.markdown`)."""
    return render_markdown(text)


_LIMIT_WORDS = {"<=": "at most", "<": "less than", ">=": "at least", ">": "more than", "==": "exactly"}


@register.filter
def red_lines(spec: dict) -> list[str]:
    """A rule's red lines in words: each red flag's message, then each threshold as a limit.

    The playbook stores them as detection (patterns and metrics) for the engine; the
    lawyer reading the playbook needs what they mean, without opening the YAML.
    """
    lines = [str(flag["message"]).replace("{party}", "one party") for flag in spec.get("red_flags", [])
             if flag.get("message")]
    for t in spec.get("thresholds", []):
        unit = "%" if t.get("unit") == "percent" else f" {words(t.get('unit', ''))}".rstrip()
        what = words(t.get("metric", "")).capitalize()
        lines.append(f"{what}: {_LIMIT_WORDS.get(t.get('operator'), t.get('operator', ''))} {t.get('value')}{unit}.")
    return lines


@register.filter
def changes(old: str, new: str) -> list[WordChange]:
    """``{{ original|changes:proposed }}``: the word diff of a proposed change (see dashboard.diffs)."""
    return word_diff(old or "", new or "")


@register.filter
def rule_name(entry: object) -> str:
    """A known entry's rule as people know it: its title when the suggestion is still there, else its key."""
    suggestion = getattr(entry, "suggestion", None)
    title = (getattr(suggestion, "data", None) or {}).get("rule_title") if suggestion else None
    return title or getattr(entry, "rule_key", "") or "—"


def _words(text: str) -> str:
    return " ".join(str(text or "").split()).lower()


@register.filter
def fresh_issues(data: dict) -> list[dict]:
    """A suggestion's validator issues, once each, leaving out any that repeat its comment word for word
    (the pane does the same: static/addin/results.js, validationIssues)."""
    comment, seen, out = _words(data.get("comment", "")), set(), []
    for issue in (data.get("validation") or {}).get("issues") or []:
        key = _words(issue.get("description", ""))
        body = key.split(": ", 1)[1] if ": " in key else key  # "Limitation of liability: <the comment>"
        repeats = bool(comment) and (key in comment or (len(body) > 20 and body in comment))
        if key and not repeats and key not in seen:
            seen.add(key)
            out.append(issue)
    return out
