"""The paths clients hit most under load: what they cost, and that they stay correct.

- A finished run's suggestions are serialized once and then served from the cache;
  a run still in progress is always read fresh.
- Through the ASGI application, a request crosses between the event loop and
  threads a bounded number of times (Django's async middleware chain made it 17).
- Reading .docx files is admitted a few at a time per process.
"""

from __future__ import annotations

import asyncio
import threading

import pytest
from asgiref.sync import SyncToAsync
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext

from redline.jobs.worker import in_process_worker
from redline.models import AnalysisRun, RunStatus, Suggestion
from redline.services import files
from redline.services.playbooks import playbook_default_install
from tests.ooxml.conftest import make_contract
from tests.support.waiting import wait_for as wait_until


@pytest.fixture(scope="module")
def contract(tmp_path_factory) -> bytes:
    return make_contract(tmp_path_factory.mktemp("hot") / "c.docx", 2).read_bytes()


def reviewed(member, data: bytes) -> AnalysisRun:
    playbook_default_install(workspace=member.workspace)
    up = member.api().post("/api/documents", {"file": SimpleUploadedFile("msa.docx", data)}).json()
    run = member.api().post(f"/api/documents/{up['document']['id']}/runs", {}, content_type="application/json").json()
    assert in_process_worker().wait_idle(60)
    return AnalysisRun.objects.get(pk=run["id"])


@pytest.mark.django_db(transaction=True)
def test_a_finished_runs_suggestions_are_served_from_the_cache(alice, bob, contract):
    cache.clear()
    run = reviewed(alice, contract)
    assert run.status == RunStatus.DONE and run.suggestions.exists()
    url = f"/api/runs/{run.pk}/suggestions"
    with CaptureQueriesContext(connection) as first:
        fresh = alice.api().get(url)
    with CaptureQueriesContext(connection) as second:
        cached = alice.api().get(url)
    assert fresh.status_code == cached.status_code == 200 and fresh["Content-Type"] == "application/json"
    assert cached.json() == fresh.json()
    assert [s["pk"] for s in fresh.json()] == list(run.suggestions.order_by("position").values_list("pk", flat=True))
    assert not any("redline_suggestion" in q["sql"] for q in second.captured_queries)  # not read again
    assert any("redline_suggestion" in q["sql"] for q in first.captured_queries)
    assert bob.api().get(url).status_code == 404  # the cache never skips the workspace check
    # An export changes the outcomes, so the body: never a stale cached one.
    assert {s["outcome"] for s in cached.json()} == {None}
    alice.api().post(f"/api/runs/{run.pk}/export", {}, content_type="application/json")
    assert "pending" in {s["outcome"] for s in alice.api().get(url).json()}


@pytest.mark.django_db(transaction=True)
def test_a_run_in_progress_is_read_fresh_every_time(alice, contract):
    cache.clear()
    run = reviewed(alice, contract)
    AnalysisRun.objects.filter(pk=run.pk).update(status=RunStatus.RUNNING)
    url = f"/api/runs/{run.pk}/suggestions"
    before = alice.api().get(url).json()
    Suggestion.objects.filter(pk=before[-1]["pk"]).delete()  # as if it were still being written
    after = alice.api().get(url).json()
    assert len(after) == len(before) - 1


def _asgi_get(path: str, key: str) -> tuple[int, bytes]:
    from redline.asgi import application

    async def call() -> tuple[int, bytes]:
        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
                 "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
                 "headers": [(b"authorization", f"Bearer {key}".encode()), (b"host", b"testserver")],
                 "client": ("127.0.0.1", 50000), "server": ("testserver", 80)}
        sent: list[dict] = []
        received = False

        async def receive() -> dict:
            nonlocal received
            if not received:
                received = True
                return {"type": "http.request", "body": b"", "more_body": False}
            await asyncio.Event().wait()  # no disconnect while the response is made
            return {"type": "http.disconnect"}

        async def send(message: dict) -> None:
            sent.append(message)

        await application(scope, receive, send)
        return sent[0]["status"], b"".join(m.get("body", b"") for m in sent[1:])

    return asyncio.run(call())


@pytest.mark.django_db(transaction=True)
def test_an_asgi_request_crosses_to_a_thread_and_back_a_few_times_only(alice, contract, monkeypatch):
    run = reviewed(alice, contract)
    _asgi_get(f"/api/runs/{run.pk}/suggestions", alice.key)  # first request: imports, caches
    hops = 0
    original = SyncToAsync.__call__

    async def counting(self: SyncToAsync, *args: object, **kwargs: object) -> object:
        nonlocal hops
        hops += 1
        return await original(self, *args, **kwargs)

    monkeypatch.setattr(SyncToAsync, "__call__", counting)
    status, body = _asgi_get(f"/api/runs/{run.pk}/suggestions", alice.key)
    assert status == 200 and body.startswith(b"[{")
    assert 1 <= hops <= 4  # request_started, the whole chain and view, closing the response


@pytest.mark.django_db
def test_docx_reads_are_admitted_a_few_at_a_time(settings, contract, monkeypatch):
    inside, peak = 0, 0
    lock = threading.Lock()
    gate = threading.Event()
    read = files.read_document

    def tracked(data: bytes):  # the engine's read, held inside until the test opens the gate
        nonlocal inside, peak
        with lock:
            inside += 1
            peak = max(peak, inside)
        try:
            assert gate.wait(10)
            return read(data)
        finally:
            with lock:
                inside -= 1

    monkeypatch.setattr(files, "read_document", tracked)
    for slots in (1, 2):
        settings.REDLINE_DOCUMENT_CONCURRENCY = slots
        peak = 0
        gate.clear()
        threads = [threading.Thread(target=files.docx_read, args=(contract,)) for _ in range(6)]
        for thread in threads:
            thread.start()
        assert wait_until(lambda: inside == slots, 10)  # the admitted ones are in...
        assert not wait_until(lambda: inside > slots, 0.3)  # ...and while they hold their slots, nobody else
        gate.set()
        for thread in threads:
            thread.join()
        assert peak == slots


def test_file_uploads_are_admitted_a_few_at_a_time_and_light_requests_never_wait():
    from redline.server.admission import UploadAdmissionASGI

    inside, peak, order = 0, 0, []

    gate: asyncio.Event | None = None  # made in each run's own event loop

    async def app(scope: dict, receive, send) -> None:  # stands in for Django: notes who is inside, and when
        nonlocal inside, peak
        inside += 1
        peak = max(peak, inside)
        order.append(scope["path"])
        if dict(scope["headers"]).get(b"content-type", b"").startswith(b"multipart/"):
            await gate.wait()  # an upload holds its slot until the test lets it finish
        inside -= 1

    def scope(method: str, content_type: bytes) -> dict:
        return {"type": "http", "method": method, "path": f"/{method.lower()}",
                "headers": [(b"content-type", content_type)]}

    async def burst(slots: int) -> None:
        nonlocal gate
        gate = asyncio.Event()
        wrapped = UploadAdmissionASGI(app, slots)
        uploads = [asyncio.create_task(wrapped(scope("POST", b"multipart/form-data; boundary=x"), None, None))
                   for _ in range(6)]
        for _ in range(6):
            await asyncio.sleep(0)  # each upload task runs until it is inside or waits for a slot
        assert inside == slots
        await wrapped(scope("GET", b""), None, None)  # a poll: straight through
        await wrapped(scope("POST", b"application/json"), None, None)  # a vote: not a file upload
        assert order.index("/get") < 6  # ...answered while uploads still wait their turn
        gate.set()
        await asyncio.gather(*uploads)

    for slots in (1, 2):
        peak, order = 0, []
        asyncio.run(burst(slots))
        assert peak == slots + 1  # the admitted uploads, plus the light request let through beside them
