"""Rejections: what lawyers turned down, with context; the evidence behind noisy rules and learned lines."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpResponse
from django.views.decorators.http import require_GET

from .. import overview, queries
from ..context import DashboardRequest, member_required
from ..http import render_page

PER_PAGE = 50


@member_required
@require_GET
def rejection_list(request: DashboardRequest) -> HttpResponse:
    rule = request.GET.get("rule", "")[:80]
    page = Paginator(queries.rejections(workspace=request.membership.workspace, rule=rule), PER_PAGE).get_page(
        request.GET.get("page"))
    return render_page(request, "dashboard/rejections.html", {"page": page, "rule": rule, "section": "analytics"})


@member_required
@require_GET
def rejection_detail(request: DashboardRequest, rejection_id: int) -> HttpResponse:
    rejection = queries.rejection_get(workspace=request.membership.workspace, rejection_id=rejection_id)
    suggestion = rejection.entry.suggestion
    card = overview.card_link(suggestion=suggestion) if suggestion is not None else ""
    return render_page(request, "dashboard/rejection.html", {"rejection": rejection, "card": card,
                                                              "section": "analytics"})
