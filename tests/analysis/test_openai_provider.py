"""The OpenAI provider: the real ``openai`` SDK against a loopback chat-completions server.

Nothing of ours is mocked: requests go through the SDK and HTTP to
tests/support/chat_server.py, which answers like a model would (scripted).
"""

from __future__ import annotations

import re
import threading
import time

import pytest

from redline.analysis.excerpts import GAP
from redline.analysis.pipeline import ReviewError, review
from redline.analysis.playbook.model import Playbook
from redline.analysis.providers.base import BatchRequest, Item, ProviderError
from redline.analysis.providers.openai import OpenAIProvider, OpenAIValidator, findings_schema
from redline.analysis.rejections import Rejection
from redline.analysis.suggestions import Kind
from redline.analysis.validator import DocumentFacts, Status
from tests.support.chat_server import ChatServer, Reply, completion, error, findings

from .conftest import anchor_of
from .test_excerpts import LATE, LONG, PAYMENT
from .test_excerpts import clauses as excerpt_clauses


@pytest.fixture
def server():
    with ChatServer() as srv:
        yield srv


def provider(srv: ChatServer, **kw) -> OpenAIProvider:
    options = dict(model="gpt-test", api_key="sk-test-key", base_url=srv.url, timeout=2.0, max_retries=2,
                   backoff=0.01, input_price_per_mtok=2.0, output_price_per_mtok=8.0)
    return OpenAIProvider(**{**options, **kw})


def number_of(body: dict, starts: str) -> int:
    """The local number the request gave the paragraph starting with ``starts`` (as a model would read it)."""
    text = "\n".join(m["content"] for m in body["messages"])
    return int(re.search(r"\[(\d+)\][^\n]*\n" + re.escape(starts), text).group(1))


def payment_answer(body: dict) -> Reply:
    n = number_of(body, "1.1 The Customer shall pay")
    return completion(findings({"paragraph": n, "kind": "replace", "quote": "ninety (90) days",
                                "new_text": "sixty (60) days", "comment": "Ninety days exceeds the 60-day maximum."}))


def one_paragraph(playbook) -> BatchRequest:
    rule = playbook.rule("payment-terms")
    return BatchRequest(rules=(rule,), items=(Item(1, "Pay within 90 days.", rules=(rule.key,)),))


def payment_only(playbook) -> Playbook:
    return Playbook("payment", (playbook.rule("payment-terms"),))


def test_structured_output_success_and_what_we_send(server, msa, playbook):
    server.responder = payment_answer
    result = review(msa, payment_only(playbook), provider(server), acting_for="Supplier")
    (s,) = result.suggestions
    assert (s.anchor, s.kind, s.quote, s.new_text) == (anchor_of(msa, "1.1 "), Kind.REPLACE, "ninety (90) days",
                                                       "sixty (60) days")
    assert s.source == "model" and s.validation.status is Status.PASS
    stats = result.stats
    assert (stats.usage.calls, stats.usage.prompt_tokens, stats.usage.completion_tokens) == (1, 120, 30)
    assert stats.usage.cost_usd == pytest.approx((120 * 2 + 30 * 8) / 1e6)
    (sent,) = server.requests
    assert sent.path == "/v1/chat/completions" and sent.headers["authorization"] == "Bearer sk-test-key"
    body = sent.body
    assert body["model"] == "gpt-test" and body["temperature"] == 0
    assert body["response_format"] == {"type": "json_schema", "json_schema": {
        "name": "contract_findings", "strict": True, "schema": findings_schema(["R1"])}}
    system, user = body["messages"]
    assert system["role"] == "system" and "This is the first review of this document." in system["content"]
    assert "Previously rejected" not in system["content"]
    assert "### R1: Payment terms" in user["content"] and "[1]" in user["content"]
    assert "_RL_" not in sent.text and not re.search(r"_RL_[0-9a-f]{12}", sent.text)  # no anchors, no ids
    assert "in: 1. Fees and Payment" in user["content"]  # section context, not ids


def test_rerun_prompt_carries_rejections_and_preferences_and_the_filter_still_applies(server, msa, playbook):
    server.responder = payment_answer  # the model ignores the instruction and repeats itself
    rejection = Rejection("REPLACE_TEXT", original_text="ninety (90) days", new_text="sixty (60) days",
                          comment_text="Ninety days exceeds the 60-day maximum.")
    result = review(msa, payment_only(playbook), provider(server), rerun=True, prior_rejections=[rejection],
                    acting_for="Supplier",
                    preferences_text="## Payment Terms\nNinety-day payment terms are acceptable for this client.")
    assert result.suggestions == [] and result.stats.suppressed == 1
    system = server.requests[0].messages[0]["content"]
    assert "has been reviewed before" in system and "### Rejected REPLACE_TEXT 1" in system
    assert 'Suggested: "sixty (60) days"' in system and "Ninety-day payment terms are acceptable" in system
    assert "This is the first review" not in system


@pytest.mark.parametrize("failure", [error(429, "slow down", {"retry-after-ms": "5"}), error(500), error(503)])
def test_rate_limits_and_server_errors_are_retried(server, msa, playbook, failure):
    server.script(failure)
    server.responder = payment_answer
    delays: list[float] = []
    result = review(msa, payment_only(playbook), provider(server, sleep=delays.append))
    assert len(result.suggestions) == 1 and len(server.requests) == 2
    assert result.stats.usage.retries == 1 and result.stats.usage.calls == 1
    if failure.status == 429:
        assert delays == [0.005]  # Retry-After is honoured
    else:
        assert 0.01 <= delays[0] <= 0.0125  # backoff with jitter


def test_a_timeout_is_retried(server, msa, playbook):
    server.script(completion(findings(), delay=60))  # an answer the client must not wait for
    server.responder = payment_answer
    started = time.monotonic()
    result = review(msa, payment_only(playbook), provider(server, timeout=0.5))
    elapsed = time.monotonic() - started
    print(f"a 0.5 s timeout and one retry: {elapsed:.2f} s")
    assert len(result.suggestions) == 1 and result.stats.usage.retries == 1
    assert elapsed < 20  # a guard: a client that waited for the first answer would take 60 s


def test_persistent_timeouts_end_the_review_with_a_clear_error(server, msa, playbook):
    server.responder = lambda body: completion(findings(), delay=1.0)
    with pytest.raises(ReviewError) as err:
        review(msa, payment_only(playbook), provider(server, timeout=0.3, max_retries=1))
    assert err.value.code == "timeout" and "did not answer in time (2 attempts)" in err.value.message
    assert len(server.requests) == 2 and err.value.partial.suggestions == []


@pytest.mark.parametrize("content,where", [
    ("{not json", "not valid JSON"),
    ('{"findings": "none"}', "did not match the schema at findings"),
    ('{"found": []}', "did not match the schema at top level"),
])
def test_malformed_model_output_is_a_provider_error(server, playbook, content, where):
    server.script(completion(content))
    request = one_paragraph(playbook)
    with pytest.raises(ProviderError) as err:
        provider(server).analyze_batch(request)
    assert err.value.code == "malformed_output" and where in err.value.message
    assert err.value.usage.prompt_tokens == 120  # the tokens were spent all the same
    assert len(server.requests) == 1  # a bad answer is not retried blindly


def test_a_finding_that_does_not_match_the_schema_costs_that_finding_not_the_batch(server, playbook):
    good = {"rule": "R1", "paragraph": 1, "kind": "comment", "quote": "90 days", "new_text": "", "comment": "Long.",
            "severity": "major", "confidence": 0.9}
    server.script(completion({"findings": [{"paragraph": 1}, good | {"rule": "R9"}, good]}))
    response = provider(server).analyze_batch(one_paragraph(playbook))
    assert response.malformed == 2 and [(f.rule, f.quote) for f in response.findings] == [("payment-terms", "90 days")]


def test_truncated_and_client_errors_are_not_retried(server, msa, playbook):
    request = one_paragraph(playbook)
    cases = [(completion(findings(), finish_reason="length"), "truncated"), (error(400, "bad schema"), "bad_request"),
             (error(401, "no key"), "auth")]
    for reply, code in cases:
        server.requests.clear()
        server.script(reply)
        with pytest.raises(ProviderError) as err:
            provider(server).analyze_batch(request)
        assert err.value.code == code and len(server.requests) == 1
        assert "bad schema" not in err.value.message and "no key" not in err.value.message  # upstream text not echoed


def test_hallucinated_model_quotes_are_dropped_and_counted(server, msa, playbook):
    def answer(body):
        n = number_of(body, "1.1 The Customer shall pay")
        return completion(findings(
            {"paragraph": n, "kind": "replace", "quote": "ninety (90) days", "new_text": "sixty (60) days"},
            {"paragraph": n, "kind": "replace", "quote": "payment within 90 days", "new_text": "payment within 60 days"},
            {"paragraph": 99, "kind": "comment", "quote": "ninety (90) days", "comment": "Wrong paragraph."},
        ))
    server.responder = answer
    result = review(msa, payment_only(playbook), provider(server))
    assert len(result.suggestions) == 1
    assert (result.stats.raw_findings, result.stats.hallucination_drops) == (3, 2)
    assert result.stats.hallucination_rate == pytest.approx(2 / 3)


def test_a_long_paragraph_is_sent_as_the_rules_excerpt_and_the_answer_grounds_in_the_whole(server, playbook):
    source = excerpt_clauses()

    def answer(body):
        n = number_of(body, f"{GAP} {PAYMENT}")
        return completion(findings(
            {"paragraph": n, "kind": "replace", "quote": "ninety (90) days", "new_text": "sixty (60) days",
             "comment": "Ninety days exceeds the 60-day maximum."},
            {"paragraph": n, "kind": "rewrite", "quote": "", "new_text": PAYMENT, "comment": "Seen in part."},
        ))
    server.responder = answer
    result = review(source, payment_only(playbook), provider(server), acting_for="Supplier")
    user = server.requests[0].messages[1]["content"]
    assert f"excerpt: {GAP} marks text left out · rules: R1)\n{GAP} {PAYMENT} {GAP} {LATE} {GAP}" in user
    assert "premises tidy" not in user and "press release" not in user  # the left-out sentences are not sent
    assert "A paragraph marked `excerpt` shows only the sentences" in server.requests[0].messages[0]["content"]
    (s,) = result.suggestions  # the rewrite of a paragraph seen in part is dropped
    assert (s.anchor, s.kind, s.quote) == (source[1].anchor, Kind.REPLACE, "ninety (90) days")
    assert LONG[LONG.index(s.quote) - 20:].startswith("each invoice within ") and result.stats.invalid_drops == 1


def test_a_missing_clause_is_asked_for_at_its_insertion_point(server, msa, playbook):
    rule = playbook.rule("governing-law")

    def answer(body):
        n = number_of(body, "10.1 This Agreement")
        return completion(findings({"paragraph": n, "kind": "insert", "quote": "10.1 This Agreement",
                                    "new_text": "This Agreement is governed by the laws of England and Wales.",
                                    "comment": "No governing law clause."}))
    server.responder = answer
    result = review(msa, Playbook("law", (rule,)), provider(server))
    (s,) = result.suggestions
    assert s.kind is Kind.INSERT and s.anchor == anchor_of(msa, "10.1 ")
    user = server.requests[0].messages[1]["content"]
    assert "## Missing clauses" in user and "- R1 (Governing law): insert after paragraph [" in user
    assert re.search(r"\[\d+\] \([^)]*insertion point for R1\)\n10\.1 This Agreement", user)


def test_concurrency_is_bounded(msa, playbook):
    in_flight, peak, lock = [0], [0], threading.Lock()
    full = threading.Event()  # set once three requests are in flight together

    def slow(body):
        with lock:
            in_flight[0] += 1
            peak[0] = max(peak[0], in_flight[0])
            if in_flight[0] >= 3:
                full.set()
        full.wait(10)  # the first requests hold on until the client has sent as many as it may at once
        with lock:
            in_flight[0] -= 1
        return completion(findings())

    with ChatServer(responder=slow) as srv:
        result = review(msa, playbook, provider(srv, max_concurrency=3, max_batch_chars=1))  # a clause a call
    assert result.stats.requests >= 6 and len(srv.requests) == result.stats.requests
    assert peak[0] == 3  # parallel, but never more than allowed


def test_the_model_validator_cannot_choose_the_status(server, playbook):
    server.script(completion({"confidence": 0.95, "issues": [
        {"issue_type": "dangerous_pattern", "severity": "critical", "description": "Unlimited liability.",
         "location_hint": "unlimited liability"}]}))
    validator = OpenAIValidator(provider(server))
    verdict = validator.validate("The Customer shall have unlimited liability.",
                                 rules=(playbook.rule("limitation-of-liability"),), facts=DocumentFacts())
    assert verdict.status is Status.FAIL and verdict.confidence == 0.95
    assert validator.usage.prompt_tokens == 120
    body = server.requests[0].body
    assert body["response_format"]["json_schema"]["name"] == "clause_verdict"
    assert "status" not in body["response_format"]["json_schema"]["schema"]["properties"]
    assert "Limitation of liability" in body["messages"][1]["content"]


def test_the_model_is_told_whose_side_it_is_on_and_its_edits_pass_the_same_gate(server, msa, playbook):
    server.responder = payment_answer  # ninety days to pay is the Customer's advantage
    for_supplier = review(msa, payment_only(playbook), provider(server), acting_for="Supplier")
    user = server.requests[-1].messages[1]["content"]
    assert "You act for Supplier." in user and "never give the other party a right" in user
    assert [(s.kind, s.new_text) for s in for_supplier.suggestions] == [(Kind.REPLACE, "sixty (60) days")]
    review(msa, payment_only(playbook), provider(server))
    assert "No side has been chosen" in server.requests[-1].messages[1]["content"]

    # a model's edit that brings the playbook's words into the contract is withheld as an edit, as the engine's is
    def foreign(body: dict) -> Reply:
        n = number_of(body, "1.1 The Customer shall pay")
        return completion(findings({"paragraph": n, "kind": "replace", "quote": "ninety (90) days",
                                    "new_text": "sixty (60) days after the Charges fall due under [England and Wales]",
                                    "comment": "Too long."}))

    server.responder = foreign
    (s,) = review(msa, payment_only(playbook), provider(server), acting_for="Supplier").suggestions
    assert s.kind is Kind.COMMENT and s.new_text == ""
