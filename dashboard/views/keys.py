"""API keys for the Word add-in: create (the secret is shown once), list, revoke. Admins only."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect
from django.utils.cache import add_never_cache_headers
from django.views.decorators.http import require_GET, require_POST

from redline.services.accounts import api_key_issue, api_key_revoke

from .. import queries
from ..context import DashboardRequest, admin_required
from ..forms import ApiKeyForm
from ..http import render_page, wants_fragment

PAGE = "dashboard/keys.html"


def _blank_form(request: DashboardRequest) -> ApiKeyForm:
    """A new key acts as the admin creating it unless they choose another member."""
    return ApiKeyForm(workspace=request.membership.workspace, initial={"member": request.membership.pk})


def _page(request: DashboardRequest, form: ApiKeyForm, *, secret: str = "", status: int = 200) -> HttpResponse:
    keys = queries.api_keys(workspace=request.membership.workspace)
    return render_page(request, PAGE, {"form": form, "keys": keys, "secret": secret, "section": "keys"},
                       partial="keys", status=status)


@admin_required
@require_GET
def key_list(request: DashboardRequest) -> HttpResponse:
    return _page(request, _blank_form(request))


@admin_required
@require_POST
def key_create(request: DashboardRequest) -> HttpResponse:
    """Issue a key and show its secret in this response only (never stored, never cached)."""
    workspace = request.membership.workspace
    form = ApiKeyForm(request.POST, workspace=workspace)
    if not form.is_valid():
        return _page(request, form)
    issued = api_key_issue(membership=form.cleaned_data["member"], name=form.cleaned_data["name"],
                           actor=request.user)
    response = _page(request, _blank_form(request), secret=issued.secret)
    add_never_cache_headers(response)
    return response


@admin_required
@require_POST
def key_revoke(request: DashboardRequest, key_id: int) -> HttpResponse:
    """Revoke at once (idempotent); the row stays, marked revoked, so the history of keys is visible."""
    key = queries.api_key_get(workspace=request.membership.workspace, key_id=key_id)
    api_key_revoke(workspace=request.membership.workspace, key_id=key.pk, actor=request.user)
    if not wants_fragment(request):
        messages.success(request, f"Key {key.prefix}… revoked.")
        return redirect("dashboard:keys")
    key.refresh_from_db()
    return render_page(request, PAGE, {"key": key, "focus_key": key.pk}, partial="row")
