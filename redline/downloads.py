"""File downloads that stream without holding the file in memory, under ASGI as under WSGI.

Django's ``FileResponse`` iterates its file synchronously; under ASGI Django
cannot stream a synchronous iterator, so it warns and reads the whole file into
memory first. Here an ASGI request gets the same response over an asynchronous
iterator that reads one block at a time on a worker thread; a WSGI request (the
test client, a WSGI server) keeps the synchronous one.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import IO, Any

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.http import FileResponse, HttpRequest, StreamingHttpResponse


class AsyncFileResponse(FileResponse):
    """``FileResponse`` (same headers: length, type, attachment name) over an asynchronous iterator."""

    def _set_streaming_content(self, value: Any) -> None:
        if not hasattr(value, "read"):
            super()._set_streaming_content(value)
            return
        self.file_to_stream = value
        if hasattr(value, "close"):
            self._resource_closers.append(value.close)
        self.set_headers(value)
        StreamingHttpResponse._set_streaming_content(self, _blocks(value, self.block_size))


async def _blocks(filelike: IO[bytes], size: int) -> AsyncIterator[bytes]:
    read = sync_to_async(filelike.read, thread_sensitive=False)
    while block := await read(size):
        yield block


def file_download(request: HttpRequest, filelike: IO[bytes], *, filename: str, content_type: str) -> FileResponse:
    """An attachment response streaming ``filelike`` in blocks, asynchronously under ASGI."""
    response_class = AsyncFileResponse if isinstance(request, ASGIRequest) else FileResponse
    return response_class(filelike, as_attachment=True, filename=filename, content_type=content_type)
