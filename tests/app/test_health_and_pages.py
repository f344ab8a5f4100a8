"""Health on embedded defaults, the API docs, and the login-protected dashboard."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.test import Client

from redline.models import ApiKey, Membership, Role


@pytest.mark.django_db
def test_health_on_embedded_defaults():
    resp = Client().get("/api/health")
    assert resp.status_code == 200
    body = resp.json()
    assert body["status"] == "ok"
    assert body["database"] == {"status": "ok", "detail": "sqlite"} or body["database"]["detail"] == "postgresql"
    assert body["cache"]["status"] == "ok" and body["worker"]["status"] == "ok"


@pytest.mark.django_db
def test_health_reports_a_database_outage(monkeypatch):
    from django.db import connection

    def broken_cursor(*args, **kwargs):
        raise connection.Database.OperationalError("connection refused")

    # on the database wrapper's class: the check runs on a thread of its own (tests/services stops a real one)
    monkeypatch.setattr(type(connection._connections[connection._alias]), "cursor", broken_cursor)
    resp = Client().get("/api/health")
    assert resp.status_code == 503
    assert resp.json()["status"] == "degraded" and resp.json()["database"]["status"] == "down"
    assert resp.json()["down"] == ["database"]


@pytest.mark.django_db
def test_openapi_and_docs_render():
    schema = Client().get("/api/openapi.json")
    assert schema.status_code == 200
    paths = schema.json()["paths"]
    assert {"/api/health", "/api/documents", "/api/jobs/{job_id}"} <= set(paths)
    assert "422" in paths["/api/documents"]["post"]["responses"]
    docs = Client().get("/api/docs")
    assert docs.status_code == 200 and b"openapi.json" in docs.content


@pytest.mark.django_db
def test_dashboard_requires_login_and_login_works(alice):
    anon = Client().get("/")
    assert anon.status_code == 302 and anon["Location"].startswith("/login/")
    client = Client()
    bad = client.post("/login/", {"username": "alice", "password": "wrong"})
    assert bad.status_code == 200 and b"didn't match" in bad.content
    ok = client.post("/login/", {"username": "alice", "password": alice.password})
    assert ok.status_code == 302
    home = client.get("/")
    assert home.status_code == 200 and b"Alice LLP" in home.content


@pytest.mark.django_db
def test_workspace_switch_only_to_own_workspaces(alice, bob):
    client = Client()
    client.login(username="alice", password=alice.password)
    client.post("/workspace/", {"workspace": bob.workspace.pk})
    assert b"Alice LLP" in client.get("/").content
    assert b"Bob LLP" not in client.get("/").content


@pytest.mark.django_db
def test_demo_is_idempotent(capsys, monkeypatch):
    monkeypatch.setenv("REDLINE_DEMO_PASSWORD", "demo-password-123")
    call_command("demo")
    first = capsys.readouterr().out
    assert "admin / demo-password-123" in first and "rl_" in first
    call_command("demo")
    second = capsys.readouterr().out
    assert "rl_" not in second
    assert Membership.objects.get(user__username="admin").role == Role.ADMIN
    assert ApiKey.objects.count() == 1
    assert Client().login(username="admin", password="demo-password-123")
