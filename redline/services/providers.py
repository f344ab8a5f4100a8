"""Building review providers from server settings (never from client input).

A workspace's runs share one rate limiter per process (:func:`workspace_limiter`): two reviews of one
workspace together stay within ``REDLINE_OPENAI_WORKSPACE_CONCURRENCY``, and a 429 heard by one pauses the
other. The limiters live in this process only — each worker process has its own.
"""

from __future__ import annotations

import re
import threading

from django.conf import settings

from ..analysis.providers.base import Provider
from ..analysis.providers.limiter import AdaptiveLimiter
from ..analysis.providers.offline import OfflineProvider
from ..errors import ApplicationError

PROVIDERS = ("offline", "openai")
_SNAPSHOT = re.compile(r"-\d{4}-\d{2}-\d{2}$")  # "gpt-4o-mini-2024-07-18": a dated snapshot of gpt-4o-mini

_limiters: dict[tuple[int, int], AdaptiveLimiter] = {}
_limiters_lock = threading.Lock()


def provider_identity(name: str) -> str:
    """The model name recorded on a run (and part of its request key)."""
    if name == "offline":
        return "offline"
    if name == "openai":
        return settings.REDLINE_OPENAI_MODEL
    raise ApplicationError("unknown_provider", f"Unknown provider {name!r}; use one of {', '.join(PROVIDERS)}.",
                           status=422)


def model_prices(model: str) -> tuple[float, float] | None:
    """USD per million tokens (input, output) from ``REDLINE_MODEL_PRICES``; a dated snapshot takes its
    model's price. None when there is none: the cost is then unknown, never a made-up 0."""
    prices = settings.REDLINE_MODEL_PRICES
    return prices.get(model) or prices.get(_SNAPSHOT.sub("", model))


def workspace_limiter(workspace_id: int) -> AdaptiveLimiter:
    """The workspace's limiter in this process (a new one if the configured limit changed)."""
    size = settings.REDLINE_OPENAI_WORKSPACE_CONCURRENCY
    with _limiters_lock:
        limiter = _limiters.get((workspace_id, size))
        if limiter is None:
            limiter = _limiters[(workspace_id, size)] = AdaptiveLimiter(size)
        return limiter


def provider_build(name: str, *, workspace_id: int | None = None) -> Provider:
    """A provider configured from settings; ``openai`` needs ``OPENAI_API_KEY``. With ``workspace_id`` its
    calls share the workspace's limiter, else it bounds only its own."""
    provider_identity(name)
    if name == "offline":
        return OfflineProvider()
    if not settings.OPENAI_API_KEY:
        raise ApplicationError("provider_not_configured", "The openai provider needs OPENAI_API_KEY on the server.",
                               status=422)
    from ..analysis.providers.openai import OpenAIProvider

    limiter = workspace_limiter(workspace_id) if workspace_id is not None else None
    concurrency = settings.REDLINE_OPENAI_CONCURRENCY
    input_price, output_price = model_prices(settings.REDLINE_OPENAI_MODEL) or (0.0, 0.0)
    return OpenAIProvider(
        model=settings.REDLINE_OPENAI_MODEL,
        api_key=settings.OPENAI_API_KEY,
        base_url=settings.OPENAI_BASE_URL,
        timeout=settings.REDLINE_OPENAI_TIMEOUT_S,
        max_retries=settings.REDLINE_OPENAI_MAX_RETRIES,
        max_concurrency=min(concurrency, limiter.max_concurrency) if limiter else concurrency,
        input_price_per_mtok=input_price,
        output_price_per_mtok=output_price,
        limiter=limiter,
    )
