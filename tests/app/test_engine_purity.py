"""The pure engines import no Django, Celery or Ninja (design.md: engines know no domain)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENGINES = ["redline/ooxml", "redline/analysis", "redline/retrieval", "redline/learning", "redline/clauses"]
FORBIDDEN = {"django", "celery", "ninja", "kombu"}
DOMAIN = {"redline.models", "redline.services", "redline.selectors", "redline.jobs", "redline.server",
          "redline.settings"}


def _imports(path: Path, package: str = "") -> list[str]:
    """Absolute names of every import in a file, relative imports resolved against ``package``."""
    source = path.read_text()
    try:
        tree = ast.parse(source, filename=str(path))
    except SystemError:
        # CPython 3.11 (gh-106905): the parser's recursion counter is shared between threads, so a
        # parse raced by another thread's (a worker logging a traceback formats it with ``ast``) can fail
        # spuriously. The file is fine: parse it again.
        tree = ast.parse(source, filename=str(path))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            module = ".".join([*base, node.module] if node.module else base)
            names += [f"{module}.{a.name}" if not node.module else module for a in node.names][:1] or [module]
    return names


def test_engines_exist_and_import_nothing_from_the_framework():
    files = [f for d in ENGINES for f in (ROOT / d).rglob("*.py")]
    assert len(files) >= len(ENGINES)
    offenders = [
        f"{f.relative_to(ROOT)}: {name}"
        for f in files
        for name in _imports(f, ".".join(f.relative_to(ROOT).with_suffix("").parts[:-1]))
        if name.split(".")[0] in FORBIDDEN or any(name == d or name.startswith(d + ".") for d in DOMAIN)
    ]
    assert offenders == []


def test_the_checker_catches_a_framework_import(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("from django.db import models\nimport celery.app\nfrom ..models import Job\nfrom . import text\n")
    assert _imports(bad, "redline.ooxml") == ["django.db", "celery.app", "redline.models", "redline.ooxml.text"]
