"""A real uvicorn server on a free loopback port, in a thread of the test process.

Sharing the process keeps the test database and settings, while every request
goes through real HTTP, the ASGI handler and streaming.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import uvicorn
from django.core.asgi import get_asgi_application

from tests.servers import free_port


@contextmanager
def asgi_server() -> Iterator[str]:
    port = free_port()
    config = uvicorn.Config(get_asgi_application(), host="127.0.0.1", port=port, log_level="warning", lifespan="off",
                            proxy_headers=False)  # as the README runs it: REDLINE_TRUSTED_PROXIES decides
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    assert server.started, "uvicorn did not start"
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
