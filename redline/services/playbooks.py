"""Playbooks: import, export, and immutable versions.

A playbook's content never changes in place: every edit or import creates a new
:class:`PlaybookVersion`, so a run can always say exactly which rules it applied.
The engine's interchange format (``redline.analysis.playbook``) is the single
definition of a rule; the database stores it per rule and reconstructs it.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Max

from ..analysis.playbook.io import default_playbook, load_playbook, playbook_from_dict
from ..analysis.playbook.model import FORMAT, PlaybookError
from ..analysis.playbook.model import Playbook as PlaybookSpec
from ..errors import ApplicationError
from ..models import Playbook, PlaybookVersion, Rule, Workspace
from .audit import audit_record


def _spec_error(exc: PlaybookError) -> ApplicationError:
    detail: dict[str, Any] = {"path": exc.path} if exc.path else {}
    if len(exc.problems) > 1:
        detail["problems"] = [{"path": path, "message": message} for path, message in exc.problems]
    return ApplicationError(exc.code, exc.message, status=422, detail=detail)


def playbook_parse(*, source: str | bytes) -> PlaybookSpec:
    """Parse and validate YAML or JSON in the interchange format (422 with the path of the problem)."""
    try:
        return load_playbook(source)
    except PlaybookError as exc:
        raise _spec_error(exc) from None


def _content_hash(spec: PlaybookSpec) -> str:
    canonical = json.dumps(spec.to_dict(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


@transaction.atomic
def playbook_version_create(
    *, workspace: Workspace, spec: PlaybookSpec, created_by: AbstractBaseUser | None = None, note: str = ""
) -> PlaybookVersion:
    """Store ``spec`` as the next version of the workspace's playbook of that name.

    Identical content to the latest version creates nothing and returns it, so
    re-importing a file (or running ``demo`` again) is idempotent.
    """
    playbook, _ = Playbook.objects.get_or_create(
        workspace=workspace, name=spec.name,
        defaults={"contract_type": spec.contract_type, "description": spec.description},
    )
    playbook = Playbook.objects.select_for_update().get(pk=playbook.pk)
    digest = _content_hash(spec)
    latest = playbook.versions.order_by("-number").first()
    if latest is not None and latest.content_hash == digest:
        return latest
    number = (playbook.versions.aggregate(m=Max("number"))["m"] or 0) + 1
    version = PlaybookVersion.objects.create(
        playbook=playbook, number=number, note=note[:300], perspective=spec.perspective,
        content_hash=digest, created_by=created_by,
    )
    Rule.objects.bulk_create(
        Rule(version=version, position=i, key=r.key, title=r.title, category=r.category.value,
             severity=r.severity.value, enabled=r.enabled, spec=r.to_dict())
        for i, r in enumerate(spec.rules)
    )
    Playbook.objects.filter(pk=playbook.pk).update(contract_type=spec.contract_type, description=spec.description)
    audit_record(workspace=workspace, actor=created_by, action="playbook.version_create",
                 target=f"playbook:{playbook.pk} v{number}", detail={"name": spec.name, "note": note[:300]})
    return version


def playbook_import(
    *, workspace: Workspace, source: str | bytes, created_by: AbstractBaseUser | None = None, note: str = "import"
) -> PlaybookVersion:
    return playbook_version_create(
        workspace=workspace, spec=playbook_parse(source=source), created_by=created_by, note=note
    )


def playbook_default_install(*, workspace: Workspace, created_by: AbstractBaseUser | None = None) -> PlaybookVersion:
    """Load the built-in commercial-contract playbook (idempotent: a second call adds no version).
    ``created_by``: the admin who installed it from the dashboard (the version and the audit log name them);
    None for the system (the demo command)."""
    return playbook_version_create(workspace=workspace, spec=default_playbook(), created_by=created_by,
                                   note="built-in default")


def playbook_version_spec(*, version: PlaybookVersion) -> PlaybookSpec:
    """Rebuild the engine's playbook from a stored version."""
    data: dict[str, Any] = {
        "format": FORMAT,
        "name": version.playbook.name,
        "version": version.number,
        "perspective": version.perspective,
        "rules": [rule.spec for rule in version.rules.order_by("position")],
    }
    if version.playbook.contract_type:
        data["contract_type"] = version.playbook.contract_type
    if version.playbook.description:
        data["description"] = version.playbook.description
    try:
        return playbook_from_dict(data)
    except PlaybookError as exc:  # stored content is validated on the way in; this is a bug
        raise RuntimeError(f"stored playbook version {version.pk} is invalid: {exc}") from exc


def playbook_create(
    *, workspace: Workspace, name: str, contract_type: str = "", perspective: str = "balanced",
    from_default: bool = False, created_by: AbstractBaseUser | None = None,
) -> PlaybookVersion:
    """A new playbook, empty or holding the built-in default's rules, as its version 1.

    Unlike an import, this never adds a version to an existing playbook: a name
    already used in the workspace is a 409 (``playbook_exists``), so nobody
    overwrites a colleague's playbook by choosing the same name.
    """
    name = name.strip()
    if Playbook.objects.filter(workspace=workspace, name=name).exists():
        raise ApplicationError("playbook_exists", f"There is already a playbook called “{name}”.", status=409)
    rules = [r.to_dict() for r in default_playbook().rules] if from_default else []
    try:
        spec = playbook_from_dict({"format": FORMAT, "name": name, "contract_type": contract_type.strip(),
                                   "perspective": perspective, "rules": rules})
    except PlaybookError as exc:
        raise _spec_error(exc) from None
    note = "created from the built-in default" if from_default else "created blank"
    return playbook_version_create(workspace=workspace, spec=spec, created_by=created_by, note=note)
