"""``redline hygiene-eval`` (issue #27): each injector makes exactly the change it claims, read back by pandoc (not
by our reader), and leaves a file the Open XML validator holds to its input (``tests/support/written.py`` judges
every package this test saves); the grader credits a finding only where the rules say; the command prints its
table on the CUAD slice and refuses a folder that is not one. Recall floors wait for the check modules."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from redline.analysis.suggestions import Kind, Suggestion
from redline.evaluation.hygiene_draft import Injection
from redline.evaluation.hygiene_eval import evaluate, names, recalled
from redline.evaluation.hygiene_inject import BLANKS, INJECTORS, NOTES, inject
from redline.evaluation.hygiene_places import number_pairs, words_value
from redline.ooxml.paragraphs import read_document
from tests.support.docx_builder import build_docx, para
from tests.support.oracles import opens, pandoc_text

ROOT = Path(__file__).resolve().parents[2]
SLICE = ROOT / "tests" / "support" / "cuad_slice"

PAY = "The Customer shall pay the fees set out in the order form within the agreed period."
NOTICE = "Either party may terminate this agreement on thirty (30) days written notice to the other."
DELIVER = "The Supplier shall deliver the goods to the address of the Customer."
COST = "The Supplier (at its own cost) shall deliver the goods to the Customer promptly and safely."
SITE = "Supplier shall deliver all goods to each Customer site promptly once payment clears."
PARTIES = 'This Agreement is made between Acme Corp. and Beta LLC (the "Customer") on the date of signature.'
USES = "The Customer shall pay all fees when due under this Agreement."
SECTIONS = ["1. Definitions. Terms used here have the meanings given in the order form.",
            "2. Payment. The customer pays every month in arrears.",
            "3. Term. Subject to Section 2, this agreement lasts for a year from signature."]
NUMBERED = ["1. Scope. The supplier provides the services.", "2. Fees. The customer pays the fees.",
            "3. Term. The agreement lasts a year.", "4. Notices. Notices are given in writing."]
CONVENIENCE = "Either party may terminate this Agreement for convenience on 90 days' written notice."
EXHIBIT = [para("1. Services. The Supplier shall provide the services described in Exhibit A."),
           para("2. Fees. The customer pays the fees."), para("EXHIBIT A", "Heading1"), para("SERVICES"),
           para("The Supplier shall provide hosting and support services for the platform.")]


def _injected(tmp_path: Path, body: list[str], kind: str, seed: int = 1) -> tuple[list[str], list[str], Injection]:
    """pandoc's lines before and after planting one ``kind``, and the injection."""
    original = build_docx("".join(body))
    out, injections, missed = inject(original, random.Random(seed), kinds=(kind,))
    assert missed == [] and [i.kind for i in injections] == [kind]
    (tmp_path / "before.docx").write_bytes(original)
    (tmp_path / "after.docx").write_bytes(out)
    assert read_document(out).paragraphs  # our reader still opens it too
    return pandoc_text(tmp_path / "before.docx"), pandoc_text(tmp_path / "after.docx"), injections[0]


@pytest.mark.parametrize(("kind", "text", "expected"), [
    ("blank", PAY, {PAY[:-1] + f + "." for f in BLANKS}),
    ("drafting_note", PAY, {f"{PAY} {n}" for n in NOTES}),
    ("words_digits", NOTICE, {NOTICE.replace("thirty (30)", "thirty (60)")}),
    ("unpaired", COST, {COST.replace("cost)", "cost")}),
    ("repeated_word", SITE, {SITE.replace("to each", "to to each")}),
])
def test_an_injector_edits_one_sentence_exactly(tmp_path, kind, text, expected):
    before, after, injection = _injected(tmp_path, [para(text)], kind)
    assert before == [text] and len(after) == 1 and after[0] in expected
    assert injection.paragraphs == (0,) and injection.span is not None
    planted = after[0][slice(*injection.span)]
    if kind == "unpaired":  # the span runs on to the next ")" (here none: the paragraph's end)
        assert planted.startswith(injection.change) and planted.endswith("safely.")
    else:
        assert planted == injection.change


def test_words_digits_writes_a_pair_into_a_contract_without_one(tmp_path):
    _, after, injection = _injected(tmp_path, [para(DELIVER)], "words_digits")
    m = re.fullmatch(re.escape(DELIVER[:-1]) + r", and in any event within ([a-z]+) \((\d+)\) days\.", after[0])
    assert m and int(m.group(2)) == 2 * words_value([m.group(1)]) and injection.path == "inserted"
    assert after[0][slice(*injection.span)] == f"{m.group(1)} ({m.group(2)})"


def test_missing_reference_points_a_resolved_reference_past_the_last_section(tmp_path):
    before, after, injection = _injected(tmp_path, [para(t) for t in SECTIONS], "missing_reference")
    assert after == [*before[:2], SECTIONS[2].replace("Section 2", "Section 4")]
    assert injection.paragraphs == (2,) and after[2][slice(*injection.span)] == "Section 4"


@pytest.mark.parametrize("last", [
    "3. Term. Subject to Section 2, 5 or 6, this agreement lasts for a year.",  # 5 and 6: another instrument's
    "3. Term. Subject to Section 2, this agreement lasts for a year. 4.1 Renewal. It renews.",  # 4.1 writes 4
])
def test_missing_reference_leaves_what_a_lawyer_could_not_call_broken(tmp_path, last):
    original = build_docx("".join(para(t) for t in [*SECTIONS[:2], last]))
    _, injections, missed = inject(original, random.Random(1), kinds=("missing_reference",))
    assert injections == [] or "Section 4" not in injections[0].change
    assert injections or missed == ["missing_reference"]


def test_undefined_term_removes_the_defining_parenthetical(tmp_path):
    _, after, injection = _injected(tmp_path, [para(PARTIES), para(USES)], "undefined_term")
    assert after == [PARTIES.replace(' (the "Customer")', ""), USES]
    assert injection.name == "Customer" and injection.paragraphs == ()


def test_undefined_term_removes_a_means_paragraph_that_holds_nothing_else(tmp_path):
    body = [para('"Fees" means the amounts set out in the order form.'), para("The Customer shall pay the Fees.")]
    _, after, injection = _injected(tmp_path, body, "undefined_term")
    assert after == ["The Customer shall pay the Fees."] and injection.name == "Fees"


@pytest.mark.parametrize(("definition", "use", "control"), [
    # once undefined, "freight" in lower case is an ordinary word; "Freight" would still read as a term
    ('"Freight" means the goods carried by the Carrier.', "The shipper shall pay for all freight when due.",
     "The shipper shall pay for all Freight when due."),
    # every reader knows a regulator's acronym; a party's is another matter
    ('The records may be inspected by the Financial Industry Regulatory Authority ("FINRA") at any time.',
     "The Broker shall file its reports with FINRA when due.", None),
    ('The records may be inspected by the auditor named in the order form (the "ARA") at any time.',
     "The Broker shall file its reports with the ARA when due.", "planted"),
])
def test_undefined_term_plants_only_a_defect_a_reader_would_see(definition, use, control):
    def planted(text: str) -> bool:
        _, injections, _ = inject(build_docx(para(definition) + para(text)), random.Random(1), kinds=("undefined_term",))
        return bool(injections)

    if control == "planted":
        assert planted(use)
    else:
        assert not planted(use) and (control is None or planted(control))


def test_numbering_gap_deletes_a_middle_clause(tmp_path):
    before, after, injection = _injected(tmp_path, [para(t) for t in NUMBERED], "numbering_gap")
    gone = next(i for i in (1, 2) if before[i] not in after)
    assert after == before[:gone] + before[gone + 1:]
    assert [after[i][:2] for i in injection.paragraphs] == [f"{gone + 2}.", f"{gone}."]  # after the gap, before it


def test_empty_attachment_keeps_the_heading_of_a_cited_exhibit(tmp_path):
    before, after, injection = _injected(tmp_path, EXHIBIT, "empty_attachment")
    assert after == before[:3] and injection.paragraphs == (2,) and injection.name == "EXHIBIT A"


def test_empty_attachment_leaves_one_that_holds_only_a_running_footer(tmp_path):
    footer = [*EXHIBIT[:3], para("SERVICES"), para("MASTER SERVICES AGREEMENT Page 18 of 18")]
    _, injections, missed = inject(build_docx("".join(footer)), random.Random(1), kinds=("empty_attachment",))
    assert injections == [] and missed == ["empty_attachment"]


def test_one_copy_holds_every_kind_apart_and_the_same_seed_plants_the_same(tmp_path, written_files):
    body = [para("SERVICES AGREEMENT", "Heading1"), para(PARTIES), para(CONVENIENCE), *[para(t) for t in NUMBERED],
            para(SECTIONS[2]), para(NOTICE), para(COST), para(SITE), para(PAY), para(DELIVER), para(USES), *EXHIBIT]
    original = build_docx("".join(body))
    out, injections, missed = inject(original, random.Random(3))
    assert sorted(i.kind for i in injections) == sorted(INJECTORS) and missed == []
    edited = [i.paragraphs[0] for i in injections if i.span is not None]
    assert len(edited) == len(set(edited)) == 6
    assert inject(original, random.Random(3))[0] == out
    assert any(written == out for _, written in written_files.pairs)  # held to the validator after the test
    (tmp_path / "all.docx").write_bytes(out)
    assert len(pandoc_text(tmp_path / "all.docx")) == len(body) - 1 - 2  # a clause and the exhibit's body gone


@pytest.mark.slow
def test_a_file_with_every_kind_opens_in_libreoffice(tmp_path):
    body = [para(PARTIES), *[para(t) for t in NUMBERED], para(NOTICE), para(COST), para(PAY), para(USES), *EXHIBIT]
    out, _, _ = inject(build_docx("".join(body)), random.Random(5))
    (tmp_path / "all.docx").write_bytes(out)
    assert opens(tmp_path / "all.docx")


def test_number_words_are_read_by_the_harness_itself():
    assert words_value(["one", "hundred", "twenty"]) == 120 and words_value(["forty", "five"]) == 45
    assert words_value(["within", "thirty"]) is None
    text = 'within ninety ("90") days, one hundred twenty (120) days, thirty (60) days, forty-five (45) days'
    assert [text[a:z] for a, _, _, z in number_pairs(text)] == ['ninety ("90")', "one hundred twenty (120)",
                                                                "forty-five (45)"]


def _suggestion(anchor: str, kind: str, quote: str, occurrence: int = 1) -> Suggestion:
    return Suggestion(id=f"{anchor}{kind}{quote}", anchor=anchor, kind=Kind.COMMENT, rule_key=f"hygiene.{kind}",
                      rule_title="", category="drafting_x", severity="minor", quote=quote, comment="",
                      occurrence=occurrence, source="hygiene")


def test_the_grader_credits_only_the_place_the_rules_name():
    text = "Fees are due on the date, dated as of ____________, 20__, and the date is final."
    paragraphs = read_document(build_docx(para(text) + para("The other paragraph."))).paragraphs
    here, there = paragraphs[0].anchor, paragraphs[1].anchor
    start = text.index("dated")
    blank = Injection("blank", (0,), (start, start + len("dated as of ____________, 20__")), None, "")
    assert recalled(blank, [_suggestion(here, "blank", "____________")], paragraphs)
    assert not recalled(blank, [_suggestion(here, "blank", "the date", occurrence=1)], paragraphs)  # before it
    assert not recalled(blank, [_suggestion(here, "blank", "the date", occurrence=3)], paragraphs)  # after it
    assert not recalled(blank, [_suggestion(there, "blank", "other")], paragraphs)
    assert not recalled(blank, [_suggestion(here, "drafting_note", "____________")], paragraphs)
    gap = Injection("numbering_gap", (1, 0), None, None, "")
    assert recalled(gap, [_suggestion(here, "numbering_gap", "Fees")], paragraphs)
    term = Injection("undefined_term", (), None, "Customer", "")
    assert recalled(term, [_suggestion(there, "undefined_term", "Customers")], paragraphs)
    assert not recalled(term, [_suggestion(there, "undefined_term", "Customer Data")], paragraphs)
    assert names("as set out in Exhibit B", "EXHIBIT B") and not names("Exhibit BB", "Exhibit B")


def test_evaluate_on_one_slice_contract_counts_plants_and_untouched_findings():
    figures = evaluate(SLICE, ids=["c0001"], seed=2)
    out = figures.to_dict()
    assert out["contracts"] == 1 and out["all"]["injected"] == sum(figures.injected.values()) >= 8
    assert set(out["recall"]) == set(INJECTORS) and out["timing"]["median_ms_per_contract"] is not None
    assert len(out["misses"]) == out["all"]["injected"] - out["all"]["recalled"]
    sample = figures.sample(3)
    assert len(sample) == min(3, len(figures.findings)) and all(s["rating"] == "" for s in sample)
    texts = [p.text for p in read_document((SLICE / "dev-docx" / "c0001.docx").read_bytes(), anchor=True).paragraphs]
    for found in figures.findings:  # each finding names its place: the paragraph, and where its quote starts in it
        text = texts[found["paragraph_index"]]
        assert text[found["offset"]:found["offset"] + len(found["quote"])] == found["quote"]


def test_hygiene_eval_on_the_command_line(tmp_path):
    out = tmp_path / "sample.json"
    done = subprocess.run([sys.executable, "-m", "redline", "hygiene-eval", "--data", str(SLICE), "--contracts", "1",
                           "--sample", "2", "--sample-out", str(out)], capture_output=True, text=True, timeout=300,
                          cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "recall" in done.stdout and "numbering_gap" in done.stdout and "per 100 pages" in done.stdout
    assert isinstance(json.loads(out.read_text()), list)
    bad = subprocess.run([sys.executable, "-m", "redline", "hygiene-eval", "--data", str(tmp_path)],
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert bad.returncode == 2 and bad.stderr.strip().startswith("error: bad_data")
    assert len(bad.stderr.strip().splitlines()) == 1


def test_hygiene_terms_counts_the_terms_training_contracts_define(tmp_path):
    """Each term's count is the number of training contracts that define it in quotes, read here with a plain
    search of the texts, not the graph."""
    import gzip

    from redline.evaluation.common_terms import common_terms

    out = tmp_path / "terms.json"
    done = subprocess.run([sys.executable, "-m", "redline", "hygiene-terms", "--data", str(SLICE), "--min", "1",
                           "--out", str(out)], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    found = json.loads(out.read_text())
    assert found == common_terms(SLICE, 1) and found["terms"] and found["contracts"] == 12
    split = json.loads((SLICE / "splits.json").read_text())
    with gzip.open(SLICE / "contracts.jsonl.gz", "rt") as fh:
        rows = [json.loads(line) for line in fh]
    train = [r["text"] for r in rows if r["id"] in set(split["train"])]
    for term, n in found["terms"].items():
        quoted = re.compile(r"[\"“]" + r"\s+".join(map(re.escape, term.split())) + r"s?[\"”]", re.IGNORECASE)
        assert " " in term and sum(bool(quoted.search(t)) for t in train) == n, term
    bad = subprocess.run([sys.executable, "-m", "redline", "hygiene-terms", "--data", str(tmp_path)],
                         capture_output=True, text=True, cwd=ROOT)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "not the CUAD folder" in bad.stderr


def test_two_values_restates_a_right_elsewhere_with_another_period(tmp_path):
    cure = ("5. Termination. Either party may terminate this Agreement if the other party breaches it and fails to cure "
            "the breach within thirty (30) days after written notice.")
    others = [f"{n}. Records. The Supplier shall keep records of the services it provides and the fees it charges."
              for n in range(6, 11)]
    before, after, injection = _injected(tmp_path, [para(t) for t in [cure, *others]], "two_values")
    changed = [k for k in range(len(before)) if before[k] != after[k]]
    assert after[0] == cure and len(changed) == 1 and changed[0] > 3
    added = after[changed[0]][len(before[changed[0]]) + 1:]
    m = re.fullmatch(r"If a party breaches this Agreement and does not cure the breach within ([a-z -]+) \((\d+)\) days "
                     r"after written notice, the other party may terminate this Agreement\.", added)
    assert m and int(m.group(2)) != 30 and words_value(m.group(1).replace("-", " ").split()) == int(m.group(2))
    assert injection.paragraphs == (changed[0], 0) and injection.span is None
