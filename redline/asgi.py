"""ASGI entry point (uvicorn): needed for streaming progress over SSE."""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "redline.settings")
django.setup(set_prefix=False)

from redline.server.asgi_handler import OneHopASGIHandler  # noqa: E402  (needs configured settings)

application = OneHopASGIHandler()

from redline.server.logs import redact_tickets  # noqa: E402

redact_tickets()  # a stream ticket in an events URL never reaches the access log

from django.conf import settings  # noqa: E402

from redline.server.admission import UploadAdmissionASGI  # noqa: E402
from redline.server.bodylimit import BodyLimitASGI  # noqa: E402

# An upload waiting its turn has not been read yet; an oversize one is refused at once, without waiting.
application = UploadAdmissionASGI(application, settings.REDLINE_DOCUMENT_CONCURRENCY)
application = BodyLimitASGI(application)  # oversize bodies are refused before they are received

from redline.server.malloc import limit_arenas  # noqa: E402

limit_arenas(settings.REDLINE_MALLOC_ARENAS)  # a thread per request must not mean an arena per thread

if not settings.CELERY_BROKER_URL:
    # Embedded mode: start the worker with the server so queued jobs resume at once.
    from redline.jobs.worker import in_process_worker

    in_process_worker()

from redline.server.heap import freeze_startup_heap  # noqa: E402

freeze_startup_heap()  # last: everything loaded at start-up stays out of the collector's full passes
