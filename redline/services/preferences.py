"""Workspace preferences: one Markdown text, versioned; every change keeps who, when and why."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Max

from ..errors import ApplicationError, NotFound
from ..learning.preferences import clean_preferences
from ..models import PreferencesVersion, Workspace
from .audit import audit_record

MAX_CHARS = 50_000


def preferences_current(*, workspace: Workspace) -> PreferencesVersion | None:
    return PreferencesVersion.objects.filter(workspace=workspace).order_by("-number").first()


def preferences_lock(*, workspace: Workspace) -> None:
    """Hold the workspace's preferences until the transaction ends: call it before reading the text a change is
    computed from, so two changes made at once apply one after the other (an append built from a text read
    before another append committed would drop that one's lines)."""
    Workspace.objects.select_for_update().filter(pk=workspace.pk).first()


@transaction.atomic
def preferences_edit(
    *,
    workspace: Workspace,
    edit: Callable[[str], str],
    author_kind: str,
    author: AbstractBaseUser | None = None,
    reason: str = "",
    base_version: int | None = None,
) -> PreferencesVersion:
    """Store ``edit(current text)`` as the next version, read and written under the lock.

    ``base_version``: the version the change was made against (the API's ``base_version`` or ``If-Match``, the
    dashboard form's); when another was saved since, 409 ``version_conflict`` and nothing is stored."""
    preferences_lock(workspace=workspace)
    current = preferences_current(workspace=workspace)
    number = current.number if current is not None else 0
    if base_version is not None and base_version != number:
        raise ApplicationError("version_conflict", f"The preferences changed since version {base_version} "
                               f"(version {number} is current); read them again and re-apply your change.",
                               status=409)
    return preferences_save(workspace=workspace, text=edit(current.text if current else ""),
                            author_kind=author_kind, author=author, reason=reason)


@transaction.atomic
def preferences_save(
    *,
    workspace: Workspace,
    text: str,
    author_kind: str,
    author: AbstractBaseUser | None = None,
    reason: str = "",
) -> PreferencesVersion:
    """Store ``text`` as the next version; unchanged text creates nothing and returns the current one.

    Every path (people, the model, learning) stores :func:`clean_preferences` text: no placeholder, no doubled bullets.
    """
    text = clean_preferences(text)
    if len(text) > MAX_CHARS:
        raise ApplicationError("too_large", f"Preferences are limited to {MAX_CHARS} characters.", status=422)
    preferences_lock(workspace=workspace)  # serialise version numbers
    current = preferences_current(workspace=workspace)
    if current is not None and current.text == text:
        return current
    number = (PreferencesVersion.objects.filter(workspace=workspace).aggregate(m=Max("number"))["m"] or 0) + 1
    version = PreferencesVersion.objects.create(
        workspace=workspace, number=number, text=text, author_kind=author_kind, author=author, reason=reason[:300]
    )
    audit_record(workspace=workspace, actor=author, action="preferences.save", target=f"preferences v{number}",
                 detail={"author_kind": author_kind, "reason": reason[:300], "chars": len(text)})
    return version


def preferences_restore(*, workspace: Workspace, number: int, author: AbstractBaseUser | None) -> PreferencesVersion:
    """Make an old version current again (as a new version, so history is never rewritten)."""
    old = PreferencesVersion.objects.filter(workspace=workspace, number=number).first()
    if old is None:
        raise NotFound("Preferences version", number)
    version = preferences_save(workspace=workspace, text=old.text, author_kind=PreferencesVersion.Author.USER,
                               author=author, reason=f"restore version {number}")
    audit_record(workspace=workspace, actor=author, action="preferences.restore", target=f"preferences v{number}",
                 detail={"current": version.number})
    return version
