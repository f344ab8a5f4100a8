"""``redline bench --revisions``: accept, reject and extraction on a heavily revised contract.

A generated contract (``tests/support/make_contract.py``) gets about
``count`` tracked changes of mixed kinds from three authors
(``tests/support/make_revisions.py``: replacements, insertions, deletions,
inserted, deleted and joined paragraphs, moves, formatting and paragraph
property changes, table rows, header changes). Each measurement is a fresh
``redline`` process, timed like the rest of ``redline bench``, and pandoc's own
accept (``pandoc --track-changes=accept -t plain``) of the same file is timed
beside it for scale.
"""

from __future__ import annotations

import os
import statistics
import sys
from pathlib import Path
from typing import TextIO

from .processes import generated_contract, measure_process, run_checked

MAKE_REVISIONS = Path(__file__).resolve().parents[2] / "tests" / "support" / "make_revisions.py"


def run_revisions(pages: list[int], *, count: int, repeat: int, workdir: Path, out: TextIO) -> None:
    """Benchmark accept-all, reject-all and full extraction for each contract size."""
    workdir.mkdir(parents=True, exist_ok=True)
    # As in ``redline bench``: compiled bytecode kept in the work directory, like an installed package.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str((workdir / "pycache").resolve())
    py = sys.executable
    out.write(f"{'pages':>5}  {'measurement (' + str(count) + ' revisions)':<50} {'median s':>8} {'peak MB':>8}\n")
    for n in pages:
        src = _revised(workdir, n, count)
        rows = [
            ("python startup (baseline)", [py, "-c", "pass"]),
            ("accept all (redline accept)", [py, "-m", "redline", "accept", "--input", src,
                                             "--out", workdir / f"{n}p-accepted.docx"]),
            ("reject all (redline reject)", [py, "-m", "redline", "reject", "--input", src,
                                             "--out", workdir / f"{n}p-rejected.docx"]),
            ("extract all + first page (redline revisions)", [py, "-m", "redline", "revisions", "--input", src,
                                                              "--limit", "500"]),
            ("pandoc --track-changes=accept -t plain", ["pandoc", "--track-changes=accept", "-t", "plain", src]),
        ]
        for label, cmd in rows:
            measure_process(cmd, env)  # warm-up
            times, peaks = zip(*(measure_process(cmd, env) for _ in range(repeat)), strict=True)
            out.write(f"{n:>5}  {label:<50} {statistics.median(times):>8.3f} {max(peaks) / 1024:>8.1f}\n")
        out.flush()


def _revised(workdir: Path, pages: int, count: int) -> Path:
    path = workdir / f"contract-{pages}p-{count}rev.docx"
    if not path.exists():
        if not MAKE_REVISIONS.exists():
            raise RuntimeError(f"the revision generator is missing: {MAKE_REVISIONS}")
        run_checked([sys.executable, MAKE_REVISIONS, generated_contract(workdir, pages), "-o", path, "--count", str(count)])
    return path
