"""Building review providers from server settings (never from client input)."""

from __future__ import annotations

from django.conf import settings

from ..analysis.providers.base import Provider
from ..analysis.providers.offline import OfflineProvider
from ..errors import ApplicationError

PROVIDERS = ("offline", "openai")


def provider_identity(name: str) -> str:
    """The model name recorded on a run (and part of its request key)."""
    if name == "offline":
        return "offline"
    if name == "openai":
        return settings.REDLINE_OPENAI_MODEL
    raise ApplicationError("unknown_provider", f"Unknown provider {name!r}; use one of {', '.join(PROVIDERS)}.",
                           status=422)


def provider_build(name: str) -> Provider:
    """A provider configured from settings; ``openai`` needs ``OPENAI_API_KEY``."""
    provider_identity(name)
    if name == "offline":
        return OfflineProvider()
    if not settings.OPENAI_API_KEY:
        raise ApplicationError("provider_not_configured", "The openai provider needs OPENAI_API_KEY on the server.",
                               status=422)
    from ..analysis.providers.openai import OpenAIProvider

    return OpenAIProvider(
        model=settings.REDLINE_OPENAI_MODEL,
        api_key=settings.OPENAI_API_KEY,
        base_url=settings.OPENAI_BASE_URL,
        timeout=settings.REDLINE_OPENAI_TIMEOUT_S,
        max_retries=settings.REDLINE_OPENAI_MAX_RETRIES,
        max_concurrency=settings.REDLINE_OPENAI_CONCURRENCY,
    )
