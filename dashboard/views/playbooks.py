"""Playbooks and their rules: list, search and filter; inline add, edit, delete, toggle, reorder; try a rule.

Every change goes through ``redline.services.playbook_edits`` and becomes a new
immutable playbook version. With htmx, a change answers with the refreshed
rules list (the filters of the page's current URL applied, the changed row
focused); without JavaScript, forms post normally and redirect back.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.contrib import messages
from django.http import HttpResponse, QueryDict
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import reswap, retarget

from redline.errors import ApplicationError
from redline.models import Playbook, PlaybookVersion
from redline.services.playbook_edits import (
    playbook_latest_version,
    rule_create,
    rule_delete,
    rule_move,
    rule_set_enabled,
    rule_update,
)
from redline.services.playbooks import playbook_create, playbook_version_spec
from redline.services.rule_trial import rule_checkable, rule_try

from .. import queries
from ..context import DashboardRequest, admin_required, member_required
from ..forms import PlaybookCreateForm, RuleFilterForm, RuleForm, TryForm
from ..http import render_page, wants_fragment

PAGE = "dashboard/playbook.html"
FORM_PAGE = "dashboard/rule_form.html"
FILTER_KEYS = frozenset(RuleFilterForm.base_fields)


@member_required
@require_GET
def playbook_list(request: DashboardRequest) -> HttpResponse:
    return _list_page(request, PlaybookCreateForm())


def _list_page(request: DashboardRequest, create_form: PlaybookCreateForm, status: int = 200) -> HttpResponse:
    summaries = queries.playbook_summaries(workspace=request.membership.workspace)
    return render_page(request, "dashboard/playbooks.html",
                       {"summaries": summaries, "section": "playbooks", "create_form": create_form}, status=status)


@admin_required
@require_POST
def playbook_new(request: DashboardRequest) -> HttpResponse:
    """Create a playbook from the list page (blank or from the default); errors show on the same form."""
    form = PlaybookCreateForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            version = playbook_create(workspace=request.membership.workspace, name=data["name"],
                                      contract_type=data["contract_type"], perspective=data["perspective"],
                                      from_default=data["start"] == "default", created_by=request.user)
        except ApplicationError as exc:
            form.add_error("name", exc.message)
        else:
            messages.success(request, f"Playbook “{version.playbook.name}” created with {version.rules.count()} rules.")
            return redirect("dashboard:playbook_detail", playbook_id=version.playbook_id)
    return _list_page(request, form, status=422)


def _filter_data(request: DashboardRequest) -> QueryDict:
    """The list's filters: from the filter form's own GET, else from the page URL htmx reports.

    Edits post only their own fields; the filters the person is looking at live in
    the (pushed) page URL, so the refreshed list keeps them.
    """
    if request.method == "GET" and (not request.htmx or FILTER_KEYS & set(request.GET)):
        return request.GET
    if request.htmx and request.htmx.current_url:
        return QueryDict(urlsplit(request.htmx.current_url).query)
    return QueryDict()


def _rules_context(request: DashboardRequest, playbook: Playbook, version: PlaybookVersion, *,
                   status: str = "", error: str = "", focus_key: str = "", focus: str = "row") -> dict:
    filter_form = RuleFilterForm(_filter_data(request))
    filters = filter_form.filters()
    rules = list(queries.rules_filtered(version=version, filters=filters))
    keys = list(version.rules.order_by("position").values_list("key", flat=True))
    shown = focus_key in {r.key for r in rules}
    if focus_key and not shown and focus_key in keys:
        status += " It is hidden by the current filters."
    first, last = (keys[0], keys[-1]) if keys else ("", "")
    if (focus == "up" and focus_key == first) or (focus == "down" and focus_key == last):
        focus = "row" if first == last else ("down" if focus == "up" else "up")  # that button is now disabled
    return {
        "playbook": playbook, "version": version, "rules": rules, "total": len(keys),
        "first_key": first, "last_key": last, "filters": filters, "filter_form": filter_form, "status": status, "error": error,
        "focus_key": focus_key, "focus": focus, "focus_status": not shown, "section": "playbooks",
    }


@member_required
@require_GET
def playbook_detail(request: DashboardRequest, playbook_id: int) -> HttpResponse:
    """The latest version's rules; the filter form (and Cancel) swap just the list."""
    playbook = queries.playbook_get(workspace=request.membership.workspace, playbook_id=playbook_id)
    version = playbook_latest_version(playbook=playbook)
    return render_page(request, PAGE, _rules_context(request, playbook, version), partial="rules")


def _rules_response(request: DashboardRequest, playbook: Playbook, **kwargs: str) -> HttpResponse:
    """After a change: the refreshed list for htmx (whatever element asked), or back to the page."""
    if not wants_fragment(request):
        if kwargs.get("error"):
            messages.error(request, kwargs["error"])
        elif kwargs.get("status"):
            messages.success(request, kwargs["status"])
        return redirect("dashboard:playbook_detail", playbook_id=playbook.pk)
    version = playbook_latest_version(playbook=playbook)
    response = render_page(request, PAGE, _rules_context(request, playbook, version, **kwargs), partial="rules")
    return retarget(reswap(response, "outerHTML"), "#rules")


def _edit_target(request: DashboardRequest, playbook_id: int) -> tuple[Playbook, PlaybookVersion]:
    """The playbook and the version the form was rendered from (its ``base`` field)."""
    playbook = queries.playbook_get(workspace=request.membership.workspace, playbook_id=playbook_id)
    try:
        number = int(request.POST.get("base", ""))
    except ValueError:
        number = playbook_latest_version(playbook=playbook).number
    return playbook, queries.playbook_version_get(playbook=playbook, number=number)


def _saved(version: PlaybookVersion, base: PlaybookVersion, what: str) -> str:
    if version.pk == base.pk:
        return f"No change: {what} is already like that."
    return f"{what[0].upper()}{what[1:]}: saved as version {version.number}."


@member_required
@require_GET
def rule_row(request: DashboardRequest, playbook_id: int, key: str) -> HttpResponse:
    """One row of the list (Cancel of an inline edit puts it back)."""
    playbook = queries.playbook_get(workspace=request.membership.workspace, playbook_id=playbook_id)
    if not wants_fragment(request):
        return redirect(reverse("dashboard:playbook_detail", args=[playbook.pk]) + f"#rule-{key}")
    version = playbook_latest_version(playbook=playbook)
    context = _rules_context(request, playbook, version, focus_key=key, focus="edit")
    return render_page(request, PAGE, {**context, "rule": queries.rule_get(version=version, key=key)}, partial="row")


def _form_response(request: DashboardRequest, form: RuleForm, playbook: Playbook, base: PlaybookVersion,
                   key: str = "") -> HttpResponse:
    """The rule form: inline (a table row when editing, a panel when adding) or as its own page."""
    context = {"form": form, "playbook": playbook, "version": base, "key": key, "section": "playbooks",
               "form_id": f"edit-{key}" if key else "new", "focus_errors": form.autofocus()}
    return render_page(request, FORM_PAGE, context, partial="editrow" if key else "form")


@admin_required
@require_http_methods(["GET", "POST"])
def rule_new(request: DashboardRequest, playbook_id: int) -> HttpResponse:
    """Add a rule: the form opens under the list (htmx) or as its own page; errors stay in the form."""
    if request.method == "GET":
        playbook = queries.playbook_get(workspace=request.membership.workspace, playbook_id=playbook_id)
        return _form_response(request, RuleForm(auto_id="new-%s"), playbook, playbook_latest_version(playbook=playbook))
    playbook, base = _edit_target(request, playbook_id)
    form = RuleForm(request.POST, auto_id="new-%s")
    if form.is_valid():
        spec = form.spec()
        try:
            version = rule_create(base=base, spec=spec, created_by=request.user)
        except ApplicationError as exc:
            form.add_spec_error(exc.detail.get("path", ""), exc.message)
        else:
            return _rules_response(request, playbook, focus_key=spec["key"],
                                   status=_saved(version, base, f"rule “{spec['title']}” added"))
    return _form_response(request, form, playbook, base)


@admin_required
@require_http_methods(["GET", "POST"])
def rule_edit(request: DashboardRequest, playbook_id: int, key: str) -> HttpResponse:
    """Edit a rule in place of its row (htmx) or on its own page; engine errors land next to their field."""
    auto_id = f"edit-{key}-%s"
    if request.method == "GET":
        playbook = queries.playbook_get(workspace=request.membership.workspace, playbook_id=playbook_id)
        version = playbook_latest_version(playbook=playbook)
        rule = queries.rule_get(version=version, key=key)
        return _form_response(request, RuleForm.from_spec(rule.spec, auto_id=auto_id), playbook, version, key)
    playbook, base = _edit_target(request, playbook_id)
    form = RuleForm(request.POST, auto_id=auto_id, fixed_key=key)
    if form.is_valid():
        spec = form.spec()
        try:
            version = rule_update(base=base, key=key, spec=spec, created_by=request.user)
        except ApplicationError as exc:
            form.add_spec_error(exc.detail.get("path", ""), exc.message)
        else:
            return _rules_response(request, playbook, focus_key=spec["key"],
                                   status=_saved(version, base, f"rule “{spec['title']}” updated"))
    return _form_response(request, form, playbook, base, key)


@admin_required
@require_POST
def rule_toggle(request: DashboardRequest, playbook_id: int, key: str) -> HttpResponse:
    playbook, base = _edit_target(request, playbook_id)
    enabled = request.POST.get("enabled") == "1"
    try:
        version = rule_set_enabled(base=base, key=key, enabled=enabled, created_by=request.user)
    except ApplicationError as exc:
        return _rules_response(request, playbook, error=exc.message)
    what = f"rule “{key}” {'enabled' if enabled else 'disabled'}"
    return _rules_response(request, playbook, focus_key=key, focus="toggle", status=_saved(version, base, what))


@admin_required
@require_POST
def rule_move_view(request: DashboardRequest, playbook_id: int, key: str) -> HttpResponse:
    playbook, base = _edit_target(request, playbook_id)
    up = request.POST.get("direction") == "up"
    try:
        version = rule_move(base=base, key=key, offset=-1 if up else 1, created_by=request.user)
    except ApplicationError as exc:
        return _rules_response(request, playbook, error=exc.message)
    what = f"rule “{key}” moved {'up' if up else 'down'}"
    return _rules_response(request, playbook, focus_key=key, focus="up" if up else "down",
                           status=_saved(version, base, what))


@admin_required
@require_POST
def rule_delete_view(request: DashboardRequest, playbook_id: int, key: str) -> HttpResponse:
    playbook, base = _edit_target(request, playbook_id)
    try:
        version = rule_delete(base=base, key=key, created_by=request.user)
    except ApplicationError as exc:
        return _rules_response(request, playbook, error=exc.message)
    return _rules_response(request, playbook, status=_saved(version, base, f"rule “{key}” deleted"))


@member_required
@require_http_methods(["GET", "POST"])
def rule_try_view(request: DashboardRequest, playbook_id: int, key: str) -> HttpResponse:
    """Paste clause text and see what the offline engine suggests under this rule (nothing is stored)."""
    playbook = queries.playbook_get(workspace=request.membership.workspace, playbook_id=playbook_id)
    version = playbook_latest_version(playbook=playbook)
    rule = queries.rule_get(version=version, key=key)
    form = TryForm(request.POST if request.method == "POST" else None)
    findings, error, checked = None, "", True
    if form.is_valid():
        try:
            spec = playbook_version_spec(version=version).rule(key)
            findings = rule_try(rule=spec, text=form.cleaned_data["text"], acting_for=form.cleaned_data["acting_for"])
            checked = rule_checkable(rule=spec)
        except ApplicationError as exc:
            error = exc.message
    return render_page(request, "dashboard/rule_try.html",
                       {"playbook": playbook, "version": version, "rule": rule, "form": form, "findings": findings,
                        "error": error, "checked": checked, "section": "playbooks"}, partial="results")
