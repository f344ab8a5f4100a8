"""Composed paragraph patches: several suggestions in one paragraph, applied in any order.

Each suggestion's own patch (in the suggestions list) rewrites its whole
paragraph, so after one is inserted the others no longer fit. The pane asks
here for the paragraph with all the suggestions it should now hold, built by
the same writer as ``redline.docx``. A computation: nothing is stored.
"""

from __future__ import annotations

from django.http import HttpRequest
from ninja import Router

from redline import selectors
from redline.services.patches import paragraph_patch

from ..schemas.common import ErrorOut
from ..schemas.patches import PatchIn, PatchOut

router = Router(tags=["add-in"])


@router.post("/{run_id}/patches", response={200: PatchOut, 404: ErrorOut, 422: ErrorOut})
def compose_patch(request: HttpRequest, run_id: int, body: PatchIn) -> dict:
    """One patch for ``anchor``'s paragraph with ``suggestions`` applied, as ``redline.docx`` has them.

    Order-independent (the run's order is used); records nothing. 422 when an id is not
    this run's (``unknown_suggestion``) or is on another paragraph (``other_paragraph``).
    """
    run = selectors.run_get(workspace=request.auth.workspace, run_id=run_id)
    return paragraph_patch(run=run, anchor=body.anchor, suggestion_ids=body.suggestions)
