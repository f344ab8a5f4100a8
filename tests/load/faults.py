"""Faults on the scale-out stack, one after the other, with figures for each (issue #31's measure).

PostgreSQL + Redis + uvicorn (2 workers) + a Celery worker on loopback, started as ``tests/load/run.py``
starts them. Scenarios, each under a health probe (a load balancer's, 20 times a second):

- ``worker kill``: reviews started, the worker killed with SIGKILL mid-review, a new worker started
  (``--kills`` times, each on reviews of its own);
- ``redis stop``: reviews started, Redis stopped for ``--down`` seconds, started again (empty);
- ``postgres stop``: reviews started, PostgreSQL stopped for ``--down`` seconds, started again;
- ``streams``: ``--streams`` open streams on running jobs, with pollers reading runs, for ``--seconds``.

For each it prints the runs finished, lost (asked for and not in the database) and stuck (not finished
after ``--timeout``), the terminal events per finished run (exactly one each), the health check's p50 and
p99 and its answers, and the 5xx answers of every request made (503s, the answer an outage should give,
counted apart from other 5xx). For the worker kills it also prints how long the killed worker's jobs took
to resume (kill to the next attempt's ``started``; the median over the kills) and to end, and whether the
lapsed-lease reaper resumed each (its log line), with the lease (``--lease``; the product's default is 30 s)
and pulse it ran with: the figure behind the README's "within about 35 s" is
``scripts/faults --only worker --lease 30``. Run it with ``scripts/faults``; exit status 1 when a run was lost
or stuck, a finished run has no terminal event or more than one, a request got a 5xx other than 503, or a
killed worker's job was not resumed by the reaper.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from tests.load.run import (
    contract_variants,
    django_setup,
    emit,
    follow,
    make_account,
    percentile,
    say,
    stack_env,
    start_web,
    watch_jobs,
)
from tests.servers import CeleryWorker, Postgres, Redis

HEALTH_INTERVAL_S = 0.05
REAPED = re.compile(r"resuming \d+ job\(s\) whose worker went away: \[([\d, ]+)\]")  # redline.services.reaper


class Probe:
    """Health probes and the status of every request made during a scenario."""

    def __init__(self) -> None:
        self.health_ms: list[float] = []
        self.health: Counter[int] = Counter()
        self.statuses: Counter[int] = Counter()
        self.last_down = 200

    def count(self, status: int) -> None:
        self.statuses[status] += 1

    async def health_loop(self, http: httpx.AsyncClient, stop: asyncio.Event) -> None:
        while not stop.is_set():
            t0 = time.perf_counter()
            try:
                resp = await http.get("/api/health", timeout=5)
                status = resp.status_code
            except httpx.HTTPError:
                status = 0  # no answer within the load balancer's 5 s
            self.health_ms.append((time.perf_counter() - t0) * 1000)
            if status != 200 and status != self.last_down:
                self.last_down = status
                say(f"health {status}: {resp.text[:300] if status else 'no answer'}")
            self.health[status] += 1
            self.count(status)
            await asyncio.sleep(HEALTH_INTERVAL_S)


async def _start_runs(http: httpx.AsyncClient, contracts: list[bytes], probe: Probe, tag: str) -> list[int]:
    runs = []
    for i, data in enumerate(contracts):
        up = await http.post("/api/documents", files={"file": (f"{tag}-{i}.docx", data)})
        probe.count(up.status_code)
        if up.status_code >= 300:
            continue
        run = await http.post(f"/api/documents/{up.json()['document']['id']}/runs", json={})
        probe.count(run.status_code)
        if run.status_code < 300:
            runs.append(run.json()["id"])
    return runs


def _run_figures(run_ids: list[int], started: float, timeout: float) -> dict[str, Any]:
    """Wait for the runs to finish (or the timeout), then read their outcome and terminal events."""
    from django.db import connection

    from redline.jobs.progress import TERMINAL_KINDS
    from redline.models import AnalysisRun, JobEvent

    deadline = started + timeout
    while True:
        try:
            runs = list(AnalysisRun.objects.filter(pk__in=run_ids).values("pk", "status", "job_id"))
            if all(r["status"] in ("done", "error") for r in runs) or time.monotonic() > deadline:
                break
        except Exception:  # the database is coming back
            connection.close()
        time.sleep(1)
    time.sleep(2)  # a terminal event written by a repair lands within a pulse
    terminal = Counter(JobEvent.objects.filter(job_id__in=[r["job_id"] for r in runs],
                                               kind__in=TERMINAL_KINDS).values_list("job_id", flat=True))
    finished = [r for r in runs if r["status"] in ("done", "error")]
    return {"runs": len(run_ids), "finished": len(finished), "done": sum(r["status"] == "done" for r in runs),
            "lost": len(run_ids) - len(runs), "stuck": len(runs) - len(finished),
            "terminal_events_per_finished_run": dict(Counter(terminal.get(r["job_id"], 0) for r in finished)),
            "seconds": round(time.monotonic() - started, 1)}


async def _scenario(base: str, key: str, contracts: list[bytes], fault: Callable[[], None], *, tag: str,
                    timeout: float, settle: float = 1.5) -> dict[str, Any]:
    probe = Probe()
    stop = asyncio.Event()
    async with httpx.AsyncClient(base_url=base, headers={"Authorization": f"Bearer {key}"}, timeout=30) as http:
        prober = asyncio.create_task(probe.health_loop(http, stop))
        started = time.monotonic()
        run_ids = await _start_runs(http, contracts, probe, tag)
        await asyncio.sleep(settle)  # the worker is into the first reviews
        await asyncio.to_thread(fault)
        figures = await asyncio.to_thread(_run_figures, run_ids, started, timeout)
        stop.set()
        await prober
    return {**figures, **_probe_figures(probe)}


def _probe_figures(probe: Probe) -> dict[str, Any]:
    fives = {s: n for s, n in probe.statuses.items() if s >= 500}
    return {"health_p50_ms": round(percentile(probe.health_ms, 50), 1),
            "health_p99_ms": round(percentile(probe.health_ms, 99), 1),
            "health_answers": dict(sorted(probe.health.items())),
            "requests": sum(probe.statuses.values()), "5xx": sum(fives.values()),
            "5xx_other_than_503": sum(n for s, n in fives.items() if s != 503)}


async def _streams(base: str, key: str, workspace_id: int, streams: int, seconds: float) -> dict[str, Any]:
    """``streams`` open streams on running jobs fed a progress event a second, 10 pollers, the probe."""
    probe = Probe()
    stop = asyncio.Event()
    jobs = await asyncio.to_thread(watch_jobs, workspace_id, max(1, streams // 20))
    ticking = threading.Event()

    def tick() -> None:
        from django.db import connection

        n = 0
        while not ticking.wait(1.0):
            n += 1
            emit(jobs, "progress", {"tick": n})
        emit(jobs, "done", {})
        connection.close()

    ticker = threading.Thread(target=tick, daemon=True)
    ticker.start()
    limits = httpx.Limits(max_connections=streams + 20)
    async with httpx.AsyncClient(base_url=base, headers={"Authorization": f"Bearer {key}"}, limits=limits,
                                 timeout=30) as http:
        prober = asyncio.create_task(probe.health_loop(http, stop))

        class _Counted:  # follow() records into a Stats-like object
            def __init__(self) -> None:
                self.sse_events = 0

            def record(self, kind: str, started: float, ok: bool, why: str = "") -> None:
                probe.count(200 if ok else int(why.split()[-1]) if why.startswith("HTTP") else 0)

        counted = _Counted()
        followers = [asyncio.create_task(follow(http, f"/api/jobs/{jobs[i % len(jobs)]}/events", counted,
                                                lambda: stop.is_set())) for i in range(streams)]

        async def poll() -> None:
            while not stop.is_set():
                resp = await http.get("/api/documents")
                probe.count(resp.status_code)
                await asyncio.sleep(1.0)

        pollers = [asyncio.create_task(poll()) for _ in range(10)]
        await asyncio.sleep(seconds)
        ticking.set()  # every job ends: each stream must end with it
        done, _ = await asyncio.wait(followers, timeout=60)
        stop.set()
        await asyncio.gather(prober, *pollers)
        for follower in followers:
            follower.cancel()
    return {"streams": streams, "streams_ended_with_done": len(done),
            "events_received": counted.sse_events, **_probe_figures(probe)}


def _killed_jobs(victim: CeleryWorker) -> dict[int, int]:
    """The jobs the killed worker held, with the attempt each was on."""
    from redline.models import Job, JobStatus

    return dict(Job.objects.filter(status=JobStatus.RUNNING, worker__startswith=f"{victim.name}@")
                .values_list("pk", "attempts"))


def _recovery(kill: dict[str, Any]) -> dict[str, Any]:
    """Seconds from the kill until each job the killed worker held started its next attempt, and ended; and
    how many the reaper resumed (its log line in the new worker's log names them)."""
    from redline.models import Job, JobEvent

    log = kill["successor"].log.read_text(errors="replace")
    reaped = {int(i) for m in REAPED.finditer(log) for i in m.group(1).split(",")}
    resumed, ended = [], []
    for job_id, attempt in kill["held"].items():
        nxt = JobEvent.objects.filter(job_id=job_id, kind="started", data__attempt=attempt + 1).first()
        if nxt is not None:
            resumed.append(round(nxt.created_at.timestamp() - kill["at"], 1))
        finished_at = Job.objects.get(pk=job_id).finished_at
        if finished_at is not None:
            ended.append(round(finished_at.timestamp() - kill["at"], 1))
    return {"interrupted": len(kill["held"]), "resumed_by_reaper": len(reaped & set(kill["held"])),
            "resumed_after_s": resumed, "ended_after_s": ended}


def _recovery_summary(figures: dict[str, Any], lease_s: float, pulse_s: float) -> dict[str, Any]:
    kills = [f for name, f in figures.items() if name.startswith("worker kill")]
    resumed = [s for f in kills for s in f["resumed_after_s"]]
    ended = [s for f in kills for s in f["ended_after_s"]]
    return {"kills": len(kills), "interrupted": sum(f["interrupted"] for f in kills),
            "resumed_by_reaper": sum(f["resumed_by_reaper"] for f in kills),
            "resumed_after_s_median": round(statistics.median(resumed), 1) if resumed else None,
            "resumed_after_s_max": max(resumed, default=None),
            "ended_after_s_median": round(statistics.median(ended), 1) if ended else None,
            "lease_s": lease_s, "pulse_s": pulse_s}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reviews", type=int, default=6, help="reviews started in each fault scenario")
    parser.add_argument("--down", type=float, default=20.0, help="seconds Redis and PostgreSQL stay down")
    parser.add_argument("--streams", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30.0, help="the streams scenario's window")
    parser.add_argument("--timeout", type=float, default=240.0, help="seconds a scenario's runs have to finish")
    parser.add_argument("--kills", type=int, default=3, help="worker kills, each on reviews of its own (the "
                        "median time to resume is over these)")
    parser.add_argument("--lease", type=float, default=15.0, help="the stack's REDLINE_JOB_LEASE_S (the product's "
                        "default is 30: --lease 30 measures the README's figure)")
    parser.add_argument("--only", choices=["worker", "redis", "postgres", "streams"], action="append",
                        help="run only these scenarios (repeatable)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()

    workdir = Path(tempfile.mkdtemp(prefix="redline-faults-"))
    pg, redis = Postgres().start(), Redis().start()
    servers: list = [pg, redis]
    try:
        env = stack_env(pg, redis, workdir, REDLINE_JOB_LEASE_S=f"{args.lease:g}")
        django_setup(env)
        key, workspace_id = make_account()
        contracts = contract_variants((args.kills + 2) * args.reviews, workdir)
        workers = [CeleryWorker(env, nice=10, name="faults-1").start()]
        servers.append(workers)
        web, base = start_web(env, workdir)
        servers.append(web)
        say("stack up")

        kills: dict[str, dict[str, Any]] = {}

        def kill_worker(name: str) -> None:
            from django.db import connection

            from redline.models import AnalysisRun

            deadline = time.monotonic() + 60  # mid-review: wait until one runs
            while not AnalysisRun.objects.filter(status="running").exists() and time.monotonic() < deadline:
                time.sleep(0.02)
            victim = workers[-1]
            os.kill(victim.proc.pid, signal.SIGKILL)
            victim.proc.wait(10)
            at = time.time()
            held = _killed_jobs(victim)
            say(f"worker killed holding jobs {sorted(held)}; starting another")
            workers.append(CeleryWorker(env, nice=10, name=f"faults-{len(workers) + 1}").start())
            kills[name] = {"at": at, "held": held, "successor": workers[-1]}
            connection.close()

        def stop_redis() -> None:
            redis.stop()
            say(f"Redis stopped for {args.down:g} s")
            time.sleep(args.down)
            redis.start()

        def stop_postgres() -> None:
            from django.db import connection

            say(f"PostgreSQL stopped for {args.down:g} s")
            pg.restart(down_s=args.down)
            connection.close()

        figures: dict[str, Any] = {}
        kill_names = ["worker kill"] if args.kills == 1 else [f"worker kill {k + 1}" for k in range(args.kills)]
        scenarios = [*((name, lambda name=name: kill_worker(name)) for name in kill_names),
                     ("redis stop", stop_redis), ("postgres stop", stop_postgres)]
        for n, (name, fault) in enumerate(scenarios):
            if args.only and name.split()[0] not in args.only:
                continue
            say(f"scenario: {name}")
            batch = contracts[n * args.reviews:(n + 1) * args.reviews]
            figures[name] = asyncio.run(_scenario(base, key, batch, fault, tag=name.split()[0], timeout=args.timeout,
                                                  settle=0 if name in kill_names else 1.5))
            if name in kills:
                figures[name].update(_recovery(kills[name]))
            say(f"{name}: {figures[name]}")
        if not args.only or "streams" in args.only:
            say(f"scenario: {args.streams} streams")
            figures["streams"] = asyncio.run(_streams(base, key, workspace_id, args.streams, args.seconds))
        from django.conf import settings

        recovery = _recovery_summary(figures, args.lease, settings.REDLINE_WORKER_PULSE_S)
        print(_report(figures, recovery))
        if args.json:
            args.json.write_text(json.dumps({**figures, "worker kill recovery": recovery}, indent=2))
        return 0 if _ok(figures) else 1
    finally:
        for server in reversed(servers):
            if isinstance(server, subprocess.Popen):
                server.terminate()
                server.wait(20)
            elif isinstance(server, list):
                for worker in server:
                    worker.stop()
            else:
                server.stop()


def _ok(figures: dict[str, Any]) -> bool:
    runs = [f for name, f in figures.items() if name != "streams"]
    return (all(f["lost"] == 0 and f["stuck"] == 0 and set(f["terminal_events_per_finished_run"]) <= {1}
                for f in runs)
            and all(f["5xx_other_than_503"] == 0 for f in figures.values())
            and all(f["resumed_by_reaper"] == f["interrupted"] for name, f in figures.items()
                    if name.startswith("worker kill"))
            and all(f["streams_ended_with_done"] == f["streams"] for name, f in figures.items() if name == "streams"))


def _report(figures: dict[str, Any], recovery: dict[str, Any]) -> str:
    lines = ["scenario        runs  finished  lost  stuck  terminal/run  health p50/p99 ms  5xx (not 503)  requests"]
    for name, f in figures.items():
        if name == "streams":
            runs = f"{f['streams_ended_with_done']}/{f['streams']} streams ended with done"
            lines.append(f"{name:<15} {runs:<44} {f['health_p50_ms']:>7}/{f['health_p99_ms']:<9} "
                         f"{f['5xx']:>4} ({f['5xx_other_than_503']})   {f['requests']}")
            continue
        terminal = ", ".join(f"{k}:{v}" for k, v in sorted(f["terminal_events_per_finished_run"].items()))
        lines.append(f"{name:<15} {f['runs']:>4}  {f['finished']:>8}  {f['lost']:>4}  {f['stuck']:>5}  "
                     f"{terminal:<12}  {f['health_p50_ms']:>7}/{f['health_p99_ms']:<9} {f['5xx']:>4} "
                     f"({f['5xx_other_than_503']})   {f['requests']}   health answers {f['health_answers']}")
    if recovery["kills"]:
        lines.append(f"worker kill recovery (lease {recovery['lease_s']:g} s, pulse {recovery['pulse_s']:g} s): "
                     f"{recovery['interrupted']} job(s) interrupted over {recovery['kills']} kill(s), "
                     f"{recovery['resumed_by_reaper']} resumed by the reaper; resumed after "
                     f"{recovery['resumed_after_s_median']} s (median; max {recovery['resumed_after_s_max']} s), "
                     f"ended after {recovery['ended_after_s_median']} s (median)")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
