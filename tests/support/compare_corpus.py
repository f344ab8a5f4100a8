"""Versions of a contract for the compare engine's tests, edited by hand-written OOXML (lxml on the XML, never
our engine): a word changed, words added, a paragraph deleted, a paragraph inserted, a paragraph moved, a table
cell changed. Seeded, so a failure names a reproducible case."""

from __future__ import annotations

import copy
import io
import random
import zipfile

from lxml import etree

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_T, _P, _TC = f"{{{W}}}t", f"{{{W}}}p", f"{{{W}}}tc"
KINDS = ("reword", "add_words", "delete", "insert", "move", "cell")
_NEW_WORDS = ["promptly", "in writing", "reasonable", "material", "sixty (60)", "mutual", "subject to Section 9"]


def _paragraphs(body: etree._Element) -> list[etree._Element]:
    """Body paragraphs with some text, not in tables."""
    return [p for p in body if p.tag == _P and "".join(p.itertext()).strip()]


def _texts(p: etree._Element) -> list[etree._Element]:
    return [t for t in p.iter(_T) if t.text and len(t.text.split()) >= 3]


def edit_version(data: bytes, seed: int, kinds: tuple[str, ...] = KINDS) -> tuple[bytes, list[str]]:
    """``data`` with one edit of each kind in ``kinds`` (those the document allows), and what was done."""
    rng = random.Random(seed)
    zin = zipfile.ZipFile(io.BytesIO(data))
    root = etree.fromstring(zin.read("word/document.xml"))
    body = root.find(f"{{{W}}}body")
    done: list[str] = []
    for kind in kinds:
        paras = _paragraphs(body)
        if len(paras) < 4:
            break
        p = rng.choice(paras[1:-1])
        if kind in ("reword", "add_words"):
            worded = [q for q in paras[1:-1] if _texts(q)]
            if not worded:
                continue
            p = rng.choice(worded)
        if kind == "reword" and (ts := _texts(p)):
            t = rng.choice(ts)
            words = t.text.split(" ")
            k = rng.randrange(len(words))
            words[k] = rng.choice(_NEW_WORDS)
            t.text = " ".join(words)
            done.append(f"reword: {t.text[:60]}")
        elif kind == "add_words" and (ts := _texts(p)):
            t = ts[-1]
            t.text = t.text.rstrip() + " " + rng.choice(_NEW_WORDS)
            done.append(f"add_words: {t.text[-60:]}")
        elif kind == "delete":
            body.remove(p)
            done.append(f"delete: {''.join(p.itertext())[:60]}")
        elif kind == "insert":
            new = copy.deepcopy(p)
            for t in new.iter(_T):
                t.text = ""
            first = next(new.iter(_T), None)
            if first is None:
                continue
            first.text = "The Parties shall meet quarterly to review performance under this Agreement."
            p.addnext(new)
            done.append("insert: quarterly meeting")
        elif kind == "move":
            target = rng.choice([q for q in paras if q is not p])
            body.remove(p)
            target.addnext(p)
            done.append(f"move: {''.join(p.itertext())[:60]}")
        elif kind == "cell":
            cells = [t for tc in body.iter(_TC) for t in tc.iter(_T) if t.text and t.text.strip()]
            if cells:
                t = rng.choice(cells)
                t.text = t.text + " (as amended)"
                done.append(f"cell: {t.text[:60]}")
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for item in zin.infolist():
            blob = etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True) \
                if item.filename == "word/document.xml" else zin.read(item.filename)
            zout.writestr(item, blob)
    return out.getvalue(), done
