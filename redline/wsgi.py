"""WSGI entry point (for tooling; serve the product with ASGI so SSE streams)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "redline.settings")

application = get_wsgi_application()
