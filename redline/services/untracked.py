"""Changes made without tracking in a returned version, against the redline last downloaded before it came back.

The engine is :mod:`redline.ooxml.untracked`. A review of a returned version lists what it finds in the run's
stats (``untracked``), so the run page and the pane can say "changed without tracking" with the before and
after of each paragraph; a version that never went out, or whose redline file is gone, has nothing to say.
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.files.base import ContentFile
from django.utils import timezone

from ..errors import ApplicationError
from ..models import AnalysisRun, DocumentVersion
from ..ooxml.errors import DocxError
from ..ooxml.extract import extract_all
from ..ooxml.ops import DEFAULT_AUTHOR
from ..ooxml.untracked import untracked_changes
from .files import document_version_read

logger = logging.getLogger(__name__)


def run_export_keep(*, run: AnalysisRun, data: bytes) -> None:
    """Keep the redline just downloaded as the run's sent file (the last download wins)."""
    if run.export_file:
        run.export_file.delete(save=False)
    run.export_file.save(f"run-{run.pk}.docx", ContentFile(data), save=False)
    run.exported_at = timezone.now()
    run.save(update_fields=["export_file", "exported_at"])


def _sent_run(version: DocumentVersion) -> AnalysisRun | None:
    """The run of this document whose redline was downloaded last before ``version`` arrived."""
    return (AnalysisRun.objects.filter(document_version__document_id=version.document_id,
                                       exported_at__lt=version.created_at)
            .exclude(document_version=version).exclude(export_file="").order_by("-exported_at").first())


def untracked_since_export(*, version: DocumentVersion) -> dict[str, Any] | None:
    """The changes in ``version`` that no tracked change shows, against the redline of this document last
    downloaded before the version arrived (None when none was)."""
    sent = _sent_run(version)
    if sent is None:
        return None
    try:
        with sent.export_file.open("rb") as fh:
            changes = untracked_changes(fh.read(), document_version_read(version=version))
    except (OSError, DocxError) as exc:  # a file gone from storage, or unreadable: the review goes on without it
        logger.warning("untracked changes of version %s not read: %s", version.pk, exc)
        return None
    return {"sent_run": sent.pk, "exported_at": sent.exported_at.isoformat(),
            "changes": [c.to_dict() for c in changes]}


def changes_since_sent(*, version: DocumentVersion, our_author: str = DEFAULT_AUTHOR) -> dict[str, Any]:
    """What the other side did to the redline we sent, as ``version`` reads: the paragraphs they changed with
    tracking on (revisions by anyone but ``our_author``) and those changed without tracking.
    422 ``not_sent`` when no redline of this document was downloaded before the version arrived."""
    sent = _sent_run(version)
    if sent is None:
        raise ApplicationError("not_sent", "No redline of this document was downloaded from Redline before this "
                                           "version: there is nothing it could be compared with.", status=422)
    data = document_version_read(version=version)
    try:
        with sent.export_file.open("rb") as fh:
            untracked = untracked_changes(fh.read(), data)
        records = extract_all(data).paragraphs
    except DocxError as exc:
        raise ApplicationError(exc.code, exc.message, status=422) from None
    except OSError:
        raise ApplicationError("sent_file_missing", "The redline that was sent is no longer stored.",
                               status=422) from None
    tracked = []
    for record in records:
        authors = sorted({r["author"] for r in record["revisions"] if r["author"] != our_author})
        if authors:
            tracked.append({"anchor": record["para_id"], "authors": authors, "before": record["before_text"],
                            "after": record["after_text"]})
    return {"sent_run": sent.pk, "exported_at": sent.exported_at, "version_id": version.pk,
            "untracked": [c.to_dict() for c in untracked], "tracked": tracked}
