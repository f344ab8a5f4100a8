"""How long outcome detection takes on a long contract (issue 6: 100 pages, 200 entries ≤ 0.3 s).

Run ``.venv/bin/python -m tests.learning.benchmark [pages] [entries]`` for the
figure (``redline bench --pages 100`` prints it too); the test suite runs the same function and holds it only
to a guard three times the target (tests/learning/test_benchmark.py).
The contract comes from ``tests/support/make_contract.py``; the entries are
the known entries of :func:`redline.bench.mixed_ops` (comments, rewrites,
replacements, insertions and deletions in equal shares) written into it, and
the document measured is the redlined file with about a third of the changes
accepted, a third rejected and the rest left pending.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from redline.bench.processes import mixed_ops
from redline.learning.outcomes import detect_outcomes
from redline.ooxml.ops import op_from_json
from redline.ooxml.package import Package
from redline.ooxml.paragraphs import read_document
from redline.ooxml.revisions import DEL, INS, accept, reject
from redline.ooxml.writer import redline_document

MAKE_CONTRACT = Path(__file__).resolve().parents[1] / "support" / "make_contract.py"


def contract(pages: int, directory: Path) -> bytes:
    """A generated contract of about ``pages`` pages."""
    path = directory / f"contract-{pages}p.docx"
    subprocess.run([sys.executable, str(MAKE_CONTRACT), "--pages", str(pages), "-o", str(path)],
                   check=True, capture_output=True)
    return path.read_bytes()


def reviewed(source: bytes, count: int):
    """The contract redlined with ``count`` mixed ops, then partly accepted and
    partly rejected; returns (file, known entries)."""
    anchored = read_document(source, anchor=True)
    sidecar = {p.anchor: {"type": "heading" if p.heading_level else "paragraph", "text": p.text}
               for p in anchored.paragraphs if p.anchor}
    ops = [op_from_json(i, o) for i, o in enumerate(mixed_ops(sidecar, count))]
    out = redline_document(anchored.docx, ops, date="2025-01-02T03:04:05Z")
    entries = [r.entry for r in out.results if r.entry is not None]
    pkg = Package.open(out.docx)
    body = pkg.xml(pkg.main_part)
    ids = sorted({el.get("{http://schemas.openxmlformats.org/wordprocessingml/2006/main}id")
                  for el in body.iter(INS, DEL)}, key=int)
    accept(body, ids=ids[0::3])
    reject(body, ids=ids[1::3])
    return pkg.save(), entries


def bench_outcomes(pages: int = 100, count: int = 200, repeat: int = 5, clock: str = "wall"
                   ) -> tuple[float, int, int]:
    """Median seconds of :func:`detect_outcomes` (file bytes in, outcomes out),
    the number of entries and of paragraphs measured. ``clock`` is ``"wall"``
    or ``"cpu"`` (this process's CPU time: what the test holds to its guard,
    because other jobs on a shared machine stretch wall time, not our work)."""
    timer = {"wall": time.perf_counter, "cpu": time.process_time}[clock]
    with tempfile.TemporaryDirectory() as tmp:
        data, entries = reviewed(contract(pages, Path(tmp)), count)
    paragraphs = len(read_document(data, anchor=False).paragraphs)
    detect_outcomes(data, entries)  # warm caches and imports, as a server process would be
    times = []
    for _ in range(repeat):
        start = timer()
        detect_outcomes(data, entries)
        times.append(timer() - start)
    return statistics.median(times), len(entries), paragraphs


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:3]]
    for kind in ("wall", "cpu"):
        seconds, n, paras = bench_outcomes(*args, clock=kind)
        print(f"detect_outcomes: {n} known entries, {paras} paragraphs: median {seconds * 1000:.0f} ms ({kind})")
