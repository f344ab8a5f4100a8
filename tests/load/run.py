"""Load benchmark on loopback: PostgreSQL + Redis + uvicorn (2 workers) + 1 Celery worker.

For the measured window (60 s by default) it holds 200 concurrent SSE streams,
runs 20 clients that poll a run's suggestions and post feedback, and uploads
50 contracts concurrently (each then reviewed, its run followed to the end).
It reports requests/s, p50/p99 latency per kind of request, errors, lost
uploads or runs, and the servers' memory at the start and end of the window,
against the targets: zero errors, nothing lost, p99 of
``GET /api/runs/{id}/suggestions`` <= 250 ms, memory growth <= 10 %.

Servers are started like the test suite starts them (tests/servers.py) and
stopped at the end; all traffic stays on 127.0.0.1. Run it with ``scripts/load``.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import zipfile
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from tests.servers import ROOT, CeleryWorker, Postgres, Redis, _wait_port, free_port

SUGGESTIONS = "GET /api/runs/{id}/suggestions"
TARGET_P99_MS = 250.0
TARGET_MEMORY_GROWTH = 0.10


@dataclass
class Stats:
    """Latencies (ms) and errors per kind of request."""

    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    sse_events: int = 0
    sse_open: int = 0
    sse_peak: int = 0

    def record(self, kind: str, started: float, ok: bool, why: str = "") -> None:
        self.latencies[kind].append((time.perf_counter() - started) * 1000)
        if not ok:
            self.errors[kind].append(why)


def percentile(values: list[float], p: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def rss_mib(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status") as fh:
                total += next(int(line.split()[1]) for line in fh if line.startswith("VmRSS:"))
        except (FileNotFoundError, StopIteration):
            continue
    return total / 1024


def children(pid: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()
    return [int(p) for p in out]


# -- setup -----------------------------------------------------------------------------------------


def contract_variants(count: int, workdir: Path) -> list[bytes]:
    """One generated contract, and ``count`` versions of it, each with its own schedule paragraph."""
    base = workdir / "base.docx"
    subprocess.run([sys.executable, str(ROOT / "tests/support/make_contract.py"), "--pages", "2", "-o", str(base)],
                   check=True, capture_output=True)
    data = base.read_bytes()
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        parts = {i.filename: z.read(i) for i in z.infolist()}
    out = []
    for i in range(count):
        extra = (f'<w:p><w:r><w:t>Schedule {i}: the Supplier shall deliver {i + 3} units each month.</w:t></w:r></w:p>'
                 .encode())
        doc = parts["word/document.xml"].replace(b"<w:sectPr", extra + b"<w:sectPr", 1)
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
            for name, blob in parts.items():
                z.writestr(name, doc if name == "word/document.xml" else blob)
        out.append(buf.getvalue())
    return out


def django_setup(env: dict[str, str]) -> None:
    os.environ.update(env)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def make_account() -> tuple[str, int]:
    """An admin with an API key and the default playbook; returns the key and the workspace id."""
    from redline.services.accounts import api_key_issue, membership_create, user_create, workspace_create
    from redline.services.playbooks import playbook_default_install

    workspace = workspace_create(name="Load LLP", slug="load")
    user = user_create(username="load", password="load test password")
    membership = membership_create(user=user, workspace=workspace, role="admin")
    playbook_default_install(workspace=workspace)
    return api_key_issue(membership=membership).secret, workspace.pk


def watch_jobs(workspace_id: int, count: int) -> list[int]:
    """Jobs nobody runs, whose progress the load process emits itself (streams stay open on them)."""
    from redline.models import Job, JobStatus
    from redline.progress import event_emit

    jobs = [Job.objects.create(workspace_id=workspace_id, kind="load.watch", params={}, status=JobStatus.RUNNING)
            for _ in range(count)]  # running: no worker picks them up
    for job in jobs:
        event_emit(job=job, kind="started", data={})
    return [j.pk for j in jobs]


def emit(job_ids: list[int], kind: str, data: dict) -> None:
    from redline.models import Job
    from redline.progress import event_emit

    for job in Job.objects.filter(pk__in=job_ids):
        event_emit(job=job, kind=kind, data=data)


def lost_work(document_ids: list[int]) -> dict[str, int]:
    """Uploads without a stored version, and runs that did not finish ``done``."""
    from redline.models import AnalysisRun, Document, RunStatus

    docs = Document.objects.filter(pk__in=document_ids)
    runs = AnalysisRun.objects.filter(document_version__document__in=docs)
    return {"uploads_missing": len(document_ids) - docs.count(),
            "runs_missing": len(document_ids) - runs.values("document_version__document").distinct().count(),
            "runs_not_done": runs.exclude(status=RunStatus.DONE).count()}


# -- load ------------------------------------------------------------------------------------------


async def sse_client(client: httpx.AsyncClient, job_id: int, stats: Stats, stop: asyncio.Event) -> list[int]:
    """Hold a stream open until its job ends, reconnecting with Last-Event-ID if it drops;
    returns the event ids received, in order (for the gap and duplicate check)."""
    seen: list[int] = []
    while True:
        started = time.perf_counter()
        try:
            async with client.stream("GET", f"/api/jobs/{job_id}/events",
                                     headers={"Last-Event-ID": str(seen[-1] if seen else 0)},
                                     timeout=httpx.Timeout(10, read=120)) as resp:
                if resp.status_code != 200:
                    stats.record("SSE connect", started, False, f"HTTP {resp.status_code}")
                    await asyncio.sleep(0.5)
                    continue
                stats.record("SSE connect", started, True)
                stats.sse_open += 1
                stats.sse_peak = max(stats.sse_peak, stats.sse_open)
                try:
                    async for line in resp.aiter_lines():
                        if line.startswith("id: "):
                            seen.append(int(line[4:]))
                            stats.sse_events += 1
                        elif line.startswith("event: ") and line[7:] in ("done", "error", "cancelled"):
                            return seen
                finally:
                    stats.sse_open -= 1
        except (httpx.HTTPError, OSError) as exc:
            stats.record("SSE connect", started, False, type(exc).__name__)
            if stop.is_set():
                return seen
            await asyncio.sleep(0.5)


async def poller(client: httpx.AsyncClient, run_ids: list[int], stats: Stats, stop: asyncio.Event,
                 rng: random.Random) -> None:
    """Poll a run's suggestions, then give feedback on one of them; a short think time between."""
    while not stop.is_set():
        run_id = rng.choice(run_ids)
        started = time.perf_counter()
        try:
            resp = await client.get(f"/api/runs/{run_id}/suggestions")
            stats.record(SUGGESTIONS, started, resp.status_code == 200, f"HTTP {resp.status_code}")
            suggestions = resp.json() if resp.status_code == 200 else []
            if suggestions:
                pick = rng.choice(suggestions)
                started = time.perf_counter()
                resp = await client.post(f"/api/suggestions/{pick['pk']}/feedback",
                                         json={"thumbs_up": rng.random() < 0.7})
                stats.record("POST /api/suggestions/{pk}/feedback", started, resp.status_code in (200, 201),
                             f"HTTP {resp.status_code}")
        except httpx.HTTPError as exc:
            stats.record(SUGGESTIONS, started, False, type(exc).__name__)
        await asyncio.sleep(rng.uniform(0.05, 0.15))


async def uploader(client: httpx.AsyncClient, data: bytes, index: int, stats: Stats, documents: list[int]) -> None:
    """Upload a contract, request its review, and follow the run until it ends."""
    started = time.perf_counter()
    try:
        resp = await client.post("/api/documents", files={"file": (f"contract-{index}.docx", data)}, timeout=120)
        stats.record("POST /api/documents", started, resp.status_code == 201, f"HTTP {resp.status_code}")
        if resp.status_code != 201:
            return
        document_id = resp.json()["document"]["id"]
        documents.append(document_id)
        started = time.perf_counter()
        resp = await client.post(f"/api/documents/{document_id}/runs", json={}, timeout=60)
        stats.record("POST /api/documents/{id}/runs", started, resp.status_code == 201, f"HTTP {resp.status_code}")
        if resp.status_code != 201:
            return
        await sse_client(client, resp.json()["job_id"], stats, asyncio.Event())
    except httpx.HTTPError as exc:
        stats.record("POST /api/documents", started, False, type(exc).__name__)


async def load(base: str, key: str, watch: list[int], poll_runs: list[int], uploads: list[bytes], *,
               streams: int, pollers: int, seconds: float, memory: Callable[[], float]) -> dict:
    stats = Stats()
    stop = asyncio.Event()
    limits = httpx.Limits(max_connections=streams + pollers + len(uploads) + 50, max_keepalive_connections=100)
    async with httpx.AsyncClient(base_url=base, headers={"Authorization": f"Bearer {key}"}, limits=limits,
                                 timeout=30) as client:
        rng = random.Random(7)
        watchers = [asyncio.create_task(sse_client(client, watch[i % len(watch)], stats, stop))
                    for i in range(streams)]
        while stats.sse_open < streams:  # all streams open before the clock starts
            await asyncio.sleep(0.1)
        memory_start = memory()
        t0 = time.perf_counter()
        ticker = asyncio.create_task(_tick(watch, stop))
        poll_tasks = [asyncio.create_task(poller(client, poll_runs, stats, stop, random.Random(rng.random())))
                      for _ in range(pollers)]
        documents: list[int] = []
        upload_tasks = [asyncio.create_task(uploader(client, data, i, stats, documents))
                        for i, data in enumerate(uploads)]
        await asyncio.sleep(seconds)
        held = stats.sse_open
        stop.set()
        await asyncio.gather(*poll_tasks)
        elapsed = time.perf_counter() - t0
        memory_end = memory()
        await ticker
        await asyncio.to_thread(emit, watch, "done", {})
        received = await asyncio.wait_for(asyncio.gather(*watchers), 60)
        drain_start = time.perf_counter()
        await asyncio.wait_for(asyncio.gather(*upload_tasks), 600)  # the review queue drains after the window
        drained = time.perf_counter() - drain_start
    # Every watcher must have every event of its job exactly once, ending with ``done``.
    broken = sum(1 for ids in received if not ids or ids != list(range(1, ids[-1] + 1)))
    return {"stats": stats, "elapsed": elapsed, "held": held, "memory": (memory_start, memory_end),
            "documents": documents, "drain_s": drained, "sse_broken": broken}


async def _tick(watch: list[int], stop: asyncio.Event) -> None:
    """One progress event per second on every watched job (each fans out to its streams)."""
    n = 0
    while not stop.is_set():
        n += 1
        await asyncio.to_thread(emit, watch, "progress", {"tick": n})
        await asyncio.sleep(1.0)


# -- main ------------------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--streams", type=int, default=200)
    parser.add_argument("--pollers", type=int, default=20)
    parser.add_argument("--uploads", type=int, default=50)
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()

    workdir = Path(tempfile.mkdtemp(prefix="redline-load-"))
    pg, redis = Postgres().start(), Redis().start()
    servers: list = [pg, redis]
    try:
        env = {"DJANGO_SETTINGS_MODULE": "redline.settings", "DATABASE_URL": pg.url, "REDIS_URL": redis.url,
               "CELERY_BROKER_URL": redis.url.replace("/0", "/1"), "REDLINE_DATA_DIR": str(workdir / "data"),
               "SECRET_KEY": "load-test-secret", "REDLINE_PROVIDER": "offline", "LOG_LEVEL": "WARNING"}
        django_setup(env)
        key, workspace_id = make_account()
        contracts = contract_variants(args.uploads + 5, workdir)
        worker = CeleryWorker(env).start()
        servers.append(worker)
        port = free_port()
        web = subprocess.Popen([sys.executable, "-m", "uvicorn", "redline.asgi:application", "--host", "127.0.0.1",
                                "--port", str(port), "--workers", "2", "--log-level", "warning", "--no-access-log"],
                               cwd=ROOT, env={**os.environ, **env}, stdout=open(workdir / "uvicorn.log", "wb"),  # noqa: SIM115
                               stderr=subprocess.STDOUT)
        servers.append(web)
        _wait_port(port)
        base = f"http://127.0.0.1:{port}"
        poll_runs = asyncio.run(_prepare_runs(base, key, contracts[:5]))
        watch = watch_jobs(workspace_id, max(1, args.streams // 20))

        def memory() -> float:
            return rss_mib(children(web.pid))

        result = asyncio.run(load(base, key, watch, poll_runs, contracts[5:], streams=args.streams,
                                  pollers=args.pollers, seconds=args.seconds, memory=memory))
        lost = lost_work(result["documents"])
        report = _report(result, lost, args)
        print(report["text"])
        if args.json:
            args.json.write_text(json.dumps(report["figures"], indent=2))
        return 0 if report["figures"]["targets_met"] else 1
    finally:
        for server in reversed(servers):
            if isinstance(server, subprocess.Popen):
                server.terminate()
                server.wait(20)
            else:
                server.stop()


async def _prepare_runs(base: str, key: str, contracts: list[bytes]) -> list[int]:
    """Reviewed runs for the pollers (made before the clock starts)."""
    async with httpx.AsyncClient(base_url=base, headers={"Authorization": f"Bearer {key}"}, timeout=120) as client:
        run_ids = []
        for i, data in enumerate(contracts):
            up = (await client.post("/api/documents", files={"file": (f"poll-{i}.docx", data)})).json()
            run = (await client.post(f"/api/documents/{up['document']['id']}/runs", json={})).json()
            run_ids.append(run["id"])
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            states = [(await client.get(f"/api/runs/{r}")).json()["status"] for r in run_ids]
            if all(s == "done" for s in states):
                return run_ids
            await asyncio.sleep(0.5)
        raise RuntimeError(f"the poll runs did not finish: {states}")


def _report(result: dict, lost: dict[str, int], args: argparse.Namespace) -> dict:
    stats: Stats = result["stats"]
    total = sum(len(v) for v in stats.latencies.values())
    errors = sum(len(v) for v in stats.errors.values())
    start, end = result["memory"]
    growth = (end - start) / start if start else 0.0
    rows = {kind: {"count": len(v), "errors": len(stats.errors.get(kind, [])),
                   "p50_ms": round(percentile(v, 50), 1), "p99_ms": round(percentile(v, 99), 1)}
            for kind, v in sorted(stats.latencies.items())}
    p99 = rows.get(SUGGESTIONS, {}).get("p99_ms", float("inf"))
    figures = {
        "window_s": round(result["elapsed"], 1), "requests": total, "requests_per_s": round(total / result["elapsed"], 1),
        "errors": errors, "error_samples": {k: v[:3] for k, v in stats.errors.items() if v},
        "sse_streams_held": result["held"], "sse_peak": stats.sse_peak, "sse_events": stats.sse_events,
        "sse_streams_with_gaps_or_duplicates": result["sse_broken"],
        "by_request": rows, "lost": lost, "review_queue_drain_s": round(result["drain_s"], 1),
        "server_memory_mib": {"start": round(start, 1), "end": round(end, 1), "growth": round(growth, 3)},
    }
    figures["targets_met"] = (errors == 0 and not any(lost.values()) and not result["sse_broken"]
                              and p99 <= TARGET_P99_MS
                              and growth <= TARGET_MEMORY_GROWTH and result["held"] >= args.streams)
    lines = [f"window {figures['window_s']} s: {total} requests, {figures['requests_per_s']} req/s, {errors} errors",
             f"SSE: {result['held']} streams held at the end (peak {stats.sse_peak}), {stats.sse_events} events, "
             f"{result['sse_broken']} streams with gaps or duplicates",
             f"{'request':<40} {'count':>7} {'errors':>7} {'p50 ms':>8} {'p99 ms':>8}"]
    lines += [f"{k:<40} {r['count']:>7} {r['errors']:>7} {r['p50_ms']:>8} {r['p99_ms']:>8}" for k, r in rows.items()]
    lines += [f"lost: {lost}; review queue drained {figures['review_queue_drain_s']} s after the window",
              f"uvicorn workers RSS: {start:.0f} MiB -> {end:.0f} MiB ({growth:+.1%})",
              f"targets (0 errors, nothing lost, p99 suggestions <= {TARGET_P99_MS:.0f} ms, memory <= "
              f"+{TARGET_MEMORY_GROWTH:.0%}): {'met' if figures['targets_met'] else 'NOT met'}"]
    return {"text": "\n".join(lines), "figures": figures}


if __name__ == "__main__":
    sys.exit(main())
