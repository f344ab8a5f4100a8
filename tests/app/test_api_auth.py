"""API key authentication: the one error shape for every refusal."""

from __future__ import annotations

import pytest
from django.test import Client

from redline.models import ApiKey
from redline.services.accounts import api_key_revoke


def _assert_error(resp, status: int, code: str) -> None:
    assert resp.status_code == status, resp.content
    body = resp.json()
    assert body["code"] == code
    assert isinstance(body["message"], str) and body["message"]
    assert isinstance(body["detail"], dict)


@pytest.mark.django_db
class TestApiKeys:
    def test_valid_key_is_accepted_and_marks_last_use(self, alice):
        assert ApiKey.objects.get(membership=alice.membership).last_used_at is None
        assert alice.api().get("/api/documents").status_code == 200
        assert ApiKey.objects.get(membership=alice.membership).last_used_at is not None

    def test_missing_key(self, alice):
        _assert_error(Client().get("/api/documents"), 401, "unauthorized")

    @pytest.mark.parametrize("header", ["Bearer nope", "Bearer rl_000000000000_x", "Basic abc", "Bearer "])
    def test_wrong_key(self, alice, header):
        _assert_error(Client(HTTP_AUTHORIZATION=header).get("/api/documents"), 401, "unauthorized")

    def test_key_with_right_prefix_but_wrong_secret(self, alice):
        prefix = alice.key.split("_")[1]
        _assert_error(Client(HTTP_AUTHORIZATION=f"Bearer rl_{prefix}_forged").get("/api/documents"), 401, "unauthorized")

    def test_revoked_key_fails_on_the_next_request(self, alice):
        client = alice.api()
        assert client.get("/api/documents").status_code == 200
        api_key_revoke(workspace=alice.workspace, key_id=ApiKey.objects.get(membership=alice.membership).pk)
        _assert_error(client.get("/api/documents"), 401, "unauthorized")

    def test_only_a_hash_is_stored(self, alice):
        key = ApiKey.objects.get(membership=alice.membership)
        assert alice.key not in (key.hashed_key, key.prefix)
        assert key.prefix in alice.key and len(key.hashed_key) == 64

    def test_health_needs_no_key(self, db):
        assert Client().get("/api/health").status_code == 200
