"""Add tracked changes of every common kind to a .docx, as a counterparty's redline would.

Used by ``redline bench --revisions`` to make a long contract with about
``--count`` revision elements by three authors: word replacements, insertions
and deletions inside runs, inserted and deleted paragraphs, joined paragraphs
(deleted marks), moves with named ranges, formatting and paragraph property
changes, inserted and deleted table rows, and a few changes in the header and
footer. Deterministic for a given ``--seed``.

    python make_revisions.py contract.docx -o contract-revised.docx --count 2000
"""

from __future__ import annotations

import argparse
import copy
import random
import re
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from lxml import etree

from redline.ooxml.ids import story_roots
from redline.ooxml.oxml import XML_SPACE, qn
from redline.ooxml.package import Package
from redline.ooxml.revisions import REVISION_ID_TAGS, RevisionIds

AUTHORS = ("Counterparty Counsel", "Alice Smith", "Bob Jones")
DATE = "2025-03-01T10:00:00Z"
PHRASES = ("commercially reasonable", "in good faith", "without undue delay", "acting reasonably",
           "subject to Section 12.3", "to the extent permitted by law")
W = {t: qn(f"w:{t}") for t in ("p", "r", "t", "delText", "rPr", "pPr", "tr", "trPr", "tc", "b", "jc", "ins", "del",
                               "moveFrom", "moveTo", "moveFromRangeStart", "moveFromRangeEnd", "moveToRangeStart",
                               "moveToRangeEnd", "rPrChange", "pPrChange", "numPr", "sectPr", "tbl")}


class Reviser:
    """Makes revision elements with fresh ids, rotating authors."""

    def __init__(self, pkg: Package, rng: random.Random) -> None:
        self.ids = RevisionIds(story_roots(pkg))
        self.rng = rng
        self.n = 0

    def element(self, tag: str, author: str | None = None, **attrs: str) -> etree._Element:
        el = etree.Element(W[tag])
        el.set(qn("w:id"), self.ids.next())
        el.set(qn("w:author"), author or AUTHORS[self.n % len(AUTHORS)])
        el.set(qn("w:date"), DATE)
        for k, v in attrs.items():
            el.set(qn(f"w:{k}"), v)
        self.n += 1
        return el


def run_like(run: etree._Element, text: str, deleted: bool = False) -> etree._Element:
    new = etree.Element(W["r"])
    rpr = run.find(W["rPr"])
    if rpr is not None:
        new.append(copy.deepcopy(rpr))
    t = etree.SubElement(new, W["delText"] if deleted else W["t"])
    t.text = text
    t.set(XML_SPACE, "preserve")
    return new


def split_run(run: etree._Element, rng: random.Random) -> tuple[str, str, str] | None:
    """A word-aligned (before, span, after) split of a run's text, or None."""
    text = "".join(t.text or "" for t in run.iter(W["t"]))
    words = [m.span() for m in re.finditer(r"\b[A-Za-z]{4,}\b", text)]
    if len(words) < 3:
        return None
    i = rng.randrange(1, len(words) - 1)
    j = min(len(words) - 1, i + rng.randrange(0, 3))
    start, end = words[i][0], words[j][1]
    return text[:start], text[start:end], text[end:]


def replace_runs(run: etree._Element, pieces: list[etree._Element]) -> None:
    for piece in pieces:
        run.addprevious(piece)
    run.getparent().remove(run)


def text_run(p: etree._Element) -> etree._Element | None:
    return next((r for r in p.iterchildren(W["r"]) if r.find(W["t"]) is not None), None)


def op_replace(rev: Reviser, p: etree._Element, _q: etree._Element) -> bool:
    run = text_run(p)
    parts = split_run(run, rev.rng) if run is not None else None
    if parts is None:
        return False
    before, span, after = parts
    author = rev.rng.choice(AUTHORS)
    deleted = rev.element("del", author)
    deleted.append(run_like(run, span, deleted=True))
    inserted = rev.element("ins", author)
    inserted.append(run_like(run, rev.rng.choice(PHRASES)))
    replace_runs(run, [run_like(run, before), deleted, inserted, run_like(run, after)])
    return True


def op_insert(rev: Reviser, p: etree._Element, _q: etree._Element) -> bool:
    run = text_run(p)
    parts = split_run(run, rev.rng) if run is not None else None
    if parts is None:
        return False
    before, span, after = parts
    inserted = rev.element("ins")
    inserted.append(run_like(run, rev.rng.choice(PHRASES) + " "))
    replace_runs(run, [run_like(run, before), inserted, run_like(run, span + after)])
    return True


def op_delete(rev: Reviser, p: etree._Element, _q: etree._Element) -> bool:
    run = text_run(p)
    parts = split_run(run, rev.rng) if run is not None else None
    if parts is None:
        return False
    before, span, after = parts
    deleted = rev.element("del")
    deleted.append(run_like(run, span, deleted=True))
    replace_runs(run, [run_like(run, before), deleted, run_like(run, after)])
    return True


def mark(p: etree._Element, revision: etree._Element) -> None:
    ppr = p.find(W["pPr"])
    if ppr is None:
        ppr = etree.Element(W["pPr"])
        p.insert(0, ppr)
    rpr = ppr.find(W["rPr"])
    if rpr is None:
        rpr = etree.Element(W["rPr"])
        later = next((c for c in ppr if c.tag in (W["sectPr"], W["pPrChange"])), None)
        if later is not None:
            later.addprevious(rpr)
        else:
            ppr.append(rpr)
    rpr.insert(0, revision)


def wrap_runs(rev: Reviser, p: etree._Element, tag: str, author: str) -> None:
    for run in list(p.iterchildren(W["r"])):
        wrapper = rev.element(tag, author)
        run.addprevious(wrapper)
        wrapper.append(run)
        if tag == "del":
            for t in run.iter(W["t"]):
                t.tag = W["delText"]


def op_insert_paragraph(rev: Reviser, p: etree._Element, _q: etree._Element) -> bool:
    author = rev.rng.choice(AUTHORS)
    new = etree.Element(W["p"])
    ppr = p.find(W["pPr"])
    if ppr is not None:
        kept = copy.deepcopy(ppr)
        for drop in kept.findall(W["numPr"]) + kept.findall(W["sectPr"]) + kept.findall(W["rPr"]):
            kept.remove(drop)
        new.append(kept)
    run = etree.SubElement(new, W["r"])
    t = etree.SubElement(run, W["t"])
    t.text = f"The Parties shall act {rev.rng.choice(PHRASES)} in performing this Section."
    wrap_runs(rev, new, "ins", author)
    mark(new, rev.element("ins", author))
    p.addnext(new)
    return True


def op_delete_paragraph(rev: Reviser, p: etree._Element, _q: etree._Element) -> bool:
    author = rev.rng.choice(AUTHORS)
    wrap_runs(rev, p, "del", author)
    mark(p, rev.element("del", author))
    return True


def op_join(rev: Reviser, p: etree._Element, _q: etree._Element) -> bool:
    nxt = p.getnext()
    if nxt is None or nxt.tag != W["p"]:
        return False
    mark(p, rev.element("del"))
    return True


def op_format(rev: Reviser, p: etree._Element, _q: etree._Element) -> bool:
    run = text_run(p)
    if run is None:
        return False
    rpr = run.find(W["rPr"])
    if rpr is None:
        rpr = etree.Element(W["rPr"])
        run.insert(0, rpr)
    old = copy.deepcopy(rpr)
    at = 0  # w:b follows w:rStyle and w:rFonts in the schema's order
    while at < len(rpr) and rpr[at].tag in (qn("w:rStyle"), qn("w:rFonts")):
        at += 1
    rpr.insert(at, etree.Element(W["b"]))
    change = rev.element("rPrChange")
    change.append(old)
    rpr.append(change)
    return True


def op_paragraph_properties(rev: Reviser, p: etree._Element, _q: etree._Element) -> bool:
    ppr = p.find(W["pPr"])
    if ppr is None:
        ppr = etree.Element(W["pPr"])
        p.insert(0, ppr)
    if ppr.find(W["sectPr"]) is not None or ppr.find(W["pPrChange"]) is not None:
        return False
    old = etree.Element(W["pPr"])
    for child in ppr:
        if child.tag not in (W["rPr"], W["sectPr"]):
            old.append(copy.deepcopy(child))
    jc = ppr.find(W["jc"])
    if jc is None:
        jc = etree.Element(W["jc"])
        later = next((c for c in ppr if c.tag in (W["rPr"], W["sectPr"])), None)
        if later is not None:
            later.addprevious(jc)
        else:
            ppr.append(jc)
    jc.set(qn("w:val"), "both")
    change = rev.element("pPrChange")
    change.append(old)
    ppr.append(change)
    return True


def op_move(rev: Reviser, p: etree._Element, q: etree._Element) -> bool:
    run, target = text_run(p), text_run(q)
    parts = split_run(run, rev.rng) if run is not None else None
    if parts is None or target is None:
        return False
    before, span, after = parts
    author = rev.rng.choice(AUTHORS)
    name = f"move{rev.n}"
    start_from = rev.element("moveFromRangeStart", author, name=name)
    moved_from = rev.element("moveFrom", author)
    moved_from.append(run_like(run, span))
    end_from = etree.Element(W["moveFromRangeEnd"])
    end_from.set(qn("w:id"), start_from.get(qn("w:id")))
    replace_runs(run, [run_like(run, before), start_from, moved_from, end_from, run_like(run, after)])
    start_to = rev.element("moveToRangeStart", author, name=name)
    moved_to = rev.element("moveTo", author)
    moved_to.append(run_like(target, " " + span))
    end_to = etree.Element(W["moveToRangeEnd"])
    end_to.set(qn("w:id"), start_to.get(qn("w:id")))
    for el in (start_to, moved_to, end_to):
        q.append(el)
    return True


def op_row(rev: Reviser, tr: etree._Element, inserted: bool) -> None:
    author = rev.rng.choice(AUTHORS)
    if inserted:
        new = copy.deepcopy(tr)
        for bookmark in list(new.iter(qn("w:bookmarkStart"), qn("w:bookmarkEnd"))):
            bookmark.getparent().remove(bookmark)  # names are unique per document
        for el in list(new.iter(*REVISION_ID_TAGS)):
            el.set(qn("w:id"), rev.ids.next())
        tr.addnext(new)
        tr = new
    trpr = tr.find(W["trPr"])
    if trpr is None:
        trpr = etree.Element(W["trPr"])
        tr.insert(next((i + 1 for i, c in enumerate(tr) if c.tag in (qn("w:tblPrEx"),)), 0), trpr)
    trpr.append(rev.element("ins" if inserted else "del", author))
    for p in tr.iter(W["p"]):
        wrap_runs(rev, p, "ins" if inserted else "del", author)


OPS: list[tuple[Callable[[Reviser, etree._Element, etree._Element], bool], int]] = [
    (op_replace, 24), (op_insert, 14), (op_delete, 14), (op_insert_paragraph, 8), (op_delete_paragraph, 7),
    (op_join, 4), (op_format, 10), (op_paragraph_properties, 8), (op_move, 5),
]


def count_revisions(pkg: Package) -> int:
    ends = {qn(f"w:{t}") for t in ("moveFromRangeEnd", "moveToRangeEnd")}
    return sum(1 for root in story_roots(pkg) for el in root.iter(*REVISION_ID_TAGS) if el.tag not in ends)


def revise(data: bytes, count: int, seed: int) -> tuple[bytes, int]:
    rng = random.Random(seed)
    pkg = Package.open(data)
    rev = Reviser(pkg, rng)
    body = pkg.xml(pkg.main_part).find(qn("w:body"))
    free = [p for p in body.iter(W["p"]) if text_run(p) is not None and p.find(f".//{W['ins']}") is None
            and len("".join(t.text or "" for t in p.iter(W["t"]))) > 40]
    rng.shuffle(free)
    rows = [tr for tr in body.iter(W["tr"]) if tr.getparent().index(tr) > 2]
    rng.shuffle(rows)
    for roots in story_roots(pkg)[1:]:
        for p in list(roots.iter(W["p"]))[:2]:
            if text_run(p) is not None:
                op_insert(rev, p, p)
    kinds = [op for op, weight in OPS for _ in range(weight)]
    made = 0
    while free and made < count:
        if rows and rng.random() < 0.03:
            op_row(rev, rows.pop(), inserted=rng.random() < 0.5)
        else:
            op = rng.choice(kinds)
            p = free.pop()
            q = free.pop() if op is op_move and free else p
            op(rev, p, q)
        made = rev.n
    return pkg.save(), count_revisions(pkg)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input")
    parser.add_argument("-o", "--output", required=True)
    parser.add_argument("--count", type=int, default=2000, help="about this many revision elements")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    out, total = revise(Path(args.input).read_bytes(), args.count, args.seed)
    Path(args.output).write_bytes(out)
    print(f"{total} revisions written to {args.output}", file=sys.stderr)


if __name__ == "__main__":
    main()
