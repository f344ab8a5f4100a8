"""Compare redlines the body's pictures (issue #28): a changed picture is the old one deleted and the new one
inserted, an added one inserted, a removed one deleted, the old picture's media copied into the result.

Judged by outside readers by what each view shows, byte for byte: pandoc names the media part each view
shows (its ``Image`` targets, read back from the file), LibreOffice accepts or rejects every change and saves
(its saved media read back); the body text's views are pandoc's as everywhere, and every file written is held
to the Open XML validator by ``tests/conftest.py``.
"""

from __future__ import annotations

import hashlib
import io
import re
import struct
import zipfile
import zlib
from pathlib import Path

import pytest

from tests.learning.lawyer import libreoffice_lawyer
from tests.support.docx_builder import W, build_docx, para
from tests.support.oracles import opens, pandoc_nodes, stats

from .test_compare_stories import compared

IMAGE_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/image"
R_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"


def png(rgb: tuple[int, int, int]) -> bytes:
    """A 2×2 PNG of one colour (pictures that differ only in their bytes)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rows = (b"\x00" + bytes(rgb) * 2) * 2
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


RED, GREEN, BLUE, GOLD = png((200, 0, 0)), png((0, 150, 0)), png((0, 0, 200)), png((220, 180, 0))
NAMES = {hashlib.sha256(data).hexdigest(): name for name, data in
         (("red", RED), ("green", GREEN), ("blue", BLUE), ("gold", GOLD))}


def picture(rid: str, n: int = 1) -> str:
    """An inline picture run showing the image related as ``rid``."""
    return (f'<w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"'
            f' distT="0" distB="0" distL="0" distR="0"><wp:extent cx="457200" cy="457200"/>'
            f'<wp:docPr id="{n}" name="Picture {n}"/><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main">'
            '<a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture">'
            '<pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:nvPicPr>'
            f'<pic:cNvPr id="0" name="image{n}.png"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:embed="{rid}"/>'
            '<a:stretch><a:fillRect/></a:stretch></pic:blipFill><pic:spPr><a:xfrm><a:off x="0" y="0"/>'
            '<a:ext cx="457200" cy="457200"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr>'
            '</pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>')


def with_pictures(*blocks: str | bytes) -> bytes:
    """A document of paragraphs: a string is a paragraph of text, bytes a paragraph holding that picture."""
    body, media = "", {}
    for block in blocks:
        if isinstance(block, bytes):
            media[f"word/media/image{len(media) + 1}.png"] = (block, "image/png", IMAGE_REL)
            body += f"<w:p>{picture(f'rId{len(media) + 1}', len(media))}</w:p>"
        else:
            body += para(block)
    return build_docx(body, extra_parts=media)


def pandoc_pictures(path: Path, mode: str) -> list[str]:
    """The pictures pandoc shows with every change accepted or rejected, by the colour of their bytes."""
    targets = [node["c"][2][0] for node in pandoc_nodes(path, mode, "Image")]
    package = zipfile.ZipFile(path)
    return [NAMES.get(hashlib.sha256(package.read("word/" + t)).hexdigest(), t) for t in targets]


def saved_pictures(data: bytes) -> list[str]:
    """The pictures a saved .docx's body shows, in order, by the colour of their bytes."""
    package = zipfile.ZipFile(io.BytesIO(data))
    rels = dict(re.findall(r'Id="(\w+)"[^>]*Target="([^"]+)"', package.read("word/_rels/document.xml.rels").decode()))
    shown = re.findall(r'r:embed="(\w+)"', package.read("word/document.xml").decode())
    return [NAMES.get(hashlib.sha256(package.read("word/" + rels[rid])).hexdigest(), rels[rid]) for rid in shown]


def test_a_changed_picture_is_the_old_one_deleted_and_the_new_one_inserted(tmp_path):
    result, paths = compared(tmp_path, with_pictures("Our logo:", RED, "End."), with_pictures("Our logo:", BLUE, "End."))
    assert result.elsewhere == ["pictures"] and result.uncompared == [] and result.changes == []
    counts = stats(paths["cmp"])["document"]
    assert (counts["ins"], counts["del"]) == (1, 1)
    assert pandoc_pictures(paths["cmp"], "accept") == ["blue"]
    assert pandoc_pictures(paths["cmp"], "reject") == ["red"]
    package = zipfile.ZipFile(paths["cmp"])
    xml = package.read("word/document.xml").decode()
    assert xml.index("<w:del ") < xml.index("<w:ins ")  # deleted first, as Word writes a replacement
    types = package.read("[Content_Types].xml").decode()
    assert '<Default Extension="png" ContentType="image/png"/>' in types  # the copied part's type
    assert sorted(n for n in package.namelist() if "/media/" in n) == ["word/media/image1-old.png",
                                                                       "word/media/image1.png"]


def test_an_added_picture_is_inserted_with_its_paragraph(tmp_path):
    result, paths = compared(tmp_path, with_pictures("Our logo:", "End."), with_pictures("Our logo:", BLUE, "End."))
    assert result.elsewhere == ["pictures"] and result.uncompared == []
    assert pandoc_pictures(paths["cmp"], "accept") == ["blue"] and pandoc_pictures(paths["cmp"], "reject") == []
    assert stats(paths["cmp"])["document"]["ins_para_mark"] == 1  # rejecting leaves no empty line


@pytest.mark.parametrize(("old", "new"), [
    (with_pictures("Our logo:", RED, "End."), with_pictures("Our logo:", "End.")),  # in a paragraph of its own
    (with_pictures("Our logo:", RED), with_pictures("Our logo:")),  # the last paragraph: Word's way at the end
    (build_docx(f'<w:p><w:r><w:t xml:space="preserve">Signed: </w:t></w:r>{picture("rId2")}</w:p>{para("End.")}',
                extra_parts={"word/media/image1.png": (RED, "image/png", IMAGE_REL)}),
     with_pictures("Signed:", "End.")),  # in a line of text
], ids=["own-paragraph", "last", "inline"])
def test_a_removed_picture_is_deleted_and_its_media_carried_over(tmp_path, old, new):
    result, paths = compared(tmp_path, old, new)
    assert result.elsewhere == ["pictures"] and result.uncompared == []
    assert pandoc_pictures(paths["cmp"], "accept") == [] and pandoc_pictures(paths["cmp"], "reject") == ["red"]
    assert "word/media/image1-old.png" in zipfile.ZipFile(paths["cmp"]).namelist()


def test_libreoffice_shows_the_new_pictures_accepted_and_the_old_ones_rejected(tmp_path):
    """One file with a picture changed, one removed and one added: LibreOffice's accept all saves the new
    version's pictures, its reject all the old one's, in order; and it opens the file."""
    old = with_pictures("Alpha.", RED, "Beta.", GREEN, "Gamma.")
    new = with_pictures("Alpha.", BLUE, "Beta.", "Gamma.", GOLD)
    result, paths = compared(tmp_path, old, new)
    assert result.elsewhere == ["pictures"] and result.uncompared == []
    assert saved_pictures(libreoffice_lawyer(result.docx, [{"do": "accept_all"}])) == ["blue", "gold"]
    assert saved_pictures(libreoffice_lawyer(result.docx, [{"do": "reject_all"}])) == ["red", "green"]
    assert opens(paths["cmp"])


def test_a_paragraph_moved_with_its_picture_takes_the_picture_along(tmp_path):
    long = "The Supplier shall maintain insurance with reputable insurers for the whole Term"
    clause = f'<w:p><w:r><w:t>{long}</w:t></w:r>{picture("rId2")}</w:p>'
    media = {"word/media/image1.png": (RED, "image/png", IMAGE_REL)}
    old = build_docx(clause + para("Alpha clause one.") + para("Beta clause two."), extra_parts=media)
    new = build_docx(para("Alpha clause one.") + para("Beta clause two.") + clause, extra_parts=media)
    result, paths = compared(tmp_path, old, new)
    assert result.moves == 1 and result.uncompared == []
    assert pandoc_pictures(paths["cmp"], "accept") == pandoc_pictures(paths["cmp"], "reject") == ["red"]


def test_the_same_picture_beside_changed_text_is_left_alone(tmp_path):
    result, paths = compared(tmp_path, with_pictures("Our logo:", RED, "Payment in 30 days."),
                             with_pictures("Our logo:", RED, "Payment in 60 days."))
    assert result.elsewhere == [] and result.uncompared == [] and result.counts["changed"] == 1
    assert [n for n in zipfile.ZipFile(paths["cmp"]).namelist() if "/media/" in n] == ["word/media/image1.png"]


def test_a_changed_vml_picture_is_named_and_the_new_one_marked_inserted(tmp_path):
    """An old-style VML picture is not copied (its shape ids could clash): the old one cannot come back, so
    pictures are named, and the new one is still marked inserted."""
    def version(image: bytes) -> bytes:
        pict = ('<w:p><w:r><w:pict><v:shape xmlns:v="urn:schemas-microsoft-com:vml" id="_x0000_i1025" '
                'type="#_x0000_t75" style="width:36pt;height:36pt"><v:imagedata r:id="rId2"/></v:shape></w:pict>'
                '</w:r></w:p>')
        return build_docx(para("Our logo:") + pict + para("End."),
                          extra_parts={"word/media/image1.png": (image, "image/png", IMAGE_REL)})

    result, paths = compared(tmp_path, version(RED), version(BLUE))
    assert result.uncompared == ["pictures"] and result.elsewhere == ["pictures"]
    assert stats(paths["cmp"])["document"]["ins"] == 1


def test_a_picture_changed_in_a_header_is_named(tmp_path):
    """Pictures of headers, footers and notes are not redlined: a change there is named."""
    def version(image: bytes) -> bytes:
        header = f'<w:hdr xmlns:w="{W}" xmlns:r="{R_NS}"><w:p>{picture("rId1")}</w:p></w:hdr>'
        rels = ('<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                f'<Relationship Id="rId1" Type="{IMAGE_REL}" Target="media/logo.png"/></Relationships>')
        data = build_docx(para("Body."), extra_parts={
            "word/header1.xml": (header, "application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml",
                                 R_NS + "/header"),
            "word/_rels/header1.xml.rels": (rels, "application/vnd.openxmlformats-package.relationships+xml", None),
            "word/media/logo.png": (image, "image/png", None)})
        src, out = zipfile.ZipFile(io.BytesIO(data)), io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
            for item in src.infolist():
                blob = src.read(item.filename)
                if item.filename == "word/document.xml":
                    blob = blob.replace(b"<w:sectPr>", b'<w:sectPr><w:headerReference w:type="default" r:id="rId2"/>')
                dst.writestr(item, blob)
        return out.getvalue()

    result, _ = compared(tmp_path, version(RED), version(BLUE))
    assert result.uncompared == ["pictures"] and result.elsewhere == []
