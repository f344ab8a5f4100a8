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

from ..models import AnalysisRun, DocumentVersion
from ..ooxml.errors import DocxError
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


def untracked_since_export(*, version: DocumentVersion) -> dict[str, Any] | None:
    """The changes in ``version`` that no tracked change shows, against the redline of this document last
    downloaded before the version arrived (None when none was)."""
    sent = (AnalysisRun.objects.filter(document_version__document_id=version.document_id,
                                       exported_at__lt=version.created_at)
            .exclude(document_version=version).exclude(export_file="").order_by("-exported_at").first())
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
