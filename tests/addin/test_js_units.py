"""The pane's pure JavaScript (tests/js) under Node's built-in test runner, as part of the suite."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_node_unit_tests_pass():
    node = shutil.which("node")
    if node is None:
        pytest.fail("Node.js is required for the add-in's JavaScript tests (apt-get install nodejs)")
    tests = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tests" / "js").glob("*.test.mjs"))
    assert tests
    result = subprocess.run([node, "--test", *tests], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    counts = dict(re.findall(r"^# (tests|pass|fail|skipped|todo|cancelled) (\d+)$", result.stdout, re.MULTILINE))
    assert int(counts["tests"]) > 0 and counts["pass"] == counts["tests"], counts
    assert counts["fail"] == counts["skipped"] == counts["todo"] == counts["cancelled"] == "0", counts
