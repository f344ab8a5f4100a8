"""The workspace's audit log: who changed playbooks, preferences and keys, and sign-in lock-outs."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.http import HttpRequest
from ninja import Router, Schema

from redline.services.audit import audit_events

from ..auth import require_admin
from ..schemas.common import ErrorOut

router = Router(tags=["audit"])


class AuditEventOut(Schema):
    action: str  # e.g. "preferences.save", "api_key.revoke", "auth.login_locked"
    target: str
    actor: str | None  # None: the system (learning, the built-in playbook, a sign-in lock-out)
    detail: dict[str, Any]
    created_at: datetime


@router.get("", response={200: list[AuditEventOut], 403: ErrorOut})
def list_audit_events(request: HttpRequest, limit: int = 200) -> list[dict]:
    """The newest events first (admins only); ``auth.login_locked`` says which account was locked from which
    address, for how long."""
    membership = require_admin(request)
    return [{"action": e.action, "target": e.target, "actor": e.actor.get_username() if e.actor else None,
             "detail": e.detail, "created_at": e.created_at}
            for e in audit_events(workspace=membership.workspace, limit=max(1, min(limit, 500)))]
