"""Preferences: the workspace's review guidance, learned from rejections.

The preferences document is plain Markdown that goes into the re-run prompt.
It changes in two ways, both producing a new version:

* :func:`update_preferences` — the seed's tool, ``append`` or ``replace`` with
  lines, called by the model on re-runs and by people through the API;
* :func:`learn_guidance` — offline and deterministic: new rejections become
  guidance lines grouped by category and rule, naming the text the lawyer
  kept, what we proposed, and the numbers involved (with the playbook limit
  the rule applied). Every line carries the ids of the rejections it came
  from, so its provenance can be stored and shown; the ids stay out of the
  text itself, because the model should see guidance, not bookkeeping.

:func:`preferences_diff` is the line diff stored with each version.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from redline.analysis.playbook import Rule, Threshold
from redline.analysis.quantities import DURATION_UNITS, Quantity, describe, find_quantities

from .suppression import RejectedSuggestion
from .text import excerpt

# The seed's text for a workspace that has no preferences yet.
DEFAULT_PREFERENCES = "# Review Preferences\n\n(No preferences set yet)"
Action = Literal["append", "replace"]
_KIND_ORDER = ("REPLACE_TEXT", "REWRITE_PARAGRAPH", "DELETE_PARAGRAPH", "INSERT", "COMMENT")


@dataclass(frozen=True, slots=True)
class GuidanceLine:
    """One learned line: its Markdown ``text``, the ``section`` heading it sits
    under, and the ids of the rejections it came from (its provenance)."""

    section: str
    text: str
    rejection_ids: tuple[str, ...]


def update_preferences(text: str, action: Action, lines: Sequence[str]) -> str:
    """The preferences after the seed's ``update_preferences(action, lines)``.

    ``replace`` makes the lines the whole document; ``append`` adds them after a
    blank line. No lines leaves the text unchanged (the seed's rule, so an empty
    tool call cannot wipe the preferences).
    """
    if action not in ("append", "replace"):
        raise ValueError(f"action must be 'append' or 'replace', not {action!r}")
    if not lines:
        return text
    block = "\n".join(lines)
    if action == "replace" or not text.strip():
        return block
    return f"{text}\n\n{block}"


def preferences_diff(old: str, new: str, *, old_label: str = "previous", new_label: str = "current") -> str:
    """A unified line diff between two versions (empty when they are equal)."""
    return "\n".join(difflib.unified_diff(old.splitlines(), new.splitlines(), old_label, new_label, lineterm=""))


def as_markdown(guidance: Sequence[GuidanceLine]) -> list[str]:
    """The lines to append: each section's heading once, then its lines."""
    out: list[str] = []
    section = None
    for line in guidance:
        if line.section != section:
            if out:
                out.append("")
            out.append(line.section)
            section = line.section
        out.append(line.text)
    return out


def learn_guidance(rejections: Sequence[RejectedSuggestion], *, rules: Mapping[str, Rule] | None = None,
                   existing: str = "") -> list[GuidanceLine]:
    """Guidance lines for ``rejections``, grouped by category and rule.

    Deterministic: sections sorted by category and rule, lines by kind then
    rejection id, identical lines merged (their ids united). Lines already in
    ``existing`` (the current preferences) are left out, so learning from the
    same rejections twice adds nothing. ``rules`` (by key) supplies titles and
    numeric thresholds.
    """
    rules = rules or {}
    present = {line.strip() for line in existing.splitlines()}
    groups: dict[tuple[str, str], list[RejectedSuggestion]] = {}
    for r in rejections:
        groups.setdefault((r.category or "general", r.rule_key or ""), []).append(r)
    out: list[GuidanceLine] = []
    for (category, key), members in sorted(groups.items()):
        rule = rules.get(key)
        section = _heading(category, rule.title if rule else (members[0].rule_title or key))
        merged: dict[str, list[str]] = {}
        for r in sorted(members, key=lambda r: (_KIND_ORDER.index(r.operation_type), r.id)):
            for text in _lines_for(r, rule):
                ids = merged.setdefault(text, [])
                if r.id not in ids:
                    ids.append(r.id)
        if len(members) > 1:
            merged[f"- {len(members)} suggestions under this rule were rejected; raise it only for clear "
                   "departures from the positions above."] = [r.id for r in members]
        out += [GuidanceLine(section, text, tuple(ids)) for text, ids in merged.items() if text not in present]
    return out


def _heading(category: str, title: str) -> str:
    name = category.replace("_", " ").capitalize()
    return f"## {name}: {title}" if title and title.lower() != name.lower() else f"## {name}"


def _lines_for(r: RejectedSuggestion, rule: Rule | None) -> list[str]:
    """What one rejection teaches, as Markdown bullet lines."""
    quote, new = excerpt(r.quote or r.original_text), excerpt(r.new_text)
    kind = r.operation_type
    if kind == "COMMENT":
        lines = [f'- Do not comment "{excerpt(r.comment_text)}" on text like "{quote}".']
    elif kind == "REPLACE_TEXT":
        lines = [f'- Keep "{quote}" as drafted in clauses like "{excerpt(r.original_text)}"; '
                 f'changing it to "{new}" was rejected.']
    elif kind == "REWRITE_PARAGRAPH":
        lines = [f'- Keep clauses like "{quote}" as drafted; the rewrite "{new}" was rejected.']
    elif kind == "DELETE_PARAGRAPH":
        lines = [f'- Do not propose deleting clauses like "{quote}".']
    else:
        return [f'- Do not propose adding "{new}".']
    kept, proposed = _changed_quantities(r.quote or r.original_text, r.new_text)
    if kept:
        line = f"- Treat {_describe(kept)} as acceptable under this rule"
        if proposed:
            line += f" (a change to {_describe(proposed)} was rejected)"
        limits = [t for t in (rule.thresholds if rule else ()) if any(_comparable(t, q) for q in kept)]
        if limits:
            line += "; playbook limit: " + ", ".join(
                f"{t.metric} {t.operator} {describe(t.value, t.unit, t.per)}" for t in limits)
        lines.append(line + ".")
    return lines


def _changed_quantities(before: str, after: str) -> tuple[list[Quantity], list[Quantity]]:
    """Quantities only in ``before`` (what the lawyer kept) and only in ``after``."""
    old, new = find_quantities(before), find_quantities(after)

    def key(q: Quantity) -> tuple[str, float, str, str | None]:
        return q.kind, q.value, q.unit, q.per

    old_keys, new_keys = {key(q) for q in old}, {key(q) for q in new}
    return [q for q in old if key(q) not in new_keys], [q for q in new if key(q) not in old_keys]


def _describe(quantities: list[Quantity]) -> str:
    return " and ".join(describe(q.value, q.unit, q.per) for q in quantities)


def _comparable(t: Threshold, q: Quantity) -> bool:
    """Whether a playbook threshold speaks about the same kind of number."""
    if t.unit in DURATION_UNITS:
        return q.unit in DURATION_UNITS
    if t.unit == "amount":
        return q.kind == "amount"
    return t.unit == q.unit
