"""Preferences: the workspace's review guidance, learned from the lawyer's decisions.

The preferences document is plain Markdown that goes into the re-run prompt.
It changes in two ways, both producing a new version:

* :func:`update_preferences` — the seed's tool, ``append`` or ``replace`` with
  lines, called by the model on re-runs and by people through the API;
* :func:`learn_guidance` — offline and deterministic: decided suggestions
  (accepted and rejected) become guidance lines grouped by category and rule,
  naming the text the lawyer kept or took, what we proposed, and the numbers
  involved (with the playbook limit the rule applied). Each lesson is a
  *position* counted on both sides: a clear majority of rejections gives a
  "keep it" line, of acceptances a "propose it" line, a split gives one line
  that says so — never two opposite lines. Every line carries its counts in the
  text and the ids of the entries it came from, so its provenance can be stored
  and shown; the ids stay out of the text, because the model should see
  guidance, not bookkeeping.

:func:`clean_preferences` is applied to every saved text: no placeholder, one
bullet per line. :func:`preferences_diff` is the line diff stored with each version.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from redline.analysis.playbook.model import Rule, Threshold
from redline.analysis.quantities import DURATION_UNITS, Quantity, describe, find_quantities

from .suppression import RejectedSuggestion
from .text import excerpt, normalise

# The heading of a workspace's preferences; the seed also wrote a placeholder line
# under it, which is never stored (:data:`PLACEHOLDER`).
PREFERENCES_HEADING = "# Review Preferences"
PLACEHOLDER = "(No preferences set yet)"
Action = Literal["append", "replace"]
_KIND_ORDER = ("REPLACE_TEXT", "REWRITE_PARAGRAPH", "DELETE_PARAGRAPH", "INSERT", "COMMENT")
# A side needs this share of a position's decisions to teach it; below, the line says the decisions are split.
MAJORITY = 2 / 3
_BULLETS = re.compile(r"^(\s*)(?:[-*+]\s+){2,}")


@dataclass(frozen=True, slots=True)
class GuidanceLine:
    """One learned line: its Markdown ``text``, the ``section`` heading it sits
    under, and the ids of the entries it came from (its provenance), by side."""

    section: str
    text: str
    rejection_ids: tuple[str, ...]
    accepted_ids: tuple[str, ...] = ()


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


def clean_preferences(text: str) -> str:
    """``text`` as it is stored: without the seed's placeholder line, with one bullet per
    line ("- - x" becomes "- x"), and at most one blank line in a row."""
    lines = [_BULLETS.sub(r"\1- ", line.rstrip()) for line in text.splitlines() if line.strip() != PLACEHOLDER]
    out: list[str] = []
    for line in lines:
        if line or (out and out[-1]):
            out.append(line)
    return "\n".join(out).strip("\n")


def relearned(text: str, guidance: Sequence[GuidanceLine], *, learned_before: set[str],
              sections_before: set[str]) -> str:
    """``text`` with the lines learned before replaced by ``guidance``.

    A learned line is revised, not kept beside its successor: every line in
    ``learned_before`` goes (a line the user edited no longer matches and
    stays), a heading in ``sections_before`` left without lines goes, and the
    new guidance is appended. Starts from :data:`PREFERENCES_HEADING` when
    ``text`` is empty. The result is :func:`clean_preferences`'d.
    """
    kept = [line for line in clean_preferences(text).splitlines() if line.strip() not in learned_before]
    out: list[str] = []
    for i, line in enumerate(kept):
        if line.strip() in sections_before:
            rest = next((x for x in kept[i + 1:] if x.strip()), "")
            if not rest or rest.startswith("#"):
                continue  # a learned section with nothing left under it
        out.append(line)
    body = "\n".join(out).strip() or PREFERENCES_HEADING
    return clean_preferences(update_preferences(body, "append", as_markdown(guidance)))


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


@dataclass(frozen=True, slots=True)
class _Lesson:
    """What one decided suggestion teaches about one position, on either side."""

    key: tuple[str, ...]
    order: int
    if_rejected: str
    if_accepted: str
    if_split: str


@dataclass
class _Position:
    lesson: _Lesson
    rejected: list[str] = field(default_factory=list)
    accepted: list[str] = field(default_factory=list)


def learn_guidance(rejections: Sequence[RejectedSuggestion], *, accepted: Sequence[RejectedSuggestion] = (),
                   rules: Mapping[str, Rule] | None = None, existing: str = "") -> list[GuidanceLine]:
    """Guidance lines for decided suggestions, grouped by category and rule.

    ``rejections`` and ``accepted`` are the suggestions the lawyer turned down and
    took. Deterministic: sections sorted by category and rule, lines by kind then
    first entry id; the same position decided several times is one line with its
    counts. Lines already in ``existing`` (the current preferences) are left out,
    so learning from the same decisions twice adds nothing. ``rules`` (by key)
    supplies titles and numeric thresholds.
    """
    rules = rules or {}
    present = {line.strip() for line in existing.splitlines()}
    groups: dict[tuple[str, str], list[tuple[RejectedSuggestion, bool]]] = {}
    for r, took in [*((r, False) for r in rejections), *((r, True) for r in accepted)]:
        groups.setdefault((r.category or "general", r.rule_key or ""), []).append((r, took))
    out: list[GuidanceLine] = []
    for (category, key), members in sorted(groups.items()):
        rule = rules.get(key)
        section = _heading(category, rule.title if rule else (members[0][0].rule_title or key))
        positions: dict[tuple[str, ...], _Position] = {}
        for r, took in sorted(members, key=lambda m: (_KIND_ORDER.index(m[0].operation_type), m[0].id)):
            for lesson in _lessons(r, rule):
                position = positions.setdefault(lesson.key, _Position(lesson))
                side = position.accepted if took else position.rejected
                if r.id not in side:
                    side.append(r.id)
        rejected_here = sorted({r.id for r, took in members if not took})
        if len(rejected_here) > 1 and len(rejected_here) >= MAJORITY * len(members):
            summary = _Lesson(("rule",), 99, f"- {len(rejected_here)} of {len(members)} suggestions under this rule "
                              "were rejected; raise it only for clear departures from the positions above.", "", "")
            positions[summary.key] = _Position(summary, rejected_here, [])
        for position in sorted(positions.values(), key=lambda p: (p.lesson.order, min(p.rejected + p.accepted))):
            text = _decided_line(position)
            if text and text not in present:
                out.append(GuidanceLine(section, text, tuple(position.rejected), tuple(position.accepted)))
    return out


def _decided_line(position: _Position) -> str:
    """The line a position's counts give: one side's lesson, or that the decisions are split."""
    rejected, accepted = len(position.rejected), len(position.accepted)
    total = rejected + accepted
    lesson = position.lesson
    if rejected >= MAJORITY * total:
        return _with_count(lesson.if_rejected, f"rejected {rejected} of {total}")
    if accepted >= MAJORITY * total:
        return _with_count(lesson.if_accepted, f"accepted {accepted} of {total}")
    return _with_count(lesson.if_split, f"{accepted} accepted, {rejected} rejected")


def _with_count(text: str, count: str) -> str:
    return f"{text.removesuffix('.')} ({count})." if text else ""


def _heading(category: str, title: str) -> str:
    name = category.replace("_", " ").capitalize()
    return f"## {name}: {title}" if title and title.lower() != name.lower() else f"## {name}"


def _lessons(r: RejectedSuggestion, rule: Rule | None) -> list[_Lesson]:
    """What one decided suggestion teaches: the positions it speaks to, each phrased for either side."""
    quote, new = excerpt(r.quote or r.original_text), excerpt(r.new_text)
    kind = r.operation_type
    n_quote, n_new = normalise(r.quote or r.original_text), normalise(r.new_text)
    if kind == "COMMENT":
        comment = excerpt(r.comment_text)
        lessons = [_Lesson(("comment", normalise(r.comment_text)), 4,
                           f'- Do not comment "{comment}" on text like "{quote}".',
                           f'- Comments like "{comment}" on text like "{quote}" are welcome.',
                           f'- Decisions are split on commenting "{comment}"; comment only where it clearly applies.')]
    elif kind == "REPLACE_TEXT":
        lessons = [_Lesson(("replace", n_quote, n_new), 0,
                           f'- Keep "{quote}" as drafted in clauses like "{excerpt(r.original_text)}"; '
                           f'changing it to "{new}" was rejected.',
                           f'- Propose changing "{quote}" to "{new}" in clauses like "{excerpt(r.original_text)}".',
                           f'- Decisions are split on changing "{quote}" to "{new}"; propose it only with a reason.')]
    elif kind == "REWRITE_PARAGRAPH":
        lessons = [_Lesson(("rewrite", n_quote, n_new), 1,
                           f'- Keep clauses like "{quote}" as drafted; the rewrite "{new}" was rejected.',
                           f'- Rewrites of clauses like "{quote}" as "{new}" are welcome.',
                           f'- Decisions are split on rewriting clauses like "{quote}".')]
    elif kind == "DELETE_PARAGRAPH":
        lessons = [_Lesson(("delete", n_quote), 2, f'- Do not propose deleting clauses like "{quote}".',
                           f'- Deleting clauses like "{quote}" is welcome.',
                           f'- Decisions are split on deleting clauses like "{quote}".')]
    else:
        return [_Lesson(("insert", n_new), 3, f'- Do not propose adding "{new}".',
                        f'- Propose adding "{new}" where it is missing.',
                        f'- Decisions are split on adding "{new}".')]
    kept, proposed = _changed_quantities(r.quote or r.original_text, r.new_text)
    if kept:
        limits = [t for t in (rule.thresholds if rule else ()) if any(_comparable(t, q) for q in kept)]
        limit = ("; playbook limit: " + ", ".join(f"{t.metric} {t.operator} {describe(t.value, t.unit, t.per)}"
                                                  for t in limits)) if limits else ""
        was, to = _describe(kept), _describe(proposed)
        rejected = f"- Treat {was} as acceptable under this rule"
        rejected += f" (a change to {to} was rejected)" if proposed else ""
        accepted = f"- Ask for {to} instead of {was} under this rule" if proposed else (
            f"- Do not accept {was} under this rule")
        lessons.append(_Lesson(("quantity", was, to), 0, rejected + limit + ".", accepted + limit + ".",
                               f"- Decisions are split on {was} under this rule{limit}; "
                               "raise it only with a clear reason."))
    return lessons


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
