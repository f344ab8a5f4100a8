"""Load benchmark on loopback: PostgreSQL + Redis + uvicorn (2 workers) + 1 Celery worker.

For the measured window (60 s by default) it holds 200 concurrent SSE streams,
runs 20 clients that poll a run's suggestions and post feedback (about once a
second each, as the dashboard polls; ``--poll-interval`` changes it), and uploads
50 contracts concurrently (each then reviewed, its run followed to the end).
It reports requests/s, p50/p99 latency per kind of request, errors, lost
uploads or runs, and the web server's memory, against the targets: zero errors,
nothing lost, p99 of ``GET /api/runs/{id}/suggestions`` <= 250 ms, p99 of the
health check (probed like a load balancer, about 20 times a second) <= 100 ms, memory
growth <= 10 % over the window. ``tests/services/test_load_smoke.py`` runs a short,
small version of it in CI.

The three kinds of client run in three processes of their own (streams, pollers,
uploaders), each with its own event loop: a poller's latency is then the
server's, not the time its event loop spent parsing 200 streams. Before the
window, a warm-up of the same traffic (pollers, and a burst of as many other
uploads) lets the servers load their code, fill their pools and reach the heap
a burst needs, so the memory figure measures growth over the window (a leak)
rather than start-up; the cold figure is reported too.

Servers are started like the test suite starts them (tests/servers.py) and
stopped at the end; all traffic stays on 127.0.0.1. Run it with ``scripts/load``.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import multiprocessing as mp
import os
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from collections import defaultdict
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from tests.servers import ROOT, CeleryWorker, Postgres, Redis, _wait_port, free_port

SUGGESTIONS = "GET /api/runs/{id}/suggestions"
HEALTH = "GET /api/health"
UPLOAD = "POST /api/documents"
REVIEW = "POST /api/documents/{id}/runs"
TARGET_P99_MS = 250.0
TARGET_HEALTH_P99_MS = 100.0  # a load balancer's check, with a 1-2 s timeout, must never see a healthy node slow
HEALTH_INTERVAL_S = 0.05
TARGET_MEMORY_GROWTH = 0.10
FRAME = re.compile(rb"^id: (\d+)\nevent: (\w+)", re.M)
PK = re.compile(rb'"pk":\s*(\d+)')  # a suggestion's pk, without parsing the whole list (client CPU is server CPU here)


@dataclass
class Stats:
    """Latencies (ms), completion times and errors per kind of request (plain data: it crosses processes)."""

    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    finished: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))  # time.time() at the end
    errors: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    sse_events: int = 0

    def record(self, kind: str, started: float, ok: bool, why: str = "") -> None:
        self.latencies[kind].append((time.perf_counter() - started) * 1000)
        self.finished[kind].append(time.time())
        if not ok:
            self.errors[kind].append(why)

    def merge(self, other: Stats) -> None:
        for mine, theirs in ((self.latencies, other.latencies), (self.finished, other.finished),
                             (self.errors, other.errors)):
            for kind, values in theirs.items():
                mine[kind].extend(values)
        self.sse_events += other.sse_events

    def plain(self) -> Stats:
        return Stats(dict(self.latencies), dict(self.finished), dict(self.errors), self.sse_events)


def say(message: str) -> None:
    """Progress on stderr (the report goes to stdout)."""
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


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


def descendants(pid: int) -> list[int]:
    """Every process under ``pid``: the uvicorn workers and their .docx reader children."""
    out = [int(p) for p in subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()]
    return out + [grandchild for child in out for grandchild in descendants(child)]


# -- setup (the main process, with Django) ---------------------------------------------------------


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


def stack_env(pg: Postgres, redis: Redis, workdir: Path, **extra: str) -> dict[str, str]:
    """The environment of the web server, the Celery worker and this process: production settings on these
    servers, the offline provider."""
    return {"DJANGO_SETTINGS_MODULE": "redline.settings", "DATABASE_URL": pg.url, "REDIS_URL": redis.url,
            "CELERY_BROKER_URL": redis.url.replace("/0", "/1"), "REDLINE_DATA_DIR": str(workdir / "data"),
            "SECRET_KEY": "load-test-secret", "REDLINE_PROVIDER": "offline", "LOG_LEVEL": "WARNING", **extra}


def start_web(env: dict[str, str], workdir: Path) -> tuple[subprocess.Popen, str]:
    """uvicorn with 2 workers, as ``scripts/run`` serves (no access log); returns the process and its URL."""
    port = free_port()
    web = subprocess.Popen([sys.executable, "-m", "uvicorn", "redline.asgi:application", "--host", "127.0.0.1",
                            "--port", str(port), "--workers", "2", "--log-level", "warning", "--no-access-log",
                            "--no-proxy-headers"],
                           cwd=ROOT, env={**os.environ, **env}, stdout=open(workdir / "uvicorn.log", "wb"),  # noqa: SIM115
                           stderr=subprocess.STDOUT)
    _wait_port(port)
    return web, f"http://127.0.0.1:{port}"


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
    from datetime import timedelta

    from django.utils import timezone

    from redline.jobs.progress import event_emit
    from redline.models import Job, JobStatus

    held = timezone.now() + timedelta(days=1)  # running, held by this process: no worker picks them up
    jobs = [Job.objects.create(workspace_id=workspace_id, kind="load.watch", params={}, status=JobStatus.RUNNING,
                               attempts=1, lease_until=held) for _ in range(count)]
    for job in jobs:
        event_emit(job=job, kind="started", data={})
    return [j.pk for j in jobs]


def emit(job_ids: list[int], kind: str, data: dict) -> None:
    from redline.jobs.progress import event_emit
    from redline.models import Job

    for job in Job.objects.filter(pk__in=job_ids):
        event_emit(job=job, kind=kind, data=data)


def ticker(job_ids: list[int], stop: threading.Event) -> threading.Thread:
    """One progress event per second on every watched job (each fans out to its streams)."""

    def run() -> None:
        from django.db import connection

        n = 0
        while not stop.wait(1.0):
            n += 1
            emit(job_ids, "progress", {"tick": n})
        connection.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def lost_work(document_ids: list[int]) -> dict[str, int]:
    """Uploads without a stored version, and runs that did not finish ``done``."""
    from redline.models import AnalysisRun, Document, RunStatus

    docs = Document.objects.filter(pk__in=document_ids)
    runs = AnalysisRun.objects.filter(document_version__document__in=docs)
    return {"uploads_missing": len(document_ids) - docs.count(),
            "runs_missing": len(document_ids) - runs.values("document_version__document").distinct().count(),
            "runs_not_done": runs.exclude(status=RunStatus.DONE).count()}


# -- clients (each kind in a process of its own, no Django) ----------------------------------------


def client(base: str, key: str, connections: int) -> httpx.AsyncClient:
    limits = httpx.Limits(max_connections=connections, max_keepalive_connections=connections)
    return httpx.AsyncClient(base_url=base, headers={"Authorization": f"Bearer {key}"}, limits=limits, timeout=30)


async def follow(http: httpx.AsyncClient, path: str, stats: Stats, stop: Callable[[], bool],
                 opened: Callable[[int], None] = lambda delta: None) -> list[int]:
    """Hold a stream open until its job ends, reconnecting with Last-Event-ID if it drops;
    returns the event ids received, in order (for the gap and duplicate check)."""
    seen: list[int] = []
    while True:
        started = time.perf_counter()
        try:
            async with http.stream("GET", path, headers={"Last-Event-ID": str(seen[-1] if seen else 0)},
                                   timeout=httpx.Timeout(10, read=120)) as resp:
                if resp.status_code != 200:
                    stats.record("SSE connect", started, False, f"HTTP {resp.status_code}")
                    await asyncio.sleep(0.5)
                    continue
                stats.record("SSE connect", started, True)
                opened(1)
                try:
                    buffer = b""
                    async for chunk in resp.aiter_bytes():
                        *frames, buffer = (buffer + chunk).split(b"\n\n")
                        for match in FRAME.finditer(b"\n\n".join(frames)):
                            seen.append(int(match[1]))
                            stats.sse_events += 1
                            if match[2] in (b"done", b"error", b"cancelled"):
                                return seen
                finally:
                    opened(-1)
        except (httpx.HTTPError, OSError) as exc:
            stats.record("SSE connect", started, False, type(exc).__name__)
            if stop():
                return seen
            await asyncio.sleep(0.5)


async def streams_client(base: str, key: str, job_ids: list[int], count: int, held: Any) -> dict:
    """``count`` streams over the watched jobs; ``held`` (shared) counts the open ones."""
    stats = Stats()

    def opened(delta: int) -> None:
        with held.get_lock():
            held.value += delta

    async with client(base, key, count) as http:
        received = await asyncio.gather(*(follow(http, f"/api/jobs/{job_ids[i % len(job_ids)]}/events", stats,
                                                 lambda: False, opened) for i in range(count)))
    # Every stream must have every event of its job exactly once, ending with ``done``.
    broken = sum(1 for ids in received if not ids or ids != list(range(1, ids[-1] + 1)))
    return {"stats": stats.plain(), "broken": broken}


async def pollers_client(base: str, key: str, run_ids: list[int], count: int, interval: float, stop: Any,
                         seed: int) -> dict:
    """``count`` clients: poll a run's suggestions, give feedback on one, wait about ``interval``
    (uniformly 0.5-1.5 times it), again. Each starts at a moment of its own within its first
    interval, as dashboards opened by different people do, not all in the same millisecond."""
    stats = Stats()

    async def poller(rng: random.Random) -> None:
        await asyncio.sleep(rng.uniform(0, interval))
        while not stop.is_set():
            run_id = rng.choice(run_ids)
            started = time.perf_counter()
            try:
                resp = await http.get(f"/api/runs/{run_id}/suggestions")
                stats.record(SUGGESTIONS, started, resp.status_code == 200, f"HTTP {resp.status_code}")
                pks = PK.findall(resp.content) if resp.status_code == 200 else []
                if pks:
                    started = time.perf_counter()
                    resp = await http.post(f"/api/suggestions/{int(rng.choice(pks))}/feedback",
                                           json={"thumbs_up": rng.random() < 0.7})
                    stats.record("POST /api/suggestions/{pk}/feedback", started, resp.status_code in (200, 201),
                                 f"HTTP {resp.status_code}")
            except httpx.HTTPError as exc:
                stats.record(SUGGESTIONS, started, False, type(exc).__name__)
            await asyncio.sleep(rng.uniform(0.5 * interval, 1.5 * interval))

    async def prober() -> None:
        """A load balancer's health check, unauthenticated, on a connection of its own each time."""
        async with httpx.AsyncClient(base_url=base, timeout=5) as lb:
            while not stop.is_set():
                started = time.perf_counter()
                try:
                    resp = await lb.get("/api/health", headers={"Connection": "close"})
                    stats.record(HEALTH, started, resp.status_code == 200, f"HTTP {resp.status_code}")
                except httpx.HTTPError as exc:
                    stats.record(HEALTH, started, False, type(exc).__name__)
                await asyncio.sleep(HEALTH_INTERVAL_S)

    rng = random.Random(seed)
    async with client(base, key, count) as http:
        await asyncio.gather(prober(), *(poller(random.Random(rng.random())) for _ in range(count)))
    return {"stats": stats.plain()}


async def uploads_client(base: str, key: str, contracts: list[bytes]) -> dict:
    """Upload every contract at once, request each one's review, and follow each run to its end."""
    stats = Stats()
    documents: list[int] = []

    async def upload(index: int, data: bytes) -> None:
        started = time.perf_counter()
        try:
            resp = await http.post("/api/documents", files={"file": (f"contract-{index}.docx", data)}, timeout=180)
            stats.record(UPLOAD, started, resp.status_code == 201, f"HTTP {resp.status_code}")
            if resp.status_code != 201:
                return
            document_id = resp.json()["document"]["id"]
            documents.append(document_id)
            started = time.perf_counter()
            resp = await http.post(f"/api/documents/{document_id}/runs", json={}, timeout=60)
            stats.record(REVIEW, started, resp.status_code == 201, f"HTTP {resp.status_code}")
            if resp.status_code == 201:
                await follow(http, f"/api/jobs/{resp.json()['job_id']}/events", stats, lambda: False)
        except httpx.HTTPError as exc:
            stats.record(UPLOAD, started, False, type(exc).__name__)

    async with client(base, key, len(contracts) + 5) as http:
        await asyncio.gather(*(upload(i, data) for i, data in enumerate(contracts)))
    return {"stats": stats.plain(), "documents": documents}


def run_client(name: str, start: Any, results: Any, make: Callable[..., Coroutine], *args: Any) -> None:
    """A client process: wait for ``start`` (if given), run the client on uvloop, send back its result."""
    try:
        from uvloop import run
    except ImportError:  # plain asyncio works too, it is only slower
        run = asyncio.run
    if start is not None:
        start.wait()
    try:
        results.put((name, run(make(*args))))
    except BaseException as exc:  # the main process must hear of it, not wait forever
        results.put((name, {"failed": repr(exc)}))
        raise


# -- the run ---------------------------------------------------------------------------------------


def measure(base: str, key: str, watch: list[int], poll_runs: list[int], uploads: list[bytes],
            warmup_uploads: list[bytes], *, streams: int, pollers: int, interval: float, seconds: float,
            memory: Callable[[], float], warmup: float) -> dict:
    """Warm up, then the window: streams held throughout, pollers for the window, uploads at its start."""
    ctx = mp.get_context("spawn")
    results = ctx.Queue()
    held = ctx.Value("i", 0)
    go, stop_warmup, stop = ctx.Event(), ctx.Event(), ctx.Event()
    memory_cold = memory()
    procs = [ctx.Process(target=run_client, args=("streams", None, results, streams_client, base, key, watch,
                                                  streams, held))]
    procs[0].start()
    deadline = time.monotonic() + 120
    while held.value < streams and time.monotonic() < deadline:  # every stream open before the warm-up
        time.sleep(0.1)
    ticking = threading.Event()
    tick = ticker(watch, ticking)
    say(f"{held.value} streams open; warming up for {warmup:.0f} s with the same traffic")
    warm = [ctx.Process(target=run_client, args=("warmup pollers", None, results, pollers_client, base, key,
                                                 poll_runs, pollers, interval, stop_warmup, 1)),
            ctx.Process(target=run_client, args=("warmup uploads", None, results, uploads_client, base, key,
                                                 warmup_uploads))]
    for proc in warm:
        proc.start()
    time.sleep(warmup)
    stop_warmup.set()
    got: dict[str, dict] = {}
    collect(results, {"warmup pollers", "warmup uploads"}, got, timeout=600)
    for proc in warm:
        proc.join()
    for name, target, args in (("pollers", pollers_client, (poll_runs, pollers, interval, stop, 7)),
                               ("uploads", uploads_client, (uploads,))):
        proc = ctx.Process(target=run_client, args=(name, go, results, target, base, key, *args))
        proc.start()
        procs.append(proc)
    time.sleep(1.0)  # the client processes are up and waiting on ``go``
    memory_start = memory()
    say(f"the {seconds:.0f} s window starts")
    t0, w0 = time.perf_counter(), time.time()
    go.set()
    time.sleep(seconds)
    held_at_end = held.value
    stop.set()
    say("window over; draining the review queue")
    collect(results, {"pollers"}, got)
    elapsed = time.perf_counter() - t0
    memory_end = memory()
    ticking.set()
    tick.join()
    emit(watch, "done", {})
    drain_start = time.perf_counter()
    collect(results, {"streams", "uploads"}, got, timeout=600)
    drained = time.perf_counter() - drain_start
    for proc in procs:
        proc.join(30)
    stats = Stats()
    for name in ("streams", "pollers", "uploads"):
        stats.merge(got[name]["stats"])
    return {"stats": stats, "elapsed": elapsed, "window_start": w0, "held": held_at_end,
            "memory": (memory_cold, memory_start, memory_end), "documents": got["uploads"]["documents"],
            "drain_s": drained, "sse_broken": got["streams"]["broken"]}


def collect(results: Any, names: set[str], got: dict[str, dict], timeout: float = 120) -> None:
    """Wait until the clients ``names`` have reported into ``got`` (others may report first)."""
    deadline = time.monotonic() + timeout
    while not names <= set(got):
        name, payload = results.get(timeout=max(1.0, deadline - time.monotonic()))
        if "failed" in payload:
            raise RuntimeError(f"the {name} client failed: {payload['failed']}")
        got[name] = payload


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--streams", type=int, default=200)
    parser.add_argument("--pollers", type=int, default=20)
    parser.add_argument("--uploads", type=int, default=50)
    parser.add_argument("--warmup", type=float, default=10.0, help="seconds of the same traffic before the window")
    parser.add_argument("--poll-interval", type=float, default=1.0,
                        help="seconds between a poller's rounds, on average (the dashboard polls every 1 s; "
                             "0.1 saturates this 2-core machine)")
    parser.add_argument("--worker-nice", type=int, default=10,
                        help="the Celery worker's nice value (the README's advice: reviews yield the CPU to "
                             "interactive requests); 0 runs it at the web server's priority")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--raw", type=Path,
                        help="also write every request's latency and completion time here (when were the slow ones?)")
    parser.add_argument("--env", action="append", default=[], metavar="NAME=VALUE",
                        help="extra server environment, e.g. --env REDLINE_DB_POOL_MAX=10 (repeatable)")
    args = parser.parse_args()

    workdir = Path(tempfile.mkdtemp(prefix="redline-load-"))
    pg, redis = Postgres().start(), Redis().start()
    servers: list = [pg, redis]
    try:
        env = stack_env(pg, redis, workdir, **dict(item.split("=", 1) for item in args.env))
        say(f"PostgreSQL and Redis up; migrating (work dir {workdir})")
        django_setup(env)
        key, workspace_id = make_account()
        contracts = contract_variants(2 * args.uploads + 5, workdir)
        worker = CeleryWorker(env, nice=args.worker_nice).start()
        servers.append(worker)
        web, base = start_web(env, workdir)
        servers.append(web)
        say("servers up; reviewing the pollers' contracts")
        poll_runs = asyncio.run(_prepare_runs(base, key, contracts[:5]))
        watch = watch_jobs(workspace_id, max(1, args.streams // 20))

        def memory() -> float:
            return rss_mib(descendants(web.pid))

        result = measure(base, key, watch, poll_runs, contracts[5:5 + args.uploads], contracts[5 + args.uploads:],
                         streams=args.streams, pollers=args.pollers,
                         interval=args.poll_interval, seconds=args.seconds, memory=memory, warmup=args.warmup)
        lost = lost_work(result["documents"])
        report = _report(result, lost, args)
        print(report["text"])
        if args.json:
            args.json.write_text(json.dumps(report["figures"], indent=2))
        if args.raw:
            stats = result["stats"]
            args.raw.write_text(json.dumps({"window_start": result["window_start"], "latencies_ms": stats.latencies,
                                            "finished_at": stats.finished}))
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
    async with httpx.AsyncClient(base_url=base, headers={"Authorization": f"Bearer {key}"}, timeout=120) as http:
        run_ids = []
        for i, data in enumerate(contracts):
            up = (await http.post("/api/documents", files={"file": (f"poll-{i}.docx", data)})).json()
            run = (await http.post(f"/api/documents/{up['document']['id']}/runs", json={})).json()
            run_ids.append(run["id"])
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            states = [(await http.get(f"/api/runs/{r}")).json()["status"] for r in run_ids]
            if all(s == "done" for s in states):
                return run_ids
            await asyncio.sleep(0.5)
        raise RuntimeError(f"the poll runs did not finish: {states}")


def _report(result: dict, lost: dict[str, int], args: argparse.Namespace) -> dict:
    stats: Stats = result["stats"]
    w0, elapsed = result["window_start"], result["elapsed"]
    in_window = {kind: [ms for ms, t in zip(v, stats.finished[kind], strict=True) if w0 <= t <= w0 + elapsed]
                 for kind, v in stats.latencies.items()}
    total = sum(len(v) for v in in_window.values())
    errors = sum(len(v) for v in stats.errors.values())
    cold, start, end = result["memory"]
    growth = (end - start) / start if start else 0.0
    rows = {kind: {"count": len(stats.latencies[kind]), "errors": len(stats.errors.get(kind, [])),
                   "p50_ms": round(percentile(v, 50), 1), "p99_ms": round(percentile(v, 99), 1)}
            for kind, v in sorted(stats.latencies.items())}
    p99 = rows.get(SUGGESTIONS, {}).get("p99_ms", float("inf"))
    health_p99 = rows.get(HEALTH, {}).get("p99_ms", float("inf"))
    # The same figure once the upload burst is over: the streams and the pollers only.
    burst_end = max(stats.finished.get(REVIEW, [0.0]))
    steady = [ms for ms, t in zip(stats.latencies[SUGGESTIONS], stats.finished[SUGGESTIONS], strict=True)
              if t > burst_end]
    figures = {
        "window_s": round(elapsed, 1), "requests_in_window": total, "requests_per_s": round(total / elapsed, 1),
        "errors": errors, "error_samples": {k: v[:3] for k, v in stats.errors.items() if v},
        "sse_streams_held": result["held"], "sse_events": stats.sse_events,
        "sse_streams_with_gaps_or_duplicates": result["sse_broken"],
        "by_request": rows, "lost": lost, "health_p99_ms": health_p99,
        "suggestions_after_upload_burst": {"count": len(steady), "p50_ms": round(percentile(steady, 50), 1),
                                           "p99_ms": round(percentile(steady, 99), 1)},
        "review_queue_drain_s": round(result["drain_s"], 1),
        "server_memory_mib": {"cold": round(cold, 1), "start": round(start, 1), "end": round(end, 1),
                              "growth": round(growth, 3)},
    }
    figures["targets_met"] = (errors == 0 and not any(lost.values()) and not result["sse_broken"]
                              and p99 <= TARGET_P99_MS and health_p99 <= TARGET_HEALTH_P99_MS
                              and growth <= TARGET_MEMORY_GROWTH and result["held"] >= args.streams)
    lines = [f"window {figures['window_s']} s: {total} requests, {figures['requests_per_s']} req/s, {errors} errors",
             f"SSE: {result['held']} streams held at the end, {stats.sse_events} events, "
             f"{result['sse_broken']} streams with gaps or duplicates",
             f"{'request':<40} {'count':>7} {'errors':>7} {'p50 ms':>8} {'p99 ms':>8}"]
    lines += [f"{k:<40} {r['count']:>7} {r['errors']:>7} {r['p50_ms']:>8} {r['p99_ms']:>8}" for k, r in rows.items()]
    lines.append(f"{SUGGESTIONS} after the upload burst: {len(steady)} requests, p50 "
                 f"{percentile(steady, 50):.1f} ms, p99 {percentile(steady, 99):.1f} ms")
    lines.append(f"{HEALTH} p99 {health_p99} ms (target <= {TARGET_HEALTH_P99_MS:.0f} ms)")
    lines += [f"lost: {lost}; review queue drained {figures['review_queue_drain_s']} s after the window",
              f"server RSS (uvicorn workers and their reader children): {cold:.0f} MiB cold, {start:.0f} MiB after the warm-up -> {end:.0f} MiB at the "
              f"end of the window ({growth:+.1%})",
              f"targets (0 errors, nothing lost, p99 suggestions <= {TARGET_P99_MS:.0f} ms, health p99 <= "
              f"{TARGET_HEALTH_P99_MS:.0f} ms, memory <= +{TARGET_MEMORY_GROWTH:.0%}): "
              f"{'met' if figures['targets_met'] else 'NOT met'}"]
    return {"text": "\n".join(lines), "figures": figures}


if __name__ == "__main__":
    sys.exit(main())
