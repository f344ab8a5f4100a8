"""Real PostgreSQL, Redis and Celery worker processes for the test suite.

Each starts on a free loopback port in a temp dir and is torn down after. Nothing
here is mocked: the PostgreSQL run of the suite talks to a real ``postgres``,
Celery tests talk to a real ``redis-server`` and a real ``celery worker``.
A missing binary is a clear failure, never a skip.
"""

from __future__ import annotations

import glob
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


class ServiceMissing(RuntimeError):
    """A binary the suite needs is not installed; the message says what to install."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_port(port: int, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise RuntimeError(f"nothing listening on 127.0.0.1:{port} after {timeout}s")


def _pg_bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}")) or ([shutil.which(name)] if shutil.which(name) else [])
    if not found:
        raise ServiceMissing(f"{name} not found: install the Debian package 'postgresql' (scripts/test does it as root)")
    return found[-1]


def _as_postgres_user() -> list[str]:
    """initdb/postgres refuse to run as root; drop to the 'postgres' system user when root."""
    if os.geteuid() != 0:
        return []
    return ["setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups", "--"]


@dataclass
class Postgres:
    port: int = field(default_factory=free_port)
    tmp: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="redline-pg-")))
    proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"postgres://redline:redline@127.0.0.1:{self.port}/redline"

    def start(self) -> Postgres:
        data = self.tmp / "data"
        if os.geteuid() == 0:
            shutil.chown(self.tmp, "postgres", "postgres")
        pwfile = self.tmp / "pw"
        pwfile.write_text("redline\n")
        if os.geteuid() == 0:
            shutil.chown(pwfile, "postgres", "postgres")
        subprocess.run(
            [*_as_postgres_user(), _pg_bin("initdb"), "-D", str(data), "-U", "redline", "--pwfile", str(pwfile),
             "-A", "scram-sha-256", "-E", "UTF8", "--no-sync"],
            check=True, capture_output=True,
        )
        self._launch()
        subprocess.run(
            [*_as_postgres_user(), _pg_bin("createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "redline",
             "redline"], check=True, capture_output=True, env={**os.environ, "PGPASSWORD": "redline"},
        )
        return self

    def _launch(self) -> None:
        self.proc = subprocess.Popen(
            [*_as_postgres_user(), _pg_bin("postgres"), "-D", str(self.tmp / "data"), "-p", str(self.port),
             "-h", "127.0.0.1", "-k", str(self.tmp),
             "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"],
            stdout=subprocess.DEVNULL, stderr=open(self.tmp / "log", "ab"),  # noqa: SIM115
        )
        _wait_port(self.port)
        for _ in range(100):  # accepting TCP is not yet accepting queries
            r = subprocess.run([*_as_postgres_user(), _pg_bin("pg_isready"), "-h", "127.0.0.1", "-p", str(self.port)],
                               capture_output=True)
            if r.returncode == 0:
                break
            time.sleep(0.1)

    def _shutdown(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)  # fast shutdown: open connections are terminated
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()

    def restart(self, down_s: float = 0.0) -> None:
        """Stop the server (every connection breaks), stay down ``down_s``, start it on the same data."""
        self._shutdown()
        time.sleep(down_s)
        self._launch()

    def stop(self) -> None:
        self._shutdown()
        shutil.rmtree(self.tmp, ignore_errors=True)


@dataclass
class Redis:
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> Redis:
        """Start (or start again, on the same port, empty: nothing is persisted)."""
        binary = shutil.which("redis-server")
        if not binary:
            raise ServiceMissing("redis-server not found: install the Debian package 'redis-server'")
        self.proc = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        _wait_port(self.port)
        return self

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)


@dataclass
class CeleryWorker:
    """``celery -A redline worker`` in a subprocess, configured only through environment."""

    env: dict[str, str]
    proc: subprocess.Popen | None = None
    log: Path = field(default_factory=lambda: Path(tempfile.mkstemp(prefix="redline-celery-", suffix=".log")[1]))
    nice: int = 0  # > 0: a lower CPU priority than the web server's (``nice -n``), as the README advises
    name: str = ""  # the node name (two workers of one test need their own); default test-<pid>

    def start(self, timeout: float = 60) -> CeleryWorker:
        self.proc = subprocess.Popen(
            [*(["nice", "-n", str(self.nice)] if self.nice else []),
             sys.executable, "-m", "celery", "-A", "redline", "worker", "--pool=solo", "--concurrency=1",
             "--loglevel=INFO", "--without-gossip", "--without-mingle", "-n", f"{self.name or f'test-{os.getpid()}'}@%h"],
            cwd=ROOT, env={**os.environ, **self.env}, stdout=open(self.log, "wb"), stderr=subprocess.STDOUT,  # noqa: SIM115
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"celery worker exited early:\n{self.log.read_text()[-3000:]}")
            if "ready." in self.log.read_text(errors="replace"):
                return self
            time.sleep(0.2)
        raise RuntimeError(f"celery worker not ready after {timeout}s:\n{self.log.read_text()[-3000:]}")

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
