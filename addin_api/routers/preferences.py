from __future__ import annotations

from django.http import HttpRequest
from ninja import Router

from redline.errors import ApplicationError
from redline.learning.preferences import update_preferences
from redline.models import PreferencesVersion
from redline.services.learning import learned_lines_current
from redline.services.preferences import preferences_current, preferences_edit, preferences_restore

from ..auth import require_admin
from ..schemas.common import ErrorOut
from ..schemas.preferences import CurrentPreferencesOut, PreferencesIn, PreferencesOut

router = Router(tags=["preferences"])


def _out(version: PreferencesVersion | None) -> dict:
    if version is None:
        return {"version": 0, "text": "", "author_kind": "", "author": None, "reason": "", "created_at": None}
    return {"version": version.number, "text": version.text, "author_kind": version.author_kind,
            "author": version.author.get_username() if version.author else None, "reason": version.reason,
            "created_at": version.created_at}


@router.get("", response=CurrentPreferencesOut)
def get_preferences(request: HttpRequest) -> dict:
    """The workspace's current preferences (what the model reads on re-runs), and each learned line
    in them with its counts and sources (the suggestions, their outcomes and dates)."""
    workspace = request.auth.workspace
    return {**_out(preferences_current(workspace=workspace)), "learned": learned_lines_current(workspace=workspace)}


@router.put("", response={200: PreferencesOut, 403: ErrorOut, 409: ErrorOut, 422: ErrorOut})
def put_preferences(request: HttpRequest, body: PreferencesIn) -> dict:
    """Replace the text, or append/replace lines; saved as a new version with a reason (admins only).

    Lines are applied to the current text under the workspace's lock, so changes sent at once all land. Send
    ``base_version`` (or ``If-Match: <version>``) to be refused with 409 ``version_conflict`` instead of
    overwriting a version saved since you read the text."""
    membership = require_admin(request)
    base = body.base_version if body.base_version is not None else _if_match(request)
    if body.text is not None:
        text = body.text
        edit = lambda _current: text  # noqa: E731 - the whole text, whatever was there
    elif body.action and body.lines is not None:
        action, lines = body.action, body.lines
        edit = lambda current: update_preferences(current, action, lines)  # noqa: E731
    else:
        raise ApplicationError("validation_error", "Send either `text`, or `action` with `lines`.", status=422)
    version = preferences_edit(workspace=membership.workspace, edit=edit, author_kind=PreferencesVersion.Author.USER,
                               author=membership.user, reason=body.reason, base_version=base)
    return _out(version)


def _if_match(request: HttpRequest) -> int | None:
    """The version an ``If-Match`` header names ("3", '"3"', 'W/"3"'); None without one."""
    raw = request.headers.get("If-Match", "").strip()
    if not raw or raw == "*":
        return None
    raw = raw.removeprefix("W/").strip('"')
    if not raw.isdigit():
        raise ApplicationError("validation_error", "If-Match must name a preferences version number.", status=422)
    return int(raw)


@router.get("/versions", response=list[PreferencesOut])
def list_versions(request: HttpRequest) -> list[dict]:
    versions = PreferencesVersion.objects.filter(workspace=request.auth.workspace).select_related("author")
    return [_out(v) for v in versions.order_by("-number")[:200]]


@router.post("/versions/{number}/restore", response={200: PreferencesOut, 403: ErrorOut, 404: ErrorOut})
def restore_version(request: HttpRequest, number: int) -> dict:
    membership = require_admin(request)
    return _out(preferences_restore(workspace=membership.workspace, number=number, author=membership.user))
