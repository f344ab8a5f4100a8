"""A redlined contract and a lawyer who works on it, for the learning tests.

The contract goes through the real pipeline (``read_document`` anchors it, the
writer applies one op of every type per scenario). The lawyer's review is done
by another editor, LibreOffice (:func:`review`, ``lo_lawyer.py``): accepting and
rejecting chosen changes, deleting and resolving comments, typing over a clause
and deleting one, saved by LibreOffice's own .docx filter, so outcome detection
is judged on a file our engine never touched. :class:`Lawyer` makes the few
edits tests need on top, by hand on the package XML (never through our engine):
deleting a comment everywhere Word keeps it, losing a bookmark.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from redline.ooxml.ops import KnownEntry, op_from_json
from redline.ooxml.oxml import qn
from redline.ooxml.package import Package
from redline.ooxml.paragraphs import read_document
from redline.ooxml.writer import RedlineOutput, redline_document
from tests.support.docx_builder import build_docx, para
from tests.support.oracles import oracle

LO_LAWYER = Path(__file__).with_name("lo_lawyer.py")

DATE = "2025-01-02T03:04:05Z"
AUTHOR = "Redline AI"

CLAUSES = [
    "MASTER SERVICES AGREEMENT",
    "1. Payment shall be made within 30 days of the invoice date.",
    "2. The Supplier's liability under this Agreement shall be unlimited.",
    "3. This clause shall be subject to annual review by both parties.",
    "4. The Customer may terminate this Agreement on ninety (90) days' notice.",
    "5. Confidential Information shall be kept secret for two years.",
    "6. This Agreement is governed by the laws of England.",
    "7. Each party shall maintain insurance of at least GBP 1,000,000.",
    "8. Invoices shall be issued monthly in arrears.",
    "9. The Supplier shall provide the Services with reasonable skill and care.",
    "10. Neither party may assign this Agreement without the other's consent.",
    "11. Notices shall be given in writing to the registered office.",
    "12. The Supplier may subcontract any of its obligations.",
    "13. The parties shall meet quarterly to review performance.",
    "14. This Agreement may be executed in counterparts.",
    "15. Neither party is liable for delay caused by force majeure lasting up to 30 days.",
    "16. Late payments bear interest at 5% per annum from 10 days after the due date.",
]

# scenario name → (clause number, op). The names say what the lawyer will do.
SCENARIOS: dict[str, tuple[int, dict]] = {
    "replace_accepted": (1, {"Type": "REPLACE_TEXT", "Quote": "30 days", "Replacement": "45 days",
                             "Comment": "Longer payment term."}),
    "rewrite_rejected": (2, {"Type": "REWRITE_PARAGRAPH", "NewText": "2. The Supplier's liability under this "
                             "Agreement shall not exceed the Charges paid in the preceding 12 months."}),
    "delete_accepted": (3, {"Type": "DELETE_PARAGRAPH", "Comment": "Redundant review clause."}),
    "insert_rejected": (4, {"Type": "INSERT", "Position": "after",
                            "Text": "4A. Either party may terminate for material breach on 30 days' notice."}),
    "comment_deleted": (5, {"Type": "COMMENT", "Scope": "paragraph", "Comment": "Two years is short for trade secrets."}),
    "comment_resolved": (6, {"Type": "COMMENT", "Scope": "quote", "Quote": "laws of England",
                             "Comment": "Consider arbitration."}),
    "rewrite_hand_edited": (7, {"Type": "REWRITE_PARAGRAPH",
                                "NewText": "7. Each party shall maintain insurance of at least GBP 5,000,000."}),
    "replace_pending": (8, {"Type": "REPLACE_TEXT", "Quote": "monthly", "Replacement": "quarterly"}),
    "insert_accepted": (9, {"Type": "INSERT", "Position": "before",
                            "Text": "8A. The Supplier shall comply with the Customer's policies."}),
    "delete_rejected": (10, {"Type": "DELETE_PARAGRAPH", "Comment": "Assignment should be free."}),
    "comment_pending": (11, {"Type": "COMMENT", "Scope": "paragraph", "Comment": "Allow notice by e-mail."}),
    "rewrite_clause_removed": (12, {"Type": "REWRITE_PARAGRAPH",
                                    "NewText": "12. The Supplier may not subcontract without prior written consent."}),
    "insert_pending": (13, {"Type": "INSERT", "Position": "after",
                            "Text": "13A. Minutes of each meeting shall be circulated within 5 Business Days."}),
    "delete_pending": (14, {"Type": "DELETE_PARAGRAPH"}),
    "replace_rejected_anchor_lost": (15, {"Type": "REPLACE_TEXT", "Quote": "30 days", "Replacement": "90 days"}),
    "shared_replace_accepted": (16, {"Type": "REPLACE_TEXT", "Quote": "5% per annum", "Replacement": "2% per annum"}),
    "shared_replace_pending": (16, {"Type": "REPLACE_TEXT", "Quote": "10 days", "Replacement": "30 days"}),
}

EXPECTED = {
    "replace_accepted": "accepted", "rewrite_rejected": "rejected", "delete_accepted": "accepted",
    "insert_rejected": "rejected", "comment_deleted": "rejected", "comment_resolved": "accepted",
    "rewrite_hand_edited": "modified", "replace_pending": "pending", "insert_accepted": "accepted",
    "delete_rejected": "rejected", "comment_pending": "pending", "rewrite_clause_removed": "missing",
    "insert_pending": "pending", "delete_pending": "pending", "replace_rejected_anchor_lost": "rejected",
    "shared_replace_accepted": "accepted", "shared_replace_pending": "pending",
}


@dataclass(frozen=True)
class Written:
    """The redlined contract: the anchored input, the output, each scenario's
    known entry, the anchors of each clause and of the paragraphs our
    insertions added."""

    anchored: bytes
    output: RedlineOutput
    entries: dict[str, KnownEntry]
    clause_anchors: list[str]
    inserted_anchors: dict[str, tuple[str, ...]]

    @property
    def docx(self) -> bytes:
        return self.output.docx


def write_contract(anchored: bytes | None = None) -> Written:
    """Anchor the contract (unless given anchored) and write every scenario's op into it."""
    if anchored is None:
        anchored = read_document(build_docx("".join(para(c) for c in CLAUSES)), anchor=True).docx
    anchors = [p.anchor for p in read_document(anchored, anchor=False).paragraphs]
    names = list(SCENARIOS)
    ops = [op_from_json(i, {"Id": anchors[n], **op}) for i, (n, op) in enumerate(SCENARIOS.values())]
    out = redline_document(anchored, ops, author=AUTHOR, date=DATE)
    assert [r.status for r in out.results] == ["applied"] * len(ops), [r.reason for r in out.results]
    return Written(anchored, out, {n: r.entry for n, r in zip(names, out.results, strict=True)}, anchors,
                   {n: r.new_anchors for n, r in zip(names, out.results, strict=True)})


class Lawyer:
    """Edits a .docx by hand, as Word would save the edit, then saves it."""

    def __init__(self, docx: bytes) -> None:
        self.pkg = Package.open(docx)
        self.doc = self.pkg.xml(self.pkg.main_part)

    def _comment(self, text: str) -> tuple[etree._Element, str]:
        comments = self.pkg.xml("word/comments.xml")
        (c,) = [c for c in comments.iterchildren(qn("w:comment")) if "".join(c.itertext()) == text]
        return c, c.findall(qn("w:p"))[-1].get(qn("w14:paraId"))

    def delete_comment(self, text: str) -> None:
        """Delete a comment everywhere Word keeps it."""
        c, para_id = self._comment(text)
        cid = c.get(qn("w:id"))
        c.getparent().remove(c)
        for el in list(self.doc.iter(qn("w:commentRangeStart"), qn("w:commentRangeEnd"))):
            if el.get(qn("w:id")) == cid:
                el.getparent().remove(el)
        for ref in list(self.doc.iter(qn("w:commentReference"))):
            if ref.get(qn("w:id")) == cid:
                run = ref.getparent()
                run.getparent().remove(run)
        for part, attr in (("word/commentsExtended.xml", "w15:paraId"), ("word/commentsIds.xml", "w16cid:paraId")):
            if not self.pkg.has(part):  # LibreOffice writes no commentsIds, commentsExtended only when resolved
                continue
            root = self.pkg.xml(part)
            for el in list(root):
                if el.get(qn(attr)) == para_id:
                    root.remove(el)

    def drop_anchor(self, anchor: str) -> None:
        """Lose an anchor bookmark, as an editor may when it rewrites the paragraph."""
        (start,) = [s for s in self.doc.iter(qn("w:bookmarkStart")) if s.get(qn("w:name")) == anchor]
        bid = start.get(qn("w:id"))
        start.getparent().remove(start)
        for end in list(self.doc.iter(qn("w:bookmarkEnd"))):
            if end.get(qn("w:id")) == bid:
                end.getparent().remove(end)

    def save(self) -> bytes:
        return self.pkg.save()


def review(written: Written) -> bytes:
    """The lawyer's pass over the redlined contract, every scenario acted out in LibreOffice
    (:mod:`tests.learning.lo_lawyer`): accepting, rejecting, deleting and resolving comments, typing
    over a clause, deleting one, all through LibreOffice's own editing and its own .docx filter."""
    e, a, new = written.entries, written.clause_anchors, written.inserted_anchors
    return libreoffice_lawyer(written.docx, [
        {"do": "accept", "anchors": [a[1]]},
        {"do": "reject", "anchors": [a[2]]},
        {"do": "accept", "anchors": [a[3]]},
        {"do": "reject", "anchors": list(new["insert_rejected"])},
        {"do": "delete_comment", "text": e["comment_deleted"].comment_text},
        {"do": "resolve_comment", "text": e["comment_resolved"].comment_text},
        {"do": "accept", "anchors": [a[7]]},
        {"do": "retype", "anchor": a[7], "text": "7. Each party shall maintain insurance of at least GBP 2,000,000."},
        {"do": "accept", "anchors": list(new["insert_accepted"])},
        {"do": "reject", "anchors": [a[10]]},
        {"do": "reject", "anchors": [a[12]]},
        {"do": "remove_paragraph", "anchor": a[12]},
        {"do": "reject", "anchors": [a[15]]},
        {"do": "drop_anchor", "anchor": a[15]},
        {"do": "accept", "anchors": [a[16]], "texts": ["5", "2"]},
    ])


def libreoffice_lawyer(data: bytes, actions: list[dict]) -> bytes:
    """``data`` after a lawyer did ``actions`` in LibreOffice and saved (see lo_lawyer.py)."""
    python = oracle._uno_python()
    assert python, "no Python with LibreOffice's uno module: install python3-uno (scripts/system-deps)"
    with tempfile.TemporaryDirectory(prefix="redline-lawyer-") as tmp:
        src, out = Path(tmp) / "contract.docx", Path(tmp) / "reviewed.docx"
        src.write_bytes(data)
        job = json.dumps({"in": str(src), "out": str(out), "actions": actions})
        done = subprocess.run([python, str(LO_LAWYER)], input=job, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr[-3000:]
        return out.read_bytes()


def libreoffice_roundtrip(data: bytes) -> bytes:
    """Open and save ``data`` as .docx in headless LibreOffice (fresh profile)."""
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    assert soffice, "LibreOffice is not installed"
    with tempfile.TemporaryDirectory(prefix="redline-lo-") as tmp:
        src = Path(tmp) / "in" / "contract.docx"
        src.parent.mkdir()
        src.write_bytes(data)
        out = Path(tmp) / "out"
        subprocess.run([soffice, "--headless", "--norestore", "--nologo", f"-env:UserInstallation=file://{tmp}/profile",
                        "--convert-to", "docx", "--outdir", str(out), str(src)],
                       check=True, capture_output=True, timeout=180)
        return (out / "contract.docx").read_bytes()
