"""The audit log: who changed a workspace's playbooks, preferences and API keys, when, and what.

Services that make such changes call :func:`audit_record` in the same transaction
as the change, so the log and the data cannot disagree.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from ..models import AuditEvent, Workspace


def audit_record(*, workspace: Workspace, actor: AbstractBaseUser | None, action: str, target: str,
                 detail: dict[str, Any] | None = None) -> AuditEvent:
    """Append one event; ``actor`` None means the system made the change."""
    return AuditEvent.objects.create(workspace=workspace, actor=actor if actor and actor.pk else None,
                                     action=action, target=target, detail=detail or {})


def audit_events(*, workspace: Workspace, limit: int = 200) -> list[AuditEvent]:
    """The workspace's newest events first."""
    return list(AuditEvent.objects.filter(workspace=workspace).select_related("actor")[:limit])
