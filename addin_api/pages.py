"""The Word add-in's pages: the task pane, the sign-in dialog, and the pane's account strip.

Word on the web shows the task pane in an iframe on an Office domain, so the
pane and the dialog (and no other page) may be framed by Office; the rest of
the site keeps ``X-Frame-Options: DENY``. The pane never relies on cookies (a third-party
iframe may not get them): it talks to the API with a bearer key, which the
sign-in dialog issues after a normal Django session login. The dialog is a
top-level window on our own origin, so the session cookie works there.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django import forms
from django.contrib.auth import login, logout
from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from redline.models import ApiKey, Membership
from redline.server.ratelimit import RateLimited, retry_minutes
from redline.services.accounts import api_key_issue, api_key_revoke

from .auth import bearer_key

OFFICE_JS = "https://appsforoffice.microsoft.com/lib/1/hosted/office.js"

# Where Word on the web frames add-ins (consumer and Microsoft 365, old and new domains).
OFFICE_FRAME_ANCESTORS = (
    "'self'",
    "https://*.officeapps.live.com",
    "https://*.office.com",
    "https://*.office365.com",
    "https://*.microsoft365.com",
    "https://*.cloud.microsoft",
    "https://*.sharepoint.com",
    "https://*.live.com",
)

View = Callable[..., HttpResponse]


def frameable_by_office(view: View) -> View:
    """Let Office frame this view (and nobody else): no X-Frame-Options, CSP ``frame-ancestors`` instead."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        response = view(request, *args, **kwargs)
        response["Content-Security-Policy"] = "frame-ancestors " + " ".join(OFFICE_FRAME_ANCESTORS)
        return response

    return xframe_options_exempt(wrapper)


def _no_store(response: HttpResponse) -> HttpResponse:
    """Pages that carry a key or an identity must not be cached by anyone."""
    response["Cache-Control"] = "no-store"
    return response


@require_GET
@frameable_by_office
def taskpane(request: HttpRequest) -> HttpResponse:
    """The pane itself: static markup; everything it shows comes from the API."""
    return render(request, "addin/taskpane.html", {"office_js": OFFICE_JS})


class WorkspaceForm(forms.Form):
    """Which of the user's workspaces the add-in's key acts in."""

    workspace = forms.TypedChoiceField(coerce=int)

    def __init__(self, memberships: list[Membership], *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.memberships = {m.workspace_id: m for m in memberships}
        self.fields["workspace"].choices = [(m.workspace_id, m.workspace.name) for m in memberships]
        self.fields["workspace"].initial = memberships[0].workspace_id

    def membership(self) -> Membership:
        return self.memberships[self.cleaned_data["workspace"]]


def _memberships(request: HttpRequest) -> list[Membership]:
    return list(Membership.objects.filter(user=request.user).select_related("workspace", "user").order_by("id"))


def _dialog(request: HttpRequest, template: str, **context: object) -> HttpResponse:
    return _no_store(render(request, f"addin/{template}", {"office_js": OFFICE_JS, **context}))


@require_http_methods(["GET", "POST"])
@frameable_by_office
def signin(request: HttpRequest) -> HttpResponse:
    """The sign-in dialog: log in through Django, then issue a key for the add-in and hand it back.

    A GET never issues a key (it only shows the forms); the key is created by the
    POST that logs in (one workspace) or confirms the workspace, and returned
    once, to the pane, through ``Office.context.ui.messageParent``.
    """
    if request.method == "POST" and "switch_account" in request.POST:
        logout(request)
        return _dialog(request, "signin.html", login_form=AuthenticationForm(request))
    just_logged_in = False
    if not request.user.is_authenticated:
        login_form = AuthenticationForm(request, data=request.POST if request.method == "POST" else None)
        if not (request.method == "POST" and login_form.is_valid()):
            retry_after = getattr(request, "login_retry_after", 0)  # locked: 429, saying when to try again
            response = _dialog(request, "signin.html", login_form=login_form, locked_minutes=retry_minutes(retry_after))
            if retry_after:
                response.status_code = 429
                response["Retry-After"] = str(retry_after)
            return response
        login(request, login_form.get_user())
        just_logged_in = True
    memberships = _memberships(request)
    if not memberships:
        return _dialog(request, "signin.html", no_workspace=True)
    if just_logged_in and len(memberships) == 1:
        membership = memberships[0]  # nothing to choose: the login itself confirms
    else:
        confirming = request.method == "POST" and "workspace" in request.POST
        form = WorkspaceForm(memberships, request.POST if confirming else None)
        if not (confirming and form.is_valid()):
            return _dialog(request, "signin.html", workspace_form=form)
        membership = form.membership()
    issued = api_key_issue(membership=membership, name=f"Word add-in {timezone.now():%Y-%m-%d %H:%M}",
                           actor=request.user)
    payload = {"type": "redline:signed-in", "key": issued.secret, "user": membership.user.get_username(),
               "workspace": membership.workspace.name}
    return _dialog(request, "signin_done.html", payload=payload)


def _bearer_key(request: HttpRequest) -> ApiKey | HttpResponse:
    """The caller's key, or the answer to send instead: 401, or 429 past the failure limit
    (the same limiter as the API's)."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    try:
        key = bearer_key(request, token.strip()) if scheme.lower() == "bearer" else None
    except RateLimited as exc:
        response = HttpResponse("Too many failed attempts; try again later.", status=429, content_type="text/plain")
        response["Retry-After"] = str(exc.retry_after)
        return _no_store(response)
    return key if key is not None else _no_store(HttpResponse("Sign in again.", status=401,
                                                              content_type="text/plain"))


@require_GET
def account(request: HttpRequest) -> HttpResponse:
    """The pane's account strip (an htmx fragment): who the key acts as, and sign out."""
    key = _bearer_key(request)
    if isinstance(key, HttpResponse):
        return key
    return _no_store(render(request, "addin/account.html", {"membership": key.membership}))


@csrf_exempt  # authenticated by the bearer key only, never by a cookie, so there is no CSRF to forge
@require_POST
def signout(request: HttpRequest) -> HttpResponse:
    """Revoke the pane's key; the pane forgets it whatever the answer (see taskpane.js)."""
    key = _bearer_key(request)
    if isinstance(key, HttpResponse):
        return key
    api_key_revoke(workspace=key.membership.workspace, key_id=key.pk, actor=key.membership.user)
    return _no_store(HttpResponse("", status=204))
