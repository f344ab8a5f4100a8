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
from collections.abc import Mapping, Sequence
from enum import StrEnum
from functools import cache
from importlib import resources
from string import Template

from .playbook.model import Rule
from .rejections import Rejection, format_rejections

PROMPT_FILES = ("first_run", "rerun", "output_rules", "batch", "rule", "side", "no_side", "context", "missing",
                "validator", "validator_input")
# A context block names at most this many of the paragraphs relying on it (a definition a whole batch uses
# would otherwise list every number).
MAX_USERS = 4
# At most this many defined terms are listed in a request (a contract's first ones: its core vocabulary).
MAX_TERMS = 120


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


def rule_brief(rule: Rule, ref: str, *, drafting: bool = False) -> str:
    """One playbook rule as a batch lists it, under its local name ``ref`` ("R3"). Its suggested language is
    given only where the batch drafts the rule's missing clause (``drafting``): a fix to a paragraph follows
    the preferred position, and every rule's full text in every call is what made a review cost fifteen
    times its contract (the rule's examples are for the playbook's own tests, not the model)."""
    flags = [f.message for f in rule.red_flags]
    limits = [
        f"{t.metric.replace('_', ' ')} {t.operator} {t.value:g} {t.unit.replace('_', ' ')}" + (f" per {t.per}" if t.per else "")
        for t in rule.thresholds
    ]
    return render(
        "rule",
        ref=ref,
        title=rule.title,
        category=rule.category.value.replace("_", " "),
        severity=rule.severity.value,
        guidance=rule.guidance or "(none)",
        preferred_position=rule.preferred_position or "(none)",
        fallbacks=_bullets(rule.fallbacks),
        red_flags=_bullets(flags),
        thresholds=_bullets(limits),
        suggested_language=f"- Suggested language: {rule.suggested_language}\n"
        if drafting and rule.suggested_language else "",
    )


def batch_prompt(rules: Sequence[tuple[str, Rule]], paragraphs: str, *, missing: Sequence[tuple[str, str, int]] = (),
                 context: str = "", side: str = "", parties: Sequence[str] = (), terms: Sequence[str] = ()) -> str:
    """The user message for a batch: the contract's side, parties and defined terms, the ``rules`` it needs
    (local name, rule), ``context`` (:func:`related_context`'s block), the numbered ``paragraphs`` and the
    ``missing`` clauses to draft (local name, title, number of the paragraph they go after)."""
    wanted = "".join(f"- {ref} ({title}): insert after paragraph [{after}]\n" for ref, title, after in missing)
    drafting = {ref for ref, _, _ in missing}
    listed = list(terms[:MAX_TERMS])
    return render(
        "batch",
        side=render("side", party=side) if side else render("no_side"),
        parties=", ".join(parties) or "(not found)",
        terms=", ".join(f'"{t}"' for t in listed) + (" …" if len(terms) > len(listed) else "") or "(none found)",
        rules="\n".join(rule_brief(rule, ref, drafting=ref in drafting) for ref, rule in rules),
        context=context,
        paragraphs=paragraphs,
        missing=render("missing", missing=wanted) if wanted else "",
    )


def number_paragraphs(items: Sequence[tuple[int, str, str, str | None]], *, excerpts: frozenset[int] = frozenset(),
                      rules: Mapping[int, Sequence[str]] | None = None,
                      inserts: Mapping[int, Sequence[str]] | None = None) -> str:
    """Render (number, text, section, list label) as "[n] (section · number · rules)" blocks, the section only
    where it changes (a paragraph is in the section last named above it); the numbers in
    ``excerpts`` are marked as excerpts (only the sentences concerning its rules, "[…]" for the rest);
    ``rules`` gives each paragraph's rules by local name, ``inserts`` the rules whose missing clause goes after
    it ("insertion point for R3")."""
    blocks = []
    previous = ""
    for number, text, section, label in items:
        named = rules.get(number, ()) if rules is not None else None
        marks = (f"in: {section}" if section and section != previous else "", f"numbered {label}" if label else "",
                 "excerpt: […] marks text left out" if number in excerpts else "",
                 f"rules: {', '.join(named)}" if named else "",
                 f"insertion point for {', '.join(placed)}" if (placed := (inserts or {}).get(number)) else "")
        where = " · ".join(x for x in marks if x)
        blocks.append(f"[{number}]" + (f" ({where})" if where else "") + f"\n{text}")
        previous = section or previous
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
        named = ", ".join(f"[{n}]" for n in users[key][:MAX_USERS])
        more = f" and {len(users[key]) - MAX_USERS} more" if len(users[key]) > MAX_USERS else ""
        blocks.append(f"### {label} (relied on by {named}{more})\n{body}")
    return render("context", related="\n\n".join(blocks))
