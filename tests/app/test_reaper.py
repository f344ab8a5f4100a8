"""The stale-run reaper: a run whose job stopped making progress ends as ``error``, never stuck ``running``."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from redline.jobs.progress import event_emit
from redline.models import AnalysisRun, Job, JobEvent, JobStatus, RunStatus
from redline.services.documents import document_version_create
from redline.services.playbooks import playbook_default_install
from redline.services.reaper import STALE_MESSAGE, runs_reap_stale
from redline.services.runs import run_request


def _running_run(member, docx: bytes, *, idle_minutes: float) -> AnalysisRun:
    """A run whose job started and last reported progress ``idle_minutes`` ago (never dispatched here)."""
    version, *_ = document_version_create(workspace=member.workspace, data=docx, filename="a.docx",
                                            uploaded_by=None)
    run, _ = run_request(version=version, playbook_version=playbook_default_install(workspace=member.workspace),
                         provider="offline")
    then = timezone.now() - timedelta(minutes=idle_minutes)
    Job.objects.filter(pk=run.job_id).update(status=JobStatus.RUNNING, started_at=then, created_at=then)
    AnalysisRun.objects.filter(pk=run.pk).update(status=RunStatus.RUNNING, started_at=then)
    event_emit(job=run.job, kind="progress", data={"stage": "analyze", "done": 1, "total": 9})
    JobEvent.objects.filter(job=run.job).update(created_at=then)
    return run


@pytest.mark.django_db
def test_a_run_without_progress_for_too_long_ends_as_error(alice, simple_docx, settings):
    settings.REDLINE_STALE_RUN_MINUTES = 30
    stale = _running_run(alice, simple_docx, idle_minutes=45)
    assert runs_reap_stale() == [stale.job_id]
    stale.refresh_from_db()
    assert (stale.status, stale.error_message) == (RunStatus.ERROR, STALE_MESSAGE)
    assert stale.finished_at is not None
    job = Job.objects.get(pk=stale.job_id)
    assert (job.status, job.error_code) == (JobStatus.FAILED, "stale")
    assert job.events.order_by("-seq").first().kind == "error"  # a watching stream ends
    assert runs_reap_stale() == []  # once


@pytest.mark.django_db
def test_a_run_still_making_progress_is_left_alone(alice, simple_docx, settings):
    settings.REDLINE_STALE_RUN_MINUTES = 30
    busy = _running_run(alice, simple_docx, idle_minutes=45)
    event_emit(job=busy.job, kind="progress", data={"stage": "analyze", "done": 2, "total": 9})  # just now
    assert runs_reap_stale() == []
    busy.refresh_from_db()
    assert busy.status == RunStatus.RUNNING


@pytest.mark.django_db
def test_the_threshold_is_configurable_and_the_command_reports(alice, simple_docx, settings):
    settings.REDLINE_STALE_RUN_MINUTES = 60
    run = _running_run(alice, simple_docx, idle_minutes=45)
    assert runs_reap_stale() == []
    out = StringIO()
    call_command("reap_stale_runs", "--minutes", "10", stdout=out)
    assert out.getvalue().strip() == f"reaped 1 stale job(s): {run.job_id}"
    run.refresh_from_db()
    assert run.status == RunStatus.ERROR


@pytest.mark.django_db
def test_a_database_outage_leaves_the_run_running_for_the_retry_and_giving_up_ends_both(
        alice, simple_docx, monkeypatch):
    from django.db import OperationalError

    from redline.jobs.tasks import job_retry_or_fail, job_run
    from redline.services import runs

    version, *_ = document_version_create(workspace=alice.workspace, data=simple_docx, filename="a.docx",
                                            uploaded_by=None)
    run, _ = run_request(version=version, playbook_version=playbook_default_install(workspace=alice.workspace),
                         provider="offline")

    def database_gone(*args: object, **kwargs: object) -> None:
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(runs, "_review", database_gone)
    holder = None
    for attempt in (1, 2):
        with pytest.raises(OperationalError) as failed:
            job_run(run.job_id, holder=holder)
        holder = failed.value.attempt  # the retry continues the attempt that holds the job
        assert holder == attempt
        job_run(run.job_id)  # a message without the claim (sent twice) is dropped while the lease runs
        assert Job.objects.get(pk=run.job_id).attempts == attempt
        run.refresh_from_db()
        assert run.status == RunStatus.RUNNING and not run.error_message  # never "error", then "running" again
        assert not job_retry_or_fail(run.job_id, max_attempts=3)  # may be retried
    with pytest.raises(OperationalError):
        job_run(run.job_id, holder=holder)
    assert job_retry_or_fail(run.job_id, max_attempts=3)  # third attempt: gives up
    run.refresh_from_db()
    run.job.refresh_from_db()
    assert run.job.status == JobStatus.FAILED and run.job.error_code == "database_unavailable"
    assert run.status == RunStatus.ERROR and run.error_message == run.job.error_message and run.finished_at


@pytest.mark.django_db
def test_every_pulse_resumes_lapsed_jobs_and_about_once_a_minute_ends_stalled_runs(alice, simple_docx, settings):
    from redline.services.reaper import reap_on_pulse

    settings.REDLINE_STALE_RUN_MINUTES = 30
    stalled = _running_run(alice, simple_docx, idle_minutes=45)
    Job.objects.filter(pk=stalled.job_id).update(lease_until=timezone.now() + timedelta(minutes=1))  # alive, stuck
    reap_on_pulse(1, 5.0)  # not a stalled-run pulse
    assert Job.objects.get(pk=stalled.job_id).status == JobStatus.RUNNING
    reap_on_pulse(12, 5.0)  # a minute of 5 s pulses later
    assert Job.objects.get(pk=stalled.job_id).status == JobStatus.FAILED
