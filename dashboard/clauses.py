"""The clause map of a version as the document and run pages show it: categories by group, present or not."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from redline.clauses import CONFIDENT_ABSENCE
from redline.errors import ApplicationError
from redline.models import DocumentVersion
from redline.services.clauses import (
    STATUS_LABELS,
    ClauseGroup,
    ClauseRow,
    clause_groups,
    clause_model_info,
    clause_overview,
    document_clauses,
    status_meanings,
)


@dataclass(frozen=True, slots=True)
class ClauseMap:
    """Groups of category rows, what made them, and a message instead when the version cannot be read."""

    groups: list[ClauseGroup] = field(default_factory=list)
    model: dict[str, Any] = field(default_factory=dict)
    threshold: float = CONFIDENT_ABSENCE
    error: str = ""

    @property
    def cuad_rows(self) -> list[ClauseRow]:
        return [r for g in self.groups for r in g.rows if r.kind == "cuad"]

    @property
    def meanings(self) -> list[tuple[str, str, str]]:
        """(status, its label, what it means): the map's legend."""
        return [(status, STATUS_LABELS[status], meaning) for status, meaning in status_meanings().items()]

    @property
    def present(self) -> int:
        return sum(1 for r in self.cuad_rows if r.status == "present")

    @property
    def total(self) -> int:
        return len(self.cuad_rows)

    def cited(self) -> dict[str, list[str]]:
        """Anchor → the CUAD categories found whose best passage is in that paragraph (the map's link targets)."""
        out: dict[str, list[str]] = {}
        for row in self.cuad_rows:
            if row.status == "present" and row.anchor:
                out.setdefault(row.anchor, []).append(row.label)
        return out


def clause_map(*, version: DocumentVersion) -> ClauseMap:
    try:
        rows = clause_overview(report=document_clauses(version=version))
    except ApplicationError as exc:  # a stored file the reader refuses: the page still shows the rest
        return ClauseMap(error=f"No clause map for this version: {exc.message}")
    return ClauseMap(clause_groups(rows=rows), clause_model_info())
