"""``redline bench``: how fast reading and redlining are, as whole processes.

A user waits for a whole process (interpreter start, imports, file I/O), so each
measurement runs the real command line in a fresh process and reports the
median wall time and the peak resident memory of that process (``ru_maxrss``
from ``os.wait4``). Contracts come from ``tests/support/make_contract.py``
(realistic numbering, REF fields, tables; needs python-docx) and are generated
once into the work directory. python-docx merely listing paragraph texts of the
same file is measured beside ours for scale.
"""

from __future__ import annotations

import json
import os
import platform
import random
import re
import statistics
import subprocess
import sys
from pathlib import Path
from typing import TextIO

ROOT = Path(__file__).resolve().parents[2]
MAKE_CONTRACT = ROOT / "tests" / "support" / "make_contract.py"
OPS_PER_RUN = 200
_READ_ONLY = (
    "import sys\n"
    "from redline.ooxml.paragraphs import read_document\n"
    "read_document(open(sys.argv[1], 'rb').read(), anchor=False)\n"
)
_PYTHON_DOCX = "import sys, docx\n[p.text for p in docx.Document(sys.argv[1]).paragraphs]\n"


def run(pages: list[int], *, repeat: int, workdir: Path, out: TextIO) -> None:
    """Benchmark each contract size and print one table."""
    workdir.mkdir(parents=True, exist_ok=True)
    py = sys.executable
    # Measure as an installed package runs: with compiled bytecode (kept in the work
    # directory, not the source tree), even where PYTHONDONTWRITEBYTECODE is set.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str((workdir / "pycache").resolve())
    out.write(f"redline bench: {os.cpu_count()} cores, Python {platform.python_version()}, "
              f"median of {repeat} fresh processes after one warm-up (bytecode cached), peak RSS per process\n")
    out.write(f"{'pages':>5}  {'measurement':<50} {'median s':>8} {'peak MB':>8}\n")
    for n in pages:
        src = generated_contract(workdir, n)
        anchored, ops_path, md, sidecar = (workdir / f"{n}p-{x}" for x in ("anchored.docx", "ops.json", "md", "sc"))
        run_checked([py, "-m", "redline", "read", "--input", src, "--sidecar", sidecar, "--out-bookmarked", anchored])
        ops = mixed_ops(json.loads(Path(sidecar).read_text(encoding="utf-8")), OPS_PER_RUN)
        ops_path.write_text(json.dumps({"meta": {"author": "Redline AI"}, "ops": ops}), encoding="utf-8")
        log = workdir / f"{n}p-run.log"
        rows = [
            ("python startup (baseline)", [py, "-c", "pass"]),
            ("read+anchor+markdown (redline read)",
             [py, "-m", "redline", "read", "--input", src, "--out-md", md, "--sidecar", sidecar,
              "--out-bookmarked", workdir / f"{n}p-anchored-again.docx"]),
            ("read model only (no anchoring, no output)", [py, "-c", _READ_ONLY, src]),
            ("python-docx: list paragraph texts", [py, "-c", _PYTHON_DOCX, src]),
            ("clause overview, 41 categories (redline clauses)",
             [py, "-m", "redline", "clauses", "--input", src, "--json"]),
            ("review end to end, offline (redline review)",
             [py, "-m", "redline", "review", "--input", src, "--out-redline", workdir / f"{n}p-reviewed.docx"]),
            (f"apply {len(ops)} mixed ops + save (redline apply-ops)",
             [py, "-m", "redline", "apply-ops", "--input", anchored, "--ops", ops_path,
              "--out-redline", workdir / f"{n}p-redline.docx", "--log", log,
              "--comment-ids-map", workdir / f"{n}p-map.json"]),
        ]
        for label, cmd in rows:
            measure_process(cmd, env)  # warm-up: fills the bytecode cache, like an installed package
            times, peaks = zip(*(measure_process(cmd, env) for _ in range(repeat)), strict=True)
            out.write(f"{n:>5}  {label:<50} {statistics.median(times):>8.3f} {max(peaks) / 1024:>8.1f}\n")
        statuses = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
        applied = sum(1 for s in statuses if s["status"] == "applied")
        reasons = sorted({s.get("reason", "") for s in statuses if s["status"] != "applied"})
        out.write(f"{'':>5}  (ops applied {applied}/{len(statuses)}; skipped reasons: {', '.join(reasons) or '-'})\n")
        rerun = json.loads(run_checked([py, "-m", "redline.analysis.benchmark", src, "--repeats", str(repeat)]))
        out.write(f"{n:>5}  {'review re-run, unchanged document (warm cache)':<50} "
                  f"{rerun['rerun_s']:>8.3f} {'':>8}  provider calls {rerun['rerun_provider_calls']}\n")
        out.flush()
    if max(pages) >= 100:
        figures = run_checked([py, "-m", "tests.learning.benchmark", "100", "200"]).strip()
        out.write(f"{100:>5}  outcome detection (in-process): {figures}\n")


def mixed_ops(sidecar: dict[str, dict], count: int, seed: int = 7) -> list[dict[str, object]]:
    """``count`` realistic ops over body paragraphs: comments, rewrites of a few
    words, quoted replacements, insertions and deletions, in equal shares."""
    rng = random.Random(seed)
    pool = [(a, e["text"]) for a, e in sidecar.items()
            if e.get("type") == "paragraph" and len(e.get("text", "")) > 60]
    if not pool:
        raise RuntimeError("the generated contract has no body paragraphs to edit")
    rng.shuffle(pool)
    ops: list[dict[str, object]] = []
    for i in range(count):
        anchor, text = pool[i % len(pool)]
        words = re.findall(r"\b[a-z]{5,}\b", text) or ["shall"]
        word = rng.choice(words)
        kind = i % 5
        if kind == 0:
            ops.append({"Id": anchor, "Type": "COMMENT", "Comment": "Consider whether this clause is market standard."})
        elif kind == 1:
            new = re.sub(rf"\b{word}\b", "commercially reasonable", text, count=1) + " This survives termination."
            ops.append({"Id": anchor, "Type": "REWRITE_PARAGRAPH", "NewText": new, "Comment": "Tightened."})
        elif kind == 2:
            ops.append({"Id": anchor, "Type": "REPLACE_TEXT", "Quote": word, "Replacement": "appropriate",
                        "Occurrence": 1})
        elif kind == 3:
            ops.append({"Id": anchor, "Type": "INSERT", "Position": "after",
                        "Text": "The Parties shall cooperate in good faith to give effect to this Section."})
        else:
            ops.append({"Id": anchor, "Type": "DELETE_PARAGRAPH", "Comment": "Redundant."})
    return ops


def generated_contract(workdir: Path, pages: int) -> Path:
    path = workdir / f"contract-{pages}p.docx"
    if not path.exists():
        if not MAKE_CONTRACT.exists():
            raise RuntimeError(f"the contract generator is missing: {MAKE_CONTRACT}")
        run_checked([sys.executable, MAKE_CONTRACT, "--pages", str(pages), "-o", path])
    return path


def run_checked(cmd: list[object]) -> str:
    result = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, cwd=ROOT)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, cmd[:4]))} failed: {result.stderr.strip()[-500:]}")
    return result.stdout


def measure_process(cmd: list[object], env: dict[str, str]) -> tuple[float, int]:
    """Wall time and peak RSS (KiB) of one fresh process running ``cmd``.

    A small runner process starts it and reads its ``ru_maxrss`` with
    ``os.wait4``: a child started straight from this (larger) process would
    report this process's memory as its own peak, since Linux counts the
    memory a child shares with its parent until it runs the new program.
    """
    done = subprocess.run([sys.executable, "-c", _RUNNER, *map(str, cmd)], capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, cmd[:4]))} failed: {done.stderr.strip()[-500:]}")
    seconds, peak_kib = json.loads(done.stdout)
    return seconds, peak_kib


_RUNNER = """
import json, os, subprocess, sys, time
start = time.perf_counter()
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)
_pid, status, usage = os.wait4(child.pid, 0)
elapsed = time.perf_counter() - start
child.returncode = os.waitstatus_to_exitcode(status)
if child.returncode:
    sys.exit(f"exit status {child.returncode}")
print(json.dumps([elapsed, usage.ru_maxrss]))
"""
