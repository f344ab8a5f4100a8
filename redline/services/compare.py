"""Two stored versions of a document as one redline (the engine is :mod:`redline.ooxml.compare`).

The versions are the stored originals, byte for byte, so a comparison can always be made again; its revisions
are dated when the later version arrived, so making it again gives the same file. The result is cached by the
two files' hashes and the author (a POST that lists the changes and the download that follows compare once).
"""

from __future__ import annotations

import hashlib

from django.core.cache import cache

from .. import selectors
from ..errors import ApplicationError
from ..models import DocumentVersion, Workspace
from ..ooxml.compare import Comparison, compare
from ..ooxml.errors import DocxError
from .files import document_version_read

COMPARE_TTL_S = 3600


def versions_compare(*, workspace: Workspace, document_id: int, from_version_id: int | None,
                     to_version_id: int | None, author: str) -> tuple[DocumentVersion, DocumentVersion, Comparison]:
    """The redline from one version of a document to another (default: the latest, against the one before it).

    404 for a version of another document; 422 ``no_earlier_version`` when there is nothing to compare with,
    ``same_version`` for one version against itself, or the engine's code for a file it refuses."""
    new = selectors.document_version_of(workspace=workspace, document_id=document_id, version_id=to_version_id)
    if from_version_id is None:
        old = new.document.versions.filter(created_at__lt=new.created_at).order_by("-created_at", "-pk").first()
        if old is None:
            raise ApplicationError("no_earlier_version", "This is the document's first version: there is nothing "
                                                         "earlier to compare it with.", status=422)
    else:
        old = selectors.document_version_of(workspace=workspace, document_id=document_id, version_id=from_version_id)
    if old.pk == new.pk:
        raise ApplicationError("same_version", "Choose two different versions to compare.", status=422)
    date = new.created_at.strftime("%Y-%m-%dT%H:%M:%SZ")  # each workspace's own upload: never another's result
    key = (f"redline:compare:{workspace.pk}:{old.sha256}:{new.sha256}:{date}:"
           f"{hashlib.sha256(author.encode()).hexdigest()[:16]}")
    result = cache.get(key)
    if not isinstance(result, Comparison):
        try:
            result = compare(document_version_read(version=old), document_version_read(version=new), author=author,
                             date=date)
        except DocxError as exc:
            raise ApplicationError(exc.code, exc.message, status=422) from None
        cache.set(key, result, COMPARE_TTL_S)
    return old, new, result
