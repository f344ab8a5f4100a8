from __future__ import annotations

from typing import Annotated, Any

from django.http import HttpRequest
from ninja import Router
from pydantic import WithJsonSchema

from redline.services.analytics import TIME_RANGES, analytics_summary

from ..schemas.common import ErrorOut

router = Router(tags=["analytics"])


# Checked by the service (code ``invalid_time_range``); the schema lists the values it accepts.
TimeRange = Annotated[str, WithJsonSchema({"type": "string", "enum": list(TIME_RANGES), "default": "30d"})]


@router.get("", response={200: dict[str, Any], 422: ErrorOut})
def get_analytics(request: HttpRequest, time_range: TimeRange = "30d", playbook: int | None = None) -> dict:
    """Outcomes, thumbs and validator verdicts by rule, category, severity and status; daily series; rule health."""
    return analytics_summary(workspace=request.auth.workspace, time_range=time_range, playbook_id=playbook)
