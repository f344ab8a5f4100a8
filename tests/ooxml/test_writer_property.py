"""Property: for any paragraph and any rewrite, accepting our diff gives the new text
and rejecting it gives the old — in runs with random formatting split mid-word,
beside hyperlinks and fields, and on top of another author's pending changes.

Judged twice: by our own reading (hundreds of examples, fast), and on samples by
an outside reader, pandoc, which has never seen our code."""

from __future__ import annotations

import copy
from collections import Counter
from xml.sax.saxutils import escape

from hypothesis import Phase, assume, given, settings
from hypothesis import strategies as st
from lxml import etree

from redline.ooxml.diff import diff_text, tokenize
from redline.ooxml.oxml import XML_SPACE, parse_xml, qn
from redline.ooxml.revisions import REVISION_ID_TAGS, RevisionIds, Tracker, accept, reject
from redline.ooxml.runs import ParagraphEditor
from redline.ooxml.text import paragraph_text
from tests.support.docx_builder import NS_DECL, build_docx
from tests.support.oracles import oracle, pandoc_text

WORDS = ["The", "Supplier", "shall", "pay", "30", "days", "fee", "Section", "4.2", "(a)", ",", ".", "not", "any",
         "Customer's", "notice", "in", "writing", "USD 1,000", "—", "“quoted”"]
FORMATS = ["", "<w:b/>", "<w:i/>", '<w:u w:val="single"/>', "<w:b/><w:i/>", '<w:color w:val="FF0000"/>']
OTHER = 'w:author="Other" w:date="2024-01-01T00:00:00Z"'

texts = st.lists(st.tuples(st.sampled_from(WORDS), st.sampled_from([" ", " ", "  ", "\t", ""])), min_size=1,
                 max_size=14).map(lambda xs: "".join(w + s for w, s in xs))


@st.composite
def paragraphs(draw):
    """A ``w:p`` whose text is cut into runs at random places, each run with random
    formatting, some inside a hyperlink, a field, or another author's insertion or deletion."""
    text = draw(texts)
    cuts = sorted(set(draw(st.lists(st.integers(1, max(1, len(text) - 1)), max_size=6))))
    pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True) if text[a:b]]
    xml = []
    for piece in pieces:
        rpr = draw(st.sampled_from(FORMATS))
        run = f'<w:r>{f"<w:rPr>{rpr}</w:rPr>" if rpr else ""}<w:t xml:space="preserve">{escape(piece)}</w:t></w:r>'
        wrap = draw(st.sampled_from(["plain"] * 6 + ["link", "ins", "del", "field"]))
        if wrap == "link":
            run = f'<w:hyperlink w:anchor="x">{run}</w:hyperlink>'
        elif wrap == "ins":
            run = f'<w:ins w:id="{900 + len(xml)}" {OTHER}>{run}</w:ins>'
        elif wrap == "del":
            run = run.replace("w:t ", "w:delText ").replace("</w:t>", "</w:delText>")
            run = f'<w:del w:id="{900 + len(xml)}" {OTHER}>{run}</w:del>'
        elif wrap == "field":
            run = ('<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> REF _R \\h '
                   '</w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>'
                   f'{run}<w:r><w:fldChar w:fldCharType="end"/></w:r>')
        xml.append(run)
    return parse_xml(f"<w:p {NS_DECL}>{''.join(xml)}</w:p>".encode())


@st.composite
def rewrites(draw, old: str):
    """A new text: a few token edits of ``old``, or sometimes something else entirely."""
    if draw(st.integers(0, 9)) == 0:
        return draw(texts)
    tokens = tokenize(old)
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["replace", "insert", "delete"]))
        at = draw(st.integers(0, len(tokens)))
        if kind == "insert" or not tokens or at == len(tokens):
            tokens.insert(at, draw(st.sampled_from([" new", "words ", "X", ", ", "(b)"])))
        elif kind == "replace":
            tokens[at] = draw(st.sampled_from(WORDS))
        else:
            del tokens[at]
    return "".join(tokens)


@st.composite
def edited(draw):
    """A random paragraph rewritten by our writer: (paragraph, new text, old text, the text with every
    change rejected, the tracker, the revisions made)."""
    p = draw(paragraphs())
    old, old_original = paragraph_text(p, "accept"), paragraph_text(p, "reject")
    new = draw(rewrites(old))
    hunks = diff_text(old, new)
    tracker = Tracker("Redline AI", "2025-01-01T00:00:00Z", RevisionIds([p]))
    made = ParagraphEditor(p, tracker).replace(hunks) if hunks else []
    return p, new, old, old_original, tracker, made


@settings(max_examples=4, deadline=None, derandomize=True,
          phases=[Phase.explicit, Phase.generate])  # no shrinking: each step would cost two pandoc runs
@given(st.lists(edited(), min_size=25, max_size=25))
def test_pandoc_reads_samples_of_our_rewrites_as_the_new_text_and_rejected_as_the_old(tmp_path_factory, sample):
    """Files of 25 rewritten paragraphs (fixed samples), read by pandoc with every change accepted and with
    every change rejected. Our own reading is not consulted."""
    assume(sum(new != original for _, new, _, original, _, _ in sample) >= 15)  # samples that change things
    body = "".join(etree.tostring(p, encoding="unicode") for p, *_ in sample)
    path = tmp_path_factory.mktemp("pandoc") / "sample.docx"
    path.write_bytes(build_docx(body))
    assert pandoc_text(path, "accept") == oracle.normalise([new for _, new, _, _, _, _ in sample])
    assert pandoc_text(path, "reject") == oracle.normalise([original for _, _, _, original, _, _ in sample])


@settings(max_examples=400, deadline=None)
@given(edited())
def test_accepting_our_diff_gives_the_new_text_and_rejecting_it_the_old(example):
    p, new, old, old_original, tracker, made = example
    assert paragraph_text(p, "accept") == new
    assert paragraph_text(p, "reject") == old_original
    taken = copy.deepcopy(p)
    accept(taken, ids=tracker.made)
    assert paragraph_text(taken, "accept") == new
    undone = copy.deepcopy(p)
    reject(undone, ids=tracker.made)
    assert paragraph_text(undone, "accept") == old and paragraph_text(undone, "reject") == old_original
    assert not any(el.get(qn("w:id")) in tracker.made for el in (*taken.iter(*REVISION_ID_TAGS),
                                                              *undone.iter(*REVISION_ID_TAGS)))
    assert {el.get(qn("w:id")) for el in made} <= tracker.made
    _well_formed(p)


def _well_formed(p) -> None:
    ids = Counter(el.get(qn("w:id")) for el in p.iter(*REVISION_ID_TAGS))
    assert max(ids.values(), default=1) == 1
    for ins in p.iter(qn("w:ins")):
        assert ins.getparent().tag != qn("w:ins")
    for t in p.iter(qn("w:t"), qn("w:delText")):
        in_del = any(a.tag == qn("w:del") for a in t.iterancestors())
        assert in_del == (t.tag == qn("w:delText"))
        if (t.text or "") != (t.text or "").strip():
            assert t.get(XML_SPACE) == "preserve"
    for d in p.iter(qn("w:del")):
        assert not any(a.tag == qn("w:del") for a in d.iterancestors())
