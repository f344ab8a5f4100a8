"""Composed paragraph patches for the Word add-in: several suggestions, one paragraph.

A patch replaces its whole paragraph, so the pane cannot stack two suggestions'
own patches. Instead it asks for the paragraph with *every* suggestion that
should now be in it (those it already applied plus the new ones), and gets one
patch built by the writer that builds ``redline.docx``: the ops are applied in
the run's order, so the paragraph reads exactly as it does in that file, in
whatever order the lawyer picked them. Only reads: nothing is recorded here (the
pane reports what it inserted through ``POST /api/runs/{id}/applied``).
"""

from __future__ import annotations

from typing import Any

from ..errors import ApplicationError
from ..models import AnalysisRun
from ..ooxml.errors import DocxError
from ..ooxml.ops import op_from_json
from ..ooxml.package import Package
from ..ooxml.patch import PatchBuilder
from .files import document_version_read, docx_read


def paragraph_patch(*, run: AnalysisRun, anchor: str, suggestion_ids: list[str]) -> dict[str, Any]:
    """One patch for the anchored paragraph with the given suggestions (stable ids) applied.

    Returns ``patch`` (flat OPC, None when none applied), ``text`` (the paragraph
    once the changes are accepted), ``before``/``after`` (how many of the patch's
    paragraphs are new ones before/after the anchored one, so the next patch
    replaces them too) and ``results``: per suggestion, in the run's order, whether
    it applied and if not why. Raises 422 for ids not of this run or not on ``anchor``.
    """
    wanted = list(dict.fromkeys(suggestion_ids))
    rows = list(run.suggestions.filter(sid__in=wanted).order_by("position"))
    unknown = sorted(set(wanted) - {s.sid for s in rows})
    if unknown:
        raise ApplicationError("unknown_suggestion", "Some suggestion ids do not belong to this run.", status=422,
                               detail={"unknown": unknown})
    elsewhere = [s.sid for s in rows if s.anchor != anchor]
    if elsewhere:
        raise ApplicationError("other_paragraph", "Some suggestions are on another paragraph; a patch covers one.",
                               status=422, detail={"other_paragraph": elsewhere})
    anchored = docx_read(document_version_read(version=run.document_version)).docx
    if anchored is None:
        raise ApplicationError("no_document", "The reviewed version has no document to patch.", status=422)
    try:
        composed = PatchBuilder(Package.open(anchored)).compose(
            [op_from_json(s.position, s.op) for s in rows])
    except DocxError as exc:
        raise ApplicationError(exc.code, exc.message, status=422) from None
    by_position = {s.position: s for s in rows}
    results = [{"id": by_position[r.op.index].sid, "pk": by_position[r.op.index].pk, "status": r.status,
                "reason": r.reason or "", "message": r.message or ""} for r in composed.results]
    return {"anchor": anchor, "patch": composed.xml.decode("utf-8") if composed.xml else None,
            "text": composed.text, "before": composed.before, "after": composed.after, "results": results}

