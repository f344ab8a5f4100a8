"""Kill a Celery worker (SIGKILL) in the middle of a review: the run resumes from the workers' own
pulse once the killed attempt's lease lapses: the reaper's log line names the job, attempt 2 starts after
the old lease's end, and no message the killed worker had received is delivered again (no broker
redelivery, no cron). It ends ``done``, with one ``started`` per attempt, exactly one terminal event, and
each suggestion stored once; a client following the stream sees the retried attempt, never ``error``.

How long the resumption takes is a figure, not a bound: these tests print it (``pytest -s``) and only
guard against a hang; ``scripts/faults --only worker --lease 30`` measures it (the median over several kills).
"""

from __future__ import annotations

import logging
import os
import re
import signal
import threading
import time
from collections.abc import Callable, Iterator
from datetime import datetime

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

HANG_S = 180  # a hang guard, not a figure: resumption takes a lease (30 s) and up to a pulse (5 s)
TERMINAL = {"done", "error", "cancelled"}
RECEIVED = re.compile(r"Task redline\.run_job\[([0-9a-f-]+)\] received")
REAPED = re.compile(r"resuming \d+ job\(s\) whose worker went away: \[([\d, ]+)\]")  # redline.services.reaper


@pytest.fixture
def reaped_here() -> Iterator[list[str]]:
    """What the reaper logs in this process (its in-process loop), read off the reaper's own logger: starting the
    ASGI server runs ``django.setup()`` again, whose logging config replaces the root's handlers, pytest's caplog
    handler with them."""
    lines: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(record.getMessage())

    keep, reaper = Keep(), logging.getLogger("redline.services.reaper")
    reaper.addHandler(keep)
    try:
        yield lines
    finally:
        reaper.removeHandler(keep)


def _slow_model(body: dict) -> object:
    """Every call takes a while, and finds one thing in paragraph 1."""
    first = re.search(r"^\[1\][^\n]*\n([^\n]+)", body["messages"][-1]["content"], re.MULTILINE)
    items = [{"paragraph": 1, "kind": "comment", "quote": first.group(1)[:40], "comment": "Check this."}]
    return completion(findings(*items) if first else findings(), delay=0.3)


def _follow(server: str, key: str, job_id: int, frames: list[tuple[str, dict]]) -> None:
    """A task pane's stream from the start of the run to its terminal event."""
    import json

    with httpx.stream("GET", f"{server}/api/jobs/{job_id}/events", headers={"Authorization": f"Bearer {key}"},
                      timeout=httpx.Timeout(10, read=HANG_S + 30)) as resp:
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


def _kill(worker: CeleryWorker, job_id: int) -> tuple[float, datetime]:
    """SIGKILL mid-run, before the ack: no clean shutdown, no heartbeat removal. Returns when (wall clock)
    and the end of the lease the killed attempt held (nobody renews it any more)."""
    os.kill(worker.proc.pid, signal.SIGKILL)
    worker.proc.wait(10)
    killed_at = time.time()
    lease_end = Job.objects.get(pk=job_id).lease_until
    assert lease_end is not None
    return killed_at, lease_end


def _wait_ended(run: AnalysisRun, killed_at: float, survivor: CeleryWorker) -> float:
    """Seconds from the kill until the run ended; fails only past the hang guard."""
    ended = wait_for(lambda: AnalysisRun.objects.get(pk=run.pk).status in (RunStatus.DONE, RunStatus.ERROR), HANG_S)
    waited = time.time() - killed_at
    assert ended, (f"the run had not ended {waited:.0f} s after the kill (hang guard {HANG_S} s):\n"
                   + survivor.log.read_text(errors="replace")[-3000:])
    return waited


def _measured(run: AnalysisRun, killed_at: float, lease_end: datetime, ended_s: float, label: str,
              record_property: Callable[[str, object], None]) -> str:
    """The recovery figures of this kill, printed (``pytest -s``) and returned for assertion messages."""
    started = JobEvent.objects.filter(job_id=run.job_id, kind="started", data__attempt=2).first()
    resumed_s = started.created_at.timestamp() - killed_at if started else float("nan")
    record_property("resumed_after_s", round(resumed_s, 1))
    figure = (f"{label}: the killed attempt's lease ended {lease_end.timestamp() - killed_at:.1f} s after the kill, "
              f"attempt 2 started after {resumed_s:.1f} s, the run ended after {ended_s:.1f} s "
              f"(lease {django_settings.REDLINE_JOB_LEASE_S:g} s, pulse {django_settings.REDLINE_WORKER_PULSE_S:g} s; "
              f"hang guard {HANG_S} s)")
    print(f"\n{figure}")
    return figure


def _assert_the_reaper_resumed_it(job_id: int, lease_end: datetime, killed: CeleryWorker, survivor: CeleryWorker,
                                  figure: str, here: str) -> None:
    """The lapsed-lease reaper resumed the job, not the broker: its log line names the job, attempt 2 started
    after the killed attempt's lease ended, and the survivor received none of the messages the killed worker
    had (a redelivered message keeps its id; the reaper dispatches a new one).

    Every pulse runs the reaper: the surviving worker's, and the in-process loop of this test process (``here``,
    its captured log), which dispatches through the same broker; whichever comes first resumes the job."""
    log = survivor.log.read_text(errors="replace")
    reaped = {int(i) for text in (log, here) for m in REAPED.finditer(text) for i in m.group(1).split(",")}
    assert job_id in reaped, (f"{figure}\nno reaper line for job {job_id} in the survivor's log or this process's:"
                              f"\n{log[-3000:]}\n{here[-2000:]}")
    started = JobEvent.objects.get(job_id=job_id, kind="started", data__attempt=2).created_at
    assert started > lease_end, f"{figure}\nattempt 2 started at {started}, before the old lease's end {lease_end}"
    had, got = set(RECEIVED.findall(killed.log.read_text(errors="replace"))), set(RECEIVED.findall(log))
    assert had and got and not had & got, f"{figure}\nmessages delivered again: {had & got} (killed: {had}; survivor: {got})"


def _assert_resumed_exactly_once(run: AnalysisRun, frames: list[tuple[str, dict]], survivor: str, figure: str) -> None:
    run.refresh_from_db()
    job = Job.objects.get(pk=run.job_id)
    assert run.status == RunStatus.DONE, f"{figure}\n{run.error_message}"
    assert job.attempts == 2 and job.worker.startswith(survivor), (figure, job.attempts, job.worker)
    events = list(JobEvent.objects.filter(job=job).order_by("seq").values_list("kind", "data"))
    assert [d["attempt"] for k, d in events if k == "started"] == [1, 2], figure  # one per attempt
    assert [k for k, _ in events if k in TERMINAL] == ["done"], figure  # exactly one, and not an error first
    sids = list(Suggestion.objects.filter(run=run).values_list("sid", flat=True))
    assert sids and len(sids) == len(set(sids)) == run.stats["suggestions"]
    # The client that followed from the start: attempt 1, then attempt 2 from its "started", then "done" once.
    kinds = [k for k, _ in frames]
    assert kinds.count("started") == 2 and [k for k in kinds if k in TERMINAL] == ["done"] and kinds[-1] == "done"
    assert [d["attempt"] for k, d in frames if k == "started"] == [1, 2]


@pytest.mark.usefixtures("require_postgres")
def test_killed_worker_restarted_resumes_the_run_exactly_once(alice, review, record_property, reaped_here):
    env, data = review
    first = CeleryWorker(env, name="crashy").start()
    try:
        run = _start_run(alice, data)
        with asgi_server() as server:
            frames: list[tuple[str, dict]] = []
            reader = threading.Thread(target=_follow, args=(server, alice.key, run.job_id, frames))
            reader.start()
            assert wait_for(lambda: bool(frames), 10)
            killed_at, lease_end = _kill(first, run.job_id)
            assert AnalysisRun.objects.get(pk=run.pk).status == RunStatus.RUNNING
            restarted = CeleryWorker(env, name="crashy").start()  # the same worker, back (systemd restarts it)
            try:
                ended_s = _wait_ended(run, killed_at, restarted)
            finally:
                restarted.stop()
            reader.join(30)
    finally:
        first.stop()
    figure = _measured(run, killed_at, lease_end, ended_s, "restarted worker", record_property)
    _assert_the_reaper_resumed_it(run.job_id, lease_end, first, restarted, figure, "\n".join(reaped_here))
    _assert_resumed_exactly_once(run, frames, "crashy", figure)


@pytest.mark.usefixtures("require_postgres")
def test_with_two_workers_the_survivor_takes_over_the_killed_ones_run(alice, review, record_property, reaped_here):
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
            killed_at, lease_end = _kill(workers[holder], run.job_id)
            ended_s = _wait_ended(run, killed_at, workers[survivor])
            reader.join(30)
    finally:
        for worker in workers.values():
            worker.stop()
    figure = _measured(run, killed_at, lease_end, ended_s, "two workers, one killed", record_property)
    _assert_the_reaper_resumed_it(run.job_id, lease_end, workers[holder], workers[survivor], figure,
                                  "\n".join(reaped_here))
    _assert_resumed_exactly_once(run, frames, survivor, figure)
    assert django_settings.REDLINE_JOB_LEASE_S == 30  # the default lease, not a test-only one
