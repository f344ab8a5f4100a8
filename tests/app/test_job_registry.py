"""The job layer runs what the services registered (redline.jobs.registry), never importing a service."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from redline.jobs import registry
from redline.jobs.pulse import Pulse
from redline.jobs.tasks import job_run
from redline.models import Job, JobEvent, JobStatus, WorkerHeartbeat
from redline.services import documents, health, reaper, runs


def _echo(job: Job, progress: Any) -> dict[str, Any]:
    progress("progress", {"stage": "echo", "done": 1, "total": 1})
    return {"echo": job.params}


def test_the_app_registered_the_products_job_kinds_and_worker_duties():
    assert registry.handler_for("document.ingest") is documents.document_version_ingest
    assert registry.handler_for(runs.RUN_JOB) is runs.run_execute
    assert registry.handler_for("no.such.kind") is None
    assert registry._duties["worker_start"] == [reaper.runs_reap_stale]
    assert registry._duties["pulse"] == [reaper.reap_on_pulse]
    assert registry._duties["heartbeat"] == [health.heartbeat_record]
    assert registry._duties["heartbeat_forget"] == [health.heartbeat_forget]


def test_a_job_runs_the_handler_its_kind_registered(alice):
    registry.handler_register("test.echo", _echo)
    registry.handler_register("test.echo", _echo)  # the same handler again (a module imported twice) is fine
    job = Job.objects.create(workspace=alice.workspace, kind="test.echo", params={"n": 3})
    job_run(job.pk, worker="test")
    job.refresh_from_db()
    assert (job.status, job.result) == (JobStatus.SUCCEEDED, {"echo": {"n": 3}})
    kinds = list(JobEvent.objects.filter(job=job).order_by("seq").values_list("kind", flat=True))
    assert kinds == ["started", "progress", "done"]


def test_a_kind_has_one_handler():
    with pytest.raises(ValueError, match="already has a handler"):
        registry.handler_register("document.ingest", _echo)
    assert registry.handler_for("document.ingest") is documents.document_version_ingest


def test_an_unknown_moment_is_refused():
    with pytest.raises(KeyError):
        registry.duty_register("pulse_typo", _echo)


def test_a_celery_workers_pulse_beats_and_forgets_through_the_registered_duties(db, settings):
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"
    Pulse("worker-a", 5.0).beat(1)
    beat = WorkerHeartbeat.objects.get(hostname="worker-a")
    assert beat.broker == health.broker_fingerprint(settings.CELERY_BROKER_URL)
    assert health.heartbeats_alive(broker_url=settings.CELERY_BROKER_URL) == 1
    registry.duties_run("heartbeat_forget", hostname="worker-a")
    assert not WorkerHeartbeat.objects.filter(hostname="worker-a").exists()


def test_the_celery_app_loads_before_django_is_set_up_and_finds_the_job_task(tmp_path):
    """``celery -A redline worker`` imports redline.celery (and the pulse, and the registry) before Django is
    set up, so the job layer must not need models at import time; the task keeps its registered name."""
    code = ("import redline.celery as c, django; django.setup(); c.app.loader.import_default_modules(); "
            "print(sorted(t for t in c.app.tasks if t.startswith('redline.')))")
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env["REDLINE_DATA_DIR"] = str(tmp_path)
    result = subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).resolve().parents[2], env=env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "['redline.run_job']"
