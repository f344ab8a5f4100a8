"""A lawyer working in LibreOffice: an editor that has never seen our code judges our output.

Run by an interpreter with LibreOffice's ``uno`` module (Debian's python3-uno is
for /usr/bin/python3), as ``python3 lo_lawyer.py < job.json``: the job names the
input and output files and the actions, done through LibreOffice's own API in a
private headless soffice, then saved as .docx by LibreOffice's own filter.

Actions (paragraphs are found by our hidden ``_RL_`` bookmarks, which LibreOffice keeps):

- ``{"do": "accept" | "reject", "anchors": [...], "texts": [...]?}``: accept or reject
  the tracked changes in those paragraphs (only those showing one of ``texts``), the
  way a reviewer does: select the change, Accept (or Reject) Track Change;
- ``{"do": "accept_all" | "reject_all"}``: every tracked change in the document;
- ``{"do": "reject_author", "author": ...}``: every tracked change that author made (found by author in
  the document's redlines, XRedlinesSupplier), one at a time: its text selected, Reject Track Change; the
  other authors' changes stay pending. (No accept by author: accepting a deleted paragraph mark that way,
  LibreOffice 7.4 also accepted another author's insertions in the next paragraph, a moved one's.)
- ``{"do": "delete_comment" | "resolve_comment", "text": ...}``;
- ``{"do": "retype", "anchor": ..., "text": ...}``: type over the paragraph, tracking off;
- ``{"do": "remove_paragraph", "anchor": ...}``: delete it outright, tracking off;
- ``{"do": "drop_anchor", "anchor": ...}``: lose the bookmark.

Uses only the standard library, ``uno`` and the shared oracle's soffice helpers.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
import oracles_path

oracle = oracles_path.load_oracle()

import uno  # noqa: E402
import unohelper  # noqa: E402
from com.sun.star.beans import PropertyValue  # noqa: E402
from com.sun.star.connection import NoConnectException  # noqa: E402
from com.sun.star.task import XInteractionHandler  # noqa: E402

MAX_CHANGES = 200  # per action: a change that will not go away is an error, not a hang


def pv(name: str, value: object) -> PropertyValue:
    prop = PropertyValue()
    prop.Name, prop.Value = name, value
    return prop


class Disapprove(unohelper.Base, XInteractionHandler):
    """LibreOffice 7.4 asks to approve a file with comments; disapproving opens it editable (see oracle.py)."""

    def handle(self, request: object) -> None:
        for wanted in ("XInteractionDisapprove", "XInteractionAbort"):
            for choice in request.getContinuations():
                if any(wanted in t.typeName for t in choice.getTypes()):
                    choice.select()
                    return


class Session:
    def __init__(self, doc: object, dispatcher: object) -> None:
        self.doc, self.dispatcher = doc, dispatcher
        self.text = doc.getText()
        self.frame = doc.getCurrentController().getFrame()

    def paragraph(self, anchor: str) -> object:
        """A cursor over the paragraph holding bookmark ``anchor``, its mark included."""
        start = self.doc.getBookmarks().getByName(anchor).getAnchor().getStart()
        cursor = self.text.createTextCursorByRange(start)
        cursor.gotoStartOfParagraph(False)
        cursor.gotoEndOfParagraph(True)
        return cursor

    def _inside(self, para: object, point: object) -> bool:
        return (self.text.compareRegionStarts(para.getStart(), point) >= 0
                and self.text.compareRegionStarts(point, para.getEnd()) >= 0)

    def _shown(self, redline: object) -> str:
        cursor = self.text.createTextCursorByRange(redline.getPropertyValue("RedlineStart"))
        cursor.gotoRange(redline.getPropertyValue("RedlineEnd"), True)
        return cursor.getString()

    def _next_change(self, paras: list[object], texts: list[str] | None) -> object | None:
        changes = self.doc.getRedlines().createEnumeration()
        while changes.hasMoreElements():
            change = changes.nextElement()
            start = change.getPropertyValue("RedlineStart")
            if any(self._inside(p, start) for p in paras) and (texts is None or self._shown(change) in texts):
                return change
        return None

    def decide(self, verdict: str, anchors: list[str], texts: list[str] | None) -> int:
        command = {"accept": ".uno:AcceptTrackedChange", "reject": ".uno:RejectTrackedChange"}[verdict]
        done = 0
        paras = [self.paragraph(a) for a in anchors]  # (cursors follow the edits; a bookmark may go with its text)
        while (change := self._next_change(paras, texts)) is not None:
            if done >= MAX_CHANGES:
                raise RuntimeError(f"{verdict}: a change in {anchors} does not go away")
            cursor = self.text.createTextCursorByRange(change.getPropertyValue("RedlineStart"))
            cursor.gotoRange(change.getPropertyValue("RedlineEnd"), True)
            self.doc.getCurrentController().select(cursor)
            self.dispatcher.executeDispatch(self.frame, command, "", 0, ())
            done += 1
        if not done:
            raise RuntimeError(f"{verdict}: no tracked change in {anchors} showing {texts}")
        return done

    def _next_by(self, author: str) -> object | None:
        changes = self.doc.getRedlines().createEnumeration()
        while changes.hasMoreElements():
            change = changes.nextElement()
            if change.getPropertyValue("RedlineAuthor") == author:
                return change
        return None

    def reject_author(self, author: str) -> int:
        done = 0
        while (change := self._next_by(author)) is not None:
            if done >= MAX_CHANGES:
                raise RuntimeError(f"reject: a change by {author} does not go away")
            cursor = self.text.createTextCursorByRange(change.getPropertyValue("RedlineStart"))
            cursor.gotoRange(change.getPropertyValue("RedlineEnd"), True)  # exactly this change's text
            self.doc.getCurrentController().select(cursor)
            self.dispatcher.executeDispatch(self.frame, ".uno:RejectTrackedChange", "", 0, ())
            done += 1
        if not done:
            raise RuntimeError(f"reject: no tracked change by {author}")
        return done

    def _comment(self, text: str) -> object:
        fields = self.doc.getTextFields().createEnumeration()
        found = []
        while fields.hasMoreElements():
            field = fields.nextElement()
            if field.supportsService("com.sun.star.text.TextField.Annotation") and field.Content == text:
                found.append(field)
        if len(found) != 1:
            raise RuntimeError(f"{len(found)} comments say {text!r}")
        return found[0]

    def untracked(self, edit: callable) -> None:
        self.doc.setPropertyValue("RecordChanges", False)
        try:
            edit()
        finally:
            self.doc.setPropertyValue("RecordChanges", True)

    def act(self, action: dict) -> None:
        do = action["do"]
        if do in ("accept", "reject"):
            self.decide(do, action["anchors"], action.get("texts"))
        elif do == "reject_author":
            self.reject_author(action["author"])
        elif do in ("accept_all", "reject_all"):
            command = {"accept_all": ".uno:AcceptAllTrackedChanges", "reject_all": ".uno:RejectAllTrackedChanges"}[do]
            self.dispatcher.executeDispatch(self.frame, command, "", 0, ())
            if self.doc.getRedlines().createEnumeration().hasMoreElements():
                raise RuntimeError(f"{do}: tracked changes are left")
        elif do == "delete_comment":
            self._comment(action["text"]).dispose()
        elif do == "resolve_comment":
            self._comment(action["text"]).setPropertyValue("Resolved", True)
        elif do == "retype":
            self.untracked(lambda: self.paragraph(action["anchor"]).setString(action["text"]))
        elif do == "remove_paragraph":
            def remove() -> None:
                cursor = self.paragraph(action["anchor"])
                cursor.goRight(1, True)  # its paragraph mark too
                cursor.setString("")
            self.untracked(remove)
        elif do == "drop_anchor":
            self.doc.getBookmarks().getByName(action["anchor"]).dispose()
        else:
            raise ValueError(f"unknown action {do!r}")


def run(job: dict) -> None:
    base = oracle._fresh_profile()
    profile = os.path.join(base, "profile")
    pipe = "lawyer_" + uuid.uuid4().hex
    proc = subprocess.Popen(
        [oracle.soffice_bin(), "--headless", "--invisible", "--nologo", "--norestore", "--nodefault", "--nolockcheck",
         f"-env:UserInstallation=file://{profile}", f"--accept=pipe,name={pipe};urp;StarOffice.ComponentContext"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        local = uno.getComponentContext()
        resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
        deadline = time.monotonic() + 90
        while True:
            try:
                ctx = resolver.resolve(f"uno:pipe,name={pipe};urp;StarOffice.ComponentContext")
                break
            except NoConnectException:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("soffice did not start") from None
                time.sleep(0.2)
        smgr = ctx.ServiceManager
        desktop = smgr.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
        dispatcher = smgr.createInstanceWithContext("com.sun.star.frame.DispatchHelper", ctx)
        doc = desktop.loadComponentFromURL(uno.systemPathToFileUrl(os.path.abspath(job["in"])), "_blank", 0,
                                           (pv("Hidden", True), pv("ReadOnly", False),
                                            pv("InteractionHandler", Disapprove())))
        if doc is None or doc.isReadonly():
            raise RuntimeError("LibreOffice did not open the file for editing")
        session = Session(doc, dispatcher)
        for action in job["actions"]:
            session.act(action)
        doc.storeToURL(uno.systemPathToFileUrl(os.path.abspath(job["out"])),
                       (pv("FilterName", "MS Word 2007 XML"), pv("Overwrite", True)))
        doc.close(True)
        desktop.terminate()
    finally:
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        oracle._save_template(profile)
        import shutil

        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    run(json.load(sys.stdin))
