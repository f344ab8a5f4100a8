"""The API's contract, table-driven over its own OpenAPI document: every operation refuses
bad input with a 4xx in the one error shape ``{"code", "message", "detail"}``.

The table is the live schema, so a router added tomorrow is covered without
editing this file: unknown ids, malformed JSON, wrong types in path, query and
body, oversize bodies (refused from ``Content-Length`` without reading a byte),
missing keys, unknown paths and methods.
"""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from addin_api.api import api
from redline.server.bodylimit import BodyLimitASGI

UNKNOWN_ID = 2_147_483_000
WRONG_SCALAR = {"unexpected": ["object"]}  # coercible to no string, number or boolean
WRONG_CONTAINER = 12345  # neither a list nor an object


def _spec() -> dict[str, Any]:
    return api.get_openapi_schema()


def operations() -> list[tuple[str, str, dict[str, Any]]]:
    """(method, path template, operation) for every operation the API documents."""
    return [(method.upper(), path, op) for path, ops in _spec()["paths"].items() for method, op in ops.items()]


def _resolve(schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = _spec()["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema


def json_body_schema(op: dict[str, Any]) -> dict[str, Any] | None:
    content = op.get("requestBody", {}).get("content", {})
    return _resolve(content["application/json"]["schema"]) if "application/json" in content else None


def minimal(schema: dict[str, Any]) -> Any:
    """The smallest instance of a (resolved) JSON schema that validates: required fields only."""
    schema = _resolve(schema)
    if "anyOf" in schema:
        return minimal(next(s for s in schema["anyOf"] if s.get("type") != "null"))
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    if kind == "object":
        return {name: minimal(schema["properties"][name]) for name in schema.get("required", [])}
    if kind == "array":
        return [minimal(schema.get("items", {}))] * schema.get("minItems", 0)
    return {"string": "x" * max(schema.get("minLength", 0), 1), "integer": 1, "number": 1.0,
            "boolean": True}.get(kind, "x")


def wrong(schema: dict[str, Any]) -> Any:
    """A value of the wrong type for a property, that no lax coercion could accept."""
    schema = _resolve(schema)
    kinds = {s.get("type") for s in schema.get("anyOf", [schema])}
    return WRONG_CONTAINER if kinds & {"array", "object"} else WRONG_SCALAR


def url(path: str, op: dict[str, Any], value: object = UNKNOWN_ID) -> str:
    for param in op.get("parameters", []):
        if param["in"] == "path":
            path = path.replace("{" + param["name"] + "}", str(value))
    return path


def has_path_params(op: dict[str, Any]) -> bool:
    return any(p["in"] == "path" for p in op.get("parameters", []))


def assert_error_shape(resp: Any, status: int | tuple[int, ...], where: str) -> dict[str, Any]:
    statuses = (status,) if isinstance(status, int) else status
    assert resp.status_code in statuses, f"{where}: {resp.status_code} {resp.content[:300]!r}"
    assert resp["Content-Type"].startswith("application/json"), f"{where}: {resp['Content-Type']}"
    body = resp.json()
    assert set(body) == {"code", "message", "detail"}, f"{where}: {body}"
    assert isinstance(body["code"], str) and body["code"] and isinstance(body["message"], str), where
    assert isinstance(body["detail"], dict), where
    return body


def call(client: Any, method: str, path: str, body: object = None, **extra: Any) -> Any:
    if body is None:
        return client.generic(method, path, **extra)
    data = body if isinstance(body, str | bytes) else json.dumps(body)
    return client.generic(method, path, data=data, content_type="application/json", **extra)


def test_the_table_covers_every_router():
    """Guards the guard: the schema the table walks lists the API's operations."""
    paths = {p for _, p, _ in operations()}
    assert {"/api/documents", "/api/runs/{run_id}/suggestions", "/api/suggestions/{suggestion_pk}/feedback",
            "/api/preferences", "/api/jobs/{job_id}/events"} <= paths
    assert len(operations()) >= 25


@pytest.mark.django_db
def test_unknown_ids_are_404_not_found(alice):
    checked = 0
    for method, path, op in operations():
        if not has_path_params(op):
            continue
        schema = json_body_schema(op)
        resp = call(alice.api(), method, url(path, op), minimal(schema) if schema else None)
        body = assert_error_shape(resp, 404, f"{method} {path}")
        assert body["code"] == "not_found", (method, path, body)
        beyond = call(alice.api(), method, url(path, op, 2**70), minimal(schema) if schema else None)
        assert_error_shape(beyond, (404, 422), f"{method} {path} beyond the database's integers")
        checked += 1
    assert checked >= 20


@pytest.mark.django_db
def test_ids_in_bodies_beyond_the_database_range_are_422(alice):
    """Found by schemathesis: a huge id in a list reached the database driver (a 500)."""
    resp = alice.api().post("/api/runs/1/applied", {"suggestions": [2**70]}, content_type="application/json")
    assert assert_error_shape(resp, 422, "applied")["code"] == "validation_error"


@pytest.mark.django_db
def test_malformed_json_is_refused(alice):
    for method, path, op in operations():
        if json_body_schema(op) is None:
            continue
        for raw in ('{"unterminated": ', "not json at all", "\x00\xff", '{"a": 1}{"b": 2}'):
            resp = call(alice.api(), method, url(path, op), raw)
            assert_error_shape(resp, (400, 422), f"{method} {path} {raw!r}")


@pytest.mark.django_db
def test_wrong_types_in_body_path_and_query_are_422(alice):
    for method, path, op in operations():
        where = f"{method} {path}"
        schema = json_body_schema(op)
        if schema is not None:
            for not_an_object in ([1, 2], "text", 7, None):
                resp = call(alice.api(), method, url(path, op), json.dumps(not_an_object))
                assert_error_shape(resp, (400, 422), f"{where} body={not_an_object!r}")
            for name, prop in schema.get("properties", {}).items():
                body = {**minimal(schema), name: wrong(prop)}
                resp = call(alice.api(), method, url(path, op), body)
                assert_error_shape(resp, 422, f"{where} {name}={body[name]!r}")
        if has_path_params(op):
            assert_error_shape(call(alice.api(), method, url(path, op, "not-a-number")), 422, f"{where} path")
        for param in op.get("parameters", []):
            if param["in"] == "query" and _resolve(param["schema"]).get("anyOf", [param["schema"]])[0].get("type") == "integer":
                resp = call(alice.api(), method, f"{url(path, op)}?{param['name']}=twelve")
                assert_error_shape(resp, (404, 422), f"{where} ?{param['name']}")


class Unreadable(io.RawIOBase):
    """A request body that fails the test if anything reads it."""

    def read(self, *_: object) -> bytes:
        raise AssertionError("the oversize body was read")

    readline = read


@pytest.mark.django_db
def test_oversize_bodies_are_413_from_content_length_without_reading_them(alice, settings):
    for method, path, op in operations():
        if method not in ("POST", "PUT", "PATCH"):
            continue
        limit = (settings.REDLINE_MAX_UPLOAD_BYTES if path == "/api/documents" else settings.REDLINE_MAX_JSON_BYTES)
        resp = alice.api().generic(method, url(path, op), content_type="application/json",
                                   CONTENT_LENGTH=str(limit + 1024 * 1024), **{"wsgi.input": Unreadable()})
        body = assert_error_shape(resp, 413, f"{method} {path}")
        assert body["code"] == "too_large"


@pytest.mark.django_db
def test_a_body_past_djangos_own_cap_is_413_too(alice, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000  # under the upload path's limit: Django's cap refuses it on reading
    paragraphs = [{"anchor": f"_RL_{i:012x}", "text": "x" * 100} for i in range(20)]
    resp = alice.api().post("/api/documents", {"paragraphs": paragraphs}, content_type="application/json")
    assert assert_error_shape(resp, 413, "read")["code"] == "too_large"


@pytest.mark.django_db
def test_real_oversize_json_body_is_413(alice, settings):
    settings.REDLINE_MAX_JSON_BYTES = 2000
    resp = alice.api().put("/api/preferences", {"text": "x" * 5000}, content_type="application/json")
    assert assert_error_shape(resp, 413, "oversize")["detail"] == {"limit": 2000}
    assert alice.api().put("/api/preferences", {"text": "x" * 100}, content_type="application/json").status_code == 200


@pytest.mark.django_db
def test_every_operation_needs_a_key(client):
    for method, path, op in operations():
        if op.get("security") is None:
            continue
        schema = json_body_schema(op)
        resp = call(client, method, url(path, op, 1), minimal(schema) if schema else None)
        assert assert_error_shape(resp, 401, f"{method} {path}")["code"] == "unauthorized"
        resp = call(client, method, url(path, op, 1), minimal(schema) if schema else None,
                    HTTP_AUTHORIZATION="Bearer rl_000000000000_not-a-real-key")
        assert_error_shape(resp, 401, f"{method} {path} bad key")


@pytest.mark.django_db
def test_unknown_paths_and_methods_answer_in_the_error_shape(alice):
    assert assert_error_shape(alice.api().get("/api/no-such-thing"), 404, "path")["code"] == "not_found"
    assert assert_error_shape(alice.api().get("/api/documents/1/no-such-thing"), 404, "sub-path")["code"] == "not_found"
    resp = alice.api().delete("/api/documents")
    assert assert_error_shape(resp, 405, "method")["code"] == "method_not_allowed"
    assert "GET" in resp["Allow"]


async def _asgi(scope: dict, chunks: list[bytes]) -> tuple[list[dict], int]:
    """Drive the product's ASGI app with a body in ``chunks``; returns what it sent and chunks it pulled."""
    from redline import asgi

    pending, sent = list(chunks), []

    async def receive() -> dict:
        if not pending:
            raise AssertionError("the app read past the body")
        return {"type": "http.request", "body": pending.pop(0), "more_body": bool(pending)}

    async def send(message: dict) -> None:
        sent.append(message)

    await asgi.application(scope, receive, send)
    return sent, len(chunks) - len(pending)


@pytest.mark.django_db
def test_the_asgi_app_refuses_oversize_bodies_before_receiving_them(settings):
    """Under uvicorn the refusal comes from the request head alone, or for a chunked body
    as soon as it passes the limit."""
    import asyncio

    from redline import asgi

    assert isinstance(asgi.application, BodyLimitASGI)
    head = {"type": "http", "method": "POST", "path": "/api/documents", "query_string": b"",
            "headers": [(b"content-length", str(settings.REDLINE_MAX_UPLOAD_BYTES * 4).encode())]}
    sent, pulled = asyncio.run(_asgi(head, [b"never read"]))
    assert (sent[0]["status"], pulled) == (413, 0)
    assert json.loads(sent[1]["body"])["code"] == "too_large"

    settings.REDLINE_MAX_JSON_BYTES = 10_000
    chunked = {**head, "path": "/api/preferences", "method": "PUT", "headers": []}
    sent, pulled = asyncio.run(_asgi(chunked, [b"x" * 4000] * 100))
    assert sent[0]["status"] == 413
    assert pulled == 3  # cut off at the chunk that crossed the limit
