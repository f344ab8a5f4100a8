"""Issue #31 (2): preferences changed at once all land, and a stale replace is refused.

Ten simultaneous appends through a real uvicorn on PostgreSQL: before, each built its text from what it read
before taking the workspace's lock, and only 2-3 of the 10 lines survived. Now the text is computed under the
lock; a replace sent against an old version gets 409 ``version_conflict``."""

from __future__ import annotations

import threading

import httpx
import pytest
from django.db import connection

from redline.models import PreferencesVersion
from redline.services.preferences import preferences_current, preferences_edit
from tests.support.asgi_server import asgi_server

pytestmark = pytest.mark.usefixtures("require_postgres")


def test_ten_appends_at_once_keep_all_ten_lines(alice):
    headers = {"Authorization": f"Bearer {alice.key}"}
    lines = [f"- Prefer mutual caps, point {n}." for n in range(10)]
    answers: list[int] = []
    with asgi_server() as server:
        barrier = threading.Barrier(len(lines))

        def append(line: str) -> None:
            with httpx.Client(timeout=30) as client:
                barrier.wait()
                answers.append(client.put(f"{server}/api/preferences", headers=headers,
                                          json={"action": "append", "lines": [line], "reason": "race"}).status_code)

        threads = [threading.Thread(target=append, args=(line,)) for line in lines]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
    assert answers == [200] * 10
    text = preferences_current(workspace=alice.workspace).text
    assert [line for line in lines if line not in text] == []  # every line survived
    assert PreferencesVersion.objects.filter(workspace=alice.workspace).count() == 10


def test_model_and_learning_style_edits_at_once_apply_one_after_the_other(alice):
    """The service every path uses (the API, learning, the model's updates): each edit sees the others'."""
    def add(n: int) -> None:
        try:
            preferences_edit(workspace=alice.workspace, edit=lambda text: f"{text}\n- line {n}".strip(),
                             author_kind="model", reason=f"edit {n}")
        finally:
            connection.close()

    threads = [threading.Thread(target=add, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    text = preferences_current(workspace=alice.workspace).text
    assert sorted(text.splitlines()) == sorted(f"- line {n}" for n in range(8))


def test_a_replace_against_an_old_version_is_refused_with_409(alice):
    headers = {"Authorization": f"Bearer {alice.key}"}
    with asgi_server() as server, httpx.Client(timeout=30, headers=headers) as client:
        first = client.put(f"{server}/api/preferences", json={"text": "- Prefer mutual caps.", "reason": "a"})
        assert first.status_code == 200 and first.json()["version"] == 1
        # a colleague saves version 2 meanwhile
        assert client.put(f"{server}/api/preferences", json={"text": "- Prefer low caps.", "reason": "b",
                                                            "base_version": 1}).status_code == 200
        stale = client.put(f"{server}/api/preferences", json={"text": "- Prefer no caps.", "reason": "c",
                                                             "base_version": 1})
        assert stale.status_code == 409 and stale.json()["code"] == "version_conflict"
        assert "version 2" in stale.json()["message"]
        by_header = client.put(f"{server}/api/preferences", json={"text": "- Prefer no caps.", "reason": "d"},
                               headers={"If-Match": '"1"'})
        assert by_header.status_code == 409
        current = client.put(f"{server}/api/preferences", json={"text": "- Prefer no caps.", "reason": "e"},
                             headers={"If-Match": '"2"'})
        assert current.status_code == 200 and current.json()["version"] == 3
    assert preferences_current(workspace=alice.workspace).text == "- Prefer no caps."
