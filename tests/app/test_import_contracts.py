"""The layering is a check (import-linter, ``[tool.importlinter]`` in pyproject.toml): the real tree keeps
every contract, and a deliberately wrong import in a copy of the tree breaks the contract it violates."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")
PACKAGES = ("redline", "addin_api", "dashboard")


def _lint(root: Path) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` on the tree at ``root``, its packages found there first (not the installed ones)."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run([str(LINT_IMPORTS), "--no-cache"], cwd=root, env=env, capture_output=True, text=True,
                          timeout=120)


def _copy_tree(dest: Path) -> Path:
    for package in PACKAGES:
        shutil.copytree(ROOT / package, dest / package,
                        ignore=lambda folder, names: [n for n in names if not (n.endswith(".py") or
                                                                               (Path(folder) / n).is_dir())])
    shutil.copy(ROOT / "pyproject.toml", dest / "pyproject.toml")
    return dest


def _prepend(path: Path, line: str) -> None:
    """Add an import after the module's ``from __future__`` line (or at its top)."""
    text = path.read_text()
    future = "from __future__ import annotations\n"
    path.write_text(text.replace(future, future + line + "\n", 1) if future in text else line + "\n" + text)


def test_the_real_tree_keeps_every_contract():
    result = _lint(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout
    for contract in ("Layers", "engines import no Django", "job layer imports no service", "No import cycles"):
        assert contract in result.stdout


@pytest.mark.parametrize(("module", "wrong_import", "broken"), [
    ("redline/ooxml/text.py", "import django", "The engines import no Django, Celery or Ninja"),
    ("redline/analysis/cache.py", "from celery import shared_task", "The engines import no Django, Celery or Ninja"),
    ("redline/jobs/progress.py", "from redline.services import runs",
     "The job layer imports no service and no interface"),
    ("redline/ooxml/text.py", "from redline import models", "Layers: interfaces"),
    ("redline/selectors.py", "from dashboard import queries", "Layers: interfaces"),
    ("dashboard/context.py", "from dashboard import http", "No import cycles"),
    ("redline/jobs/leases.py", "from redline.jobs import tasks", "No import cycles"),
], ids=["engine-imports-django", "engine-imports-celery", "jobs-import-services", "engine-imports-domain",
        "domain-imports-interface", "dashboard-circle", "jobs-circle"])
def test_a_wrong_import_breaks_its_contract(tmp_path, module, wrong_import, broken):
    tree = _copy_tree(tmp_path)
    _prepend(tree / module, wrong_import)
    result = _lint(tree)
    assert result.returncode != 0, result.stdout
    broken_lines = [line for line in result.stdout.splitlines() if " BROKEN" in line]
    assert any(line.startswith(broken) for line in broken_lines), result.stdout
    importer = module.removesuffix(".py").replace("/", ".")
    package, _, leaf = importer.rpartition(".")  # a cycle is reported as siblings of their package
    assert importer in result.stdout or (f"allowed in {package}." in result.stdout and f".{leaf} " in result.stdout)


WIRING = {"__init__", "__main__", "settings", "urls", "asgi", "wsgi", "celery", "apps", "migrations"}


def test_every_part_of_the_package_root_is_in_a_layer():
    """A module added at the root of ``redline/`` must be placed in the layers (or be Django's wiring), so
    the contracts see it; the layers name only parts that exist."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    layers = next(c for c in config["contracts"] if c["id"] == "layers")["layers"]
    named = {part.strip() for layer in layers for part in layer.replace(":", "|").split("|")}
    root = ROOT / "redline"
    parts = {p.stem for p in root.glob("*.py")} | {p.name for p in root.iterdir() if (p / "__init__.py").exists()}
    assert sorted(f"redline.{p}" for p in parts - WIRING if f"redline.{p}" not in named) == []
    assert sorted(n for n in named if n.split(".")[0] == "redline" and n.split(".")[1] not in parts) == []


MAX_LINES = 400


def test_no_module_is_longer_than_one_purpose_needs():
    """Past ~400 lines a module mixes purposes (#19): split it by purpose. The models and migrations are exempt."""
    long = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" in path.parts or path.name == "models.py":
                continue
            lines = path.read_text().count("\n")
            if lines > MAX_LINES:
                long[str(path.relative_to(ROOT))] = lines
    assert long == {}
