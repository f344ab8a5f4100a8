from __future__ import annotations

from ninja import Schema


class ComponentOut(Schema):
    status: str  # "ok" | "down" | "disabled"
    detail: str = ""


class HealthOut(Schema):
    status: str  # "ok" when every enabled component is ok, else "degraded"
    down: list[str] = []  # the components that are down, by name
    database: ComponentOut
    cache: ComponentOut
    worker: ComponentOut
