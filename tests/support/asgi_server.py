"""A real uvicorn server on a free loopback port, in a thread of the test process, run as ``scripts/run`` runs it.

Sharing the process keeps the test database and settings, while every request
goes through real HTTP, the ASGI handler and streaming. The server's options
(proxy headers, lifespan) are read from the ``uvicorn`` line of ``scripts/run``
through uvicorn's own command-line parser, so a test "as the README runs it"
fails if that script's options change (the address is loopback and a free port).
"""

from __future__ import annotations

import shlex
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click
import uvicorn
import uvicorn.main
from django.core.asgi import get_asgi_application

from tests.servers import free_port

RUN_SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "run"


def run_script_options(port: int, script: Path = RUN_SCRIPT) -> dict[str, Any]:
    """uvicorn's parsed options for the ``exec .../uvicorn ...`` line of the run script, on loopback at ``port``."""
    lines = [line for line in script.read_text().splitlines() if line.startswith("exec ") and "uvicorn" in line]
    assert len(lines) == 1, f"{script} should start uvicorn on exactly one exec line, found {len(lines)}"
    words = [w.replace("$HOST", "127.0.0.1").replace("$PORT", str(port)) for w in shlex.split(lines[0])]
    args = words[words.index(next(w for w in words if w.endswith("uvicorn"))) + 1:]
    command = uvicorn.main.main
    command = command if isinstance(command, click.Command) else command.__self__  # a bound Command in 0.5x
    return command.make_context("uvicorn", args).params


@contextmanager
def asgi_server() -> Iterator[str]:
    options = run_script_options(free_port())
    assert options["app"] == "redline.asgi:application", options["app"]
    config = uvicorn.Config(get_asgi_application(), host=options["host"], port=options["port"], log_level="warning",
                            lifespan=options["lifespan"], proxy_headers=options["proxy_headers"],
                            forwarded_allow_ips=options["forwarded_allow_ips"])
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    assert server.started, "uvicorn did not start"
    try:
        yield f"http://{options['host']}:{options['port']}"
    finally:
        server.should_exit = True
        thread.join(10)
