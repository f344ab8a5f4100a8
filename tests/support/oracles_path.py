"""Where the oracle lives: ``../shared/oracle`` on a developer machine (the reference), else the copy
kept in ``tests/support`` so a clean clone in CI judges files the same way. Standard library only:
LibreOffice's Python (for ``uno``) imports it too."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent
SHARED = HERE.parents[2] / "shared" / "oracle"
ORACLE_DIR = SHARED if (SHARED / "oracle.py").exists() else HERE


def load_oracle() -> ModuleType:
    spec = importlib.util.spec_from_file_location("redline_oracle", ORACLE_DIR / "oracle.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod
