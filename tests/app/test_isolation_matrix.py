"""The isolation matrix: for every API operation and every dashboard view, a member of workspace A
gets 404 for workspace B's ids (never 403, never data); reviewers cannot do admin actions.

Both tables are walked from the code (the OpenAPI document, the dashboard URLconf), so an
endpoint added later is covered, and a new kind of id fails here until it is mapped.
"""

from __future__ import annotations

import pytest
from django.urls import URLPattern, get_resolver

from redline.jobs.worker import in_process_worker
from redline.models import Role, Rule
from tests.app.test_api_contract import call, has_path_params, json_body_schema, minimal, operations
from tests.conftest import make_member
from tests.support.world import assert_unchanged, database_snapshot, populate

# Per-workspace numbers, not ids: another workspace's "version 1" is the caller's own version 1.
WORKSPACE_RELATIVE = {"number"}


@pytest.fixture
def worlds(alice, bob, transactional_db) -> tuple[dict[str, int], dict[str, int]]:
    return populate(alice), populate(bob)


def _fill(path: str, params: list[str], ids: dict[str, int]) -> str:
    for name in params:
        assert name in ids, f"no id for path parameter {name!r}: add it to tests/support/world.py"
        path = path.replace("{" + name + "}", str(ids[name]))
    return path


def test_every_api_operation_hides_another_workspaces_rows(alice, bob, worlds):
    mine, theirs = worlds
    targets = []
    for method, path, op in operations():
        params = [p["name"] for p in op.get("parameters", []) if p["in"] == "path"]
        if not has_path_params(op) or set(params) <= WORKSPACE_RELATIVE:
            continue
        schema = json_body_schema(op)
        targets.append((method, path, params, minimal(schema) if schema else None))
    for method, path, params, body in targets:  # the same requests work on the caller's own rows
        own = call(alice.api(), method, _fill(path, params, mine), body)
        assert own.status_code != 404, f"{method} {path}: the owner gets {own.status_code}"
    assert in_process_worker().wait_idle(60)  # (what the owner's requests queued has run)
    before = database_snapshot()
    for method, path, params, body in targets:
        resp = call(alice.api(), method, _fill(path, params, theirs), body)
        assert resp.status_code == 404, f"{method} {path}: {resp.status_code} {resp.content[:200]!r}"
        assert resp.json()["code"] == "not_found"
    assert in_process_worker().wait_idle(60)
    assert_unchanged(before)  # refused means refused: no row anywhere changed, queued or deleted
    assert len(targets) >= 20


def _dashboard_patterns() -> list[tuple[str, list[str]]]:
    """(route, its parameter names) for every dashboard URL with an id in it."""
    resolver = get_resolver()
    out = []
    for entry in resolver.url_patterns:
        if getattr(entry, "app_name", None) != "dashboard":
            continue
        for pattern in entry.url_patterns:
            assert isinstance(pattern, URLPattern)
            route = str(pattern.pattern)
            names = list(pattern.pattern.converters)
            if names:
                out.append((route, names))
    return out


def _dashboard_url(route: str, names: list[str], ids: dict[str, int], rule_key: str) -> str:
    for name in names:
        value = rule_key if name == "key" else ids.get(name)
        assert value is not None, f"no id for dashboard parameter {name!r}: add it to tests/support/world.py"
        route = route.replace(f"<{pattern_type(route, name)}:{name}>", str(value))
    return "/" + route


def pattern_type(route: str, name: str) -> str:
    start = route.index(f":{name}>")
    return route[route.rindex("<", 0, start) + 1:start]


def test_every_dashboard_view_hides_another_workspaces_rows(alice, bob, worlds, client):
    _, theirs = worlds

    rule_key = Rule.objects.filter(version__playbook_id=theirs["playbook_id"]).first().key
    client.force_login(alice.membership.user)
    before = database_snapshot()
    checked = 0
    for route, names in _dashboard_patterns():
        if set(names) <= WORKSPACE_RELATIVE | {"key"}:
            continue
        target = _dashboard_url(route, names, theirs, rule_key)
        for method in ("get", "post"):
            resp = getattr(client, method)(target)
            if resp.status_code == 405:
                continue
            assert resp.status_code == 404, f"{method.upper()} {target}: {resp.status_code}"
            checked += 1
    assert checked >= 15
    assert_unchanged(before)


def test_reviewers_cannot_do_admin_actions(alice, worlds, client):
    mine, _ = worlds
    reviewer = make_member("Carol", role=Role.REVIEWER)
    reviewer.membership.workspace = alice.workspace
    reviewer.membership.save()
    api = reviewer.api()
    before = database_snapshot()
    put = api.put("/api/preferences", {"text": "Be lenient."}, content_type="application/json")
    assert put.status_code == 403 and put.json()["code"] == "forbidden"
    assert api.post("/api/preferences/versions/1/restore").status_code == 403
    assert api.get("/api/preferences").status_code == 200  # reading is fine

    client.force_login(reviewer.membership.user)
    rule_key = Rule.objects.filter(version__playbook_id=mine["playbook_id"]).first().key
    admin_posts = ["/keys/new/", f"/keys/{mine['key_id']}/revoke/", "/playbooks/import/",
                   f"/playbooks/{mine['playbook_id']}/rules/new/",
                   f"/playbooks/{mine['playbook_id']}/rules/{rule_key}/delete/",
                   f"/playbooks/{mine['playbook_id']}/rules/{rule_key}/toggle/",
                   f"/playbooks/{mine['playbook_id']}/versions/1/restore/", "/preferences/versions/1/restore/"]
    for path in admin_posts:
        assert client.post(path).status_code == 403, path
    assert_unchanged(before)  # no key issued or revoked, no playbook, rule or preference changed
