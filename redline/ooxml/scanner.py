"""A reader process: scans the .docx files its parent sends, one at a time, until its stdin closes.

Run as ``python -m redline.ooxml.scanner NICE MEMORY_MB`` by
:mod:`redline.server.reader_pool`. Framing both ways is an 8-byte big-endian length,
then the body. Once started, the process sends ``READY``; then each request body
is a file's bytes and each reply is JSON, either
``{"doc_id": ..., "anchors": [...], "doc_id_found": ..., "carried": [...]}`` or ``{"code": ..., "message": ...,
"detail": {...}}`` for input the engine refuses. JSON, not pickle: the parent
trusts nothing a process that parsed hostile input could shape.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import traceback
from typing import BinaryIO

from .errors import DocxError
from .paragraphs import scan_document

HEADER = 8
READY = b'{"ready": true}'


def frame(body: bytes) -> bytes:
    """``body`` with its length in front."""
    return len(body).to_bytes(HEADER, "big") + body


def read_exactly(stream: BinaryIO, size: int) -> bytes | None:
    """``size`` bytes from ``stream``, or None at end of input."""
    chunks, got = [], 0
    while got < size:
        chunk = stream.read(size - got)
        if not chunk:
            return None
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def answer(data: bytes) -> dict[str, object]:
    """The reply for one file."""
    try:
        scan = scan_document(data)
    except DocxError as exc:
        return {"code": exc.code, "message": exc.message, "detail": exc.detail}
    except MemoryError:
        return {"code": "too_complex", "message": "The document needs more memory to read than the server allows.",
                "detail": {}}
    except Exception:  # near the memory ceiling a library may fail in its own way (hashlib: ValueError)
        traceback.print_exc()  # to the server's log: it may also be an engine bug
        return {"code": "unreadable", "message": "The document could not be read.", "detail": {}}
    return {"doc_id": scan.doc_id, "anchors": list(scan.anchors), "doc_id_found": scan.doc_id_found,
            "carried": list(scan.carried)}


def serve(requests: BinaryIO, replies: BinaryIO) -> None:
    """Answer framed requests until the input ends."""
    while (header := read_exactly(requests, HEADER)) is not None:
        data = read_exactly(requests, int.from_bytes(header, "big"))
        if data is None:
            return
        replies.write(frame(json.dumps(answer(data), default=str).encode()))
        replies.flush()


def main(argv: list[str]) -> None:
    nice, memory_mb = int(argv[0]), int(argv[1])
    if nice:
        os.nice(nice)
    if memory_mb:
        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    sys.stdout.buffer.write(frame(READY))
    sys.stdout.buffer.flush()
    serve(sys.stdin.buffer, sys.stdout.buffer)


if __name__ == "__main__":
    main(sys.argv[1:])
