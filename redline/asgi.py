"""ASGI entry point (uvicorn): needed for streaming progress over SSE."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "redline.settings")

application = get_asgi_application()

from redline.bodylimit import BodyLimitASGI  # noqa: E402  (needs configured settings)

application = BodyLimitASGI(application)  # oversize bodies are refused before they are received

from django.conf import settings  # noqa: E402  (settings are configured by get_asgi_application)

if not settings.CELERY_BROKER_URL:
    # Embedded mode: start the worker with the server so queued jobs resume at once.
    from redline.worker import in_process_worker

    in_process_worker()
