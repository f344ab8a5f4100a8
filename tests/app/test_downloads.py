"""File responses stream block by block, asynchronously under ASGI (no whole-file read, no Django
warning about consuming a synchronous iterator): downloads and static files alike."""

from __future__ import annotations

import io
import warnings

import httpx
import pytest
from asgiref.sync import async_to_sync
from django.http import FileResponse

from redline.server.downloads import streamed_asynchronously
from redline.services.documents import document_version_create
from tests.support.asgi_server import asgi_server


class CountingFile(io.BytesIO):
    """A file that remembers the largest single read asked of it."""

    largest = 0

    def read(self, size: int | None = -1) -> bytes:
        self.largest = max(self.largest, size if size is not None and size >= 0 else len(self.getvalue()))
        return super().read(size)


@pytest.mark.django_db  # closing a response sends request_finished, whose handler looks at the connection
def test_a_large_file_response_is_read_one_block_at_a_time():
    data = bytes(range(256)) * 4096  # 1 MiB
    fh = CountingFile(data)
    response = streamed_asynchronously(FileResponse(fh, as_attachment=True, filename="big.docx"))
    assert response.is_async
    assert response["Content-Length"] == str(len(data))
    assert response["Content-Disposition"] == 'attachment; filename="big.docx"'

    async def collect() -> list[bytes]:
        return [block async for block in response.streaming_content]

    blocks = async_to_sync(collect)()
    assert b"".join(blocks) == data
    assert len(blocks) > 1 and fh.largest == response.block_size < len(data)
    response.close()
    assert fh.closed


@pytest.mark.django_db(transaction=True)
def test_downloads_and_static_files_through_uvicorn_without_the_sync_iterator_warning(alice, simple_docx):
    version, *_ = document_version_create(workspace=alice.workspace, data=simple_docx, filename="a.docx",
                                            uploaded_by=None)
    with warnings.catch_warnings(record=True) as caught, asgi_server() as server:
        warnings.simplefilter("always")
        api = httpx.get(f"{server}/api/documents/versions/{version.pk}/file",
                        headers={"Authorization": f"Bearer {alice.key}"}, timeout=10)
        with httpx.Client(base_url=server, timeout=10) as browser:
            login = browser.get("/login/")
            browser.post("/login/", data={"username": alice.membership.user.get_username(), "password": alice.password,
                                          "csrfmiddlewaretoken": login.cookies["csrftoken"]},
                         headers={"Referer": f"{server}/login/"})
            dashboard = browser.get(f"/versions/{version.pk}/download/")
            static = browser.get("/static/vendor/htmx.min.js")
    assert api.status_code == 200 and api.content == simple_docx
    assert api.headers["content-length"] == str(len(simple_docx))
    assert dashboard.status_code == 200 and dashboard.content == simple_docx, dashboard.text[:300]
    assert static.status_code == 200 and b"htmx" in static.content
    assert not [w for w in caught if "StreamingHttpResponse" in str(w.message)], [str(w.message) for w in caught]
