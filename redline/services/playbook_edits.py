"""Rule-level edits, restores and imports, each stored as a new immutable playbook version.

The dashboard edits one rule at a time, but runs pin whole playbook versions, so
every change (add, edit, delete, enable/disable, reorder, restore, import)
builds the complete next content from the *latest* version, validates it with
the engine's own checks and stores it through :func:`playbook_version_create`.

Edits name the version the editor was looking at (``base``). When someone else
saved in the meantime, their changes are kept and ours is applied on top, unless
they touched the same rule: then it is a conflict (409), because silently
overwriting a colleague's wording of a legal position is worse than asking.
Content equal to the latest version creates nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from ..analysis.playbook.io import playbook_from_dict
from ..analysis.playbook.model import Playbook as PlaybookSpec
from ..analysis.playbook.model import PlaybookError
from ..errors import ApplicationError, NotFound
from ..models import Playbook, PlaybookVersion, Workspace
from .playbook_diff import PlaybookDiff, playbook_diff
from .playbooks import playbook_parse, playbook_version_create, playbook_version_spec

RuleSpecs = list[dict[str, Any]]


def playbook_latest_version(*, playbook: Playbook) -> PlaybookVersion:
    """The playbook's newest version (every playbook has at least one)."""
    version = playbook.versions.order_by("-number").first()
    if version is None:
        raise NotFound("Playbook version", f"of playbook {playbook.pk}")
    return version


def _rule_specs(version: PlaybookVersion) -> RuleSpecs:
    return [rule.spec for rule in version.rules.order_by("position")]


def _spec_error(exc: PlaybookError) -> ApplicationError:
    return ApplicationError(exc.code, exc.message, status=422, detail={"path": exc.path})


def _same_content(version: PlaybookVersion, spec: PlaybookSpec) -> bool:
    """True when storing ``spec`` would change nothing a review reads (the author's number aside)."""
    current = playbook_version_spec(version=version)
    return current.rules == spec.rules and all(
        getattr(current, f) == getattr(spec, f) for f in ("perspective", "contract_type", "description")
    )


def _store(latest: PlaybookVersion, spec: PlaybookSpec, *, note: str,
           created_by: AbstractBaseUser | None) -> PlaybookVersion:
    if _same_content(latest, spec):
        return latest
    return playbook_version_create(workspace=latest.playbook.workspace, spec=spec, created_by=created_by, note=note)


@transaction.atomic
def _edit(*, base: PlaybookVersion, key: str | None, change: Callable[[RuleSpecs], RuleSpecs], note: str,
          created_by: AbstractBaseUser | None) -> PlaybookVersion:
    """Apply ``change`` to the latest rules; ``key`` names the rule it touches (conflict check)."""
    Playbook.objects.select_for_update().filter(pk=base.playbook_id).first()  # one editor at a time
    latest = playbook_latest_version(playbook=base.playbook)
    rules = _rule_specs(latest)
    if key is not None:
        if latest.pk != base.pk and _find(_rule_specs(base), key) != _find(rules, key):
            raise ApplicationError(
                "conflict", f"Rule “{key}” was changed in version {latest.number} after you opened it. "
                "Reload to see that change, then edit again.", status=409, detail={"latest": latest.number})
        if _find(rules, key) is None:
            raise NotFound("Rule", key)
    data = playbook_version_spec(version=latest).to_dict()
    data["rules"] = change([dict(r) for r in rules])
    try:
        spec = playbook_from_dict(data)
    except PlaybookError as exc:
        raise _spec_error(exc) from None
    return _store(latest, spec, note=note, created_by=created_by)


def _find(rules: RuleSpecs, key: str) -> dict[str, Any] | None:
    return next((r for r in rules if r["key"] == key), None)


def _index(rules: RuleSpecs, key: str) -> int:
    return next(i for i, r in enumerate(rules) if r["key"] == key)


def rule_create(*, base: PlaybookVersion, spec: dict[str, Any],
                created_by: AbstractBaseUser | None = None) -> PlaybookVersion:
    """Append a rule; a key already in use fails validation at ``/rules/N/key``."""
    return _edit(base=base, key=None, change=lambda rules: [*rules, spec], note=f"add rule {spec.get('key', '')}",
                 created_by=created_by)


def rule_update(*, base: PlaybookVersion, key: str, spec: dict[str, Any],
                created_by: AbstractBaseUser | None = None) -> PlaybookVersion:
    """Replace rule ``key`` in place. Its key is fixed once created: analytics, rejections and learned
    preferences refer to rules by key, so a renamed key would cut the rule off from its history."""

    def change(rules: RuleSpecs) -> RuleSpecs:
        index = _index(rules, key)
        if spec.get("key") != key:
            raise ApplicationError("key_fixed", "A rule's key cannot change once the rule exists; add a new rule "
                                   "instead.", status=422, detail={"path": f"/rules/{index}/key"})
        rules[index] = spec
        return rules

    return _edit(base=base, key=key, change=change, note=f"edit rule {key}", created_by=created_by)


def rule_delete(*, base: PlaybookVersion, key: str, created_by: AbstractBaseUser | None = None) -> PlaybookVersion:
    """Remove a rule from the next version (earlier versions, and the runs that used them, keep it)."""
    return _edit(base=base, key=key, change=lambda rules: [r for r in rules if r["key"] != key],
                 note=f"delete rule {key}", created_by=created_by)


def rule_set_enabled(*, base: PlaybookVersion, key: str, enabled: bool,
                     created_by: AbstractBaseUser | None = None) -> PlaybookVersion:
    """Enable or disable a rule (a disabled rule stays in the playbook but is not applied)."""

    def change(rules: RuleSpecs) -> RuleSpecs:
        rule = rules[_index(rules, key)]
        rule.pop("enabled", None)
        if not enabled:
            rule["enabled"] = False  # the interchange format omits the default (enabled)
        return rules

    return _edit(base=base, key=key, change=change, note=f"{'enable' if enabled else 'disable'} rule {key}",
                 created_by=created_by)


def rule_move(*, base: PlaybookVersion, key: str, offset: int,
              created_by: AbstractBaseUser | None = None) -> PlaybookVersion:
    """Move a rule ``offset`` places (negative: up), clamped to the list; order is what reviews report in."""

    def change(rules: RuleSpecs) -> RuleSpecs:
        i = _index(rules, key)
        rule = rules.pop(i)
        rules.insert(max(0, min(len(rules), i + offset)), rule)
        return rules

    return _edit(base=base, key=key, change=change, note=f"move rule {key} {'up' if offset < 0 else 'down'}",
                 created_by=created_by)


@transaction.atomic
def playbook_version_restore(*, version: PlaybookVersion,
                             created_by: AbstractBaseUser | None = None) -> PlaybookVersion:
    """Make an old version's content current again, as a new version (history is never rewritten)."""
    Playbook.objects.select_for_update().filter(pk=version.playbook_id).first()
    latest = playbook_latest_version(playbook=version.playbook)
    return _store(latest, playbook_version_spec(version=version), note=f"restore version {version.number}",
                  created_by=created_by)


@dataclass(frozen=True, slots=True)
class ImportPreview:
    """What applying an import would do: the parsed content, the playbook it lands in
    (None: a new playbook), the version it was compared with, and the rule diff."""

    spec: PlaybookSpec
    playbook: Playbook | None
    base: PlaybookVersion | None
    diff: PlaybookDiff


def playbook_import_preview(*, workspace: Workspace, source: str | bytes) -> ImportPreview:
    """Parse and validate an upload (422 with the path of a problem) and diff it with the
    latest version of the workspace's playbook of the same name. Stores nothing."""
    spec = playbook_parse(source=source)
    playbook = Playbook.objects.filter(workspace=workspace, name=spec.name).first()
    base = playbook.versions.order_by("-number").first() if playbook else None
    old = playbook_version_spec(version=base) if base else None
    label = f"version {base.number}" if base else "nothing"
    return ImportPreview(spec, playbook, base, playbook_diff(old, spec, old_label=label, new_label="import"))


@transaction.atomic
def playbook_import_apply(*, workspace: Workspace, source: str | bytes, base_number: int | None,
                          created_by: AbstractBaseUser | None = None) -> PlaybookVersion:
    """Store a previewed import, provided the playbook has not changed since the preview
    (``base_number``: the version previewed against, None for a new playbook)."""
    preview = playbook_import_preview(workspace=workspace, source=source)
    latest = None
    if preview.playbook is not None:
        Playbook.objects.select_for_update().filter(pk=preview.playbook.pk).first()
        latest = playbook_latest_version(playbook=preview.playbook)
    if (latest.number if latest else None) != base_number:
        raise ApplicationError("conflict", "The playbook changed after the preview. Preview the import again.",
                               status=409, detail={"latest": latest.number if latest else None})
    if latest is not None:
        return _store(latest, preview.spec, note="import", created_by=created_by)
    return playbook_version_create(workspace=workspace, spec=preview.spec, created_by=created_by, note="import")
