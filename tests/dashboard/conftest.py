"""Dashboard fixtures: logged-in clients per role, an installed playbook, a finished run with votes and outcomes."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from unittest import mock

import pytest
from django.test import Client
from django.utils import timezone

from dashboard.queries import paragraph_texts
from redline.models import (
    AnalysisRun,
    Feedback,
    KnownEntry,
    LearnedLine,
    PlaybookVersion,
    PreferencesVersion,
    Rejection,
    Role,
    RunStatus,
    Suggestion,
)
from redline.services.accounts import membership_create, user_create
from redline.services.documents import document_version_create
from redline.services.playbooks import playbook_default_install
from redline.services.preferences import preferences_save
from tests.support.asgi_server import asgi_server
from tests.support.browser import CHROMIUM, CHROMIUM_ARGS, SHOTS, require_chromium
from tests.support.docx_builder import build_docx, para

PASSWORD = "correct horse battery staple"
CONTRACT = build_docx(
    para("1. Payment", style="Heading1")
    + para("The Customer shall pay each undisputed invoice within ninety (90) days of receipt.")
    + para("2. Delivery", style="Heading1")
    + para("The Supplier shall deliver the Goods.")
)
HTMX = {"HTTP_HX_REQUEST": "true"}


def login(username: str) -> Client:
    client = Client()
    assert client.login(username=username, password=PASSWORD)
    return client


@pytest.fixture(scope="module")
def browser():
    """Headless Debian Chromium for one browser-test module (never a downloaded browser)."""
    from playwright.sync_api import sync_playwright

    require_chromium()
    SHOTS.mkdir(parents=True, exist_ok=True)
    # Playwright's sync API keeps an event loop on this thread; the ORM calls in these tests are
    # synchronous and short, so Django's async-safety guard is lifted while the browser runs.
    with mock.patch.dict(os.environ, {"DJANGO_ALLOW_ASYNC_UNSAFE": "true"}), sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def base_url(django_db_setup) -> Iterator[str]:
    """A real uvicorn serving this test database, for one browser-test module."""
    with asgi_server() as url:
        yield url


@pytest.fixture
def admin(alice) -> Client:
    """Alice, admin of Alice LLP."""
    return login("alice")


@pytest.fixture
def carol(alice):
    """Carol, a reviewer in Alice's workspace."""
    user = user_create(username="carol", password=PASSWORD)
    return membership_create(user=user, workspace=alice.workspace, role=Role.REVIEWER)


@pytest.fixture
def reviewer(carol) -> Client:
    return login("carol")


@pytest.fixture
def playbook(alice) -> PlaybookVersion:
    return playbook_default_install(workspace=alice.workspace)


@dataclass
class Seeded:
    run: AnalysisRun
    suggestions: list[Suggestion]
    rejection: Rejection
    learned: LearnedLine


def seed_run(member, docx: bytes, version: PlaybookVersion) -> Seeded:
    """A finished run with suggestions, outcomes (late-payment noisy), votes, a rejection and a learned line.

    Rows are written directly: analytics and the run page only read them, and the
    real pipeline is exercised by the run-progress tests.
    """
    doc_version, *_ = document_version_create(workspace=member.workspace, data=docx, filename="msa.docx",
                                                uploaded_by=None)
    run = AnalysisRun.objects.create(
        workspace=member.workspace, document_version=doc_version, playbook_version=version, provider="offline",
        request_key=f"seed-{doc_version.pk}", status=RunStatus.DONE, finished_at=timezone.now(),
        stats={"hallucination_drops": 2, "suggestions": 10, "rules": 24},
    )
    anchor = next(a for a, text in paragraph_texts(version=doc_version).items() if "Goods" in text)
    plan = [("late-payment", "rejected")] * 6 + [("payment-terms", "accepted")] * 3 + [("payment-terms", "pending")]
    suggestions = []
    user = member.membership.user
    for i, (rule, outcome) in enumerate(plan):
        s = Suggestion.objects.create(
            run=run, sid=f"s{i}", position=i, anchor=anchor, kind="replace", rule_key=rule,
            category="payment_terms", severity="minor" if rule == "late-payment" else "major", op={},
            data={"rule_title": "Late payment" if rule == "late-payment" else "Payment terms",
                  "quote": "Goods", "new_text": "Products", "comment": f"Comment {i}",
                  "validation": {"status": "FAIL" if i == 0 else "PASS", "confidence": 0.9, "issues": []}},
        )
        suggestions.append(s)
        KnownEntry.objects.create(workspace=member.workspace, document=doc_version.document, run=run, suggestion=s,
                                  entry_id=f"e{run.pk}-{i}", operation_type="REPLACE_TEXT", rule_key=rule,
                                  outcome=outcome, new_text="Products")
        if i < 2:
            Feedback.objects.create(suggestion=s, user=user, thumbs_up=False, follow_up_reason="too_strict",
                                    tags=["overly_cautious", "false_positive"])
        elif rule == "payment-terms":
            Feedback.objects.create(suggestion=s, user=user, thumbs_up=True)
    entry = KnownEntry.objects.get(suggestion=suggestions[0])
    rejection = Rejection.objects.create(entry=entry, reason="the change was rejected in Word",
                                         document_context="The Supplier shall deliver the Goods.",
                                         rejected_at=timezone.now())
    prefs = preferences_save(workspace=member.workspace, text="# Review Preferences\n\n- Keep late fees as drafted.",
                             author_kind=PreferencesVersion.Author.LEARNING, reason="learned from 1 rejection(s)")
    learned = LearnedLine.objects.create(version=prefs, line="- Keep late fees as drafted.", rejected=1)
    learned.sources.set([entry])
    return Seeded(run, suggestions, rejection, learned)


@pytest.fixture
def seeded(alice, playbook, simple_docx) -> Seeded:
    return seed_run(alice, simple_docx, playbook)


@pytest.fixture
def page(browser, base_url: str):
    """A 1280-px tab on the test server for one browser test; fails the test on any JavaScript error."""
    context = browser.new_context(base_url=base_url, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(10_000)
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    yield tab
    context.close()
    assert not errors, f"JavaScript errors: {errors}"
