"""File responses stream block by block under ASGI, without holding the file in memory.

Django's ``FileResponse`` (our downloads, WhiteNoise's static files) iterates its
file synchronously; under ASGI Django cannot stream a synchronous iterator, so it
warns and reads the whole file into memory first. This middleware, at the top of
the stack, gives such a response an asynchronous iterator instead that reads one
block at a time on a worker thread; headers (length, type, attachment name) are
the ones ``FileResponse`` already set. Under WSGI (the test client, a WSGI server)
nothing changes.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import IO

from asgiref.sync import iscoroutinefunction, sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.http import FileResponse, HttpRequest, HttpResponseBase
from django.utils.decorators import sync_and_async_middleware


async def _blocks(filelike: IO[bytes], size: int) -> AsyncIterator[bytes]:
    read = sync_to_async(filelike.read, thread_sensitive=False)
    while block := await read(size):
        yield block


def streamed_asynchronously(response: HttpResponseBase) -> HttpResponseBase:
    """The response, its file (if it streams one synchronously) now read asynchronously in blocks."""
    if isinstance(response, FileResponse) and not response.is_async and response.file_to_stream is not None:
        response.streaming_content = _blocks(response.file_to_stream, response.block_size)
    return response


@sync_and_async_middleware
def async_file_responses_middleware(get_response: Callable) -> Callable:
    if iscoroutinefunction(get_response):
        async def middleware(request: HttpRequest) -> HttpResponseBase:
            return streamed_asynchronously(await get_response(request))
    else:  # (also under ASGI, when a synchronous middleware below makes the stack run synchronously)
        def middleware(request: HttpRequest) -> HttpResponseBase:
            response = get_response(request)
            return streamed_asynchronously(response) if isinstance(request, ASGIRequest) else response
    return middleware
