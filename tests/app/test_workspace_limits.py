"""Providers built from settings: one limiter per workspace and process, shared by the workspace's runs,
and the model's prices from the price table."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from redline.services import providers
from redline.services.providers import model_prices, provider_build, workspace_limiter

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def openai_settings(settings):
    settings.OPENAI_API_KEY, settings.OPENAI_BASE_URL = "test-key", "http://127.0.0.1:9/v1"
    settings.REDLINE_OPENAI_MODEL = "gpt-4o-mini"
    settings.REDLINE_OPENAI_CONCURRENCY = 16
    settings.REDLINE_OPENAI_WORKSPACE_CONCURRENCY = 16
    providers._limiters.clear()
    yield settings
    providers._limiters.clear()


def test_the_defaults_are_sixteen_calls_and_the_workspace_limit_is_the_global_one():
    from redline import settings as product

    assert product.REDLINE_OPENAI_CONCURRENCY == 16
    assert product.REDLINE_OPENAI_WORKSPACE_CONCURRENCY == product.REDLINE_OPENAI_CONCURRENCY
    assert product.REDLINE_MODEL_PRICES["gpt-4o-mini"] == (0.15, 0.60)


def test_two_runs_of_one_workspace_share_its_limiter_and_other_workspaces_do_not(openai_settings):
    first, second = provider_build("openai", workspace_id=1), provider_build("openai", workspace_id=1)
    other = provider_build("openai", workspace_id=2)
    assert first._limiter is second._limiter is workspace_limiter(1)
    assert other._limiter is not first._limiter
    assert provider_build("openai")._limiter is not first._limiter  # no workspace: the provider's own
    assert first.max_concurrency == 16 and first._limiter.max_concurrency == 16


def test_a_lower_workspace_limit_bounds_each_run_too(openai_settings):
    openai_settings.REDLINE_OPENAI_WORKSPACE_CONCURRENCY = 6
    p = provider_build("openai", workspace_id=3)
    assert p._limiter.max_concurrency == 6 and p.max_concurrency == 6  # no idle threads waiting on the limiter
    openai_settings.REDLINE_OPENAI_WORKSPACE_CONCURRENCY = 24
    wider = provider_build("openai", workspace_id=3)
    assert wider._limiter.max_concurrency == 24 and wider.max_concurrency == 16  # a run stays within its own


def test_the_registry_gives_one_limiter_to_threads_asking_at_once(openai_settings):
    seen, start = [], threading.Barrier(12)

    def ask() -> None:
        start.wait(5)
        seen.append(workspace_limiter(42))

    threads = [threading.Thread(target=ask) for _ in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(5)
    assert len(seen) == 12 and len({id(limiter) for limiter in seen}) == 1


def test_the_provider_is_given_the_models_prices(openai_settings):
    assert provider_build("openai").prices == (0.15, 0.60)
    openai_settings.REDLINE_OPENAI_MODEL = "gpt-4.1-2025-04-14"  # a dated snapshot: its model's price
    assert provider_build("openai").prices == (2.00, 8.00)
    openai_settings.REDLINE_OPENAI_MODEL = "acme-large"
    assert provider_build("openai").prices == (0.0, 0.0) and model_prices("acme-large") is None
    openai_settings.REDLINE_MODEL_PRICES = {"acme-large": (1.5, 6.0)}
    assert provider_build("openai").prices == (1.5, 6.0) and model_prices("gpt-4o-mini") is None


def test_prices_can_be_set_from_the_environment(tmp_path):
    """``REDLINE_MODEL_PRICES`` (JSON) adds models and overrides the defaults when the settings load."""
    env = {**os.environ, "REDLINE_DATA_DIR": str(tmp_path), "SECRET_KEY": "x",
           "REDLINE_MODEL_PRICES": '{"acme-large": [1.5, 6], "gpt-4o": [2.0, 8.0]}'}
    code = "import json, redline.settings as s; print(json.dumps(s.REDLINE_MODEL_PRICES))"
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, timeout=60)
    prices = json.loads(out.stdout)
    assert prices["acme-large"] == [1.5, 6.0] and prices["gpt-4o"] == [2.0, 8.0]
    assert prices["gpt-4o-mini"] == [0.15, 0.60]
