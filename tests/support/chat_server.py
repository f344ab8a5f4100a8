"""A real loopback HTTP server speaking the OpenAI chat-completions protocol.

Tests run the official ``openai`` SDK against it, so what is exercised is the
SDK's real request encoding, HTTP handling, timeouts and error mapping — only
the model is replaced, by scripted replies. Each reply can set the HTTP status,
headers, body (JSON or raw text) and a delay (to provoke client timeouts or to
emulate model latency in benchmarks). Every request is recorded (path,
headers, parsed JSON body) for assertions about what the client sent.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    """One scripted HTTP response."""

    status: int = 200
    body: Any = None  # dict → JSON; str → sent as is (for malformed bodies)
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


@dataclass
class Recorded:
    """A request as the server received it (header names in lower case)."""

    path: str
    headers: dict[str, str]
    body: dict[str, Any]

    @property
    def messages(self) -> list[dict[str, Any]]:
        return self.body.get("messages", [])

    @property
    def text(self) -> str:
        """Everything the model would read, joined."""
        return "\n".join(str(m.get("content", "")) for m in self.messages)


def completion(content: str | dict, *, prompt_tokens: int = 120, completion_tokens: int = 30,
               finish_reason: str = "stop", model: str = "test-model", delay: float = 0.0) -> Reply:
    """A successful chat completion whose message content is ``content`` (a dict is JSON-encoded)."""
    text = content if isinstance(content, str) else json.dumps(content)
    return Reply(200, {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{
            "index": 0,
            "message": {"role": "assistant", "content": text, "refusal": None},
            "finish_reason": finish_reason,
            "logprobs": None,
        }],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                  "total_tokens": prompt_tokens + completion_tokens},
    }, delay=delay)


def error(status: int, message: str = "error", headers: dict[str, str] | None = None) -> Reply:
    """An API error in OpenAI's error-body shape."""
    kind = {429: "rate_limit_error", 400: "invalid_request_error"}.get(status, "server_error")
    return Reply(status, {"error": {"message": message, "type": kind, "param": None, "code": None}}, headers or {})


def findings(*items: dict[str, Any]) -> dict[str, Any]:
    """A structured-output body for the findings schema, with defaults for omitted fields."""
    base = {"rule": "R1", "kind": "comment", "quote": "", "new_text": "", "comment": "", "severity": "major",
            "confidence": 0.9}
    return {"findings": [{**base, **item} for item in items]}


class ChatServer:
    """Loopback server; use as a context manager. Replies come from the script
    (:meth:`script`) in order, then from ``responder(body)``, else an empty
    findings list."""

    def __init__(self, responder: Callable[[dict[str, Any]], Reply] | None = None) -> None:
        self.responder = responder
        self.requests: list[Recorded] = []
        self._script: deque[Reply] = deque()
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="chat-server", daemon=True)

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}/v1"

    def script(self, *replies: Reply) -> None:
        with self._lock:
            self._script.extend(replies)

    def __enter__(self) -> ChatServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    def _next(self, body: dict[str, Any]) -> Reply:
        with self._lock:
            if self._script:
                return self._script.popleft()
        if self.responder is not None:
            return self.responder(body)
        return completion(findings())

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw or b"{}")
                except json.JSONDecodeError:
                    body = {"_raw": raw.decode("utf-8", "replace")}
                with server._lock:
                    server.requests.append(Recorded(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                if self.path.rstrip("/") != "/v1/chat/completions":
                    reply = error(404, f"no route {self.path}")
                else:
                    reply = server._next(body)
                if reply.delay:
                    time.sleep(reply.delay)
                payload = reply.body if isinstance(reply.body, str) else json.dumps(reply.body or {})
                data = payload.encode()
                try:
                    self.send_response(reply.status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    for name, value in reply.headers.items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout test): nothing to do

            def log_message(self, format: str, *args: object) -> None:
                pass

        return Handler
