"""Kill a Celery worker (SIGKILL) in the middle of a review: the run resumes from the workers' own
pulse once the killed attempt's lease lapses (no broker redelivery, no cron), ends ``done`` within
two minutes, with one ``started`` per attempt, exactly one terminal event, and each suggestion
stored once; a client following the stream sees the retried attempt, never ``error``."""

from __future__ import annotations

import os
import re
import signal
import threading
import time

import httpx
import pytest
from django.conf import settings as django_settings
from django.core.files.uploadedfile import SimpleUploadedFile

from redline.models import AnalysisRun, Job, JobEvent, RunStatus, Suggestion
from redline.services.playbooks import playbook_default_install
from tests.ooxml.conftest import make_contract
from tests.servers import CeleryWorker
from tests.support.asgi_server import asgi_server
from tests.support.chat_server import ChatServer, completion, findings

from .conftest import wait_for, worker_env_for

RECOVERY_S = 120  # the acceptance bound, with the default lease (30 s) and pulse (5 s)
TERMINAL = {"done", "error", "cancelled"}


def _slow_model(body: dict) -> object:
    """Every call takes a while, and finds one thing in paragraph 1."""
    first = re.search(r"^\[1\][^\n]*\n([^\n]+)", body["messages"][-1]["content"], re.MULTILINE)
    items = [{"paragraph": 1, "kind": "comment", "quote": first.group(1)[:40], "comment": "Check this."}]
    return completion(findings(*items) if first else findings(), delay=0.3)


def _follow(server: str, key: str, job_id: int, frames: list[tuple[str, dict]]) -> None:
    """A task pane's stream from the start of the run to its terminal event."""
    import json

    with httpx.stream("GET", f"{server}/api/jobs/{job_id}/events", headers={"Authorization": f"Bearer {key}"},
                      timeout=httpx.Timeout(10, read=RECOVERY_S + 30)) as resp:
        kind = ""
        for line in resp.iter_lines():
            if line.startswith("event: "):
                kind = line[7:]
            elif line.startswith("data: "):
                frames.append((kind, json.loads(line[6:])))


@pytest.fixture
def review(alice, use_celery, redis_server, settings, tmp_path):
    """Start a slow review on the given workers; yields a starter and the run's id holder."""
    settings.OPENAI_API_KEY = "test-key"
    playbook_default_install(workspace=alice.workspace)
    data = make_contract(tmp_path / "c.docx", 2).read_bytes()
    with ChatServer(_slow_model) as chat:
        env = worker_env_for(redis_server, OPENAI_API_KEY="test-key", OPENAI_BASE_URL=chat.url,
                             REDLINE_OPENAI_MODEL="slow-model", REDLINE_OPENAI_CONCURRENCY="4")
        yield env, data


def _start_run(alice, data: bytes) -> AnalysisRun:
    up = alice.api().post("/api/documents", {"file": SimpleUploadedFile("c.docx", data)}).json()
    assert wait_for(lambda: Job.objects.get(pk=up["job_id"]).status == "succeeded", 60)
    run_id = alice.api().post(f"/api/documents/{up['document']['id']}/runs", {"provider": "openai"},
                              content_type="application/json").json()["id"]
    run = AnalysisRun.objects.get(pk=run_id)
    assert wait_for(lambda: JobEvent.objects.filter(job_id=run.job_id, kind="progress",
                                                    data__stage="analyze").exists(), 60)
    return run


def _assert_resumed_exactly_once(run: AnalysisRun, frames: list[tuple[str, dict]], survivor: str) -> None:
    run.refresh_from_db()
    job = Job.objects.get(pk=run.job_id)
    assert run.status == RunStatus.DONE, run.error_message
    assert job.attempts == 2 and job.worker.startswith(survivor), (job.attempts, job.worker)
    events = list(JobEvent.objects.filter(job=job).order_by("seq").values_list("kind", "data"))
    assert [d["attempt"] for k, d in events if k == "started"] == [1, 2]  # one per attempt
    assert [k for k, _ in events if k in TERMINAL] == ["done"]  # exactly one, and not an error first
    sids = list(Suggestion.objects.filter(run=run).values_list("sid", flat=True))
    assert sids and len(sids) == len(set(sids)) == run.stats["suggestions"]
    # The client that followed from the start: attempt 1, then attempt 2 from its "started", then "done" once.
    kinds = [k for k, _ in frames]
    assert kinds.count("started") == 2 and [k for k in kinds if k in TERMINAL] == ["done"] and kinds[-1] == "done"
    assert [d["attempt"] for k, d in frames if k == "started"] == [1, 2]


def _kill(worker: CeleryWorker) -> None:
    os.kill(worker.proc.pid, signal.SIGKILL)  # mid-run, before the ack: no clean shutdown, no heartbeat removal
    worker.proc.wait(10)


@pytest.mark.usefixtures("require_postgres")
def test_killed_worker_restarted_resumes_the_run_exactly_once(alice, review):
    env, data = review
    first = CeleryWorker(env, name="crashy").start()
    try:
        run = _start_run(alice, data)
        with asgi_server() as server:
            frames: list[tuple[str, dict]] = []
            reader = threading.Thread(target=_follow, args=(server, alice.key, run.job_id, frames))
            reader.start()
            assert wait_for(lambda: bool(frames), 10)
            _kill(first)
            killed_at = time.monotonic()
            assert AnalysisRun.objects.get(pk=run.pk).status == RunStatus.RUNNING
            restarted = CeleryWorker(env, name="crashy").start()  # the same worker, back (systemd restarts it)
            try:
                assert wait_for(lambda: AnalysisRun.objects.get(pk=run.pk).status in (RunStatus.DONE, RunStatus.ERROR),
                                RECOVERY_S), restarted.log.read_text()[-3000:]
                recovered_s = time.monotonic() - killed_at
            finally:
                restarted.stop()
            reader.join(30)
    finally:
        first.stop()
    assert recovered_s <= RECOVERY_S
    _assert_resumed_exactly_once(run, frames, "crashy")


@pytest.mark.usefixtures("require_postgres")
def test_with_two_workers_the_survivor_takes_over_the_killed_ones_run(alice, review):
    env, data = review
    workers = {name: CeleryWorker(env, name=name).start() for name in ("left", "right")}
    try:
        run = _start_run(alice, data)
        holder = Job.objects.get(pk=run.job_id).worker.split("@")[0]
        survivor = ({"left", "right"} - {holder}).pop()
        with asgi_server() as server:
            frames: list[tuple[str, dict]] = []
            reader = threading.Thread(target=_follow, args=(server, alice.key, run.job_id, frames))
            reader.start()
            assert wait_for(lambda: bool(frames), 10)
            _kill(workers[holder])
            killed_at = time.monotonic()
            assert wait_for(lambda: AnalysisRun.objects.get(pk=run.pk).status in (RunStatus.DONE, RunStatus.ERROR),
                            RECOVERY_S), workers[survivor].log.read_text()[-3000:]
            recovered_s = time.monotonic() - killed_at
            reader.join(30)
    finally:
        for worker in workers.values():
            worker.stop()
    assert recovered_s <= RECOVERY_S
    _assert_resumed_exactly_once(run, frames, survivor)
    assert django_settings.REDLINE_JOB_LEASE_S == 30  # measured with the defaults, not a test-only lease
