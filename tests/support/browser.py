"""What the browser tests share: Debian's Chromium, the Office double, and axe-core.

Chromium is the Debian package (never a Playwright download). axe-core is the npm
package pinned in ``tests/support/axe/package-lock.json``; :func:`axe_source`
installs it with ``npm ci`` the first time it is needed, so a fresh checkout needs
only ``nodejs`` (``scripts/system-deps``) and the npm registry.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("REDLINE_CHROMIUM", "/usr/bin/chromium")
# Without the background-networking flags Chromium's own connections are refused in CI sandboxes and slow it down.
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SHOTS = ROOT / "var" / "screenshots"
OFFICE_JS = "https://appsforoffice.microsoft.com/lib/1/hosted/office.js"
OFFICE_DOUBLE = ROOT / "tests" / "addin" / "office_double" / "office.js"
AXE_DIR = Path(__file__).resolve().parent / "axe"
AXE_JS = AXE_DIR / "node_modules" / "axe-core" / "axe.min.js"


def require_chromium() -> None:
    """Fail, never skip, when the browser is missing: a skipped page test would pass CI without a page seen."""
    import pytest

    if not (shutil.which(CHROMIUM) or Path(CHROMIUM).exists()):
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium package (scripts/system-deps; "
                    "or set REDLINE_CHROMIUM); browsers are never downloaded")


def axe_source() -> str:
    """axe-core's browser build, installed from the lockfile on first use."""
    if not AXE_JS.exists():
        npm = shutil.which("npm")
        if npm is None:
            raise RuntimeError("npm is missing: install Debian's nodejs and npm packages (scripts/system-deps)")
        subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--silent"], cwd=AXE_DIR, check=True, timeout=300)
    return AXE_JS.read_text()
