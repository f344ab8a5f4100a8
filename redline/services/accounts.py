"""Workspaces, memberships and API keys.

A workspace always keeps an admin: the team services refuse (409 ``last_admin``)
to remove or demote its last one, since nobody could then add members, keys or
playbooks there. Each team change is written to the audit log with who made it.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
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


@dataclass(frozen=True)
class Invited:
    """A member added with a new account: ``password`` is the only copy of its first password, shown once."""

    membership: Membership
    password: str


def _free_slug(name: str) -> str:
    """The name's slug, numbered when taken: two teams may share a name, never a slug."""
    base = slugify(name)[:56] or "workspace"
    taken = set(Workspace.objects.filter(slug__startswith=base).values_list("slug", flat=True))
    return next(slug for slug in itertools.chain([base], (f"{base}-{n}" for n in itertools.count(2)))
                if slug not in taken)


@transaction.atomic
def workspace_start(*, name: str, creator: AbstractBaseUser) -> Membership:
    """A new workspace with ``creator`` as its admin (a workspace without one could never be set up)."""
    name = name.strip()
    if not name:
        raise ApplicationError("invalid_name", "Give the workspace a name.", status=422)
    try:
        with transaction.atomic():  # two teams naming themselves alike at the same moment: one waits for a retry
            workspace = workspace_create(name=name, slug=_free_slug(name))
    except IntegrityError:
        raise ApplicationError("workspace_taken", "A workspace of that name was created just now: try again.",
                               status=409) from None
    membership = membership_create(user=creator, workspace=workspace, role=Role.ADMIN)
    audit_record(workspace=workspace, actor=creator, action="workspace.create", target=f"workspace:{workspace.pk}",
                 detail={"name": name, "slug": workspace.slug})
    return membership


def _check_role(role: str) -> None:
    if role not in Role.values:
        raise ApplicationError("invalid_role", f"Role must be one of {', '.join(Role.values)}.", status=422)


def _lock(workspace: Workspace) -> None:
    """Serialise team changes per workspace, so two admins demoting each other cannot leave none."""
    list(Workspace.objects.select_for_update().filter(pk=workspace.pk).values_list("pk"))


def _member(workspace: Workspace, membership_id: int) -> Membership:
    membership = (Membership.objects.select_related("user", "workspace")
                  .filter(workspace=workspace, pk=membership_id).first())
    if membership is None:
        raise NotFound("Member", membership_id)
    return membership


def _keep_an_admin(membership: Membership, change: str) -> None:
    if membership.role == Role.ADMIN and not membership.workspace.memberships.filter(role=Role.ADMIN).exclude(
            pk=membership.pk).exists():
        raise ApplicationError(
            "last_admin", f"{membership.user.get_username()} is the only admin of {membership.workspace.name}, so "
                          f"they cannot be {change}: make another member an admin first.", status=409)


def _added(membership: Membership, actor: AbstractBaseUser, *, new_account: bool) -> None:
    audit_record(workspace=membership.workspace, actor=actor, action="membership.add",
                 target=f"membership:{membership.pk}",
                 detail={"user": membership.user.get_username(), "role": membership.role, "new_account": new_account})


def _existing_user(who: str) -> AbstractBaseUser:
    """The account named by username, else by email (which must then name exactly one account)."""
    users = get_user_model().objects
    user = users.filter(username=who).first()
    if user is not None:
        return user
    by_email = list(users.filter(email__iexact=who)[:2]) if "@" in who else []
    if len(by_email) > 1:
        raise ApplicationError("ambiguous_email", f"Several accounts use {who}: add the person by username.",
                               status=409)
    if not by_email:
        raise ApplicationError("unknown_user", f"No account has the username or email “{who}”. "
                                               "Create an account for them instead.", status=422)
    return by_email[0]


@transaction.atomic
def member_add(*, workspace: Workspace, who: str, role: str, actor: AbstractBaseUser) -> Membership:
    """Add an existing account (by username or email) to the workspace with ``role``."""
    _check_role(role)
    user = _existing_user(who.strip())
    _lock(workspace)
    if workspace.memberships.filter(user=user).exists():
        raise ApplicationError("already_member", f"{user.get_username()} is already a member of {workspace.name}.",
                               status=409)
    membership = Membership.objects.create(user=user, workspace=workspace, role=role)
    _added(membership, actor, new_account=False)
    return membership


@transaction.atomic
def member_invite(*, workspace: Workspace, username: str, email: str, role: str, actor: AbstractBaseUser) -> Invited:
    """A new account with a generated first password, as a member of the workspace.

    The password is returned once and stored only as a hash; an account that already exists
    (same username, or same email) is refused, so nobody is given a second account by mistake.
    """
    _check_role(role)
    users = get_user_model().objects
    try:
        users.model.username_validator(username)
    except ValidationError as exc:
        raise ApplicationError("invalid_username", " ".join(exc.messages), status=422) from None
    if users.filter(username__iexact=username).exists():
        raise ApplicationError("username_taken", f"The username “{username}” is taken. If it is this person, "
                                                 "add them as an existing account.", status=409)
    if email and users.filter(email__iexact=email).exists():
        raise ApplicationError("email_taken", f"An account already uses {email}: add it as an existing account.",
                               status=409)
    password = secrets.token_urlsafe(12)
    try:
        with transaction.atomic():  # the same username asked for twice at once
            user = user_create(username=username, password=password, email=email)
    except IntegrityError:
        raise ApplicationError("username_taken", f"The username “{username}” is taken.", status=409) from None
    membership = Membership.objects.create(user=user, workspace=workspace, role=role)
    _added(membership, actor, new_account=True)
    return Invited(membership=membership, password=password)


@transaction.atomic
def member_set_role(*, workspace: Workspace, membership_id: int, role: str, actor: AbstractBaseUser) -> Membership:
    """Change a member's role; the workspace's last admin cannot be demoted (409 ``last_admin``)."""
    _check_role(role)
    _lock(workspace)
    membership = _member(workspace, membership_id)
    if membership.role == role:
        return membership
    if role != Role.ADMIN:
        _keep_an_admin(membership, "made a reviewer")
    before, membership.role = membership.role, role
    membership.save(update_fields=["role"])
    audit_record(workspace=workspace, actor=actor, action="membership.role_change",
                 target=f"membership:{membership.pk}",
                 detail={"user": membership.user.get_username(), "from": before, "to": role})
    return membership


@transaction.atomic
def member_remove(*, workspace: Workspace, membership_id: int, actor: AbstractBaseUser) -> Membership:
    """Take a member out of the workspace (their API keys go with the membership); never its last admin."""
    _lock(workspace)
    membership = _member(workspace, membership_id)
    _keep_an_admin(membership, "removed")
    keys = membership.api_keys.count()
    audit_record(workspace=workspace, actor=actor, action="membership.remove", target=f"membership:{membership.pk}",
                 detail={"user": membership.user.get_username(), "role": membership.role, "api_keys": keys})
    membership.delete()
    return membership
