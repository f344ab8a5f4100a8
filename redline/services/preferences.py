"""Workspace preferences: one Markdown text, versioned; every change keeps who, when and why."""

from __future__ import annotations

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
    Workspace.objects.select_for_update().filter(pk=workspace.pk).first()  # serialise version numbers
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
