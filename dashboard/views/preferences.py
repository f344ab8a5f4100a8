"""Preferences: the Markdown the model reads on re-runs, with preview, versions, diffs, restore and provenance."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from redline.errors import ApplicationError
from redline.learning.preferences import preferences_diff
from redline.models import PreferencesVersion
from redline.services.preferences import preferences_current, preferences_edit, preferences_restore

from .. import queries
from ..context import DashboardRequest, admin_required, is_admin, member_required
from ..diffs import diff_lines
from ..forms import PreferencesForm
from ..http import render_page, wants_fragment
from ..markdown import render_markdown

PAGE = "dashboard/preferences.html"
LEARNED_SHOWN = 50


def _versions(request: DashboardRequest) -> list[PreferencesVersion]:
    return list(PreferencesVersion.objects.filter(workspace=request.membership.workspace)
                .select_related("author").order_by("-number")[:200])


def _page(request: DashboardRequest, form: PreferencesForm | None, preview_text: str, status: int = 200
          ) -> HttpResponse:
    workspace = request.membership.workspace
    return render_page(request, PAGE, {
        "current": preferences_current(workspace=workspace), "form": form, "preview": render_markdown(preview_text),
        "versions": _versions(request), "learned": queries.learned_lines(workspace=workspace)[:LEARNED_SHOWN],
        "section": "preferences",
    }, status=status)


@member_required
@require_http_methods(["GET", "POST"])
def preferences(request: DashboardRequest) -> HttpResponse:
    """Reviewers read the current preferences; admins edit them (``step=preview`` previews without JavaScript)."""
    current = preferences_current(workspace=request.membership.workspace)
    text = current.text if current else ""
    if request.method == "GET":
        initial = {"text": text, "base_version": current.number if current else 0}
        form = PreferencesForm(initial=initial) if is_admin(request.membership) else None
        return _page(request, form, text)
    if not is_admin(request.membership):
        raise PermissionDenied("Only workspace admins can edit preferences.")
    if request.POST.get("step") == "preview":  # without JavaScript: show it, keep what was typed, no errors yet
        return _page(request, PreferencesForm(initial=request.POST.dict()), request.POST.get("text", ""))
    form = PreferencesForm(request.POST)
    if not form.is_valid():
        return _page(request, form, request.POST.get("text", ""))
    text = form.cleaned_data["text"]
    try:
        version = preferences_edit(workspace=request.membership.workspace, edit=lambda _current: text,
                                   author_kind=PreferencesVersion.Author.USER, author=request.user,
                                   reason=form.cleaned_data["reason"], base_version=form.cleaned_data["base_version"])
    except ApplicationError as exc:
        if exc.code == "version_conflict":  # keep what was typed; saving again is then a deliberate overwrite
            data = {**request.POST.dict(), "base_version": current.number if current else 0}
            form = PreferencesForm(data)
            form.is_valid()
            form.add_error("text", f"A colleague saved version {current.number if current else 0} while you were "
                                   "editing. Your text is kept here: compare it with the current version, then save "
                                   "again to replace it.")
        else:
            form.add_error("text", exc.message)
        return _page(request, form, text, status=409 if exc.code == "version_conflict" else 200)
    if current is not None and version.pk == current.pk:
        messages.info(request, "The text is unchanged, so no new version was saved.")
    else:
        messages.success(request, f"Preferences saved as version {version.number}.")
    return redirect("dashboard:preferences")


@admin_required
@require_POST
def preferences_preview(request: DashboardRequest) -> HttpResponse:
    """The rendered Markdown of the editor's text (htmx, as the admin types)."""
    if not wants_fragment(request):  # only the editor's htmx calls this; a plain POST goes back to the page
        return redirect("dashboard:preferences")
    return render_page(request, PAGE, {"preview": render_markdown(request.POST.get("text", ""))}, partial="preview")


@member_required
@require_GET
def preferences_version(request: DashboardRequest, number: int) -> HttpResponse:
    """One version: its text, its diff with the version before and with the current one, and what was learned."""
    workspace = request.membership.workspace
    version = queries.preferences_version_get(workspace=workspace, number=number)
    previous = PreferencesVersion.objects.filter(workspace=workspace, number__lt=number).order_by("-number").first()
    current = preferences_current(workspace=workspace)
    return render_page(request, "dashboard/preferences_version.html", {
        "version": version, "previous": previous, "current": current, "rendered": render_markdown(version.text),
        "diff_previous": diff_lines(preferences_diff(previous.text if previous else "", version.text,
                                                     old_label=f"version {previous.number}" if previous else "empty",
                                                     new_label=f"version {number}")),
        "diff_current": diff_lines(preferences_diff(version.text, current.text, old_label=f"version {number}",
                                                    new_label=f"version {current.number} (current)"))
        if current and current.pk != version.pk else [],
        "learned": queries.learned_lines(workspace=workspace).filter(version=version),
        "section": "preferences",
    })


@admin_required
@require_POST
def preferences_version_restore(request: DashboardRequest, number: int) -> HttpResponse:
    """Make an old text current again, as a new version with the reason "restore version N"."""
    workspace = request.membership.workspace
    queries.preferences_version_get(workspace=workspace, number=number)
    current = preferences_current(workspace=workspace)
    version = preferences_restore(workspace=workspace, number=number, author=request.user)
    if current is not None and version.pk == current.pk:
        messages.info(request, f"Version {number} has the same text as the current version; nothing to restore.")
    else:
        messages.success(request, f"Version {number} restored as version {version.number}.")
    return redirect("dashboard:preferences")
