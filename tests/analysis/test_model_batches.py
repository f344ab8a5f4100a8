"""The model path reads the contract, not the rules (issue #29): each paragraph once, every rule it is routed
to beside it, findings tagged with their rule; against the real ``openai`` SDK over HTTP to a loopback server
that answers as a model would, good findings and bad."""

from __future__ import annotations

import dataclasses
import re
from collections import Counter

import pytest

from redline.analysis.cache import MemoryCache
from redline.analysis.clauses import clauses_from_paragraphs
from redline.analysis.pipeline import ReviewError, review
from redline.analysis.playbook.model import Playbook
from redline.analysis.providers.openai import OpenAIProvider
from redline.analysis.suggestions import Kind
from redline.ooxml.markdown import to_markdown
from redline.ooxml.paragraphs import read_document
from redline.retrieval.graph import ContractGraph
from tests.support.chat_server import ChatServer, Reply, completion, error, findings

from .conftest import anchor_of

PAY = "1.1 The Customer shall pay"


@pytest.fixture
def server():
    with ChatServer() as srv:
        yield srv


def provider(srv: ChatServer, **kw) -> OpenAIProvider:
    return OpenAIProvider(**{"model": "gpt-test", "api_key": "sk-test", "base_url": srv.url, "timeout": 5.0,
                             "max_retries": 1, "backoff": 0.01, **kw})


def blocks(body: dict) -> list[tuple[int, list[str], str]]:
    """The paragraphs a request asks about, as a model reads them: (number, rules named, text)."""
    user = body["messages"][1]["content"]
    section = user.split("## Paragraphs to review", 1)[1].split("\n## Missing clauses", 1)[0]
    out = []
    for m in re.finditer(r"^\[(\d+)\](?: \(([^)\n]*)\))?\n(.*)$", section, re.M):
        marks = m.group(2) or ""
        named = re.search(r"rules: ([R\d, ]+)", marks)
        out.append((int(m.group(1)), named.group(1).strip().split(", ") if named else [], m.group(3)))
    return out


def rule_refs(body: dict) -> dict[str, str]:
    """Rule title → the local name (R1, R2 …) the request gives it."""
    return {title: ref for ref, title in re.findall(r"^### (R\d+): (.+?) \(", body["messages"][1]["content"], re.M)}


def on(body: dict, starts: str) -> tuple[int, list[str]]:
    return next((n, named) for n, named, text in blocks(body) if text.startswith(starts))


def test_each_paragraph_is_read_once_with_every_rule_it_is_routed_to(server, generated_docx, playbook):
    read = read_document(generated_docx)
    clauses = clauses_from_paragraphs(read.paragraphs)
    result = review(clauses, playbook, provider(server), graph=ContractGraph.from_paragraphs(read.paragraphs))
    asked = [(n, named, text) for r in server.requests for n, named, text in blocks(r.body) if named]
    sent, written = Counter(text for _, _, text in asked), Counter(c.text for c in clauses)
    assert len(asked) > 100 and all(n <= written[text] for text, n in sent.items())  # none sent twice
    assert any(len(named) >= 3 for _, named, _ in asked)  # … and one that several rules read is sent once
    for r in server.requests:  # each rule a request needs is listed once in it
        listed = re.findall(r"^### (R\d+): ", r.body["messages"][1]["content"], re.M)
        assert len(listed) == len(set(listed)) and {x for _, named, _ in blocks(r.body) for x in named} <= set(listed)
    prompt = sum(len(r.text) for r in server.requests)
    assert prompt <= 3 * len(to_markdown(read.paragraphs))
    assert result.stats.gate["model"] == {"withheld": {}, "as_comment": {}}  # the model said nothing
    assert len(server.requests) == result.stats.requests < len(playbook.enabled_rules) / 4


def test_findings_are_filed_under_their_rule_and_a_rule_off_its_paragraphs_is_dropped(server, msa, playbook):
    def answer(body: dict) -> Reply:
        n, named = on(body, PAY)
        refs = rule_refs(body)
        other = next(ref for ref in refs.values() if ref not in named)  # a rule this paragraph is not read for
        return completion(findings(
            {"rule": refs["Payment terms"], "paragraph": n, "kind": "replace", "quote": "ninety (90) days",
             "new_text": "sixty (60) days", "comment": "Ninety days exceeds the 60-day maximum."},
            {"rule": other, "paragraph": n, "kind": "comment", "quote": "ninety (90) days",
             "comment": "Not this rule's paragraph."},
        ))
    server.responder = answer
    result = review(msa, playbook, provider(server), acting_for="Supplier")
    assert result.stats.off_target_drops == 1 and result.stats.raw_findings == 2
    (s,) = [s for s in result.suggestions if s.anchor == anchor_of(msa, "1.1 ")]
    assert (s.rule_key, s.kind, s.new_text) == ("payment-terms", Kind.REPLACE, "sixty (60) days")


def test_an_unchanged_rerun_makes_no_calls_and_an_edit_re_asks_only_its_paragraph(server, msa, playbook):
    cache = MemoryCache()
    first = review(msa, playbook, provider(server), cache=cache)
    calls = len(server.requests)
    assert calls == first.stats.usage.calls >= 1
    again = review(msa, playbook, provider(server), cache=cache)
    assert len(server.requests) == calls and again.stats.usage.calls == 0 and again.stats.cache_misses == 0
    k = next(i for i, c in enumerate(msa) if c.text.startswith(PAY))
    msa[k] = dataclasses.replace(msa[k], text=msa[k].text.replace("ninety (90)", "sixty (60)"))
    review(msa, playbook, provider(server), cache=cache)
    (edited,) = server.requests[calls:]
    assert [text for _, named, text in blocks(edited.body) if named] == [msa[k].text]


def test_progress_is_reported_as_each_request_is_answered(server, msa, playbook):
    events: list[dict] = []
    result = review(msa, playbook, provider(server, max_batch_chars=1),
                    progress=lambda kind, data: events.append(data) if kind == "progress" else None)
    answered = [e["requests_done"] for e in events if e["stage"] == "analyze" and e.get("requests_done")]
    assert result.stats.requests > 3 and sorted(set(answered)) == list(range(1, result.stats.requests + 1))


def test_a_rule_the_request_never_named_is_dropped_and_counted_and_the_rest_of_the_answer_kept(server, msa, playbook):
    def answer(body: dict) -> Reply:
        n, _ = on(body, PAY)
        return completion(findings({"rule": "R99", "paragraph": 1, "kind": "comment", "quote": "MASTER",
                                    "comment": "From nowhere."},
                                   {"rule": rule_refs(body)["Payment terms"], "paragraph": n, "kind": "replace",
                                    "quote": "ninety (90) days", "new_text": "sixty (60) days", "comment": "Long."}))
    server.responder = answer
    result = review(msa, playbook, provider(server), acting_for="Supplier")
    assert (result.stats.raw_findings, result.stats.invalid_drops) == (2, 1)
    assert [s.rule_key for s in result.suggestions if s.anchor == anchor_of(msa, "1.1 ")] == ["payment-terms"]


def test_placeholders_and_the_playbooks_vocabulary_are_not_written_into_the_contract(server, msa, playbook):
    def answer(body: dict) -> Reply:
        refs = rule_refs(body)
        if "Limitation of liability" not in refs:
            return completion(findings())
        n, _ = on(body, "2.1 The Supplier's total aggregate liability")
        return completion(findings(
            {"rule": refs["Limitation of liability"], "paragraph": n, "kind": "replace",
             "quote": "fifty percent (50%) of the fees", "new_text": "[●] percent of the Charges",
             "comment": "The cap is too low."}))
    server.responder = answer
    result = review(msa, Playbook("cap", (playbook.rule("limitation-of-liability"),)), provider(server),
                    acting_for="Customer")
    (s,) = [s for s in result.suggestions if s.anchor == anchor_of(msa, "2.1 ")]
    assert s.kind is Kind.COMMENT and s.new_text == ""  # kept as advice, never as "[●]" or "Charges" in the text
    assert sum(result.stats.gate["as_comment"].values()) >= 1


def test_a_number_that_already_meets_the_rule_and_a_finding_off_its_clause_never_reach_the_lawyer(server, msa,
                                                                                                    playbook):
    cure, routed = "6.1 Either Party may terminate", []

    def answer(body: dict) -> Reply:
        refs, asked = rule_refs(body), []
        if "Termination for cause" in refs and any(t.startswith(cure) for _, _, t in blocks(body)):
            n, named = on(body, cure)  # thirty days to cure already meets "at least 30 days"
            routed.append(refs.get("Payment terms") in named)
            asked.append({"rule": refs["Termination for cause"], "paragraph": n, "kind": "replace",
                          "quote": "thirty (30) days", "new_text": "sixty (60) days", "comment": "Too short."})
            if "Payment terms" in refs:  # … and a cure period is no payment term
                asked.append({"rule": refs["Payment terms"], "paragraph": n, "kind": "replace",
                              "quote": "thirty (30) days", "new_text": "sixty (60) days", "comment": "Pay later."})
        return completion(findings(*asked))

    server.responder = answer
    result = review(msa, Playbook("p", (playbook.rule("termination-for-cause"), playbook.rule("payment-terms"))),
                    provider(server), acting_for="Customer")
    assert not [s for s in result.suggestions if s.anchor == anchor_of(msa, "6.1 ")]
    withheld = result.stats.gate["withheld"]
    assert withheld.get("already_meets") == 1
    # payment terms is not asked about the cure period: the batch drops it; were it asked, the gate would
    assert result.stats.raw_findings == 2 and routed in ([False], [True])
    assert (result.stats.off_target_drops, withheld.get("off_target", 0)) == ((0, 1) if routed[0] else (1, 0))


def test_a_second_clause_beside_the_contracts_own_is_advice_not_an_insertion(server, msa, playbook):
    cap = ("Each Party's total aggregate liability under this Agreement shall not exceed one hundred percent (100%) "
           "of the fees paid in the twelve (12) months preceding the claim.")
    proviso = "Nothing in this Agreement limits either Party's liability for fraud or for death or personal injury."

    def answer(body: dict) -> Reply:
        refs = rule_refs(body)
        n, _ = on(body, "2.1 The Supplier's total aggregate liability")
        return completion(findings(*({"rule": refs["Limitation of liability"], "paragraph": n, "kind": "insert",
                                      "quote": "", "new_text": text, "comment": "Add."} for text in (cap, proviso))))
    server.responder = answer
    result = review(msa, Playbook("cap", (playbook.rule("limitation-of-liability"),)), provider(server),
                    acting_for="Customer")
    mine = {s.kind: s for s in result.suggestions if s.anchor == anchor_of(msa, "2.1 ")}
    assert mine[Kind.INSERT].new_text == proviso  # a carve-out completes the clause
    assert mine[Kind.COMMENT].new_text == "" and "already has a limitation of liability clause" in \
        mine[Kind.COMMENT].comment and cap in mine[Kind.COMMENT].comment  # a second cap would contradict it
    assert result.stats.gate["as_comment"].get("second_clause") == 1


def test_an_answer_cut_off_at_the_token_limit_is_asked_again_in_two_halves(server, msa, playbook):
    def answer(body: dict) -> Reply:
        if not any(text.startswith(PAY) for _, _, text in blocks(body)):
            return completion(findings())
        n, _ = on(body, PAY)
        return completion(findings({"rule": rule_refs(body)["Payment terms"], "paragraph": n, "kind": "replace",
                                    "quote": "ninety (90) days", "new_text": "sixty (60) days", "comment": "Long."}))
    server.script(completion(findings(), finish_reason="length", prompt_tokens=5000))
    server.responder = answer
    result = review(msa, playbook, provider(server), acting_for="Supplier")
    whole, *halves = server.requests
    asked = lambda r: {text for _, named, text in blocks(r.body) if named}  # noqa: E731
    assert len(halves) == 2 and asked(halves[0]) | asked(halves[1]) == asked(whole)
    assert not asked(halves[0]) & asked(halves[1])
    assert result.stats.requests == 2 and result.stats.usage.calls == 3
    assert result.stats.usage.prompt_tokens == 5000 + 2 * 120  # the cut-off answer was paid for too
    assert [s.new_text for s in result.suggestions if s.anchor == anchor_of(msa, "1.1 ")] == ["sixty (60) days"]


def test_a_failed_request_ends_the_review_but_what_the_others_answered_is_counted_and_kept(msa, playbook):
    seen = [0]

    def answer(body: dict) -> Reply:
        seen[0] += 1
        return error(400, "context too long") if seen[0] == 3 else completion(findings(), prompt_tokens=1000)

    cache = MemoryCache()
    with ChatServer(answer) as srv:
        with pytest.raises(ReviewError) as err:
            review(msa, playbook, provider(srv, max_batch_chars=1, max_concurrency=2), cache=cache)
        assert err.value.code == "bad_request"
        stats = err.value.partial.stats
        answered = stats.usage.calls - 1
        assert answered >= 1 and stats.usage.prompt_tokens == 1000 * answered  # paid for, so counted
        sent = len(srv.requests)
        again = review(msa, playbook, provider(srv, max_batch_chars=1), cache=cache)
    assert again.stats.requests == len(srv.requests) - sent == stats.requests - answered  # the answered were cached
