"""Issue #31 (6): a stream ticket opens one stream, dies with the key that asked for it, and never reaches
the access log. Through a real uvicorn: before, three opens of one ticket all answered 200, a ticket still
worked after its key was revoked, and the access log kept it for its five-minute life."""

from __future__ import annotations

import logging
import os
import subprocess
import sys

import httpx
import pytest

from redline.jobs.progress import event_emit
from redline.models import ApiKey, Job
from redline.server.logs import TicketRedactor, redact_tickets
from tests.support.asgi_server import asgi_server


@pytest.fixture
def finished_job(alice, transactional_db) -> Job:
    job = Job.objects.create(workspace=alice.workspace, kind="document.ingest", params={})
    event_emit(job=job, kind="done", data={})
    return job


def _ticket(server: str, alice, job: Job) -> str:
    resp = httpx.post(f"{server}/api/jobs/{job.pk}/ticket", headers={"Authorization": f"Bearer {alice.key}"})
    assert resp.status_code == 200
    return resp.json()["ticket"]


def test_a_ticket_opens_one_stream_only(alice, finished_job):
    with asgi_server() as server:
        ticket = _ticket(server, alice, finished_job)
        url = f"{server}/api/jobs/{finished_job.pk}/events"
        first = httpx.get(url, params={"ticket": ticket})
        assert first.status_code == 200 and "event: done" in first.text  # positive control
        replays = [httpx.get(url, params={"ticket": ticket}).status_code for _ in range(2)]
        assert replays == [401, 401]
        assert httpx.get(url, params={"ticket": _ticket(server, alice, finished_job)}).status_code == 200


def test_a_ticket_dies_with_the_key_that_asked_for_it(alice, finished_job):
    with asgi_server() as server:
        ticket = _ticket(server, alice, finished_job)
        ApiKey.objects.filter(membership=alice.membership).update(revoked_at=finished_job.created_at)
        resp = httpx.get(f"{server}/api/jobs/{finished_job.pk}/events", params={"ticket": ticket})
        assert resp.status_code == 401 and resp.json()["code"] == "unauthorized"


class _Kept(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


def test_the_access_log_never_holds_a_ticket(alice, finished_job):
    access = logging.getLogger("uvicorn.access")
    kept = _Kept()
    with asgi_server() as server:
        access.addHandler(kept)
        level, access.level = access.level, logging.INFO
        redact_tickets()  # what redline/asgi.py does at start-up
        try:
            ticket = _ticket(server, alice, finished_job)
            httpx.get(f"{server}/api/jobs/{finished_job.pk}/events", params={"ticket": ticket, "last_event_id": 0})
        finally:
            access.removeHandler(kept)
            access.setLevel(level)
    assert any("/events?ticket=[redacted]&last_event_id=0" in line for line in kept.lines), kept.lines  # logged...
    assert not any(ticket in line for line in kept.lines)  # ...without the ticket


def test_the_server_entry_point_installs_the_redactor(tmp_path):
    # scripts/run serves redline.asgi:application; importing it (production settings, a broker configured so no
    # in-process worker starts) puts the redactor on uvicorn's access log.
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "redline.settings", "SECRET_KEY": "x", "CELERY_BROKER_URL": "memory://",
           "REDLINE_DATA_DIR": str(tmp_path), "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"}
    done = subprocess.run([sys.executable, "-c", "import logging, redline.asgi; from redline.server.logs import "
                           "TicketRedactor; print(any(isinstance(f, TicketRedactor) for f in "
                           "logging.getLogger('uvicorn.access').filters))"],
                          capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path)
    assert done.stdout.strip().endswith("True"), done.stderr[-2000:]


def test_the_redactor_leaves_other_urls_alone():
    record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d',
                               ("127.0.0.1:5", "GET", "/api/runs/3/events?ticket=abc.def:ghi&x=1", "1.1", 200), None)
    TicketRedactor().filter(record)
    assert record.getMessage() == '127.0.0.1:5 - "GET /api/runs/3/events?ticket=[redacted]&x=1 HTTP/1.1" 200'
    plain = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1, "%s", ("/api/documents?page=2",), None)
    TicketRedactor().filter(plain)
    assert plain.getMessage() == "/api/documents?page=2"
