"""``redline bench``'s run-overview rows: the run page of a real 300-page review, server time per request.

The issue's target: a filtered list of a 300-page run renders in ≤ 300 ms of server
time. A fresh process gets a throwaway SQLite database in the bench work directory,
reviews the generated contract with the offline engine exactly as the worker does,
exports it (so every suggestion has a known entry) and decides a share of the
outcomes, then renders the run page through Django's test client (the whole
middleware stack, no network): the htmx partial of a filtered, grouped view, and
the whole page, each the median of many requests. Peak MB is what one request
allocates in Python (``tracemalloc``), not the process's resident memory.

:func:`reviewed_run` is also what the tests use for their 300-page run.
"""

from __future__ import annotations

import json
import os
import secrets
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from redline.models import AnalysisRun, Membership

FILTERED = "?severity=major&outcome=pending&group=clause"
DECIDED = ("pending", "accepted", "rejected", "modified")  # every fourth known entry gets each outcome


def reviewed_run(*, membership: Membership, data: bytes, filename: str = "contract.docx") -> AnalysisRun:
    """A finished offline review of ``data`` with the default playbook, exported, a quarter of its
    outcomes each of pending, accepted, rejected and modified.

    The job runs on the in-process worker when the request committed (the bench, browser
    tests); inside a test's transaction it never reached the worker and runs here instead.
    """
    from redline.jobs.tasks import job_run
    from redline.jobs.worker import in_process_worker
    from redline.models import KnownEntry, Playbook, RunStatus
    from redline.services.documents import document_version_create
    from redline.services.playbook_edits import playbook_latest_version
    from redline.services.playbooks import playbook_default_install
    from redline.services.runs import run_export, run_request

    workspace, user = membership.workspace, membership.user
    version, *_ = document_version_create(workspace=workspace, data=data, filename=filename, uploaded_by=user)
    playbook = Playbook.objects.filter(workspace=workspace).first()
    pinned = playbook_latest_version(playbook=playbook) if playbook else playbook_default_install(workspace=workspace)
    run, _ = run_request(version=version, playbook_version=pinned, provider="offline", created_by=user)
    in_process_worker().wait_idle(600)
    run.refresh_from_db()
    if run.status != RunStatus.DONE:
        job_run(run.job_id)
        run.refresh_from_db()
    if run.status != RunStatus.DONE:
        raise RuntimeError(f"the review ended {run.status}: {run.error_message}")
    run_export(run=run)
    entries = list(KnownEntry.objects.filter(run=run).order_by("pk").values_list("pk", flat=True))
    for i, outcome in enumerate(DECIDED):
        KnownEntry.objects.filter(pk__in=entries[i::len(DECIDED)]).update(outcome=outcome)
    return run


def _timed(client: Any, url: str, repeat: int, **headers: str) -> tuple[float, float]:
    """Median seconds and the peak MB one request allocates."""
    client.get(url, **headers)  # warm: templates compiled, the document's parse cached
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        response = client.get(url, **headers)
        times.append(time.perf_counter() - start)
        if response.status_code != 200:
            raise RuntimeError(f"{url} answered {response.status_code}")
    tracemalloc.start()
    client.get(url, **headers)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return statistics.median(times), peak / 2**20


def reviewed_in_fresh_database(contract: Path) -> tuple[AnalysisRun, Any]:
    """In a process whose settings point at a fresh database: migrate, make a workspace and its admin, review
    ``contract`` (:func:`reviewed_run`); the run and the admin."""
    import django

    django.setup()
    from django.core.management import call_command

    from redline.services.accounts import membership_create, user_create, workspace_create

    call_command("migrate", verbosity=0)
    workspace = workspace_create(name="Bench LLP")
    user = user_create(username="bench", password=secrets.token_urlsafe())  # signed in with force_login
    membership = membership_create(user=user, workspace=workspace, role="admin")
    return reviewed_run(membership=membership, data=contract.read_bytes(), filename=contract.name), user


def measure(contract: Path, repeat: int) -> dict[str, Any]:
    """In a process whose settings point at a fresh database: review, then time the run page."""
    run, user = reviewed_in_fresh_database(contract)
    from django.http import QueryDict
    from django.test import Client

    from dashboard.overview import run_filters, run_overview, suggestions_filtered

    client = Client()
    client.force_login(user)
    url = f"/runs/{run.pk}/"
    filters = run_filters(params=QueryDict(FILTERED[1:]), overview=run_overview(run=run))
    filtered = suggestions_filtered(run=run, filters=filters).count()
    partial_s, partial_mb = _timed(client, url + FILTERED, repeat, HTTP_HX_REQUEST="true")
    page_s, page_mb = _timed(client, url, repeat)
    return {"suggestions": run.suggestions.count(), "filtered": filtered, "partial_s": partial_s,
            "partial_mb": partial_mb, "page_s": page_s, "page_mb": page_mb}


def in_fresh_process(module: str, contract: Path, repeat: int, *, workdir: Path, name: str) -> dict[str, Any]:
    """``python -m module contract repeat`` with a throwaway SQLite database and data folder in ``workdir``
    (no Redis, in-process jobs); what it prints last, as JSON."""
    from .processes import ROOT

    database = (workdir / f"{name}.sqlite3").resolve()
    database.unlink(missing_ok=True)
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "redline.settings", "DATABASE_URL": f"sqlite:///{database}",
           "REDLINE_DATA_DIR": str((workdir / f"{name}-data").resolve())}
    for var in ("REDIS_URL", "CELERY_BROKER_URL"):
        env.pop(var, None)
    result = subprocess.run([sys.executable, "-m", module, str(contract.resolve()), str(repeat)],
                            capture_output=True, text=True, cwd=ROOT, env=env)
    if result.returncode != 0:
        raise RuntimeError(f"the {name} bench failed: {result.stderr.strip()[-500:]}")
    return json.loads(result.stdout.strip().splitlines()[-1])


def overview_rows(pages: list[int], *, repeat: int, workdir: Path, out: TextIO) -> None:
    """The bench rows for the largest contract (a fresh process and database each time)."""
    from .processes import generated_contract

    n = max(pages)
    m = in_fresh_process("redline.bench.overview", generated_contract(workdir, n), repeat * 20, workdir=workdir,
                         name=f"overview-{n}p")
    label = "run overview: filtered list (htmx partial)"
    out.write(f"{n:>5}  {label:<50} {m['partial_s']:>8.3f} {m['partial_mb']:>8.1f}  "
              f"{m['filtered']} of {m['suggestions']} suggestions, {FILTERED}\n")
    out.write(f"{n:>5}  {'run overview: whole run page (first 25 cards)':<50} {m['page_s']:>8.3f} "
              f"{m['page_mb']:>8.1f}\n")
    out.flush()

if __name__ == "__main__":
    print(json.dumps(measure(Path(sys.argv[1]), int(sys.argv[2]))))
