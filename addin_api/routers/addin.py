"""What only the Word add-in needs: reporting applied patches, and the rules' guidance.

The pane inserts a suggestion's patch into the live document itself, so the
server never sees that write happen; without this report the learning loop
would not know the suggestion is in the document, and could not tell later
whether the lawyer accepted or rejected it.
"""

from __future__ import annotations

from django.http import HttpRequest
from ninja import Router

from redline import selectors
from redline.errors import ApplicationError
from redline.services.learning import known_entries_record

from ..schemas.addin import AppliedIn, AppliedOut, RuleGuidanceOut
from ..schemas.common import ErrorOut

router = Router(tags=["add-in"])


@router.post("/{run_id}/applied", response={200: AppliedOut, 404: ErrorOut, 422: ErrorOut})
def report_applied(request: HttpRequest, run_id: int, body: AppliedIn) -> dict:
    """Record the suggestions whose patches were inserted into the document as known entries.

    Idempotent (an entry is recorded once per document). All or nothing: an unknown
    pk, or a suggestion without a patch, refuses the whole report.
    """
    run = selectors.run_get(workspace=request.auth.workspace, run_id=run_id)
    wanted = list(dict.fromkeys(body.suggestions))
    rows = {s.pk: s for s in run.suggestions.filter(pk__in=wanted)}
    unknown = [pk for pk in wanted if pk not in rows]
    if unknown:
        raise ApplicationError("unknown_suggestion", "Some suggestions do not belong to this run.", status=422,
                               detail={"unknown": unknown})
    without_patch = [pk for pk in wanted if rows[pk].entry is None]
    if without_patch:
        raise ApplicationError("not_applicable", "Some suggestions have no patch, so they cannot have been applied.",
                               status=422, detail={"without_patch": without_patch})
    known_entries_record(run=run, written=[(rows[pk].entry, rows[pk]) for pk in wanted])
    return {"recorded": wanted}


@router.get("/{run_id}/rules", response={200: list[RuleGuidanceOut], 404: ErrorOut})
def run_rules(request: HttpRequest, run_id: int) -> list[dict]:
    """The rules of the playbook version the run pinned, with their guidance (what the lawyer reads)."""
    run = selectors.run_get(workspace=request.auth.workspace, run_id=run_id)
    return [
        {"key": r.key, "title": r.title, "category": r.category, "severity": r.severity,
         "guidance": r.spec.get("guidance", ""), "preferred_position": r.spec.get("preferred_position", "")}
        for r in run.playbook_version.rules.order_by("position")
    ]
