"""Fault injection with real processes: Redis stopped and started again, PostgreSQL restarted in
the middle of a run, and a model server answering with storms of 429s and 500s.

Each test starts what it breaks (its own Redis, Celery workers, the chat server);
PostgreSQL is the suite's own server, restarted in place.
"""

from __future__ import annotations

import re
import threading

import httpx
import pytest
from django.conf import settings as django_settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import OperationalError, connection

from redline.celery import app as celery_app
from redline.jobs import streams
from redline.jobs.progress import event_emit
from redline.models import AnalysisRun, Job, JobEvent, JobStatus, RunStatus
from redline.services.playbooks import playbook_default_install
from tests import settings as test_settings
from tests.ooxml.conftest import make_contract
from tests.servers import CeleryWorker, Redis
from tests.support.asgi_server import asgi_server
from tests.support.chat_server import ChatServer, Reply, completion, error, findings

from .conftest import wait_for, when_subscribed

pytestmark = pytest.mark.usefixtures("require_postgres")

PROVIDER_KEY = "sk-secret-redline-fault-test-7f3a9c1e5b"


def worker_env(redis_url: str, **extra: str) -> dict[str, str]:
    db = connection.settings_dict
    return {
        "DJANGO_SETTINGS_MODULE": "redline.settings",
        "DATABASE_URL": f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "CELERY_BROKER_URL": redis_url, "REDIS_URL": redis_url,
        "REDLINE_DATA_DIR": str(django_settings.DATA_DIR), "SECRET_KEY": django_settings.SECRET_KEY,
        **extra,
    }


@pytest.fixture
def scale_out(settings):
    """This process configured as a scale-out web server on its own Redis (which tests may stop)."""
    redis = Redis().start()
    settings.REDIS_URL = settings.CELERY_BROKER_URL = redis.url
    settings.CACHES = {"default": {"BACKEND": "redline.server.cache_backend.TolerantRedisCache", "LOCATION": redis.url,
                                   "OPTIONS": {"socket_connect_timeout": 1.0, "socket_timeout": 2.0}}}
    previous = celery_app.conf.broker_url
    _dispatch_to(redis.url)
    yield redis
    _dispatch_to(previous)
    redis.stop()


def _dispatch_to(broker_url: str) -> None:
    """Point this process's Celery producer at ``broker_url``: a changed setting alone leaves the
    app's pools on the broker earlier tests used. (Not closed: kombu shares them with other tests.)"""
    celery_app.conf.broker_url = broker_url
    celery_app._pool = None
    celery_app.amqp._producer_pool = None


def upload(member, data: bytes, name: str = "c.docx") -> dict:
    resp = member.api().post("/api/documents", {"file": SimpleUploadedFile(name, data)})
    assert resp.status_code in (200, 201), resp.content
    return resp.json()


def job_status(job_id: int) -> str:
    return Job.objects.get(pk=job_id).status


def health(member) -> tuple[int, dict]:
    resp = member.api().get("/api/health")
    return resp.status_code, resp.json()


# -- Redis -------------------------------------------------------------------------------------


def test_redis_outage_api_serves_sse_polls_health_reports_and_everything_resumes(alice, scale_out, tmp_path):
    playbook_default_install(workspace=alice.workspace)
    worker = CeleryWorker(worker_env(scale_out.url)).start()
    try:
        first = upload(alice, make_contract(tmp_path / "a.docx", 1).read_bytes(), "a.docx")
        assert wait_for(lambda: job_status(first["job_id"]) == JobStatus.SUCCEEDED, 60)
        doc_id = first["document"]["id"]
        run = alice.api().post(f"/api/documents/{doc_id}/runs", {}, content_type="application/json").json()
        assert wait_for(lambda: AnalysisRun.objects.get(pk=run["id"]).status == RunStatus.DONE, 60)
        assert health(alice)[0] == 200

        job = Job.objects.create(workspace=alice.workspace, kind="document.ingest", params={})
        event_emit(job=job, kind="started", data={})
        with asgi_server() as server:
            frames: list[dict] = []
            reader = threading.Thread(target=_read_stream, args=(server, alice.key, job.pk, frames))
            reader.start()
            assert wait_for(lambda: len(frames) == 1, 10)  # "started", waiting on pub/sub

            scale_out.stop()  # -- Redis goes away mid-stream
            event_emit(job=job, kind="progress", data={"stage": "read"})
            assert wait_for(lambda: len(frames) == 2, 10), "the stream did not fall back to polling"

            # The API keeps serving: reads, cached reads, uploads (the job waits for the broker).
            assert alice.api().get("/api/documents").status_code == 200
            assert alice.api().get(f"/api/runs/{run['id']}/suggestions").status_code == 200
            assert alice.api().get(f"/api/documents/{doc_id}/revisions").status_code == 200
            ask = alice.api().post(f"/api/documents/{doc_id}/ask", {"question": "How long is the term?"},
                                   content_type="application/json")
            assert ask.status_code == 200, ask.content
            during = upload(alice, make_contract(tmp_path / "b.docx", 1, "--seed", "7").read_bytes(), "b.docx")
            assert job_status(during["job_id"]) == JobStatus.QUEUED
            status, body = health(alice)
            assert status == 503 and body["cache"]["status"] == "down" and body["worker"]["status"] == "down"

            # A stream opened while Redis is down polls from the start.
            late: list[dict] = []
            late_reader = threading.Thread(target=_read_stream, args=(server, alice.key, job.pk, late))
            late_reader.start()
            assert wait_for(lambda: len(late) == 2, 10)
            event_emit(job=job, kind="done", data={})
            reader.join(10)
            late_reader.join(10)
            assert [f["event"] for f in frames] == [f["event"] for f in late] == ["started", "progress", "done"]
            assert wait_for(lambda: streams.open_streams() == 0, 5)

            scale_out.start()  # -- Redis is back (empty: it persists nothing)
            assert wait_for(lambda: health(alice)[0] == 200, 90), health(alice)
            assert wait_for(lambda: job_status(during["job_id"]) == JobStatus.SUCCEEDED, 90), \
                "the job uploaded during the outage was never run"
            _assert_pubsub_wakes_streams(server, alice)
    finally:
        worker.stop()


def _read_stream(server: str, key: str, job_id: int, frames: list[dict]) -> None:
    with httpx.stream("GET", f"{server}/api/jobs/{job_id}/events", headers={"Authorization": f"Bearer {key}"},
                      timeout=30) as resp:
        current: dict[str, str] = {}
        for line in resp.iter_lines():
            if line == "":
                if "id" in current:
                    frames.append(current)
                current = {}
            elif not line.startswith(":"):
                field, _, value = line.partition(":")
                current[field] = value.lstrip(" ")


def _assert_pubsub_wakes_streams(server: str, member) -> None:
    """With Redis back, a new stream is woken by pub/sub again, not by polling."""
    slow_polling, streams.POLL_S = streams.POLL_S, 30.0
    try:
        job = Job.objects.create(workspace=member.workspace, kind="document.ingest", params={})
        event_emit(job=job, kind="started", data={})
        frames: list[dict] = []
        reader = threading.Thread(target=_read_stream, args=(server, member.key, job.pk, frames))
        done = when_subscribed(django_settings.REDIS_URL, job.pk, lambda: event_emit(job=job, kind="done", data={}))
        reader.start()
        done.join(15)
        reader.join(10)
        assert [f["event"] for f in frames] == ["started", "done"]
    finally:
        streams.POLL_S = slow_polling


# -- PostgreSQL -----------------------------------------------------------------------------------


def _finds_one_thing(body: dict) -> Reply:
    first = re.search(r"^\[1\][^\n]*\n([^\n]+)", body["messages"][-1]["content"], re.MULTILINE)
    items = [{"paragraph": 1, "kind": "comment", "quote": first.group(1)[:40], "comment": "Check this."}]
    return completion(findings(*items) if first else findings(), delay=0.2)


def test_postgres_restart_during_a_run_is_retried_and_the_run_ends_done_once(alice, use_celery, settings, tmp_path):
    settings.OPENAI_API_KEY = PROVIDER_KEY
    playbook_default_install(workspace=alice.workspace)
    doc = upload(alice, make_contract(tmp_path / "c.docx", 2).read_bytes())
    with ChatServer(_finds_one_thing) as chat:
        worker = CeleryWorker(worker_env(use_celery, OPENAI_API_KEY=PROVIDER_KEY, OPENAI_BASE_URL=chat.url,
                                         REDLINE_OPENAI_CONCURRENCY="2")).start()
        try:
            run_id = alice.api().post(f"/api/documents/{doc['document']['id']}/runs", {"provider": "openai"},
                                      content_type="application/json").json()["id"]
            job_id = AnalysisRun.objects.get(pk=run_id).job_id
            assert wait_for(lambda: JobEvent.objects.filter(job_id=job_id, data__stage="analyze").exists(), 60), \
                worker.log.read_text()[-3000:]

            test_settings._pg.restart(down_s=3)  # every connection, the worker's included, breaks
            connection.close()  # this process reconnects on its next query

            def finished() -> bool:
                try:
                    return AnalysisRun.objects.get(pk=run_id).status in (RunStatus.DONE, RunStatus.ERROR)
                except OperationalError:  # this process's pool reconnects too (a request would get a 503)
                    connection.close()
                    return False

            assert wait_for(finished, 180), worker.log.read_text()[-3000:]
        finally:
            worker.stop()
    run = AnalysisRun.objects.get(pk=run_id)
    # Down 3 s, within the task's retries (1 + 2 + 4 s backoff): the retry continues the attempt and finishes.
    assert run.status == RunStatus.DONE, (run.error_message, run.job.error_code, worker.log.read_text()[-3000:])
    assert run.job.status == JobStatus.SUCCEEDED and run.job.attempts >= 2
    sids = list(run.suggestions.values_list("sid", flat=True))
    assert sids and len(sids) == len(set(sids)) == run.stats["suggestions"]
    kinds = list(JobEvent.objects.filter(job_id=job_id).order_by("seq").values_list("kind", flat=True))
    assert [k for k in kinds if k in ("done", "error", "cancelled")] == ["done"]
    assert run.finished_at is not None


# -- provider storms ------------------------------------------------------------------------------


def test_provider_429_and_500_storms_back_off_and_end_cleanly_without_leaking_the_key(alice, use_celery, settings,
                                                                                       tmp_path, caplog):
    settings.OPENAI_API_KEY = PROVIDER_KEY
    playbook_default_install(workspace=alice.workspace)
    passing = upload(alice, make_contract(tmp_path / "p.docx", 1).read_bytes(), "p.docx")
    failing = upload(alice, make_contract(tmp_path / "f.docx", 1, "--seed", "3").read_bytes(), "f.docx")
    storm = {"on": False}
    seen: dict[str, int] = {}
    lock = threading.Lock()

    def model(body: dict) -> Reply:
        with lock:
            text = body["messages"][-1]["content"]
            seen[text] = attempt = seen.get(text, 0) + 1
        if storm["on"]:  # a storm that never ends: every attempt of every call fails
            return error(503, "overloaded") if attempt % 2 else error(429, "slow down", {"retry-after-ms": "20"})
        if attempt == 1:  # a storm that passes: each call is rate limited, then fails, then is answered
            return error(429, "slow down", {"retry-after-ms": "20"})
        if attempt == 2:
            return error(500, "boom")
        return _finds_one_thing(body)

    max_retries = 3
    with ChatServer(model) as chat:
        worker = CeleryWorker(worker_env(use_celery, OPENAI_API_KEY=PROVIDER_KEY, OPENAI_BASE_URL=chat.url,
                                         REDLINE_OPENAI_MAX_RETRIES=str(max_retries))).start()
        try:
            responses = []
            for doc, storming in ((passing, False), (failing, True)):
                storm["on"] = storming
                resp = alice.api().post(f"/api/documents/{doc['document']['id']}/runs", {"provider": "openai"},
                                        content_type="application/json")
                responses.append(resp)
                run_id = resp.json()["id"]
                assert wait_for(lambda: AnalysisRun.objects.get(pk=run_id).status in (RunStatus.DONE, RunStatus.ERROR),
                                180), worker.log.read_text()[-3000:]
                responses.append(alice.api().get(f"/api/runs/{run_id}"))
                responses.append(alice.api().get(f"/api/runs/{run_id}/suggestions"))
                responses.append(alice.api().get(f"/api/jobs/{AnalysisRun.objects.get(pk=run_id).job_id}/events.json"))
        finally:
            worker.stop()
        # The key goes to the model server, and only there.
        assert all(r.headers.get("authorization") == f"Bearer {PROVIDER_KEY}" for r in chat.requests)

    calm, stormy = (AnalysisRun.objects.get(pk=r.json()["id"]) for r in responses[0::4])
    assert calm.status == RunStatus.DONE, calm.error_message
    assert calm.stats["suggestions"] > 0
    assert stormy.status == RunStatus.ERROR and stormy.error_message
    assert max(seen.values()) <= max_retries + 1, "retries are bounded per call"
    # The provider key never leaves the server: not in API answers, stored events, or any log.
    leaked = [r.content for r in responses if PROVIDER_KEY.encode() in r.content]
    assert not leaked
    assert PROVIDER_KEY not in worker.log.read_text()
    assert PROVIDER_KEY not in caplog.text
    assert not JobEvent.objects.filter(data__icontains=PROVIDER_KEY).exists()
