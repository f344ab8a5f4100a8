"""Workspaces, memberships and API keys."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify

from .. import selectors
from ..errors import ApplicationError, NotFound
from ..models import ApiKey, Membership, Role, Workspace
from .audit import audit_record

KEY_PREFIX = "rl"
_LAST_USED_RESOLUTION = timedelta(minutes=1)


@dataclass(frozen=True)
class IssuedKey:
    """A freshly created key: ``secret`` is the only copy of the full key, shown once."""

    api_key: ApiKey
    secret: str


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def workspace_create(*, name: str, slug: str | None = None) -> Workspace:
    return Workspace.objects.create(name=name, slug=slug or slugify(name)[:64])


def membership_create(*, user: AbstractBaseUser, workspace: Workspace, role: str = Role.REVIEWER) -> Membership:
    if role not in Role.values:
        raise ApplicationError("invalid_role", f"Role must be one of {', '.join(Role.values)}.")
    membership, _ = Membership.objects.update_or_create(user=user, workspace=workspace, defaults={"role": role})
    return membership


def user_create(*, username: str, password: str, email: str = "") -> AbstractBaseUser:
    return get_user_model().objects.create_user(username=username, password=password, email=email)


@transaction.atomic
def api_key_issue(*, membership: Membership, name: str = "default", actor: AbstractBaseUser | None = None) -> IssuedKey:
    """Create a key ``rl_<prefix>_<secret>``; the prefix is visible later, the secret never again.
    ``actor`` is who issued it (default: the key's own user)."""
    prefix = secrets.token_hex(6)
    secret = f"{KEY_PREFIX}_{prefix}_{secrets.token_urlsafe(32)}"
    key = ApiKey.objects.create(membership=membership, name=name, prefix=prefix, hashed_key=_hash(secret))
    audit_record(workspace=membership.workspace, actor=actor or membership.user, action="api_key.issue",
                 target=f"api_key:{key.pk}", detail={"name": name, "prefix": prefix, "for": membership.user.get_username()})
    return IssuedKey(api_key=key, secret=secret)


def api_key_prefix(secret: str) -> str | None:
    """The prefix part of ``rl_<prefix>_<secret>`` (what failures are counted under), or None."""
    parts = secret.split("_", 2)
    if len(parts) != 3 or parts[0] != KEY_PREFIX or not parts[1]:
        return None
    return parts[1]


def api_key_authenticate(*, secret: str) -> ApiKey | None:
    """The live key matching ``secret``, or None. Compared in constant time."""
    prefix = api_key_prefix(secret)
    if prefix is None:
        return None
    key = selectors.api_key_by_prefix(prefix=prefix)
    if key is None or not hmac.compare_digest(key.hashed_key, _hash(secret)):
        return None
    now = timezone.now()
    if key.last_used_at is None or now - key.last_used_at > _LAST_USED_RESOLUTION:
        ApiKey.objects.filter(pk=key.pk).update(last_used_at=now)
        key.last_used_at = now
    return key


def api_key_revoke(*, workspace: Workspace, key_id: int, actor: AbstractBaseUser | None = None) -> ApiKey:
    """Revoke a key of the workspace (effective on its next request); ``actor`` is who revoked it."""
    key = ApiKey.objects.filter(pk=key_id, membership__workspace=workspace).first()
    if key is None:
        raise NotFound("API key", key_id)
    if key.revoked_at is None:
        key.revoked_at = timezone.now()
        key.save(update_fields=["revoked_at"])
        audit_record(workspace=workspace, actor=actor, action="api_key.revoke", target=f"api_key:{key.pk}",
                     detail={"name": key.name, "prefix": key.prefix})
    return key
