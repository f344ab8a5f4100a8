from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from redline import selectors

from ..context import SESSION_KEY


@login_required
@require_POST
def switch_workspace(request: HttpRequest) -> HttpResponse:
    """Switch only to a workspace the user belongs to; anything else keeps the current one."""
    try:
        workspace_id = int(request.POST.get("workspace", ""))
    except ValueError:
        workspace_id = None
    if workspace_id and selectors.membership_for_user(user_id=request.user.pk, workspace_id=workspace_id):
        request.session[SESSION_KEY] = workspace_id
    return redirect("dashboard:home")
