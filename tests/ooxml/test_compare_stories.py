"""Compare redlines headers, footers, footnotes and endnotes (issue #28), judged by outside readers.

The oracles' text model is the body only, so the stories are read here: pandoc reads notes with its own accept
and reject (its JSON ``Note``s), LibreOffice accepts or rejects every change (headers, footers and notes
included) and saves, and the saved parts are read as plain XML; headers and footers are also read with the
engine's own accept and reject. Every file written is held to the Open XML validator by ``tests/conftest.py``.
"""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path
from xml.sax.saxutils import escape

import pytest

from redline.ooxml.compare import compare
from redline.ooxml.resolve import resolve_docx
from tests.learning.lawyer import libreoffice_lawyer
from tests.support.docx_builder import W, build_docx, para
from tests.support.oracles import opens, oracle, pandoc_nodes, pandoc_text, stats

R_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
REL = R_NS + "/"
CT = "application/vnd.openxmlformats-officedocument.wordprocessingml."


def story(tag: str, *texts: str) -> str:
    """A header (``hdr``) or footer (``ftr``) part with one paragraph per text."""
    return f'<w:{tag} xmlns:w="{W}" xmlns:r="{R_NS}">{"".join(para(t) for t in texts)}</w:{tag}>'


def notes(kind: str, *texts: str) -> str:
    """A footnotes or endnotes part: Word's two separators, then notes 1, 2, … with these texts."""
    tag, ref = kind[:-1], "footnoteRef" if kind == "footnotes" else "endnoteRef"
    seps = "".join(f'<w:{tag} w:type="{t}" w:id="{i}"><w:p><w:r><w:{t}/></w:r></w:p></w:{tag}>'
                   for i, t in ((-1, "separator"), (0, "continuationSeparator")))
    body = "".join(f'<w:{tag} w:id="{i}"><w:p><w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:{ref}/>'
                   f'</w:r><w:r><w:t xml:space="preserve"> {escape(t)}</w:t></w:r></w:p></w:{tag}>'
                   for i, t in enumerate(texts, 1))
    return f'<w:{kind} xmlns:w="{W}">{seps}{body}</w:{kind}>'


def noted(text: str, kind: str, n: int) -> str:
    """A body paragraph ending in a reference to note ``n``."""
    return (f'<w:p><w:r><w:t>{escape(text)}</w:t></w:r><w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr>'
            f'<w:{kind[:-1]}Reference w:id="{n}"/></w:r></w:p>')


def docx(body: str, *, headers: dict[str, str] | None = None, footers: dict[str, str] | None = None,
         footnotes: str | None = None, endnotes: str | None = None, first_page: bool = False) -> bytes:
    """A document whose one section refers to ``headers``/``footers`` by type (``default``, ``first``…)."""
    parts: dict[str, tuple[str, str, str | None]] = {}
    refs = ""
    for kind, tag, by_type in (("header", "headerReference", headers or {}), ("footer", "footerReference", footers or {})):
        for n, (typ, xml) in enumerate(by_type.items(), 1):
            parts[f"word/{kind}{n}.xml"] = (xml, CT + kind + "+xml", REL + kind)
            refs += f'<w:{tag} w:type="{typ}" r:id="rId{len(parts) + 1}"/>'
    for kind, xml in (("footnotes", footnotes), ("endnotes", endnotes)):
        if xml is not None:
            parts[f"word/{kind}.xml"] = (xml, CT + kind + "+xml", REL + kind)
    data = build_docx(body, extra_parts=parts)
    src, out = zipfile.ZipFile(io.BytesIO(data)), io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            blob = src.read(item.filename)
            if item.filename == "word/document.xml":  # references first in the section, w:titlePg after the margins
                blob = blob.replace(b"<w:sectPr>", b"<w:sectPr>" + refs.encode())
                blob = blob.replace(b"</w:sectPr>", (b"<w:titlePg/>" if first_page else b"") + b"</w:sectPr>")
            dst.writestr(item, blob)
    return out.getvalue()


def part_texts(data: bytes, name: str) -> list[str]:
    """A part's paragraphs as plain XML reads them (for a file with no revisions left)."""
    xml = zipfile.ZipFile(io.BytesIO(data)).read(name).decode()
    assert not re.search(r"<w:(ins|del) ", xml), name
    paras = (re.sub(r"<[^>]+>", "", re.sub(r"<w:tab/>", " ", p)) for p in re.findall(r"<w:p[ >].*?</w:p>", xml))
    return [" ".join(t.split()) for t in paras if t.strip()]


def engine_view(data: bytes, action: str, name: str) -> list[str]:
    return part_texts(resolve_docx(data, action).docx, name)


def pandoc_notes(path: Path, mode: str) -> list[str]:
    """pandoc's notes (footnotes and endnotes), each as one line, with changes accepted, rejected or shown."""
    found: list[str] = []
    for node in pandoc_nodes(path, mode, "Note"):
        walker = oracle._PandocWalker(mode)
        walker.blocks(node["c"])
        found.append(" ".join(" ".join(walker.lines).split()))
    return found


def compared(tmp_path: Path, old: bytes, new: bytes, name: str = "c"):
    """Compare and write the three files; pandoc reads the body's views right (nothing changed there)."""
    result = compare(old, new)
    paths = {label: tmp_path / f"{name}-{label}.docx" for label in ("old", "new", "cmp")}
    for label, data in (("old", old), ("new", new), ("cmp", result.docx)):
        paths[label].write_bytes(data)
    assert pandoc_text(paths["cmp"], "accept") == pandoc_text(paths["new"], "accept")
    assert pandoc_text(paths["cmp"], "reject") == pandoc_text(paths["old"], "accept")
    return result, paths


BODY = para("The parties agree as follows.")


def test_a_changed_header_is_redlined_word_by_word(tmp_path):
    old = docx(BODY, headers={"default": story("hdr", "Draft 1 of the Services Agreement")})
    new = docx(BODY, headers={"default": story("hdr", "Final version of the Services Agreement")})
    result, paths = compared(tmp_path, old, new)
    assert result.elsewhere == ["headers"] and result.uncompared == [] and result.changes == []
    assert stats(paths["cmp"])["other_parts_revisions"]["word/header1.xml"] == {"ins": 1, "del": 1}
    assert engine_view(result.docx, "accept", "word/header1.xml") == ["Final version of the Services Agreement"]
    assert engine_view(result.docx, "reject", "word/header1.xml") == ["Draft 1 of the Services Agreement"]


def test_a_changed_footer_is_redlined_word_by_word(tmp_path):
    old = docx(BODY, footers={"default": story("ftr", "Confidential", "Acme Ltd, 2024")})
    new = docx(BODY, footers={"default": story("ftr", "Confidential", "Acme Limited, 2025", "Page footer note")})
    result, _ = compared(tmp_path, old, new)
    assert result.elsewhere == ["footers"] and result.uncompared == []
    assert engine_view(result.docx, "accept", "word/footer1.xml") == ["Confidential", "Acme Limited, 2025",
                                                                       "Page footer note"]
    assert engine_view(result.docx, "reject", "word/footer1.xml") == ["Confidential", "Acme Ltd, 2024"]


@pytest.mark.parametrize("kind", ["footnotes", "endnotes"])
def test_a_changed_note_is_redlined_and_pandoc_reads_both_views(tmp_path, kind):
    body = noted("Fees are payable monthly.", kind, 1) + noted("Interest accrues daily.", kind, 2)
    old = docx(body, **{kind: notes(kind, "Net of tax.", "At the base rate plus two percent.")})
    new = docx(body, **{kind: notes(kind, "Gross of tax.", "At the base rate plus two percent.")})
    result, paths = compared(tmp_path, old, new)
    assert result.elsewhere == [kind] and result.uncompared == []
    assert pandoc_notes(paths["cmp"], "accept") == pandoc_notes(paths["new"], "accept") == \
        ["Gross of tax.", "At the base rate plus two percent."]
    assert pandoc_notes(paths["cmp"], "reject") == pandoc_notes(paths["old"], "accept")
    assert pandoc_notes(paths["cmp"], "all")[0] == "[-Net-]{+Gross+} of tax."


def test_libreoffice_accepts_and_rejects_the_stories_as_the_two_versions(tmp_path):
    """One file with a header, a footer, a footnote and an endnote changed: LibreOffice's accept all gives the
    new version's stories, its reject all the old one's, and it opens the file."""
    def version(h: str, f: str, fn: str, en: str) -> bytes:
        return docx(noted("Fees are payable monthly.", "footnotes", 1) + noted("See the schedule.", "endnotes", 1),
                    headers={"default": story("hdr", h)}, footers={"default": story("ftr", f)},
                    footnotes=notes("footnotes", fn), endnotes=notes("endnotes", en))

    old = version("Draft for discussion", "Acme Ltd", "Net of tax.", "Schedule 1 applies.")
    new = version("Final for signature", "Acme Limited", "Gross of tax.", "Schedule 2 applies.")
    result, paths = compared(tmp_path, old, new)
    assert result.elsewhere == ["headers", "footers", "footnotes", "endnotes"] and result.uncompared == []
    parts = ("word/header1.xml", "word/footer1.xml", "word/footnotes.xml", "word/endnotes.xml")
    for action, want in (("accept_all", new), ("reject_all", old)):
        seen = libreoffice_lawyer(result.docx, [{"do": action}])
        names = zipfile.ZipFile(io.BytesIO(seen)).namelist()
        got = [t for name in sorted(n for n in names if re.match(r"word/(header|footer)\d+\.xml$", n))
               for t in part_texts(seen, name)]
        assert sorted(got) == sorted(part_texts(want, parts[0]) + part_texts(want, parts[1])), action
        for name in parts[2:]:
            assert part_texts(seen, name) == part_texts(want, name), (action, name)
    assert opens(paths["cmp"])


def test_headers_are_paired_by_type_whatever_their_part_names(tmp_path):
    """The old version's first-page header is header1 and its default header2; the new one's the other way
    round. Each is compared with the one of its own type."""
    old = docx(BODY, first_page=True, headers={"first": story("hdr", "Cover page"),
                                                "default": story("hdr", "Services Agreement draft")})
    new = docx(BODY, first_page=True, headers={"default": story("hdr", "Services Agreement final"),
                                                "first": story("hdr", "Cover page")})
    result, _ = compared(tmp_path, old, new)
    assert result.elsewhere == ["headers"] and result.uncompared == []
    assert engine_view(result.docx, "reject", "word/header1.xml") == ["Services Agreement draft"]
    assert engine_view(result.docx, "reject", "word/header2.xml") == ["Cover page"]
    assert "<w:ins " not in zipfile.ZipFile(io.BytesIO(result.docx)).read("word/header2.xml").decode()


def test_a_header_only_the_new_version_has_is_inserted_whole(tmp_path):
    old = docx(BODY)
    new = docx(BODY, headers={"default": story("hdr", "Strictly confidential", "Subject to contract")})
    result, _ = compared(tmp_path, old, new)
    assert result.elsewhere == ["headers"] and result.uncompared == []
    assert engine_view(result.docx, "accept", "word/header1.xml") == ["Strictly confidential", "Subject to contract"]
    assert engine_view(result.docx, "reject", "word/header1.xml") == []


def test_a_new_footnote_is_inserted_with_its_reference(tmp_path):
    old = docx(noted("Fees are payable monthly.", "footnotes", 1) + para("No note here."),
               footnotes=notes("footnotes", "Net of tax."))
    new = docx(noted("Fees are payable monthly.", "footnotes", 1) + noted("No note here.", "footnotes", 2),
               footnotes=notes("footnotes", "Net of tax.", "A new note."))
    result, paths = compared(tmp_path, old, new)
    assert result.elsewhere == ["footnotes"] and result.uncompared == []
    assert pandoc_notes(paths["cmp"], "accept") == ["Net of tax.", "A new note."]
    assert pandoc_notes(paths["cmp"], "reject") == ["Net of tax."]  # the reference goes with it
    assert stats(paths["cmp"])["document"]["ins"] == 1  # the reference run


@pytest.mark.parametrize(("old", "new", "named"), [
    (docx(BODY, headers={"default": story("hdr", "Old header")}), docx(BODY), ["headers"]),
    (docx(noted("Fees.", "footnotes", 1), footnotes=notes("footnotes", "Gone note.")),
     docx(para("Fees."), footnotes=notes("footnotes")), ["footnotes"]),
])
def test_a_story_only_the_old_version_had_is_named_not_redlined(tmp_path, old, new, named):
    result, _ = compared(tmp_path, old, new)
    assert result.uncompared == named and result.elsewhere == []


def test_stories_nothing_refers_to_are_not_compared(tmp_path):
    """A header no section shows and a note the body never refers to are not shown by Word: not compared."""
    parts = {"word/header1.xml": (story("hdr", "{}"), CT + "header+xml", REL + "header"),
             "word/footnotes.xml": (notes("footnotes", "{}"), CT + "footnotes+xml", REL + "footnotes")}
    old, new = ({name: (xml.format(text), ct, rel) for name, (xml, ct, rel) in parts.items()} for text in ("A", "B"))
    result, _ = compared(tmp_path, build_docx(BODY, extra_parts=old), build_docx(BODY, extra_parts=new))
    assert result.uncompared == [] and result.elsewhere == []


def test_a_story_whose_edit_cannot_be_written_is_left_as_it_is_and_named(tmp_path):
    """A field that runs from one header paragraph into the next cannot be edited (the writer refuses it): the
    header is left as the new version has it and named, and the rest of the redline is still made."""
    def header(word: str) -> str:
        return (f'<w:hdr xmlns:w="{W}" xmlns:r="{R_NS}"><w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r>'
                '<w:r><w:instrText xml:space="preserve"> TOC </w:instrText></w:r>'
                f'<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>Contents {word} here</w:t></w:r></w:p>'
                '<w:p><w:r><w:t>tail</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p></w:hdr>')

    old = docx(para("Payment in 30 days."), headers={"default": header("old")})
    new = docx(para("Payment in 60 days."), headers={"default": header("new")})
    result, _ = compared(tmp_path, old, new)
    assert result.uncompared == ["headers"] and result.elsewhere == [] and result.counts["changed"] == 1
    assert "<w:ins " not in zipfile.ZipFile(io.BytesIO(result.docx)).read("word/header1.xml").decode()
