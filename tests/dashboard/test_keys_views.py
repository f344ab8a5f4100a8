"""API keys: created and shown once, listed by prefix and last use, revoked; admins only."""

from __future__ import annotations

import re

import pytest

from redline.models import ApiKey, AuditEvent
from redline.services.accounts import api_key_authenticate
from tests.dashboard.conftest import HTMX


@pytest.mark.django_db
def test_create_shows_the_secret_once(admin, alice, carol):
    resp = admin.post("/keys/new/", {"name": "Word add-in", "member": carol.pk}, **HTMX)
    body = resp.content.decode()
    assert "no-store" in resp["Cache-Control"] and body.lstrip().startswith('<div id="keys">')
    secret = re.search(r'id="new-key" class="code" value="(rl_[^"]+)"', body).group(1)
    key = api_key_authenticate(secret=secret)
    assert key is not None and key.membership == carol and key.name == "Word add-in"
    assert f"rl_{key.prefix}_…" in body and 'data-copy="#new-key"' in body
    listing = admin.get("/keys/").content.decode()
    assert secret not in listing and f"rl_{key.prefix}_…" in listing and "Never" in listing
    assert secret[-20:] not in ApiKey.objects.get(pk=key.pk).hashed_key
    issued = AuditEvent.objects.get(action="api_key.issue", target=f"api_key:{key.pk}")
    assert issued.actor == alice.membership.user and issued.detail["for"] == "carol"  # who did it, not who got it


@pytest.mark.django_db
def test_create_validates_the_member_belongs_to_the_workspace(admin, bob):
    body = admin.post("/keys/new/", {"name": "x", "member": bob.membership.pk}, **HTMX).content.decode()
    assert "Select a valid choice" in body and ApiKey.objects.filter(name="x").count() == 0


@pytest.mark.django_db
def test_revoke(admin, alice):
    key = alice.membership.api_keys.get()
    row = admin.post(f"/keys/{key.pk}/revoke/", **HTMX).content.decode()
    assert row.lstrip().startswith(f'<tr id="key-{key.pk}" class="revoked">') and "Revoked" in row
    assert api_key_authenticate(secret=alice.key) is None
    assert alice.api().get("/api/documents").status_code == 401
    resp = admin.post(f"/keys/{key.pk}/revoke/")  # again, without JavaScript: idempotent
    assert resp.status_code == 302
    revoked = AuditEvent.objects.get(action="api_key.revoke")
    assert revoked.actor == alice.membership.user and revoked.target == f"api_key:{key.pk}"


@pytest.mark.django_db
def test_keys_are_for_admins(reviewer):
    assert reviewer.get("/keys/").status_code == 403
    assert reviewer.post("/keys/new/", {"name": "x"}).status_code == 403
