"""Fixtures for the add-in: the real server, headless Chromium, and the task pane with the Office double."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from tests.support.asgi_server import asgi_server
from tests.support.browser import CHROMIUM, CHROMIUM_ARGS, OFFICE_JS, require_chromium
from tests.support.browser import OFFICE_DOUBLE as DOUBLE


@pytest.fixture
def redline_server(transactional_db) -> Iterator[str]:
    with asgi_server() as url:
        yield url


@pytest.fixture(scope="module")
def chromium():
    """Headless Chromium (the Debian package; browsers are never downloaded), for one test module.

    Playwright's sync API keeps an asyncio loop running in this thread while it is
    active, which makes Django refuse synchronous ORM calls (the tests' own and the
    test database's setup and flush). The ORM is still used synchronously here, so
    the check is lifted for as long as the browser runs, and only then.
    """
    from playwright import sync_api  # a dev dependency: missing, the import fails the test, as it should

    require_chromium()
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            yield browser
            browser.close()
    finally:
        if previous is None:
            del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@dataclass
class Pane:
    """The task pane in a fresh browser context, with Office.js replaced by the double."""

    page: object
    base_url: str
    errors: list[str]

    def double(self, expression: str) -> object:
        """Evaluate against the double's handle (``__wordDouble``)."""
        return self.page.evaluate(f"() => window.__wordDouble.{expression}")


@pytest.fixture
def open_pane(chromium, redline_server):
    """``open_pane(seed)`` loads /addin/taskpane/ over a Word double seeded with ``seed``."""
    contexts = []
    errors_seen: list[list[str]] = []

    def open_(seed: dict, side: str | None = None) -> Pane:
        """``side``: the party the lawyer chose for this document earlier (its ``RedlineDocID`` in the seed)."""
        context = chromium.new_context()
        contexts.append(context)
        context.route(OFFICE_JS, lambda route: route.fulfill(body=DOUBLE.read_text(), content_type="text/javascript"))
        context.route(lambda url: not url.startswith(redline_server) and url != OFFICE_JS, lambda route: route.abort())
        context.add_init_script(f"window.__wordDoubleSeed = {json.dumps(seed)};")
        if side is not None:
            key = f"{seed.get('partitionKey', '')}redline.side.{seed['customProperties']['RedlineDocID']}"
            context.add_init_script(f"if (localStorage.getItem({json.dumps(key)}) === null) "
                                    f"localStorage.setItem({json.dumps(key)}, {json.dumps(side)});")
        page = context.new_page()
        errors: list[str] = []
        errors_seen.append(errors)
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{redline_server}/addin/taskpane/")
        page.wait_for_selector("#signed-out:not([hidden]), #workspace:not([hidden]), #unsupported:not([hidden])")
        return Pane(page, redline_server, errors)

    yield open_
    for context in contexts:
        context.close()
    for pane_errors in errors_seen:
        assert not pane_errors, f"JavaScript errors in the pane: {pane_errors}"
