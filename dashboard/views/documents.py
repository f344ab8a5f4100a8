"""Documents, their versions and runs; the run page with live progress, suggestions and votes."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.http import FileResponse, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HTMX_STOP_POLLING, push_url

from redline import selectors
from redline.errors import ApplicationError, NotFound
from redline.models import AnalysisRun, DocumentVersion, Playbook
from redline.services.documents import Linked, document_version_create
from redline.services.feedback import feedback_give
from redline.services.files import docx_scan
from redline.services.playbook_edits import playbook_latest_version
from redline.services.run_cost import run_cost
from redline.services.runs import document_sides, run_export, run_request

from .. import overview, queries
from ..clauses import clause_map
from ..context import DashboardRequest, member_required
from ..forms import FeedbackForm, UploadForm
from ..http import render_page, wants_fragment
from ..runs import TERMINAL, feedback_row, group_rows, page_rows
from ..summary import run_page_summary

DOCX_MIME = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


@member_required
@require_GET
def home(request: DashboardRequest) -> HttpResponse:
    """The documents page: search, what is still open in each contract's latest review, and an upload."""
    return _home_page(request, UploadForm())


def _home_page(request: DashboardRequest, upload_form: UploadForm, status: int = 200) -> HttpResponse:
    q = request.GET.get("q", "").strip()[:100]
    rows = queries.documents_with_latest_run(workspace=request.membership.workspace, q=q)
    risk = queries.open_risk([run for _, run in rows if run is not None and run.status == "done"])
    totals = {s: sum(r[s] for r in risk.values()) for s in queries.SEVERITY_ORDER}
    return render_page(request, "dashboard/home.html", {
        "rows": [(d, run, risk.get(run.pk) if run else None) for d, run in rows], "q": q, "open_totals": totals,
        "upload_form": upload_form, "section": "documents"}, status=status)


# What the lawyer is told about where an upload went (the API's ``linked_by``).
_UPLOADED = {
    Linked.NEW: "Uploaded. Choose a playbook below to review it.",
    Linked.DOC_ID: "Uploaded as a new version of this document (recognised by its Redline id).",
    Linked.ANCHORS: "Uploaded as a new version of this document: the file had lost its Redline id, "
                    "but it carries this document's anchors.",
    Linked.DOCUMENT_ID: "Uploaded as a new version of this document.",
    Linked.SAME_FILE: "This exact file was uploaded before; here it is.",
}


@member_required
@require_POST
def document_upload(request: DashboardRequest) -> HttpResponse:
    """Upload a .docx from the browser (the add-in's own upload goes through the API); then open it."""
    form = UploadForm(request.POST, request.FILES)
    if form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            data = upload.read()
            version, _, _, linked_by = document_version_create(
                workspace=request.membership.workspace, data=data, filename=upload.name or "document.docx",
                uploaded_by=request.user, scan=docx_scan(data))
        except ApplicationError as exc:
            form.add_error("file", exc.message)
        else:
            messages.success(request, _UPLOADED[linked_by])
            return redirect("dashboard:document_detail", document_id=version.document_id)
    return _home_page(request, form, status=422)


@member_required
@require_GET
def document_detail(request: DashboardRequest, document_id: int) -> HttpResponse:
    """Every uploaded version of one contract with its runs, and a form to review a version again."""
    document = queries.document_get(workspace=request.membership.workspace, document_id=document_id)
    playbooks = Playbook.objects.filter(workspace=request.membership.workspace).order_by("name")
    versions = list(document.versions.all())  # newest first
    shown = next((v for v in versions if str(v.pk) == request.GET.get("version")), versions[0] if versions else None)
    context = {"document": document, "playbooks": playbooks, "section": "documents", "shown": shown,
               "sides": _sides(versions[0]) if versions else None}
    if shown is not None:
        clauses = clause_map(version=shown)
        cited = clauses.cited()
        paragraphs = [(anchor, text, cited.get(anchor, []))
                      for anchor, text in queries.paragraph_texts(version=shown).items()] if not clauses.error else []
        context.update({"clause_map": clauses, "paragraphs": paragraphs})
    return render_page(request, "dashboard/document.html", context)


def _sides(version: DocumentVersion) -> dict | None:
    """The parties a review may act for, with the side of the document's last run pre-selected."""
    try:
        return document_sides(version=version)
    except ApplicationError:  # an unreadable version: the review reports it, the page still opens
        return None


@member_required
@require_GET
def version_download(request: DashboardRequest, version_id: int) -> FileResponse:
    """The uploaded file, byte for byte."""
    version = queries.document_version_get(workspace=request.membership.workspace, version_id=version_id)
    return FileResponse(version.file.open("rb"), as_attachment=True, filename=version.filename,
                        content_type=DOCX_MIME)


def _start(request: DashboardRequest, run: AnalysisRun, created: bool) -> HttpResponse:
    if not created:
        messages.info(request, "Nothing changed since this review (same document, playbook and preferences), "
                               "so here it is again.")
    return redirect("dashboard:run_detail", run_id=run.pk)


@member_required
@require_POST
def run_start(request: DashboardRequest, document_id: int) -> HttpResponse:
    """Review a version of this document with a playbook's latest version."""
    workspace = request.membership.workspace
    document = queries.document_get(workspace=workspace, document_id=document_id)
    version = next((v for v in document.versions.all() if str(v.pk) == request.POST.get("version")), None)
    playbook = Playbook.objects.filter(workspace=workspace, pk=request.POST.get("playbook") or 0).first()
    if version is None or playbook is None:
        messages.error(request, "Choose a version and a playbook to review it with.")
        return redirect("dashboard:document_detail", document_id=document.pk)
    try:
        run, created = run_request(version=version, playbook_version=playbook_latest_version(playbook=playbook),
                                   provider=settings.REDLINE_PROVIDER, created_by=request.user,
                                   acting_for=request.POST.get("acting_for", ""))
    except ApplicationError as exc:
        messages.error(request, exc.message)
        return redirect("dashboard:document_detail", document_id=document.pk)
    return _start(request, run, created)


@member_required
@require_POST
def run_rerun(request: DashboardRequest, run_id: int) -> HttpResponse:
    """Review again: the document's latest version with the playbook's latest version and current preferences."""
    run = queries.run_get(workspace=request.membership.workspace, run_id=run_id)
    try:
        version = selectors.document_version_latest(document=run.document_version.document)
        new, created = run_request(version=version,
                                   playbook_version=playbook_latest_version(playbook=run.playbook_version.playbook),
                                   provider=run.provider, created_by=request.user, acting_for=run.acting_for)
    except (ApplicationError, NotFound) as exc:
        messages.error(request, exc.message)
        return redirect("dashboard:run_detail", run_id=run.pk)
    return _start(request, new, created)


def _run_context(request: DashboardRequest, run: AnalysisRun) -> dict:
    finished = run.status in TERMINAL
    progress = selectors.run_last_progress(run=run) or {}
    percent = round(100 * progress["done"] / progress["total"]) if progress.get("total") else 0
    context = {"run": run, "finished": finished, "progress": progress, "percent": percent, "section": "documents",
               "feedback_form": FeedbackForm(), "count": 0}
    if finished:
        context.update(_results_context(request, run), summary=run_page_summary(run=run), cost=run_cost(run=run))
    return context


def _results_context(request: DashboardRequest, run: AnalysisRun) -> dict:
    """The overview, the filters the query string asks for, and one page of the list, grouped."""
    summary = overview.run_overview(run=run)
    filters = overview.run_filters(params=request.GET, overview=summary)
    page = overview.suggestions_page(run=run, filters=filters)
    rows = page_rows(run, list(page.object_list), request.user)
    sections = queries.paragraph_sections(version=run.document_version) if filters.group == "clause" else None
    totals = overview.group_totals(suggestions=page.paginator.object_list, by=filters.group)
    return {"overview": summary, "filters": filters, "page": page, "count": summary.total,
            "groups": group_rows(rows, filters.group, sections, totals), "group": filters.group,
            "dimensions": overview.dimensions(overview=summary, filters=filters),
            "page_links": overview.page_links(page=page, filters=filters),
            "clear_url": filters.query(**dict.fromkeys(overview.FILTERS, "")),
            "run_url": reverse("dashboard:run_detail", kwargs={"run_id": run.pk})}


@member_required
@require_GET
def run_detail(request: DashboardRequest, run_id: int) -> HttpResponse:
    """One run: what it pinned, its progress (polled until it ends) and its suggestions in context."""
    run = queries.run_get(workspace=request.membership.workspace, run_id=run_id)
    if wants_fragment(request) and run.status in TERMINAL:  # a filter, grouping or page changed: the results only
        context = {"run": run, **_results_context(request, run)}
        response = render_page(request, "dashboard/run.html", context, partial="results")
        # The address bar gets the view's canonical URL, not the form's every empty field.
        return push_url(response, context["run_url"] + context["filters"].query(page=str(context["page"].number)))
    context = _run_context(request, run)
    if not wants_fragment(request):  # the clause map is outside the polled part
        text_url = reverse("dashboard:document_detail", kwargs={"document_id": run.document_version.document_id})
        context.update({"clause_map": clause_map(version=run.document_version),
                        "clause_text_url": f"{text_url}?version={run.document_version_id}"})
    return render_page(request, "dashboard/run.html", context, partial="live")


@member_required
@require_GET
def run_progress(request: DashboardRequest, run_id: int) -> HttpResponse:
    """The live part of the run page, polled while the run works; 286 tells htmx to stop polling."""
    run = queries.run_get(workspace=request.membership.workspace, run_id=run_id)
    if not wants_fragment(request):
        return redirect("dashboard:run_detail", run_id=run.pk)
    context = _run_context(request, run)
    return render_page(request, "dashboard/run.html", context, partial="live",
                       status=HTMX_STOP_POLLING if context["finished"] else 200)


@member_required
@require_POST
def run_redline_download(request: DashboardRequest, run_id: int) -> HttpResponse:
    """The document with every suggestion as tracked changes and comments (what the lawyer sends on).

    A POST: the export records what it wrote, so the outcomes can be read when the file comes back.
    """
    run = queries.run_get(workspace=request.membership.workspace, run_id=run_id)
    try:
        data, _ = run_export(run=run)
    except ApplicationError as exc:
        messages.error(request, exc.message)
        return redirect("dashboard:run_detail", run_id=run.pk)
    name = run.document_version.filename.rsplit(".", 1)[0] or "document"
    response = HttpResponse(data, content_type=DOCX_MIME)
    response["Content-Disposition"] = f'attachment; filename="{name}-redline.docx"'
    return response


@member_required
@require_http_methods(["GET", "POST"])
def suggestion_feedback(request: DashboardRequest, suggestion_id: int) -> HttpResponse:
    """Thumbs up/down on a suggestion (one vote per person; voting again changes it).

    A thumbs-down offers an optional follow-up reason; skipping it is fine, the vote stands.
    """
    suggestion = queries.suggestion_get(workspace=request.membership.workspace, suggestion_id=suggestion_id)
    run_url = reverse("dashboard:run_detail", kwargs={"run_id": suggestion.run_id}) + overview.card_link(
        suggestion=suggestion)
    ask_reason = False
    error = ""
    if request.method == "POST":
        form = FeedbackForm(request.POST)
        if form.is_valid():
            down = form.cleaned_data["vote"] == "down"
            reason = form.cleaned_data["follow_up_reason"] if down else ""
            feedback_give(suggestion=suggestion, user=request.user, thumbs_up=not down,
                          follow_up_reason=reason or None)
            ask_reason = down and not reason
        else:
            error = "Choose helpful or not helpful."
        if not wants_fragment(request):
            if error:
                messages.error(request, error)
            return redirect(run_url)
    elif not wants_fragment(request):
        return redirect(run_url)
    return render_page(request, "dashboard/run.html",
                       {"row": feedback_row(suggestion, request.user), "ask_reason": ask_reason,
                        "feedback_error": error, "feedback_form": FeedbackForm()},
                       partial="feedback")
