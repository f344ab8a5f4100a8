"""``redline bench``'s compare rows: ours beside a public comparer on the same pair of versions.

A generated contract and its revised version (``make_contract.py --revise``, about a tenth of the clauses
changed) are compared by ``redline compare`` and by python-redlines' Docxodus engine (a .NET comparer, the
peer issue #28 names; installed with ``pip install -e ".[bench]"``), each as a fresh process timed like every
other row: median wall time and peak memory. Each output is then read by pandoc with every change accepted and
rejected, and the rows say whether those views are the new and the old version's text, and how many
revisions each wrote.
"""

from __future__ import annotations

import os
import re
import statistics
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import TextIO

from .processes import MAKE_CONTRACT, generated_contract, measure_process, run_checked

_SPACE = re.compile(r"\s+")


def _revised(workdir: Path, pages: int) -> Path:
    path = workdir / f"contract-{pages}p-revised.docx"
    if not path.exists():
        run_checked([sys.executable, MAKE_CONTRACT, "--pages", str(pages), "--revise", "0.1", "-o", path])
    return path


def _peer_command(old: Path, new: Path, out: Path) -> list[object] | None:
    """The Docxodus engine's own command line, or None when python-redlines is not installed."""
    try:
        from python_redlines.engines import DocxodusEngine
    except ImportError:
        return None
    return list(DocxodusEngine()._build_command("Peer", str(old), str(new), str(out)))


def _pandoc(path: Path, changes: str) -> list[str]:
    text = subprocess.run(["pandoc", f"--track-changes={changes}", "-t", "plain", "--wrap=none", str(path)],
                          capture_output=True, text=True, check=True).stdout
    return [line for line in (_SPACE.sub(" ", raw).strip() for raw in text.splitlines()) if line]


def _revisions(path: Path) -> int:
    xml = zipfile.ZipFile(path).read("word/document.xml").decode("utf-8", "replace")
    return len(re.findall(r"<w:(?:ins|del|moveFrom|moveTo)\b", xml))


def compare_rows(pages: list[int], *, repeat: int, workdir: Path, out: TextIO) -> None:
    """Time ``redline compare`` and the peer on the largest contract and its revised version."""
    n = max(pages)
    workdir.mkdir(parents=True, exist_ok=True)
    old, new = generated_contract(workdir, n), _revised(workdir, n)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str((workdir / "pycache").resolve())
    ours, theirs = workdir / f"{n}p-compared.docx", workdir / f"{n}p-compared-peer.docx"
    rows = [("redline compare", [sys.executable, "-m", "redline", "compare", "--old", old, "--new", new,
                                 "--out", ours], ours)]
    peer = _peer_command(old, new, theirs)
    if peer is None:
        out.write(f"{n:>5}  python-redlines (Docxodus) not installed: pip install -e \".[bench]\"\n")
    else:
        rows.append(("python-redlines (Docxodus)", peer, theirs))
    want = {"accept": _pandoc(new, "accept"), "reject": _pandoc(old, "accept")}
    out.write(f"{'pages':>5}  {'compare (old → new, ~10% of clauses revised)':<50} {'median s':>8} {'peak MB':>8}"
              f"  {'revisions':>9}  pandoc accept/reject views right\n")
    for label, cmd, result in rows:
        measure_process(cmd, env)  # warm-up
        times, peaks = zip(*(measure_process(cmd, env) for _ in range(repeat)), strict=True)
        right = "/".join("yes" if _pandoc(result, view) == want[view] else "no" for view in ("accept", "reject"))
        out.write(f"{n:>5}  {label:<50} {statistics.median(times):>8.3f} {max(peaks) / 1024:>8.1f}"
                  f"  {_revisions(result):>9}  {right}\n")
        out.flush()
