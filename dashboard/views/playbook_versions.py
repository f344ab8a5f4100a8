"""A playbook's history (diff any two versions, restore one) and import/export in YAML or JSON."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.utils.text import slugify
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from redline.analysis.playbook.io import dump_playbook
from redline.errors import ApplicationError
from redline.services.playbook_diff import playbook_diff
from redline.services.playbook_edits import (
    playbook_import_apply,
    playbook_import_preview,
    playbook_latest_version,
    playbook_version_restore,
)
from redline.services.playbooks import playbook_version_spec

from .. import queries
from ..context import DashboardRequest, admin_required, member_required
from ..diffs import diff_lines
from ..forms import ImportApplyForm, ImportForm
from ..http import render_page

EXPORT_TYPES = {"yaml": "application/yaml", "json": "application/json"}


@member_required
@require_GET
def version_list(request: DashboardRequest, playbook_id: int) -> HttpResponse:
    playbook = queries.playbook_get(workspace=request.membership.workspace, playbook_id=playbook_id)
    versions = list(queries.playbook_versions(playbook=playbook))
    return render_page(request, "dashboard/playbook_versions.html",
                       {"playbook": playbook, "versions": versions, "latest": versions[0] if versions else None,
                        "section": "playbooks"})


@member_required
@require_GET
def version_detail(request: DashboardRequest, playbook_id: int, number: int) -> HttpResponse:
    """Version ``number`` compared with ``?against=`` (default: the version before it)."""
    playbook = queries.playbook_get(workspace=request.membership.workspace, playbook_id=playbook_id)
    version = queries.playbook_version_get(playbook=playbook, number=number)
    against_raw = request.GET.get("against", "")
    against_number = int(against_raw) if against_raw.isdigit() else number - 1
    against = playbook.versions.filter(number=against_number).first() if against_number != number else None
    old = playbook_version_spec(version=against) if against else None
    diff = playbook_diff(old, playbook_version_spec(version=version),
                         old_label=f"version {against.number}" if against else "nothing",
                         new_label=f"version {number}")
    rules = [(change, diff_lines(change.diff)) for change in diff.rules]
    return render_page(request, "dashboard/playbook_version.html", {
        "playbook": playbook, "version": version, "against": against, "diff": diff, "rules": rules,
        "latest": playbook_latest_version(playbook=playbook), "versions": queries.playbook_versions(playbook=playbook),
        "section": "playbooks",
    })


@admin_required
@require_POST
def version_restore(request: DashboardRequest, playbook_id: int, number: int) -> HttpResponse:
    """Bring an old version's rules back as a new version (runs that used later versions keep them)."""
    playbook = queries.playbook_get(workspace=request.membership.workspace, playbook_id=playbook_id)
    old = queries.playbook_version_get(playbook=playbook, number=number)
    latest = playbook_latest_version(playbook=playbook)
    restored = playbook_version_restore(version=old, created_by=request.user)
    if restored.pk == latest.pk:
        messages.info(request, f"Version {number} has the same rules as the current version; nothing to restore.")
    else:
        messages.success(request, f"Version {number} restored as version {restored.number}.")
    return redirect("dashboard:playbook_detail", playbook_id=playbook.pk)


@member_required
@require_GET
def playbook_export(request: DashboardRequest, playbook_id: int) -> HttpResponse:
    """The playbook (latest, or ``?version=``) as a YAML or JSON file in the interchange format."""
    playbook = queries.playbook_get(workspace=request.membership.workspace, playbook_id=playbook_id)
    fmt = request.GET.get("format", "yaml")
    if fmt not in EXPORT_TYPES:
        raise Http404("Unknown export format")
    number = request.GET.get("version", "")
    version = (queries.playbook_version_get(playbook=playbook, number=int(number)) if number.isdigit()
               else playbook_latest_version(playbook=playbook))
    response = HttpResponse(dump_playbook(playbook_version_spec(version=version), fmt),
                            content_type=f"{EXPORT_TYPES[fmt]}; charset=utf-8")
    name = slugify(playbook.name) or "playbook"
    response["Content-Disposition"] = f'attachment; filename="{name}-v{version.number}.{fmt}"'
    return response


@admin_required
@require_http_methods(["GET", "POST"])
def playbook_import(request: DashboardRequest) -> HttpResponse:
    """Two steps: upload or paste → preview of every rule change → apply (a new version, or a new playbook)."""
    workspace = request.membership.workspace
    context: dict = {"section": "playbooks", "form": ImportForm()}
    if request.method == "POST" and request.POST.get("step") == "apply":
        apply_form = ImportApplyForm(request.POST)
        if apply_form.is_valid():
            try:
                version = playbook_import_apply(workspace=workspace, source=apply_form.cleaned_data["source"],
                                                base_number=apply_form.cleaned_data["base"],
                                                created_by=request.user)
            except ApplicationError as exc:
                context["error"] = exc.message
            else:
                messages.success(request, f"Imported “{version.playbook.name}” as version {version.number}.")
                return redirect("dashboard:playbook_detail", playbook_id=version.playbook_id)
        else:
            context["error"] = "The preview was incomplete; upload the playbook again."
    elif request.method == "POST":
        form = ImportForm(request.POST, request.FILES)
        context["form"] = form
        if form.is_valid():
            source = form.cleaned_data["source"]
            try:
                preview = playbook_import_preview(workspace=workspace, source=source)
            except ApplicationError as exc:
                path = exc.detail.get("path")
                context["error"] = f"{exc.message} (at {path})" if path else exc.message
                context["problems"] = [f"{p['message']} (at {p['path']})" if p["path"] else p["message"]
                                       for p in exc.detail.get("problems", [])]
            else:
                context |= {
                    "preview": preview,
                    "rules": [(change, diff_lines(change.diff)) for change in preview.diff.rules],
                    "apply_form": ImportApplyForm(initial={
                        "source": source, "base": preview.base.number if preview.base else None}),
                }
    return render_page(request, "dashboard/playbook_import.html", context)
