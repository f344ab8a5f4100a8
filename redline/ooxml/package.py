"""Safe opening and saving of the OPC zip package behind a .docx.

The package keeps every part's bytes as read and parses XML parts lazily, so a
part we never touch is written back byte for byte. Limits are checked from the
zip directory *before* anything is decompressed, and again while streaming, so a
zip bomb costs a few kilobytes of reading, not gigabytes of memory.
"""

from __future__ import annotations

import io
import posixpath
import zipfile
import zlib
from dataclasses import dataclass

from lxml import etree

from .errors import DocxError
from .oxml import NSMAP, REL_TYPE, STRICT_W_NS, parse_xml, qn, serialize

OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
MAIN_CT = "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"
MACRO_MAIN_CT = "application/vnd.ms-word.document.macroEnabled.main+xml"
TEMPLATE_MAIN_CT = "application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml"
MAIN_CTS = {MAIN_CT, MACRO_MAIN_CT, TEMPLATE_MAIN_CT}


@dataclass(frozen=True)
class Limits:
    """Configurable ceilings for untrusted packages (defaults per the product spec)."""

    max_compressed: int = 50 * 1024 * 1024
    max_uncompressed: int = 250 * 1024 * 1024
    max_entries: int = 2000
    max_ratio: int = 200  # per entry, uncompressed / compressed, for entries over 1 MB


DEFAULT_LIMITS = Limits()

# What zipfile raises for damaged input besides BadZipFile: RuntimeError for zip-level
# encryption, NotImplementedError for an unknown compression method or a too-new
# "version needed" field (raised while reading the directory), zlib.error for a
# corrupt deflate stream (zipfile does not wrap it), EOFError for a truncated entry.
_ZIP_ERRORS = (zipfile.BadZipFile, zlib.error, OSError, EOFError, ValueError, NotImplementedError, RuntimeError)


class Package:
    """An opened .docx: raw parts, lazily parsed XML parts, content types, rels."""

    def __init__(self, parts: dict[str, bytes], main_part: str) -> None:
        self._raw = parts  # name (no leading slash) -> bytes
        self._xml: dict[str, etree._Element] = {}
        self.main_part = main_part

    # -- reading ---------------------------------------------------------------
    @classmethod
    def open(cls, data: bytes, limits: Limits = DEFAULT_LIMITS) -> Package:
        """Open untrusted bytes, raising :class:`DocxError` with a typed code."""
        if not data:
            raise DocxError("not_a_zip", "The file is empty.")
        if len(data) > limits.max_compressed:
            raise DocxError("too_large", f"The file is larger than {limits.max_compressed} bytes.")
        if data.startswith(OLE_MAGIC):
            raise _classify_ole(data)
        if not zipfile.is_zipfile(io.BytesIO(data)):
            raise DocxError("not_a_zip", "The file is not a .docx (not a zip package).")
        try:
            zf = zipfile.ZipFile(io.BytesIO(data))
            infos = zf.infolist()
        except _ZIP_ERRORS as exc:
            raise DocxError("not_a_zip", f"The zip package is damaged: {exc}") from None
        if any(not info.filename for info in infos):  # (zipfile's own is_dir() fails on one)
            raise DocxError("not_a_zip", "The zip package is damaged: an entry has no name.")
        if len(infos) > limits.max_entries:
            raise DocxError("zip_bomb", f"The package has {len(infos)} entries (limit {limits.max_entries}).")
        declared = sum(i.file_size for i in infos)
        if declared > limits.max_uncompressed:
            raise DocxError("zip_bomb", "The package expands beyond the allowed size.")
        for info in infos:
            if info.file_size > 1024 * 1024 and info.file_size > limits.max_ratio * max(info.compress_size, 1):
                raise DocxError("zip_bomb", f"Entry {info.filename} has a suspicious compression ratio.")
        parts: dict[str, bytes] = {}
        total = 0
        try:
            for info in infos:
                if info.is_dir():
                    continue
                name = info.filename.lstrip("/")
                with zf.open(info) as fh:
                    chunk = fh.read(info.file_size + 1)
                if len(chunk) != info.file_size:
                    raise DocxError("zip_bomb", f"Entry {name} is larger than its directory says.")
                total += len(chunk)
                if total > limits.max_uncompressed:
                    raise DocxError("zip_bomb", "The package expands beyond the allowed size.")
                parts[name] = chunk
        except DocxError:
            raise
        except _ZIP_ERRORS as exc:
            raise DocxError("not_a_zip", f"The zip package is damaged: {exc}") from None
        if "[Content_Types].xml" not in parts:
            raise DocxError("not_a_docx", "The package has no [Content_Types].xml; it is not an Office file.")
        pkg = cls(parts, main_part="")
        pkg.main_part = pkg._find_main_part()
        return pkg

    def _find_main_part(self) -> str:
        rels = self.rels("")
        target = next((t for t, typ in rels.values() if typ.endswith("/officeDocument")), None)
        if target is None:
            raise DocxError("not_a_docx", "The package has no main document relationship.")
        name = target.lstrip("/")
        if name not in self._raw:
            raise DocxError("missing_part", f"The main document part {name} is missing.")
        ct = self.content_type(name)
        if ct not in MAIN_CTS:
            if ct and "wordprocessingml" not in ct:
                raise DocxError("not_a_docx", f"The package is not a Word document ({ct}).")
            if ct is None:
                raise DocxError("not_a_docx", "The main part has no Word content type.")
        root = self.xml(name)
        if root.tag.startswith("{" + STRICT_W_NS):
            raise DocxError("unsupported_strict", "Strict Open XML documents are not supported; save as a regular Word document.")
        if root.tag != qn("w:document"):
            raise DocxError("not_a_docx", "The main part is not a Word document body.")
        return name

    def has(self, name: str) -> bool:
        return name in self._raw or name in self._xml

    def names(self) -> list[str]:
        return list(dict.fromkeys([*self._raw, *self._xml]))

    def blob(self, name: str) -> bytes:
        if name in self._xml:
            return serialize(self._xml[name])
        try:
            return self._raw[name]
        except KeyError:
            raise DocxError("missing_part", f"The part {name} is missing.") from None

    def xml(self, name: str) -> etree._Element:
        """The parsed root of an XML part (cached; edits are saved on :meth:`save`)."""
        if name not in self._xml:
            if name not in self._raw:
                raise DocxError("missing_part", f"The part {name} is missing.")
            try:
                self._xml[name] = parse_xml(self._raw[name])
            except etree.XMLSyntaxError as exc:
                raise DocxError("malformed_xml", f"The part {name} is not well-formed XML: {exc}") from None
        return self._xml[name]

    def set_xml(self, name: str, root: etree._Element, content_type: str | None = None) -> None:
        """Add or replace an XML part; registers an Override content type if given."""
        self._xml[name] = root
        self._raw.pop(name, None)
        if content_type:
            self.set_content_type(name, content_type)

    def set_blob(self, name: str, data: bytes, content_type: str | None = None) -> None:
        """Add or replace a part by its bytes (binary parts: images, embeddings)."""
        self._xml.pop(name, None)
        self._raw[name] = data
        if content_type:
            self.set_content_type(name, content_type)

    # -- content types ------------------------------------------------------------
    def content_type(self, name: str) -> str | None:
        ct = self.xml("[Content_Types].xml")
        for o in ct.iterchildren(qn("ct:Override")):
            if o.get("PartName", "").lstrip("/") == name:
                return o.get("ContentType")
        ext = posixpath.splitext(name)[1].lstrip(".").lower()
        for d in ct.iterchildren(qn("ct:Default")):
            if d.get("Extension", "").lower() == ext:
                return d.get("ContentType")
        return None

    def set_content_type(self, name: str, content_type: str) -> None:
        ct = self.xml("[Content_Types].xml")
        for o in ct.iterchildren(qn("ct:Override")):
            if o.get("PartName", "").lstrip("/") == name:
                o.set("ContentType", content_type)
                return
        etree.SubElement(ct, qn("ct:Override"), PartName="/" + name, ContentType=content_type)

    # -- relationships ---------------------------------------------------------
    @staticmethod
    def rels_name(source: str) -> str:
        """``word/document.xml`` → ``word/_rels/document.xml.rels``; ``""`` → ``_rels/.rels``."""
        folder, base = posixpath.split(source)
        return posixpath.join(folder, "_rels", base + ".rels")

    def rels(self, source: str) -> dict[str, tuple[str, str]]:
        """Relationships of a part: ``{rId: (resolved target part name, type)}``.

        External targets (hyperlinks) are returned unresolved.
        """
        name = self.rels_name(source)
        if not self.has(name):
            return {}
        out: dict[str, tuple[str, str]] = {}
        for rel in self.xml(name).iterchildren(qn("pr:Relationship")):
            target = rel.get("Target", "")
            if rel.get("TargetMode") != "External":
                target = _resolve(source, target)
            out[rel.get("Id", "")] = (target, rel.get("Type", ""))
        return out

    def related_part(self, source: str, rel_type: str) -> str | None:
        """The part a source points to by relationship type (short key of REL_TYPE or full URI)."""
        uri = REL_TYPE.get(rel_type, rel_type)
        for target, typ in self.rels(source).values():
            if typ == uri:
                return target
        return None

    def add_rel(self, source: str, rel_type: str, target_name: str) -> str:
        """Relate ``source`` to ``target_name`` (idempotent); returns the rId."""
        uri = REL_TYPE.get(rel_type, rel_type)
        for rid, (target, typ) in self.rels(source).items():
            if typ == uri and target == target_name:
                return rid
        name = self.rels_name(source)
        if not self.has(name):
            self.set_xml(name, etree.Element(qn("pr:Relationships"), nsmap={None: NSMAP["pr"]}))
        root = self.xml(name)
        used = {r.get("Id") for r in root}
        n = 1
        while f"rId{n}" in used:
            n += 1
        rid = f"rId{n}"
        base = posixpath.dirname(source)
        rel_target = posixpath.relpath(target_name, base) if base else target_name
        etree.SubElement(root, qn("pr:Relationship"), Id=rid, Type=uri, Target=rel_target)
        return rid

    # -- writing ---------------------------------------------------------------
    def save(self) -> bytes:
        """Serialise to .docx bytes; [Content_Types].xml first, as Word expects.

        Entries carry a fixed timestamp (1980-01-01, as Word writes), so the
        same parts always give the same bytes and processing is reproducible.
        """
        buf = io.BytesIO()
        names = self.names()
        names.sort(key=lambda n: (n != "[Content_Types].xml", n != "_rels/.rels"))
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
            for name in names:
                info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                zf.writestr(info, self.blob(name))
        return buf.getvalue()


def _resolve(source: str, target: str) -> str:
    if target.startswith("/"):
        return target.lstrip("/")
    return posixpath.normpath(posixpath.join(posixpath.dirname(source), target))


def _classify_ole(data: bytes) -> DocxError:
    """OLE compound files are either encrypted OOXML or legacy binary .doc."""
    probe = data[:1 << 20]
    if "EncryptionInfo".encode("utf-16-le") in probe or "EncryptedPackage".encode("utf-16-le") in probe:
        return DocxError("encrypted", "The document is password-protected; remove the password and upload again.")
    return DocxError("legacy_doc", "This is a legacy Word 97-2003 (.doc) file; save it as .docx and upload again.")
