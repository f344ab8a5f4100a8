"""A short, small run of the load benchmark (tests/load/run.py) in CI: PostgreSQL, Redis,
uvicorn with two workers and a Celery worker, all on loopback, started and stopped by it.

It proves what the full benchmark measures at a size this suite can afford: no request
fails, nothing uploaded is lost, every stream gets each event once, and the health check
a load balancer polls answers within 100 ms at the 99th percentile while reviews run.
"""

from __future__ import annotations

import json
import subprocess
import sys

from tests.load.run import HEALTH, TARGET_HEALTH_P99_MS
from tests.servers import ROOT


def test_load_smoke_health_p99_within_100_ms_nothing_lost(tmp_path):
    out = tmp_path / "figures.json"
    proc = subprocess.run(
        [sys.executable, "-m", "tests.load.run", "--seconds", "8", "--warmup", "3", "--streams", "20",
         "--pollers", "4", "--uploads", "4", "--json", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    assert out.exists(), proc.stdout[-3000:] + proc.stderr[-3000:]
    figures = json.loads(out.read_text())
    health = figures["by_request"][HEALTH]
    assert health["count"] >= 80, figures  # probed throughout the window
    assert health["errors"] == 0 and figures["errors"] == 0, figures["error_samples"]
    assert figures["health_p99_ms"] <= TARGET_HEALTH_P99_MS, proc.stdout
    assert not any(figures["lost"].values()), figures["lost"]
    assert figures["sse_streams_with_gaps_or_duplicates"] == 0
    assert figures["sse_streams_held"] == 20
