"""The rules table fits its box: every row's Delete can be seen and clicked without scrolling sideways.

Issue #30 (7): at 1280–1920 px the table was wider than its box, so its scroll
container hid the last column (Delete) behind a sideways scroll nobody sees.
The check is geometric, per Delete button of the default playbook's 24 rules:
its box lies inside the table's container and the window, the page itself
does not scroll sideways, and the button is what a click at its centre hits.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from redline.services.playbooks import playbook_default_install
from tests.dashboard.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Per Delete button: outside its container or the window, and whether a click at its centre hits it.
DELETE_PLACEMENT = """() => {
  const root = document.documentElement, out = [];
  const buttons = [...document.querySelectorAll("#rules tbody button.danger")];
  for (const b of buttons) {
    const box = b.closest(".table-scroll");
    window.scrollTo(0, b.getBoundingClientRect().top + window.scrollY - innerHeight / 2);
    const r = b.getBoundingClientRect(), c = box.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    const problems = [];
    if (r.left < c.left - 0.5 || r.right > c.right + 0.5) problems.push(`outside its box (${r.left}-${r.right} in ${c.left}-${c.right})`);
    if (r.left < 0 || r.right > root.clientWidth + 0.5) problems.push(`outside the window (${r.right} > ${root.clientWidth})`);
    if (!hit || !b.contains(hit)) problems.push("a click at its centre misses it");
    if (problems.length) out.push(b.closest("tr").id + ": " + problems.join(", "));
  }
  return {count: buttons.length, problems: out, wider: root.scrollWidth - root.clientWidth};
}"""


@pytest.mark.parametrize("width", [1280, 1440, 1920, 360])
def test_every_delete_button_is_inside_the_table_box_and_the_window(browser: Browser, base_url: str, alice,
                                                                     width: int):
    version = playbook_default_install(workspace=alice.workspace)
    context = browser.new_context(base_url=base_url, viewport={"width": width, "height": 900})
    context.set_default_timeout(15_000)
    try:
        page = context.new_page()
        page.goto("/login/")
        page.get_by_label("Username").fill("alice")
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Sign in").click()
        expect(page.get_by_role("heading", name="Documents")).to_be_visible()
        page.goto(f"/playbooks/{version.playbook_id}/")
        expect(page.locator("#rules tbody tr")).to_have_count(24)
        placement = page.evaluate(DELETE_PLACEMENT)
    finally:
        context.close()
    assert placement["count"] == 24
    assert placement["wider"] <= 0, f"the page scrolls sideways by {placement['wider']} px"
    assert not placement["problems"], "\n".join(placement["problems"])
