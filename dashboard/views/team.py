"""Setting a workspace up from the dashboard: its team (new workspaces, members, roles) and its first playbook.

Admins of the session's workspace only; every member id is looked up inside that
workspace, so another workspace's ids are 404s. With htmx, member changes answer
with the refreshed ``#team`` part of the page; a refused change (the last admin,
an unknown account) answers 4xx with that part explaining why, marked
``X-Redline-Error: refused`` so static/dashboard/team.js swaps it in instead of
showing a generic error. Without JavaScript the forms post and redirect back.
"""

from __future__ import annotations

from django.contrib import messages
from django.forms import Form
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from redline import selectors
from redline.errors import ApplicationError, NotFound
from redline.models import Role
from redline.services.accounts import (
    Invited,
    member_add,
    member_invite,
    member_remove,
    member_set_role,
    workspace_start,
)
from redline.services.playbooks import playbook_default_install

from ..context import DashboardRequest, admin_required
from ..http import render_page, wants_fragment
from ..team_forms import MemberAddForm, MemberInviteForm, RoleForm, WorkspaceForm

PAGE = "dashboard/team.html"


def _page(request: DashboardRequest, *, add: MemberAddForm | None = None, invite: MemberInviteForm | None = None,
          workspace_form: WorkspaceForm | None = None, notice: str = "", error: str = "",
          invited: Invited | None = None, status: int = 200) -> HttpResponse:
    members = list(selectors.membership_list(workspace=request.membership.workspace))
    admins = [m.pk for m in members if m.role == Role.ADMIN]
    for form in (add, invite, workspace_form):
        _focus_first_error(form)
    context = {
        "members": members, "sole_admin": admins[0] if len(admins) == 1 else None, "roles": Role.choices,
        "add_form": add or MemberAddForm(prefix="add"), "invite_form": invite or MemberInviteForm(prefix="new"),
        "workspace_form": workspace_form or WorkspaceForm(), "notice": notice, "error": error, "invited": invited,
        "section": "team",
    }
    response = render_page(request, PAGE, context, partial="team", status=status)
    if status >= 400:
        response["X-Redline-Error"] = "refused"
    return response


def _a(role: str) -> str:
    return f"an {role}" if role == Role.ADMIN else f"a {role}"


def _focus_first_error(form: Form | None) -> None:
    """Put the cursor in the field that needs fixing: htmx focuses an autofocus field it swaps in."""
    field = next(iter(form.errors), None) if form is not None else None
    if field is not None and field in form.fields:
        form.fields[field].widget.attrs["autofocus"] = True


def _done(request: DashboardRequest, notice: str) -> HttpResponse:
    """htmx: the refreshed team, saying what changed; a plain form: back to the page (so reload repeats nothing)."""
    if wants_fragment(request):
        return _page(request, notice=notice)
    messages.success(request, notice)
    return redirect("dashboard:team")


def _left(request: DashboardRequest, notice: str) -> HttpResponse:
    """The admin changed their own membership away: the team page is no longer theirs, so go home."""
    messages.success(request, notice)
    if request.htmx:
        return HttpResponseClientRedirect(reverse("dashboard:home"))
    return redirect("dashboard:home")


@admin_required
@require_GET
def team(request: DashboardRequest) -> HttpResponse:
    return _page(request)


@admin_required
@require_POST
def workspace_new(request: DashboardRequest) -> HttpResponse:
    """A new workspace with the admin as its admin; they stay here until they switch (the menu now offers it)."""
    form = WorkspaceForm(request.POST)
    if form.is_valid():
        try:
            membership = workspace_start(name=form.cleaned_data["name"], creator=request.user)
        except ApplicationError as exc:
            form.add_error("name", exc.message)
        else:
            messages.success(request, f"Workspace “{membership.workspace.name}” created, with you as its admin. "
                                      "Switch to it with the Workspace menu at the top of the page.")
            return redirect("dashboard:team")
    return _page(request, workspace_form=form, status=422)


@admin_required
@require_POST
def member_new(request: DashboardRequest) -> HttpResponse:
    """Add someone who already has an account, by username or email."""
    form = MemberAddForm(request.POST, prefix="add")
    status = 422
    if form.is_valid():
        try:
            membership = member_add(workspace=request.membership.workspace, who=form.cleaned_data["who"],
                                    role=form.cleaned_data["role"], actor=request.user)
        except ApplicationError as exc:
            form.add_error("who", exc.message)
            status = exc.status
        else:
            return _done(request, f"{membership.user.get_username()} added as {_a(membership.role)}.")
    return _page(request, add=form, status=status)


@admin_required
@require_POST
def member_create(request: DashboardRequest) -> HttpResponse:
    """A new account and membership; its first password is in this response only (never stored, never cached)."""
    form = MemberInviteForm(request.POST, prefix="new")
    status = 422
    if form.is_valid():
        data = form.cleaned_data
        try:
            invited = member_invite(workspace=request.membership.workspace, username=data["username"],
                                    email=data["email"], role=data["role"], actor=request.user)
        except ApplicationError as exc:
            form.add_error("username", exc.message)
            status = exc.status
        else:
            response = _page(request, invited=invited)
            add_never_cache_headers(response)
            return response
    return _page(request, invite=form, status=status)


@admin_required
@require_POST
def member_role(request: DashboardRequest, membership_id: int) -> HttpResponse:
    """Make a member an admin or a reviewer; never the last admin a reviewer (409, with the reason).
    Another workspace's member is not found (404) whatever was posted: the id is checked before the form."""
    if not selectors.membership_list(workspace=request.membership.workspace).filter(pk=membership_id).exists():
        raise Http404("Member not found")
    form = RoleForm(request.POST)
    if not form.is_valid():
        return _page(request, error="Choose admin or reviewer.", status=422)
    try:
        membership = member_set_role(workspace=request.membership.workspace, membership_id=membership_id,
                                     role=form.cleaned_data["role"], actor=request.user)
    except NotFound:
        raise Http404("Member not found") from None
    except ApplicationError as exc:
        return _page(request, error=exc.message, status=exc.status)
    if membership.user_id == request.user.pk and membership.role != Role.ADMIN:
        return _left(request, f"You are now a reviewer in {request.membership.workspace.name}.")
    return _done(request, f"{membership.user.get_username()} is now {_a(membership.role)}.")


@admin_required
@require_POST
def member_delete(request: DashboardRequest, membership_id: int) -> HttpResponse:
    """Take a member out of the workspace (their API keys stop working); never its last admin (409)."""
    try:
        membership = member_remove(workspace=request.membership.workspace, membership_id=membership_id,
                                   actor=request.user)
    except NotFound:
        raise Http404("Member not found") from None
    except ApplicationError as exc:
        return _page(request, error=exc.message, status=exc.status)
    if membership.user_id == request.user.pk:
        return _left(request, f"You left {request.membership.workspace.name}.")
    return _done(request, f"{membership.user.get_username()} removed from {request.membership.workspace.name}.")


@admin_required
@require_POST
def playbook_install_default(request: DashboardRequest) -> HttpResponse:
    """The built-in playbook for a workspace that has none, then back to the page that offered it."""
    version = playbook_default_install(workspace=request.membership.workspace, created_by=request.user)
    messages.success(request, f"Installed the playbook “{version.playbook.name}” ({version.rules.count()} rules). "
                              "Choose it to review a contract.")
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()},
                                           require_https=request.is_secure()):
        back = reverse("dashboard:playbooks")
    return redirect(back)
