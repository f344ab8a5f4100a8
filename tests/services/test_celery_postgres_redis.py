"""Scale-out mode for real: PostgreSQL + Redis + a Celery worker process."""

from __future__ import annotations

import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from redline.models import DocumentVersion, Job, JobStatus, RunStatus
from redline.services.playbooks import playbook_default_install
from tests.ooxml.conftest import make_contract
from tests.servers import Redis
from tests.support.validator import assert_no_new_findings

from .conftest import wait_for


@pytest.mark.usefixtures("require_postgres")
def test_job_dispatched_through_redis_runs_on_the_worker_and_lands_in_postgres(
    alice, simple_docx, use_celery, celery_worker
):
    resp = alice.api().post("/api/documents", {"file": SimpleUploadedFile("c.docx", simple_docx)})
    assert resp.status_code == 201, resp.content
    job_id = resp.json()["job_id"]
    assert wait_for(lambda: Job.objects.get(pk=job_id).status in (JobStatus.SUCCEEDED, JobStatus.FAILED)), (
        celery_worker.log.read_text()[-3000:]
    )
    job = Job.objects.get(pk=job_id)
    assert job.status == JobStatus.SUCCEEDED, (job.error_code, job.error_message)
    assert job.worker.startswith("test-"), job.worker  # the Celery worker process, not this one
    assert job.attempts == 1
    assert DocumentVersion.objects.get(pk=resp.json()["version"]["id"]).paragraph_count == 2
    kinds = list(job.events.values_list("kind", flat=True))
    assert kinds[0] == "started" and kinds[-1] == "done"


@pytest.mark.usefixtures("require_postgres")
def test_redelivered_task_does_not_run_a_finished_job_twice(alice, simple_docx, use_celery, celery_worker):
    from redline.jobs.tasks import run_job_task

    job_id = alice.api().post("/api/documents", {"file": SimpleUploadedFile("c.docx", simple_docx)}).json()["job_id"]
    assert wait_for(lambda: Job.objects.get(pk=job_id).status == JobStatus.SUCCEEDED)
    events_before = Job.objects.get(pk=job_id).events.count()
    run_job_task.delay(job_id)  # a duplicate delivery, as acks_late may cause after a lost ack
    marker = Job.objects.create(workspace=alice.workspace, kind="document.ingest",
                                params=Job.objects.get(pk=job_id).params)
    run_job_task.delay(marker.pk)  # the solo worker runs in order: once the marker is done, so is the duplicate
    assert wait_for(lambda: Job.objects.get(pk=marker.pk).status == JobStatus.SUCCEEDED)
    job = Job.objects.get(pk=job_id)
    assert job.attempts == 1 and job.events.count() == events_before


@pytest.mark.usefixtures("require_postgres")
def test_health_with_every_service_up_reads_heartbeats_fast(use_celery, celery_worker, settings):
    # (the test database is emptied between tests: the worker's next pulse writes its heartbeat again)
    assert wait_for(lambda: Client().get("/api/health").status_code == 200, 3 * settings.REDLINE_WORKER_PULSE_S)
    timings, statuses = [], []
    for _ in range(100):
        started = time.perf_counter()
        resp = Client().get("/api/health")
        timings.append(time.perf_counter() - started)
        statuses.append(resp.json()["status"])
    ranked = sorted(timings)
    print(f"health, every service up: p50 {ranked[49] * 1000:.1f} ms, p99 {ranked[98] * 1000:.1f} ms, "
          f"max {ranked[-1] * 1000:.1f} ms over 100 calls")
    # Every part answered within the check's deadline each time (a part that did not is reported "down"), and
    # nothing waited out a broadcast ping (Celery's default ping waits a second for replies): a guard, not a figure.
    assert statuses == ["ok"] * 100, statuses
    assert ranked[-1] < 1.0, f"a health check took {ranked[-1]:.2f} s"
    body = resp.json()
    assert body["status"] == "ok", body
    assert body["database"]["detail"] == "postgresql"
    assert body["cache"] == {"status": "ok", "detail": "redis"}
    assert body["worker"]["status"] == "ok" and "celery" in body["worker"]["detail"]


@pytest.mark.usefixtures("require_postgres")
def test_health_with_redis_and_worker_down(settings):
    dead = Redis()  # a port nothing listens on
    settings.REDIS_URL = settings.CELERY_BROKER_URL = dead.url
    resp = Client().get("/api/health")
    assert resp.status_code == 503
    body = resp.json()
    assert body["status"] == "degraded"
    assert body["database"]["status"] == "ok"
    assert body["cache"]["status"] == "down" and body["worker"]["status"] == "down"


@pytest.mark.usefixtures("require_postgres")
def test_health_with_broker_up_but_no_worker(settings):
    lonely = Redis().start()  # a broker no worker listens to
    try:
        settings.REDIS_URL = settings.CELERY_BROKER_URL = lonely.url
        body = Client().get("/api/health").json()
    finally:
        lonely.stop()
    assert body["cache"]["status"] == "ok"
    assert body["worker"] == {"status": "down", "detail": "no celery worker heartbeat"}


@pytest.mark.usefixtures("require_postgres")
def test_patches_the_worker_writes_pass_the_open_xml_validator(alice, use_celery, celery_worker, tmp_path):
    """Files written in the Celery worker process are out of the in-process spy's sight
    (tests/support/written.py): the add-in's patches are judged here against the upload."""
    contract = make_contract(tmp_path / "c.docx", 3).read_bytes()
    playbook_default_install(workspace=alice.workspace)
    up = alice.api().post("/api/documents", {"file": SimpleUploadedFile("msa.docx", contract)}).json()
    run_id = alice.api().post(f"/api/documents/{up['document']['id']}/runs", {},
                              content_type="application/json").json()["id"]
    done = (RunStatus.DONE, RunStatus.ERROR)
    assert wait_for(lambda: alice.api().get(f"/api/runs/{run_id}").json()["status"] in done, timeout=120), (
        celery_worker.log.read_text()[-3000:])
    assert alice.api().get(f"/api/runs/{run_id}").json()["status"] == RunStatus.DONE
    patches = [s["patch"].encode() for s in alice.api().get(f"/api/runs/{run_id}/suggestions").json() if s["patch"]]
    assert patches
    for patch in patches:
        assert_no_new_findings(contract, patch)
