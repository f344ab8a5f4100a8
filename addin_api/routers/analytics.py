from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Router

from redline.services.analytics import analytics_summary

from ..schemas.common import ErrorOut

router = Router(tags=["analytics"])


@router.get("", response={200: dict[str, Any], 422: ErrorOut})
def get_analytics(request: HttpRequest, time_range: str = "30d", playbook: int | None = None) -> dict:
    """Outcomes, thumbs and validator verdicts by rule, category, severity and status; daily series; rule health."""
    return analytics_summary(workspace=request.auth.workspace, time_range=time_range, playbook_id=playbook)
