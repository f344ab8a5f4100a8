"""Fixtures for the OOXML engine tests: generated contracts, built once per session."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

MAKE_CONTRACT = Path(__file__).resolve().parents[1] / "support" / "make_contract.py"


def make_contract(path: Path, pages: int, *extra: str) -> Path:
    subprocess.run([sys.executable, str(MAKE_CONTRACT), "--pages", str(pages), "-o", str(path), *extra],
                   check=True, capture_output=True)
    return path


@pytest.fixture(scope="session")
def small_contract(tmp_path_factory) -> Path:
    """A generated 4-page contract (headings, clause numbers, REF fields, tables)."""
    return make_contract(tmp_path_factory.mktemp("contracts") / "contract-4p.docx", 4)
