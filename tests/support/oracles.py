"""Outside readers of our .docx output: pandoc and LibreOffice, via ``oracle.py``.

The oracle lives in ``../shared/oracle`` on a developer machine; a copy is kept
in ``tests/support`` so a clean clone in CI judges files the same way. The shared
copy wins when present (it is the reference).

The third judge, the Open XML validator, is :mod:`tests.support.validator`; every
file the engine writes during a test is held to it by :mod:`tests.support.written`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.support.oracles_path import ORACLE_DIR, load_oracle

oracle = load_oracle()


def pandoc_text(path: str | os.PathLike, changes: str = "accept") -> list[str]:
    """pandoc's normalised paragraph lines with all changes accepted/rejected/marked."""
    return oracle.normalise(oracle.pandoc_paragraphs(str(path), changes))


def lo_text(path: str | os.PathLike, changes: str = "accept") -> list[str]:
    """LibreOffice's normalised paragraph lines (about 2 s; use on small files)."""
    return oracle.normalise(oracle.lo_paragraphs(str(path), changes))


def lo_texts(jobs: list[tuple[str | os.PathLike, str]]) -> list[list[str]]:
    """LibreOffice's lines for several (path, changes) pairs in one soffice session."""
    results = oracle.lo_run([{"path": str(path), "mode": mode, "method": "walk"} for path, mode in jobs])
    errors = [r["error"] for r in results if "error" in r]
    if errors:
        raise RuntimeError(errors[0])
    return [oracle.normalise(r["paragraphs"]) for r in results]


def opens(path: str | os.PathLike) -> bool:
    """True when LibreOffice renders the file to a PDF with at least one page."""
    result = subprocess.run(
        [sys.executable, str(ORACLE_DIR / "oracle.py"), "opens", str(path)],
        capture_output=True, text=True, timeout=300,
    )
    return result.returncode == 0


def stats(path: str | os.PathLike) -> dict:
    """Counts of revisions, comments, bookmarks and custom properties."""
    return json.loads(json.dumps(oracle.stats(str(path))))


def pandoc_nodes(path: str | os.PathLike, changes: str, kind: str) -> list[dict]:
    """The nodes of one kind ("Image", "Note") in pandoc's JSON reading of a .docx with its tracked changes
    accepted, rejected or shown, in document order (a node's own children are not searched)."""
    done = subprocess.run(["pandoc", "-f", "docx", "-t", "json", f"--track-changes={changes}", str(path)],
                          capture_output=True, check=True, timeout=120)
    found: list[dict] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            if node.get("t") == kind:
                found.append(node)
                return
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(json.loads(done.stdout))
    return found
