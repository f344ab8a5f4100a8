from __future__ import annotations

from django.http import HttpRequest
from ninja import Router, Status

from redline.services.health import health_check

from ..schemas.health import HealthOut

router = Router(tags=["health"])


@router.get("", auth=None, response={200: HealthOut, 503: HealthOut}, summary="Service health")
def health(request: HttpRequest) -> Status:
    """Database, cache/Redis and worker reachability, within a second whatever is down; 503 naming the parts
    that are down (``down``)."""
    h = health_check()
    body = {
        "status": "ok" if h.ok else "degraded",
        "down": h.down,
        "database": h.database.__dict__,
        "cache": h.cache.__dict__,
        "worker": h.worker.__dict__,
    }
    return Status(200 if h.ok else 503, body)
