"""The task pane says what a review asked of the model and what it cost, in the run page's words: the pane in
headless Chromium over the Office double, the server reviewing with the real ``openai`` SDK against the
loopback chat server."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from redline.models import AnalysisRun
from redline.services.playbooks import playbook_default_install
from tests.support.chat_server import ChatServer, completion, findings

from .test_taskpane_browser import SEED, SIDE, review, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_pane_shows_the_model_calls_tokens_and_estimated_cost(alice, open_pane, settings):
    playbook_default_install(workspace=alice.workspace)
    with ChatServer(lambda body: completion(findings(), prompt_tokens=900, completion_tokens=60)) as chat:
        settings.REDLINE_PROVIDER, settings.REDLINE_OPENAI_MODEL = "openai", "gpt-4o-mini"
        settings.OPENAI_API_KEY, settings.OPENAI_BASE_URL = "test-key", chat.url
        pane = open_pane(SEED, side=SIDE)
        sign_in(pane, alice)
        review(pane)
        calls = len(chat.requests)
    run = AnalysisRun.objects.get(workspace=alice.workspace)
    assert run.provider == "openai" and run.stats["provider_calls"] == calls > 0
    cost = calls * (900 * 0.15 + 60 * 0.60) / 1e6
    expect(pane.page.locator("#run-cost")).to_have_text(
        f"Model: gpt-4o-mini · {calls} call{'s' if calls > 1 else ''} · {900 * calls:,} tokens in / {60 * calls:,} out"
        f" · est. ${cost:.4f}")


def test_an_offline_review_in_the_pane_says_no_model_was_called(alice, open_pane):
    playbook_default_install(workspace=alice.workspace)
    pane = open_pane(SEED, side=SIDE)
    sign_in(pane, alice)
    review(pane)
    expect(pane.page.locator("#run-cost")).to_have_text("Offline engine · no model calls")
