from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from redline import selectors
from redline.server.ratelimit import retry_minutes

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


class SignInView(auth_views.LoginView):
    """Django's sign-in, answering 429 with ``Retry-After`` and saying when to try again while the account is
    locked for this address (``redline.server.ratelimit``), instead of "didn't match"."""

    template_name = "dashboard/login.html"

    def form_invalid(self, form: AuthenticationForm) -> HttpResponse:
        retry_after = getattr(self.request, "login_retry_after", 0)
        response = self.render_to_response(self.get_context_data(form=form, locked_minutes=retry_minutes(retry_after)))
        if retry_after:
            response.status_code = 429
            response["Retry-After"] = str(retry_after)
        return response
