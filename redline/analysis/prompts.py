"""Prompt files and their rendering.

Prompts live in ``prompts/*.md`` so lawyers and engineers can read and review
them like any other document. Which system prompt a request gets — first run
or re-run — is decided here, by code, from a flag the caller sets when the
document already has known entries; the model never chooses, and no prompt
contains conditional logic. Paragraphs are numbered locally ([1], [2], …): the
model never sees anchors or any other id.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from enum import StrEnum
from functools import cache
from importlib import resources
from string import Template

from .playbook.model import Rule
from .rejections import Rejection, format_rejections

PROMPT_FILES = ("first_run", "rerun", "output_rules", "rule", "side", "no_side", "context", "missing", "validator",
                "validator_input")


class PromptMode(StrEnum):
    """First review of a document, or a re-run with the lawyer's earlier decisions."""

    FIRST_RUN = "first_run"
    RERUN = "rerun"


@cache
def load_prompt(name: str) -> str:
    """The text of ``prompts/<name>.md``."""
    if name not in PROMPT_FILES:
        raise KeyError(f"unknown prompt {name!r}")
    return resources.files(__package__).joinpath(f"prompts/{name}.md").read_text("utf-8")


def render(name: str, **values: str) -> str:
    """Fill a prompt's ``$placeholders``; a missing value is an error, never a blank."""
    return Template(load_prompt(name)).substitute(values)


@cache
def prompts_fingerprint() -> str:
    """Hash of every prompt file: part of an LLM provider's cache identity, so editing
    a prompt re-asks the model instead of serving answers to the old prompt."""
    digest = hashlib.sha256()
    for name in PROMPT_FILES:
        digest.update(load_prompt(name).encode())
    return digest.hexdigest()[:16]


def system_prompt(mode: PromptMode, *, prior_rejections: Sequence[Rejection] = (), preferences_text: str = "") -> str:
    """The system prompt for ``mode``; the re-run prompt carries rejections and preferences."""
    rules = render("output_rules")
    if mode is PromptMode.FIRST_RUN:
        return render("first_run", output_rules=rules)
    return render(
        "rerun",
        output_rules=rules,
        prior_rejections=format_rejections(prior_rejections),
        preferences=preferences_text.strip() or "(No preferences recorded yet)",
    )


def _bullets(lines: Sequence[str]) -> str:
    return "\n".join(f"  {i}. {line}" for i, line in enumerate(lines, 1)) if lines else "  (none)"


def rule_prompt(rule: Rule, paragraphs: str, *, missing_after: int | None = None, context: str = "",
                side: str = "") -> str:
    """The user message for one rule and a batch of numbered paragraphs; ``context`` is
    :func:`related_context`'s block (empty when the paragraphs rely on nothing elsewhere); ``side`` the party
    the review acts for ("" : none chosen)."""
    flags = [f.message for f in rule.red_flags]
    limits = [
        f"{t.metric.replace('_', ' ')} {t.operator} {t.value:g} {t.unit.replace('_', ' ')}" + (f" per {t.per}" if t.per else "")
        for t in rule.thresholds
    ]
    examples = ""
    if rule.examples:
        lines = [f"- ({'should be flagged' if e.expect == 'flag' else 'acceptable'}) {e.text}" for e in rule.examples]
        examples = "## Examples\n\n" + "\n".join(lines) + "\n\n"
    text = render(
        "rule",
        title=rule.title,
        category=rule.category.value.replace("_", " "),
        severity=rule.severity.value,
        guidance=rule.guidance or "(none)",
        preferred_position=rule.preferred_position or "(none)",
        fallbacks=_bullets(rule.fallbacks),
        red_flags=_bullets(flags),
        thresholds=_bullets(limits),
        suggested_language=rule.suggested_language or "(none)",
        examples=examples,
        context=context,
        paragraphs=paragraphs,
        side=render("side", party=side) if side else render("no_side"),
    )
    if missing_after is not None:
        text += render("missing", after=str(missing_after))
    return text


def number_paragraphs(items: Sequence[tuple[int, str, str, str | None]], *, excerpts: frozenset[int] = frozenset()) -> str:
    """Render (number, text, section, list label) as "[n] (section · number)" blocks; the numbers in
    ``excerpts`` are marked as excerpts (only the sentences concerning the rule, "[…]" for the rest)."""
    blocks = []
    for number, text, section, label in items:
        marks = (f"in: {section}" if section else "", f"numbered {label}" if label else "",
                 "excerpt: […] marks text left out" if number in excerpts else "")
        where = " · ".join(x for x in marks if x)
        blocks.append(f"[{number}]" + (f" ({where})" if where else "") + f"\n{text}")
    return "\n\n".join(blocks)


def related_context(items: Sequence[tuple[int, str, str, str]], paragraphs: Sequence[tuple[int, str]] = ()) -> str:
    """Render (paragraph number, key, label, text) as one block per key, in first-use order,
    saying which paragraphs rely on it ("" when there is nothing).

    A definition used by five paragraphs of a batch is shown once, and a
    section that is itself one of the batch's ``paragraphs`` (number, text) is
    pointed to rather than repeated: the model needs it once, and tokens are
    paid for every copy.
    """
    users: dict[str, list[int]] = {}
    shown: dict[str, tuple[str, str]] = {}
    for number, key, label, text in items:
        shown.setdefault(key, (label, text))
        if number not in users.setdefault(key, []):
            users[key].append(number)
    if not shown:
        return ""
    in_batch = {" ".join(text.split()): number for number, text in paragraphs}
    blocks = []
    for key, (label, text) in shown.items():
        number = in_batch.get(" ".join(text.split()))
        body = f"(paragraph [{number}] below)" if number is not None else text
        blocks.append(f"### {label} (relied on by {', '.join(f'[{n}]' for n in users[key])})\n{body}")
    return render("context", related="\n\n".join(blocks))
