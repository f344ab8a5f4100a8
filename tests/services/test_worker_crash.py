"""Kill the Celery worker in the middle of a review: the run is redelivered, finishes, and stores
each suggestion once (acks_late + idempotent tasks + deterministic suggestion ids)."""

from __future__ import annotations

import os
import re
import signal
import time

import pytest
from django.conf import settings as django_settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection

from redline.models import AnalysisRun, JobEvent, RunStatus, Suggestion
from redline.services.playbooks import playbook_default_install
from tests.ooxml.conftest import make_contract
from tests.servers import CeleryWorker
from tests.support.chat_server import ChatServer, completion, findings

from .conftest import wait_for


def _worker_env(redis_url: str, chat_url: str) -> dict[str, str]:
    db = connection.settings_dict
    return {
        "DJANGO_SETTINGS_MODULE": "redline.settings",
        "DATABASE_URL": f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "CELERY_BROKER_URL": redis_url, "REDIS_URL": redis_url,
        "REDLINE_DATA_DIR": str(django_settings.DATA_DIR), "SECRET_KEY": django_settings.SECRET_KEY,
        "CELERY_VISIBILITY_TIMEOUT_S": "4",
        "OPENAI_API_KEY": "test-key", "OPENAI_BASE_URL": chat_url, "REDLINE_OPENAI_MODEL": "slow-model",
        "REDLINE_OPENAI_CONCURRENCY": "4",
    }


@pytest.mark.usefixtures("require_postgres")
def test_killed_worker_mid_run_is_redelivered_without_duplicates(alice, use_celery, settings, tmp_path):
    def slow_model(body: dict) -> object:  # every call takes a while, and finds one thing in paragraph 1
        first = re.search(r"^\[1\][^\n]*\n([^\n]+)", body["messages"][-1]["content"], re.MULTILINE)
        items = [{"paragraph": 1, "kind": "comment", "quote": first.group(1)[:40], "comment": "Check this."}]
        return completion(findings(*items) if first else findings(), delay=0.3)

    settings.OPENAI_API_KEY = "test-key"
    playbook_default_install(workspace=alice.workspace)
    data = make_contract(tmp_path / "c.docx", 2).read_bytes()
    up = alice.api().post("/api/documents", {"file": SimpleUploadedFile("c.docx", data)}).json()
    with ChatServer(slow_model) as chat:
        env = _worker_env(use_celery, chat.url)
        first = CeleryWorker(env).start()
        try:
            run_id = alice.api().post(f"/api/documents/{up['document']['id']}/runs", {"provider": "openai"},
                                      content_type="application/json").json()["id"]
            run = AnalysisRun.objects.get(pk=run_id)
            assert wait_for(lambda: JobEvent.objects.filter(job_id=run.job_id, kind="progress",
                                                            data__stage="analyze").exists(), 60)
            os.kill(first.proc.pid, signal.SIGKILL)  # mid-run, before the ack
            first.proc.wait(10)
        finally:
            first.stop()
        assert AnalysisRun.objects.get(pk=run_id).status == RunStatus.RUNNING
        time.sleep(5)  # past the visibility timeout: the next worker restores the unacknowledged job at start
        second = CeleryWorker(env).start()
        try:
            assert wait_for(lambda: AnalysisRun.objects.get(pk=run_id).status in (RunStatus.DONE, RunStatus.ERROR),
                            120), second.log.read_text()[-3000:]
        finally:
            second.stop()
    run = AnalysisRun.objects.get(pk=run_id)
    assert run.status == RunStatus.DONE, run.error_message
    assert run.job.attempts == 2
    sids = list(Suggestion.objects.filter(run=run).values_list("sid", flat=True))
    assert sids and len(sids) == len(set(sids)) == run.stats["suggestions"]
