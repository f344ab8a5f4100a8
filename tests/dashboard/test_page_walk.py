"""Every page, as a first-time admin sees it, at 1440 and 360 px: the acceptance walk of the UI.

Each dashboard page (also at 768 px, with a rule's inline editor open, and with that editor
reopened on a draft kept across an expired session), the API
docs, and the task pane (over the Office double, signed out, with results, and its
sign-in dialog) is opened in headless Chromium with the
real server and the real Content Security Policy. The walk fails on any console
error (a CSP violation is one), on a page wider than a 360 or 768 px window, and on any
serious or critical axe-core violation, on chart text under 12 px as drawn, and on
more than one primary action in a view. A screenshot of every page at both widths
goes to ``var/screenshots/walk-<page>-<width>.png``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from redline.models import Role
from redline.services.accounts import api_key_issue, membership_create, user_create, workspace_create
from redline.services.documents import document_version_create
from redline.services.playbooks import playbook_default_install
from tests.dashboard.conftest import PASSWORD, seed_run
from tests.support.browser import OFFICE_DOUBLE, OFFICE_JS, SHOTS, axe_source

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = {"wide": 1440, "narrow": 360}
TABLET = 768  # the dashboard must also be usable here: checked for overflow like 360
PANE_SEED = {
    "partitionKey": "walk:",
    "url": "https://contoso.sharepoint.com/sites/legal/Supply%20Agreement.docx",
    "paragraphs": [
        {"text": "Supply Agreement", "style": "Title"},
        {"text": "1. Liability", "style": "Heading 1"},
        {"text": "The Supplier's liability shall be unlimited for all claims arising under this Agreement."},
        {"text": "2. Payment", "style": "Heading 1"},
        {"text": "Payment is due within 90 days of invoice."},
    ],
}


@dataclass
class Visit:
    """One page of the walk: where it is, what must be on it once it has loaded, its HTTP status."""

    name: str
    path: str
    ready: str = "main"
    status: int = 200
    prepare: Callable[[Page], None] | None = None


@pytest.fixture(scope="module")
def axe() -> str:
    return axe_source()


def new_context(browser: Browser, base_url: str, width: int) -> BrowserContext:
    context = browser.new_context(base_url=base_url, viewport={"width": width, "height": 900})
    context.set_default_timeout(15_000)
    context.route(OFFICE_JS, lambda route: route.fulfill(body=OFFICE_DOUBLE.read_text(), content_type="text/javascript"))
    context.route(lambda url: not url.startswith(base_url) and url != OFFICE_JS, lambda route: route.abort())
    return context


def sign_in(page: Page, username: str) -> None:
    page.goto("/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="Documents")).to_be_visible()


def pane_with_results(key: str) -> Callable[[Page], None]:
    """Signed in (the key as the sign-in dialog stores it), then a review of the double's document."""
    def prepare(page: Page) -> None:
        page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"{PANE_SEED['partitionKey']}redline.apiKey", key])
        page.reload()
        page.click("#review")
        expect(page.locator(".result").first).to_be_visible(timeout=90_000)
        expect(page.locator("#review")).to_be_enabled(timeout=90_000)
    return prepare


def overflow(page: Page) -> str:
    """What makes the page wider than the window ("" when nothing scrolls it sideways)."""
    return page.evaluate("""() => {
      const root = document.documentElement, wider = root.scrollWidth - root.clientWidth;
      if (wider <= 0) return "";
      const clipped = e => { for (let a = e.parentElement; a && a !== document.body; a = a.parentElement)
        if (getComputedStyle(a).overflowX !== "visible") return true; return false; };
      const culprits = [...document.body.querySelectorAll("*")]
        .filter(e => e.getBoundingClientRect().right > root.clientWidth + 0.5 && !clipped(e))
        .slice(0, 4).map(e => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + (e.className ? "." + e.className : ""));
      return `${wider} px wider than the window, from ${culprits.join(", ")}`;
    }""")


def primary_actions(page: Page) -> int:
    """Visible controls drawn as the primary action, as a person sees them: filled with a colour that stands out
    from the page (contrast of 3:1 or more against the page's background, the WCAG bar for a graphic object).
    No colour is named here, so a palette change cannot make the count blind; outlined and tinted controls
    (secondary, destructive, chips, toggles) stay below the bar."""
    return page.evaluate("""() => {
      const rgb = c => (c.match(/[\\d.]+/g) || []).map(Number);
      const lum = ([r, g, b]) => [r, g, b].map(v => { v /= 255; return v <= 0.04045 ? v / 12.92
        : ((v + 0.055) / 1.055) ** 2.4; }).reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
      const page = rgb(getComputedStyle(document.body).backgroundColor);
      const ground = page.length === 4 && page[3] === 0 ? [255, 255, 255] : page;
      return [...document.querySelectorAll("main button, main a")].filter(e => {
        if (e.offsetParent === null) return false;
        const fill = rgb(getComputedStyle(e).backgroundColor);
        if (fill.length === 4 && fill[3] < 1) return false;  // transparent: not filled
        const [hi, lo] = [lum(fill), lum(ground)].sort((a, b) => b - a);
        return (hi + 0.05) / (lo + 0.05) >= 3;
      }).length;
    }""")


def tiny_chart_text(page: Page) -> list[str]:
    """SVG text smaller than 12 px as drawn (font size times the SVG's scale on screen)."""
    return page.evaluate("""() => [...document.querySelectorAll("main svg text")]
      .map(t => [t.textContent.trim(), parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a])
      .filter(([, px]) => px < 11.99).slice(0, 5).map(([text, px]) => `${text} (${px.toFixed(1)} px)`)""")


def serious_axe_violations(page: Page, axe: str) -> list[str]:
    result = page.evaluate(axe + "\n;axe.run(document, {resultTypes: ['violations']})"
                           ".then(r => r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,"
                           " nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))})))")
    return [f"{v['id']} ({v['impact']}): {v['help']} at {v['nodes']}" for v in result
            if v["impact"] in ("serious", "critical")]


def walk(browser: Browser, base_url: str, axe: str, width: int, visits: list[Visit], username: str | None,
         ) -> dict[str, list[str]]:
    """Open each page in one signed-in context; return its problems by page name."""
    context = new_context(browser, base_url, width)
    context.add_init_script(f"window.__wordDoubleSeed = {json.dumps(PANE_SEED)};")
    page = context.new_page()
    problems: dict[str, list[str]] = {}
    current: list[str] = []
    page.on("console", lambda msg: msg.type == "error" and current.append(f"console: {msg.text} ({msg.location})"))
    page.on("pageerror", lambda exc: current.append(f"page error: {exc}"))
    try:
        if username:
            sign_in(page, username)
        for visit in visits:
            current.clear()
            response = page.goto(visit.path)
            assert response is not None and response.status == visit.status, (visit.name, response and response.status)
            if visit.prepare:
                visit.prepare(page)
            try:
                page.locator(visit.ready).first.wait_for(state="visible")
            except PlaywrightTimeout:
                current.append(f"{visit.ready} never showed")
            try:
                page.wait_for_load_state("networkidle", timeout=5_000)
            except PlaywrightTimeout:  # a page that keeps a stream or poll open may never go idle: loaded is enough
                page.wait_for_load_state("load")
            # The page's own 403/404 answer is logged by Chromium as a failed load; that is the point of the page.
            found = [p for p in current if not (visit.status >= 400 and f"status of {visit.status}" in p)]
            if width <= TABLET and (wider := overflow(page)):
                found.append(wider)
            if small := tiny_chart_text(page):
                found.append(f"chart text below 12 px on screen: {small}")
            if (primaries := primary_actions(page)) > 1:
                found.append(f"{primaries} primary actions: a view has one")
            found += [f"axe: {v}" for v in serious_axe_violations(page, axe)]
            page.screenshot(path=str(SHOTS / f"walk-{visit.name}-{width}.png"), full_page=True)
            if found:
                problems[visit.name] = found
    finally:
        context.close()
    return problems


def open_rule_editor(page: Page) -> None:
    """The inline rule form, opened as an admin does (an htmx swap into the row)."""
    page.locator("#rule-payment-terms").get_by_role("link", name=re.compile("^Edit")).click()
    expect(page.locator("#edit-payment-terms-title")).to_be_focused()  # swapped in and settled
    page.mouse.move(0, 0)  # no hover colour on whatever the form put under the pointer


def restore_rule_draft(page: Page) -> None:
    """The inline editor posted after the session ended, then signed in again: it reopens with the typed text."""
    open_rule_editor(page)
    page.locator("#edit-payment-terms-preferred_position").fill("Net thirty (30) days.")
    page.context.clear_cookies(name="sessionid")
    page.get_by_role("button", name="Save rule").click()
    expect(page.get_by_role("heading", name="Sign in")).to_be_visible()
    page.get_by_label("Username").fill("alice")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.mouse.move(0, 0)


def dashboard_visits(alice, seeded) -> list[Visit]:
    playbook_id = seeded.run.playbook_version.playbook_id
    document_id = seeded.run.document_version.document_id
    return [
        Visit("documents", "/"),
        Visit("document", f"/documents/{document_id}/"),
        Visit("run", f"/runs/{seeded.run.pk}/", "article.suggestion"),
        Visit("playbooks", "/playbooks/"),
        Visit("playbook", f"/playbooks/{playbook_id}/", "#rules"),
        Visit("rule-edit", f"/playbooks/{playbook_id}/", "#rule-payment-terms form", prepare=open_rule_editor),
        Visit("rule-edit-restored", f"/playbooks/{playbook_id}/", "#rule-payment-terms form [role=status]",
              prepare=restore_rule_draft),
        Visit("rule-try", f"/playbooks/{playbook_id}/rules/payment-terms/try/"),
        Visit("playbook-versions", f"/playbooks/{playbook_id}/versions/"),
        Visit("playbook-version", f"/playbooks/{playbook_id}/versions/1/"),
        Visit("playbook-import", "/playbooks/import/"),
        Visit("analytics", "/analytics/", "svg[role=img]"),
        Visit("rejections", "/rejections/"),
        Visit("rejection", f"/rejections/{seeded.rejection.pk}/"),
        Visit("preferences", "/preferences/", "#preview"),
        Visit("preferences-version", "/preferences/versions/1/"),
        Visit("keys", "/keys/"),
        Visit("team", "/team/", "#team"),
        Visit("not-found", "/documents/999999/", status=404),
        Visit("api-docs", "/api/docs", "#swagger-ui .information-container"),
    ]


@pytest.mark.parametrize("width", [*WIDTHS.values(), TABLET], ids=[*WIDTHS.keys(), "tablet"])
def test_every_dashboard_page_is_clean(browser, base_url, axe, alice, simple_docx, width):
    seeded = seed_run(alice, simple_docx, playbook_default_install(workspace=alice.workspace))
    other = workspace_create(name="Bob & Partners")
    membership_create(user=alice.membership.user, workspace=other, role=Role.REVIEWER)  # the switcher shows
    problems = walk(browser, base_url, axe, width, dashboard_visits(alice, seeded), "alice")
    assert not problems, json.dumps(problems, indent=1, ensure_ascii=False)


@pytest.mark.parametrize("width", WIDTHS.values(), ids=WIDTHS.keys())
def test_signed_out_and_reviewer_pages_are_clean(browser, base_url, axe, alice, width):
    carol = user_create(username="carol", password=PASSWORD)
    membership_create(user=carol, workspace=alice.workspace, role=Role.REVIEWER)
    anonymous = walk(browser, base_url, axe, width, [Visit("login", "/login/", "form")], None)
    reviewer = walk(browser, base_url, axe, width, [Visit("forbidden", "/keys/", status=403)], "carol")
    assert not (anonymous or reviewer), json.dumps({**anonymous, **reviewer}, indent=1, ensure_ascii=False)


@pytest.mark.parametrize("width", WIDTHS.values(), ids=WIDTHS.keys())
def test_a_new_workspace_is_clean(browser, base_url, axe, simple_docx, width):
    """A workspace's first pages: a contract and no playbook (the admin's offer, the reviewer's whom-to-ask), and
    its team of one admin."""
    workspace = workspace_create(name="Carter & Reed")
    for username, role in (("dave", Role.ADMIN), ("erin", Role.REVIEWER)):
        membership_create(user=user_create(username=username, password=PASSWORD), workspace=workspace, role=role)
    version, *_ = document_version_create(workspace=workspace, data=simple_docx, filename="msa.docx", uploaded_by=None)
    document = f"/documents/{version.document_id}/"
    admin = walk(browser, base_url, axe, width, [Visit("document-first-playbook", document),
                                                 Visit("team-new-workspace", "/team/", "#team")], "dave")
    reviewer = walk(browser, base_url, axe, width, [Visit("document-ask-an-admin", document)], "erin")
    assert not (admin or reviewer), json.dumps({**admin, **reviewer}, indent=1, ensure_ascii=False)


@pytest.mark.parametrize("width", WIDTHS.values(), ids=WIDTHS.keys())
def test_task_pane_pages_are_clean(browser, base_url, axe, alice, width):
    playbook_default_install(workspace=alice.workspace)
    visits = [
        Visit("pane-signed-out", "/addin/taskpane/", "#signed-out"),
        Visit("pane-results", "/addin/taskpane/", "#workspace", prepare=pane_with_results(alice.key)),
        Visit("pane-signin-dialog", "/addin/signin/", "form"),
    ]
    problems = walk(browser, base_url, axe, width, visits, None)
    assert not problems, json.dumps(problems, indent=1, ensure_ascii=False)


def test_the_workspace_switcher_switches(browser, base_url, alice):
    other = workspace_create(name="Bob & Partners")
    membership_create(user=alice.membership.user, workspace=other, role=Role.REVIEWER)
    context = new_context(browser, base_url, WIDTHS["wide"])
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
    try:
        sign_in(page, "alice")
        expect(page.get_by_text("Contracts uploaded to Alice LLP")).to_be_visible()
        page.wait_for_load_state("load")  # the text shows before the deferred script listens for the change
        page.get_by_label("Workspace").select_option(label="Bob & Partners")
        expect(page.get_by_text("Contracts uploaded to Bob & Partners")).to_be_visible(timeout=15_000)
        expect(page.get_by_label("Workspace")).to_have_value(str(other.pk))
        expect(page.get_by_role("link", name="API keys")).to_have_count(0)  # a reviewer there
    finally:
        context.close()
    assert not errors


def test_primary_secondary_and_destructive_actions_look_different(browser, base_url, alice):
    api_key_issue(membership=alice.membership, name="Old laptop")
    context = new_context(browser, base_url, WIDTHS["wide"])
    page = context.new_page()
    try:
        sign_in(page, "alice")
        page.goto("/keys/")

        def look(name: str) -> tuple[str, str]:
            return tuple(page.get_by_role("button", name=name).first.evaluate(
                "b => [getComputedStyle(b).backgroundColor, getComputedStyle(b).color]"))

        primary, secondary, destructive = look("Create key"), look("Log out"), look("Revoke")
        assert len({primary, secondary, destructive}) == 3, (primary, secondary, destructive)
        assert primary[0] != "rgb(255, 255, 255)"  # the one filled button
        assert primary_actions(page) == 1  # positive control for the walk's count: this page has exactly one
        assert destructive[1] != primary[1] and destructive[1] != secondary[1]
    finally:
        context.close()


def signed_in_at_widths(browser: Browser, base_url: str, username: str, widths: tuple[int, ...] = (1440, 360)):
    """For a page test at each width: ``(page, width, check)``, signed in; ``check()`` fails on console errors,
    serious axe findings and (narrow) sideways scroll."""
    axe = axe_source()
    for width in widths:
        context = new_context(browser, base_url, width)
        page = context.new_page()
        errors: list[str] = []
        page.on("console", lambda msg, errors=errors: msg.type == "error" and errors.append(msg.text))

        def check(page: Page = page, errors: list[str] = errors, width: int = width) -> None:
            page.mouse.move(0, 0)
            problems = [*errors, *(f"axe: {v}" for v in serious_axe_violations(page, axe))]
            if width <= 768 and (wider := overflow(page)):
                problems.append(wider)
            assert not problems, problems

        try:
            sign_in(page, username)
            yield page, width, check
        finally:
            context.close()
