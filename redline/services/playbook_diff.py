"""What changed between two playbook contents, rule by rule.

Admins read this before restoring a version or applying an import, so it speaks
in rules (added, removed, changed, moved) with a YAML diff of each changed rule,
not in one opaque diff of the whole file. Pure: it compares engine specs and
never touches the database.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Any

import yaml

from ..analysis.playbook.model import Playbook as PlaybookSpec

SETTINGS = ("name", "contract_type", "perspective", "description")


@dataclass(frozen=True, slots=True)
class RuleChange:
    """One rule's change: ``change`` is added, removed, changed or moved;
    ``fields`` the top-level fields that differ; ``diff`` a unified diff of its YAML."""

    key: str
    title: str
    change: str
    fields: tuple[str, ...] = ()
    diff: str = ""


@dataclass(frozen=True, slots=True)
class SettingChange:
    """A playbook-level field (name, perspective…) that differs."""

    field: str
    old: str
    new: str


@dataclass(frozen=True, slots=True)
class PlaybookDiff:
    """Every difference between two playbook contents, in the new content's rule order."""

    rules: tuple[RuleChange, ...]
    settings: tuple[SettingChange, ...]
    unchanged: int

    @property
    def is_empty(self) -> bool:
        return not self.rules and not self.settings

    def count(self, change: str) -> int:
        """How many rules have this kind of change."""
        return sum(1 for r in self.rules if r.change == change)

    @property
    def summary(self) -> str:
        """The line people read before applying, e.g. "2 added, 1 changed; 21 unchanged"."""
        parts = [f"{n} {c}" for c in ("added", "changed", "moved", "removed") if (n := self.count(c))]
        if self.settings:
            parts.append(f"{len(self.settings)} setting{'s' if len(self.settings) > 1 else ''} changed")
        return f"{', '.join(parts) or 'no changes'}; {self.unchanged} unchanged"


def rule_yaml(spec: dict[str, Any]) -> str:
    """A rule as readable YAML (field order kept), for diffs and the advanced editor."""
    return yaml.safe_dump(spec, sort_keys=False, allow_unicode=True, width=100)


def _text_diff(old: str, new: str, old_label: str, new_label: str) -> str:
    lines = difflib.unified_diff(old.splitlines(), new.splitlines(), old_label, new_label, lineterm="")
    return "\n".join(lines)


def playbook_diff(
    old: PlaybookSpec | None, new: PlaybookSpec, *, old_label: str = "before", new_label: str = "after"
) -> PlaybookDiff:
    """Compare ``old`` (None: nothing yet, every rule is added) with ``new``.

    A rule whose content is unchanged but whose place among the surviving rules
    moved is reported as ``moved``, so a pure reorder is visible too.
    """
    old_rules = {r.key: r.to_dict() for r in old.rules} if old else {}
    new_rules = {r.key: r.to_dict() for r in new.rules}
    moved = _moved([k for k in old_rules if k in new_rules], [k for k in new_rules if k in old_rules])
    changes: list[RuleChange] = []
    unchanged = 0
    for key, spec in new_rules.items():
        before = old_rules.get(key)
        if before is None:
            changes.append(RuleChange(key, spec["title"], "added", diff=_text_diff("", rule_yaml(spec), old_label,
                                                                                  new_label)))
        elif before != spec:
            fields = tuple(f for f in dict.fromkeys([*before, *spec]) if before.get(f) != spec.get(f))
            changes.append(RuleChange(key, spec["title"], "changed", fields,
                                      _text_diff(rule_yaml(before), rule_yaml(spec), old_label, new_label)))
        elif key in moved:
            changes.append(RuleChange(key, spec["title"], "moved"))
        else:
            unchanged += 1
    for key, spec in old_rules.items():
        if key not in new_rules:
            changes.append(RuleChange(key, spec["title"], "removed",
                                      diff=_text_diff(rule_yaml(spec), "", old_label, new_label)))
    settings = tuple(
        SettingChange(f, str(getattr(old, f)), str(getattr(new, f)))
        for f in SETTINGS
        if old is not None and getattr(old, f) != getattr(new, f)
    )
    return PlaybookDiff(tuple(changes), settings, unchanged)


def _moved(old_order: list[str], new_order: list[str]) -> set[str]:
    """Rules outside the matching runs of the two orders: moving one rule reports that rule,
    not every rule it passed on the way."""
    matcher = difflib.SequenceMatcher(a=old_order, b=new_order, autojunk=False)
    stayed = {k for block in matcher.get_matching_blocks() for k in new_order[block.b:block.b + block.size]}
    return set(new_order) - stayed
