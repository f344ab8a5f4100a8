"""Never repeated: the lawyer answers a review by hand-edited OOXML (plain zipfile + lxml, not our
engine), the file is re-uploaded and re-reviewed; nothing rejected, accepted, modified or still in
the document is proposed again, and every outcome is visible in the suggestions API."""

from __future__ import annotations

import io
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from lxml import etree

from redline.models import Document, KnownEntry, LearnedLine
from redline.services.learning import suppression_records
from redline.services.playbooks import playbook_default_install
from tests.ooxml.conftest import make_contract
from tests.support.docx_builder import build_docx, para

from .conftest import install_stacked_playbook, review_and_wait

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
W15 = "http://schemas.microsoft.com/office/word/2012/wordml"
CLAUSES = [
    "“Charges” means the fees payable under this Agreement.",
    "The Customer shall pay each invoice within ninety (90) days of receipt.",
    "The Customer shall pay fees under any statement of work within ninety (90) days of the invoice date.",
    "The Customer shall pay all other amounts within ninety (90) days of receipt of invoice.",
    "This Agreement renews automatically for each successive period of twelve (12) months.",
    "Each order renews automatically for successive periods of twelve (12) months unless cancelled.",
    "Each licence renews automatically for successive periods of twelve (12) months.",
    "Support renews automatically for successive periods of twelve (12) months.",
    "The Supplier's liability shall be unlimited.",
]


def w(tag: str) -> str:
    return f"{{{W}}}{tag}"


class HandEditor:
    """What Word does to the XML when a lawyer accepts, rejects, retypes, resolves or deletes."""

    def __init__(self, docx: bytes) -> None:
        with zipfile.ZipFile(io.BytesIO(docx)) as z:
            self.parts = {n: z.read(n) for n in z.namelist()}
        self.doc = etree.fromstring(self.parts["word/document.xml"])
        self.comments = etree.fromstring(self.parts["word/comments.xml"])
        self.extended = etree.fromstring(self.parts["word/commentsExtended.xml"])

    def paragraph(self, anchor: str) -> etree._Element:
        (start,) = [b for b in self.doc.iter(w("bookmarkStart")) if b.get(w("name")) == anchor]
        return next(start.iterancestors(w("p")))

    def paragraphs_reading(self, lines: list[str]) -> list[etree._Element]:
        """The paragraphs (inserted by us) whose text, inserted or not, is one of ``lines``."""
        wanted = set(lines)
        return [p for p in self.doc.iter(w("p")) if "".join(t.text or "" for t in p.iter(w("t"))) in wanted]

    @staticmethod
    def _unwrap(el: etree._Element) -> None:
        parent, at = el.getparent(), el.getparent().index(el)
        for i, child in enumerate(list(el)):
            parent.insert(at + i, child)
        parent.remove(el)

    def accept(self, p: etree._Element) -> None:
        for ins in list(p.iter(w("ins"))):
            ins.getparent().remove(ins) if ins.getparent().tag == w("rPr") else self._unwrap(ins)
        for d in list(p.iter(w("del"))):
            d.getparent().remove(d)

    def reject(self, p: etree._Element) -> None:
        if any(i.getparent().tag == w("rPr") for i in p.iter(w("ins"))):  # an inserted paragraph: it goes
            p.getparent().remove(p)
            return
        for ins in list(p.iter(w("ins"))):
            ins.getparent().remove(ins)
        for d in list(p.iter(w("del"))):
            for t in d.iter(w("delText")):
                t.tag = w("t")
            self._unwrap(d)

    def retype(self, p: etree._Element, text: str) -> None:
        runs = list(p.iter(w("r")))
        for r in runs[1:]:
            r.getparent().remove(r)
        for child in [c for c in runs[0] if c.tag != w("rPr")]:
            runs[0].remove(child)
        etree.SubElement(runs[0], w("t")).text = text

    def comment_on(self, anchor: str) -> tuple[str, str]:
        """The id and last paraId of our comment ranged in the anchored paragraph."""
        (start,) = self.paragraph(anchor).iter(w("commentRangeStart"))
        cid = start.get(w("id"))
        (c,) = [c for c in self.comments if c.get(w("id")) == cid]
        return cid, c.findall(w("p"))[-1].get("{http://schemas.microsoft.com/office/word/2010/wordml}paraId")

    def resolve(self, anchor: str) -> None:
        _cid, para_id = self.comment_on(anchor)
        (ex,) = [e for e in self.extended if e.get(f"{{{W15}}}paraId") == para_id]
        ex.set(f"{{{W15}}}done", "1")

    def delete_comment(self, anchor: str) -> None:
        cid, para_id = self.comment_on(anchor)
        for c in [c for c in self.comments if c.get(w("id")) == cid]:
            self.comments.remove(c)
        for el in list(self.doc.iter(w("commentRangeStart"), w("commentRangeEnd"))):
            if el.get(w("id")) == cid:
                el.getparent().remove(el)
        for ref in list(self.doc.iter(w("commentReference"))):
            if ref.get(w("id")) == cid:
                run = ref.getparent()
                run.getparent().remove(run)
        for e in [e for e in self.extended if e.get(f"{{{W15}}}paraId") == para_id]:
            self.extended.remove(e)

    def save(self) -> bytes:
        self.parts["word/document.xml"] = etree.tostring(self.doc, xml_declaration=True, encoding="UTF-8",
                                                         standalone=True)
        self.parts["word/comments.xml"] = etree.tostring(self.comments, xml_declaration=True, encoding="UTF-8",
                                                         standalone=True)
        self.parts["word/commentsExtended.xml"] = etree.tostring(self.extended, xml_declaration=True,
                                                                 encoding="UTF-8", standalone=True)
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
            for name, data in self.parts.items():
                z.writestr(name, data)
        return out.getvalue()


def _same(a: dict, b: dict) -> bool:
    """Whether ``b`` proposes again what ``a`` proposed (the same rule at the anchor, or the same words)."""
    if a["anchor"] == b["anchor"] and a["rule"] == b["rule"]:
        return True
    if a["kind"] == b["kind"] == "comment":
        return a["anchor"] == b["anchor"] and a["comment"] == b["comment"]
    return a["kind"] == b["kind"] and a["new_text"] == b["new_text"] and a["quote"] == b["quote"]


@pytest.mark.django_db(transaction=True)
def test_nothing_answered_or_still_in_the_document_is_proposed_again(alice):
    install_stacked_playbook(alice.workspace)  # its jurisdiction clause is in these clauses' words
    original = build_docx(para("1. Terms", style="Heading1") + "".join(para(c) for c in CLAUSES))
    up = alice.api().post("/api/documents", {"file": SimpleUploadedFile("msa.docx", original)}).json()
    doc = up["document"]["id"]
    first = review_and_wait(alice, doc, acting_for="Supplier")  # paid: ninety days to pay is its finding
    exported = alice.api().post(f"/api/runs/{first['id']}/export", {}, content_type="application/json").content
    sent = alice.api().get(f"/api/runs/{first['id']}/suggestions").json()
    replaces = [s for s in sent if s["kind"] == "replace"]
    renewals = [s for s in sent if s["kind"] == "comment" and s["rule"] == "auto-renewal"]
    inserts = [s for s in sent if s["kind"] == "insert"]
    assert len(replaces) == 3 and len(renewals) == 4 and len(inserts) >= 2
    assert all(s["outcome"] == "pending" for s in sent if s["patch"])

    # The lawyer's pass, written straight into the XML.
    lawyer = HandEditor(exported)
    lawyer.accept(lawyer.paragraph(replaces[0]["anchor"]))
    lawyer.reject(lawyer.paragraph(replaces[1]["anchor"]))
    lawyer.accept(lawyer.paragraph(replaces[2]["anchor"]))
    lawyer.retype(lawyer.paragraph(replaces[2]["anchor"]),
                  "All other amounts shall be paid within forty-five (45) days of receipt of invoice.")
    lawyer.resolve(renewals[0]["anchor"])
    lawyer.delete_comment(renewals[1]["anchor"])  # renewals[2] and [3] stay open
    for p in lawyer.paragraphs_reading(inserts[0]["new_text"].split("\n")):
        lawyer.accept(p)
    for p in lawyer.paragraphs_reading(inserts[1]["new_text"].split("\n")):
        lawyer.reject(p)
    returned = lawyer.save()
    back = alice.api().post("/api/documents", {"file": SimpleUploadedFile("msa-back.docx", returned)})
    assert back.status_code == 201 and back.json()["document"]["id"] == doc

    second = review_and_wait(alice, doc, acting_for="Supplier")
    outcome = {s["id"]: s for s in alice.api().get(f"/api/runs/{first['id']}/suggestions").json()}
    expected = {replaces[0]["id"]: "accepted", replaces[1]["id"]: "rejected", replaces[2]["id"]: "modified",
                renewals[0]["id"]: "accepted", renewals[1]["id"]: "rejected", renewals[2]["id"]: "pending",
                renewals[3]["id"]: "pending", inserts[0]["id"]: "accepted", inserts[1]["id"]: "rejected"}
    assert {sid: outcome[sid]["outcome"] for sid in expected} == expected
    assert "forty-five (45) days" in outcome[replaces[2]["id"]]["lawyer_text"]
    assert all(outcome[sid]["outcome_at"] for sid in expected if expected[sid] != "pending")
    assert all(outcome[sid]["outcome_version_id"] == back.json()["version"]["id"] for sid in expected)

    # Preferences learned from both sides, each line with its counts and its sources.
    prefs = alice.api().get("/api/preferences").json()
    assert "(No preferences set yet)" not in prefs["text"] and "- - " not in prefs["text"]
    learned = prefs["learned"]
    assert any(x["accepted"] and not x["rejected"] for x in learned)  # the accepted insertion
    assert any(x["rejected"] and not x["accepted"] for x in learned)  # the rejected one
    for x in learned:
        assert x["line"] in prefs["text"] and len(x["sources"]) == x["accepted"] + x["rejected"]
        assert sorted(s["outcome"] for s in x["sources"]) == sorted(
            ["accepted"] * x["accepted"] + ["rejected"] * x["rejected"])
        assert all(s["suggestion_id"] in expected and s["outcome_at"] for s in x["sources"])
    split = [x for x in learned if x["accepted"] and x["rejected"]]  # 90 → 60 days: one taken, one refused
    assert split and all("split" in x["line"] for x in split)

    # The re-run proposes none of them again.
    again = alice.api().get(f"/api/runs/{second['id']}/suggestions").json()
    earlier = [s for s in outcome.values() if s["outcome"] not in (None, "missing")]
    repeats = [(b["rule"], b["anchor"], b["kind"]) for b in again for a in earlier if _same(a, b)]
    assert repeats == []
    # The unchanged text triggers them again (the rejected change, the three comments whose text is
    # unchanged, the resolved one): they were dropped, not just not found.
    assert second["stats"]["suppressed"] >= 5

    # Round two: the lawyer later resolves the two comments left open. The renewal comment was split
    # (one resolved, one deleted); now 3 of 4 were taken, so its line is revised, not kept beside the old one.
    (old_line,) = [x["line"] for x in learned if "renews automatically" in x["line"]]
    assert "(1 accepted, 1 rejected)" in old_line
    later = HandEditor(returned)
    later.resolve(renewals[2]["anchor"])
    later.resolve(renewals[3]["anchor"])
    third = alice.api().post("/api/documents", {"file": SimpleUploadedFile("msa-later.docx", later.save())}).json()
    assert third["document"]["id"] == doc
    review_and_wait(alice, doc)
    prefs2 = alice.api().get("/api/preferences").json()
    assert prefs2["version"] > prefs["version"] and old_line not in prefs2["text"]
    (renewal,) = [x for x in prefs2["learned"] if "renews automatically" in x["line"]]
    assert renewal["line"].startswith("- Comments like") and renewal["line"].endswith("(accepted 3 of 4).")
    assert (renewal["accepted"], renewal["rejected"]) == (3, 1)
    assert {s["suggestion_id"]: s["outcome"] for s in renewal["sources"]} == {
        renewals[0]["id"]: "accepted", renewals[1]["id"]: "rejected", renewals[2]["id"]: "accepted",
        renewals[3]["id"]: "accepted"}
    assert sum("renews automatically" in line for line in prefs2["text"].splitlines()) == 1
    # A line the second round did not change keeps its one record (and the version that learned it).
    unchanged = [x for x in prefs2["learned"] if x["line"] in {y["line"] for y in learned}]
    assert unchanged and all(x["version"] == prefs["version"] for x in unchanged)
    assert all(LearnedLine.objects.filter(line=x["line"]).count() == 1 for x in unchanged)


@pytest.mark.django_db(transaction=True)
def test_only_missing_entries_may_come_back(alice):
    playbook_default_install(workspace=alice.workspace)
    original = build_docx(para("1. Terms", style="Heading1") + "".join(para(c) for c in CLAUSES))
    up = alice.api().post("/api/documents", {"file": SimpleUploadedFile("msa.docx", original)}).json()
    first = review_and_wait(alice, up["document"]["id"])
    alice.api().post(f"/api/runs/{first['id']}/export", {}, content_type="application/json")
    document = Document.objects.get(pk=up["document"]["id"])
    entries = list(KnownEntry.objects.filter(document=document).order_by("pk"))
    outcomes = ["missing", "rejected", "accepted", "modified", "pending"]
    for entry, outcome in zip(entries, outcomes, strict=False):
        KnownEntry.objects.filter(pk=entry.pk).update(outcome=outcome)
    kept = {r.id for r in suppression_records(document=document)}
    assert kept == {e.entry_id for e in entries[1:]}  # every answer and every pending entry, not the missing one


@pytest.mark.django_db(transaction=True)
def test_a_fifty_page_review_answered_by_hand_is_not_repeated(alice, tmp_path):
    """The acceptance scenario at size: a generated 50-page contract, the lawyer's six kinds of answer."""
    playbook_default_install(workspace=alice.workspace)
    original = make_contract(tmp_path / "c50.docx", 50).read_bytes()
    up = alice.api().post("/api/documents", {"file": SimpleUploadedFile("msa-50.docx", original)}).json()
    doc = up["document"]["id"]
    first = review_and_wait(alice, doc)
    exported = alice.api().post(f"/api/runs/{first['id']}/export", {}, content_type="application/json").content
    sent = alice.api().get(f"/api/runs/{first['id']}/suggestions").json()
    alone = {a for a in (s["anchor"] for s in sent) if sum(s["anchor"] == a for s in sent) == 1}
    replaces = [s for s in sent if s["kind"] == "replace" and s["anchor"] in alone]  # one answer per paragraph
    comments = [s for s in sent if s["kind"] == "comment" and s["anchor"] in alone]
    assert len(replaces) >= 3 and len(comments) >= 3 and len(sent) >= 40

    lawyer = HandEditor(exported)
    lawyer.accept(lawyer.paragraph(replaces[0]["anchor"]))
    lawyer.reject(lawyer.paragraph(replaces[1]["anchor"]))
    lawyer.accept(lawyer.paragraph(replaces[2]["anchor"]))
    modified = "Each invoice shall be paid within forty-five (45) days of its receipt by the Customer."
    lawyer.retype(lawyer.paragraph(replaces[2]["anchor"]), modified)
    lawyer.resolve(comments[0]["anchor"])
    lawyer.delete_comment(comments[1]["anchor"])  # comments[2:] stay open; the other changes stay pending
    back = alice.api().post("/api/documents", {"file": SimpleUploadedFile("msa-50-back.docx", lawyer.save())})
    assert back.status_code == 201 and back.json()["document"]["id"] == doc

    second = review_and_wait(alice, doc)
    outcome = {s["id"]: s for s in alice.api().get(f"/api/runs/{first['id']}/suggestions").json()}
    answered = {replaces[0]["id"]: "accepted", replaces[1]["id"]: "rejected", replaces[2]["id"]: "modified",
                comments[0]["id"]: "accepted", comments[1]["id"]: "rejected"}
    expected = {s["id"]: answered.get(s["id"], "pending") for s in sent if s["patch"]}
    assert {sid: outcome[sid]["outcome"] for sid in expected} == expected  # every outcome, in the API
    assert outcome[replaces[2]["id"]]["lawyer_text"] == modified
    assert all(outcome[sid]["outcome_at"] for sid in answered)

    again = alice.api().get(f"/api/runs/{second['id']}/suggestions").json()
    earlier = [s for s in outcome.values() if s["outcome"] not in (None, "missing")]
    assert [(b["rule"], b["anchor"], b["kind"]) for b in again for a in earlier if _same(a, b)] == []
    assert second["stats"]["suppressed"] >= 2  # the rejected change and the resolved comment were dropped
