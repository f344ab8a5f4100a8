"""Exactly-once jobs (redline.jobs.leases, tasks, the lapsed-lease reaper) on the in-process worker:
a message runs its job only if it can claim it; a job whose worker died is resumed once its
lease lapses; an attempt that lost its job records nothing; every job ends with one terminal
event; a stream and the dashboard show the attempt that counts."""

from __future__ import annotations

from datetime import timedelta

import httpx
import pytest
from django.utils import timezone

from redline import selectors
from redline.jobs.leases import job_claim
from redline.jobs.progress import AttemptSuperseded, callback_for, event_emit
from redline.jobs.tasks import _finish, job_run
from redline.jobs.worker import in_process_worker
from redline.models import AnalysisRun, Job, JobEvent, JobStatus, RunStatus, Suggestion
from redline.services.documents import document_version_create
from redline.services.playbooks import playbook_default_install
from redline.services.reaper import STALE_CODE, jobs_reap_lapsed
from redline.services.runs import run_request
from tests.app.test_sse import read_frames
from tests.support.asgi_server import asgi_server

TERMINAL = ("done", "error", "cancelled")


@pytest.fixture(autouse=True)
def only_this_test_reaps(monkeypatch):
    """The in-process worker's own pulse stays out of the way: these tests call the reaper themselves."""
    from redline.jobs.worker import InProcessWorker

    monkeypatch.setattr(InProcessWorker, "_reap", staticmethod(lambda number: None))


def _lapse(job_id: int) -> None:
    Job.objects.filter(pk=job_id).update(lease_until=timezone.now() - timedelta(seconds=1))


def _kinds(job_id: int) -> list[str]:
    return list(JobEvent.objects.filter(job_id=job_id).order_by("seq").values_list("kind", flat=True))


def test_a_claimed_job_drops_messages_sent_twice_and_a_finished_one_drops_all(alice, transactional_db):
    job = Job.objects.create(workspace=alice.workspace, kind="no.such.kind", params={})
    held = job_claim(job.pk, worker="w1")
    assert held is not None and held.attempts == 1 and held.lease_until > timezone.now()
    assert job_claim(job.pk, worker="w2") is None  # a duplicate message: the lease is live
    assert job_claim(job.pk, worker="w2", holder=2) is None  # a retry of an attempt that does not hold it
    assert job_claim(job.pk, worker="w1", holder=1).attempts == 2  # the holder's own retry continues
    Job.objects.filter(pk=job.pk).update(status=JobStatus.SUCCEEDED)
    _lapse(job.pk)
    assert job_claim(job.pk, worker="w3") is None  # finished: never again


def test_a_killed_attempt_is_resumed_after_its_lease_and_the_run_ends_done_once(
        alice, simple_docx, transactional_db, settings, monkeypatch):
    from redline.jobs import dispatch

    settings.CELERY_BROKER_URL = ""
    version, *_ = document_version_create(workspace=alice.workspace, data=simple_docx, filename="a.docx",
                                            uploaded_by=None)
    assert in_process_worker().wait_idle(60)
    monkeypatch.setattr(dispatch, "job_dispatch", lambda job_id: None)  # this one's message reaches a doomed worker
    run, _ = run_request(version=version, playbook_version=playbook_default_install(workspace=alice.workspace),
                         provider="offline")
    monkeypatch.undo()
    attempt = job_claim(run.job_id, worker="killed")  # it claims, reports a little and vanishes (kill -9)
    AnalysisRun.objects.filter(pk=run.pk).update(status=RunStatus.RUNNING)
    event_emit(job=attempt, kind="started", data={"attempt": 1})
    event_emit(job=attempt, kind="progress", data={"stage": "read", "done": 1, "total": 1})
    event_emit(job=attempt, kind="suggestion", data={"id": "from-the-dead-attempt"})
    assert jobs_reap_lapsed() == []  # its lease still runs: nobody else may take it yet
    job_run(run.job_id, worker="duplicate message")  # nor may a message sent twice
    assert Job.objects.get(pk=run.job_id).attempts == 1
    _lapse(run.job_id)
    assert jobs_reap_lapsed() == [run.job_id]  # queued again and dispatched (to the in-process worker)
    assert in_process_worker().wait_idle(60)
    job = Job.objects.get(pk=run.job_id)
    assert (job.status, job.attempts, job.worker) == (JobStatus.SUCCEEDED, 2, "in-process")
    started = list(JobEvent.objects.filter(job=job, kind="started").order_by("seq").values_list("data", flat=True))
    assert started == [{"attempt": 1}, {"attempt": 2}]  # one per attempt
    kinds = _kinds(job.pk)
    assert sum(k in TERMINAL for k in kinds) == 1 and kinds[-1] == "done"
    run.refresh_from_db()
    assert run.status == RunStatus.DONE
    sids = list(Suggestion.objects.filter(run=run).values_list("sid", flat=True))
    assert sids and len(sids) == len(set(sids)) == run.stats["suggestions"]
    assert jobs_reap_lapsed() == []  # once


def test_an_attempt_that_lost_its_job_records_nothing(alice, transactional_db):
    job = Job.objects.create(workspace=alice.workspace, kind="document.ingest", params={})
    first = job_claim(job.pk, worker="slow")
    _lapse(job.pk)
    second = job_claim(job.pk, worker="fast")
    assert second.attempts == 2
    with pytest.raises(AttemptSuperseded):  # the first attempt's engine stops at its next event
        callback_for(first, held=lambda: False)("progress", {"stage": "read"})
    _finish(first, JobStatus.FAILED, error_code="internal_error", error_message="late")  # a zombie's outcome
    assert Job.objects.get(pk=job.pk).status == JobStatus.RUNNING and _kinds(job.pk) == []
    _finish(second, JobStatus.SUCCEEDED, result={})
    _finish(second, JobStatus.SUCCEEDED, result={})  # said twice: still one terminal event
    assert _kinds(job.pk) == ["done"]


def test_a_job_whose_workers_keep_dying_ends_as_an_error_once(alice, transactional_db, settings):
    settings.REDLINE_JOB_MAX_ATTEMPTS = 2
    job = Job.objects.create(workspace=alice.workspace, kind="document.ingest", params={}, status=JobStatus.RUNNING,
                             attempts=2)
    assert jobs_reap_lapsed() == []  # (no lease at all counts as lapsed)
    job.refresh_from_db()
    assert (job.status, job.error_code) == (JobStatus.FAILED, STALE_CODE)
    assert _kinds(job.pk) == ["error"]
    assert jobs_reap_lapsed() == [] and _kinds(job.pk) == ["error"]


def test_job_run_ignores_a_job_held_by_a_live_attempt(alice, transactional_db):
    job = Job.objects.create(workspace=alice.workspace, kind="document.ingest", params={})
    job_claim(job.pk, worker="elsewhere")
    job_run(job.pk, worker="here")
    job.refresh_from_db()
    assert (job.status, job.attempts, job.worker) == (JobStatus.RUNNING, 1, "elsewhere") and _kinds(job.pk) == []


def test_streams_and_the_dashboard_show_the_current_attempt(alice, transactional_db):
    job = Job.objects.create(workspace=alice.workspace, kind="document.ingest", params={})
    for kind, data in [("started", {"attempt": 1}), ("progress", {"stage": "analyze", "done": 3, "total": 9}),
                       ("suggestion", {"id": "a"}), ("started", {"attempt": 2})]:
        event_emit(job=job, kind=kind, data=data)
    run = AnalysisRun(job=job)
    assert selectors.run_last_progress(run=run) is None  # attempt 2 has reported nothing yet
    event_emit(job=job, kind="progress", data={"stage": "read", "done": 1, "total": 1})
    assert selectors.run_last_progress(run=run) == {"stage": "read", "done": 1, "total": 1}
    event_emit(job=job, kind="done", data={})
    headers = {"Authorization": f"Bearer {alice.key}"}
    with asgi_server() as server:
        for after, expected in [("0", ["4", "5", "6"]), ("2", ["4", "5", "6"]), ("5", ["6"])]:
            with httpx.stream("GET", f"{server}/api/jobs/{job.pk}/events", timeout=15,
                              headers={**headers, "Last-Event-ID": after}) as resp:
                frames = [f for f in read_frames(resp) if "id" in f]
            assert [f["id"] for f in frames] == expected, after
    assert frames[-1]["event"] == "done"
