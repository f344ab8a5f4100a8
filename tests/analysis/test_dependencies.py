"""The review with the contract graph: related context in the prompt and the cache key, edit warnings.

The model is the real OpenAI provider (official SDK) against the loopback
chat server, so what is asserted is the prompt a model would actually read.
"""

from __future__ import annotations

import dataclasses
import re

import pytest

from redline.analysis.cache import MemoryCache
from redline.analysis.clauses import Clause
from redline.analysis.dependencies import MAX_CHARS, clause_graph
from redline.analysis.pipeline import review
from redline.analysis.playbook.model import Playbook
from redline.analysis.providers.openai import OpenAIProvider
from redline.analysis.suggestions import Kind
from tests.support.chat_server import ChatServer, Reply, completion, findings

from .conftest import CountingProvider, anchor_of, make_clauses

DEFINITION = ("1.1 “Cause” means a breach of this Agreement which is not remedied within thirty (30) days of "
              "written notice.")
AGREEMENT: list[tuple[str, str | None, int | None]] = [
    ("SERVICES AGREEMENT", "Title", None),
    ("This Agreement is made between Acme Holdings Limited, a company incorporated in England and Wales "
     "(the “Customer”), and Widget Services Inc., a Delaware corporation (the “Supplier”).", None, None),
    ("1. Definitions", "Heading 1", 1),
    (DEFINITION, None, None),
    ("2. Fees", "Heading 1", 1),
    ("2.1 The Customer shall pay each undisputed invoice within thirty (30) days of receipt.", None, None),
    ("3. Termination", "Heading 1", 1),
    ("3.1 Either Party may terminate this Agreement for Cause with immediate effect by written notice.", None, None),
    ("3.2 On termination under Section 3.1 for Cause, the Customer shall pay all fees then due under Section 2.1.",
     None, None),
]


@pytest.fixture
def agreement() -> list[Clause]:
    return make_clauses(AGREEMENT)


@pytest.fixture
def server():
    with ChatServer() as srv:
        yield srv


def model(srv: ChatServer) -> OpenAIProvider:
    return OpenAIProvider(model="gpt-test", api_key="sk-test", base_url=srv.url, timeout=2.0, max_retries=0)


def termination(playbook, *also: str) -> Playbook:
    """The termination-for-cause rule alone; ``also``: extra keywords (to make it look at a definition)."""
    rule = playbook.rule("termination-for-cause")
    return Playbook("termination", (dataclasses.replace(rule, keywords=(*rule.keywords, *also)),))


def number_of(prompt: str, starts: str) -> int:
    """The local number the prompt gave the paragraph starting with ``starts`` (as a model would read it)."""
    paragraphs = prompt.split("## Paragraphs to review")[1]
    return int(re.search(r"\[(\d+)\][^\n]*\n" + re.escape(starts), paragraphs).group(1))


def answer(starts: str, **finding) -> callable:
    """A model that makes one finding about the paragraph starting with ``starts``."""
    def respond(body: dict) -> Reply:
        prompt = body["messages"][1]["content"]
        if f"\n{starts}" not in prompt:
            return completion(findings())
        return completion(findings({"paragraph": number_of(prompt, starts), **finding}))
    return respond


def test_a_clause_using_a_defined_term_is_sent_with_its_definition(server, agreement, playbook):
    review(agreement, termination(playbook), model(server), graph=clause_graph(agreement))
    (sent,) = server.requests
    prompt = sent.messages[1]["content"]
    context = prompt.split("## Paragraphs to review")[0]
    uses = [number_of(prompt, "3.1 Either Party"), number_of(prompt, "3.2 On termination")]
    # the definition is in the context, once, naming both paragraphs that rely on it
    assert f'### Definition of "Cause" (relied on by [{uses[0]}], [{uses[1]}])\n{DEFINITION}' in context
    assert context.count("“Cause” means") == 1
    # 3.2 cites Section 2.1, which comes with its text, and Section 3.1, which is in the batch already
    assert f"### Section 2.1 (relied on by [{uses[1]}])\n2.1 The Customer shall pay each undisputed" in context
    assert f"### Section 3.1 (relied on by [{uses[1]}])\n(paragraph [{uses[0]}] below)" in context
    assert "quote and edit only\nthe numbered paragraphs" in context
    assert "_RL_" not in sent.text  # still no anchors or ids


def test_without_the_graph_the_prompt_has_no_context(server, agreement, playbook):
    review(agreement, termination(playbook), model(server))
    assert "Context from the rest of the contract" not in server.requests[0].messages[1]["content"]


def test_related_context_is_bounded_per_clause(agreement, playbook):
    long_definition = "1.1 “Cause” means " + "a material breach of this Agreement, " * 400 + "as notified."
    clauses = [dataclasses.replace(c, text=long_definition) if c.text == DEFINITION else c for c in agreement]
    provider = CountingProvider()
    review(clauses, termination(playbook), provider, graph=clause_graph(clauses))
    related = [item.related for request in provider.requests for item in request.items]
    assert any(related) and all(sum(len(r.text) for r in rs) <= MAX_CHARS for rs in related)


def test_a_changed_definition_re_asks_the_clauses_that_use_it(agreement, playbook):
    cache, provider = MemoryCache(), CountingProvider()
    review(agreement, playbook, provider, cache=cache, graph=clause_graph(agreement))
    provider.requests.clear()
    assert review(agreement, playbook, provider, cache=cache, graph=clause_graph(agreement)).stats.requests == 0
    changed = DEFINITION.replace("thirty (30) days", "ninety (90) days")
    edited = [dataclasses.replace(c, text=changed) if c.text == DEFINITION else c for c in agreement]
    review(edited, playbook, provider, cache=cache, graph=clause_graph(edited))
    asked = {item.text[:3] for request in provider.requests for item in request.items}
    # no rule reviews the definition itself, but the two clauses that use "Cause" are asked again
    # although their own text is unchanged; 2.1 (no "Cause") is served from the cache
    assert asked == {"3.1", "3.2"}


def test_a_rewrite_that_renames_a_defined_term_is_warned_about(server, agreement, playbook):
    renamed = DEFINITION.replace("“Cause”", "“Serious Cause”")
    server.responder = answer("1.1 “Cause”", kind="rewrite", quote="", new_text=renamed,
                              comment="Define the trigger more narrowly.")
    result = review(agreement, termination(playbook, "means"), model(server), graph=clause_graph(agreement))
    (s,) = result.suggestions
    assert s.kind is Kind.REWRITE and s.anchor == anchor_of(agreement, "1.1 ")
    (warning,) = s.warnings
    assert warning.code == "defined_term_renamed"
    assert warning.message == ('renames the defined term "Cause" to "Serious Cause"; "Cause" is still used in '
                               "Section 3.1 and Section 3.2")
    assert set(warning.anchors) == {anchor_of(agreement, "3.1 "), anchor_of(agreement, "3.2 ")}
    assert s.to_dict()["warnings"] == [warning.to_dict()]


def test_a_replacement_that_breaks_a_reference_or_a_defined_term_is_warned_about(server, agreement, playbook):
    server.responder = answer("3.1 Either", kind="replace", quote="for Cause with immediate effect",
                              new_text="for cause under Section 14.3", comment="Tie termination to the cure process.")
    result = review(agreement, termination(playbook), model(server), graph=clause_graph(agreement))
    (s,) = result.suggestions
    codes = {w.code: w.message for w in s.warnings}
    assert codes == {
        "term_case_changed": '"cause" is not the defined term "Cause" (defined in Section 1.1), so its meaning changes',
        "broken_reference": 'refers to "Section 14.3", which this agreement does not have',
    }


def test_deleting_a_cited_section_is_warned_about(server, agreement, playbook):
    server.responder = answer("3.1 Either", kind="delete", quote="", comment="Termination for cause is covered elsewhere.")
    result = review(agreement, termination(playbook), model(server), graph=clause_graph(agreement))
    (s,) = result.suggestions
    (warning,) = s.warnings
    assert (s.kind, warning.code) == (Kind.DELETE, "referenced_section_deleted")
    assert warning.message == "deletes Section 3.1, cited in Section 3.2"
    assert warning.anchors == (anchor_of(agreement, "3.2 "),)


def test_comments_and_edits_that_keep_the_structure_carry_no_warnings(server, agreement, playbook):
    server.responder = answer("3.1 Either", kind="replace", quote="with immediate effect",
                              new_text="after a cure period", comment="Allow a cure period.")
    result = review(agreement, termination(playbook), model(server), graph=clause_graph(agreement))
    (s,) = result.suggestions
    assert s.warnings == () and s.to_dict()["warnings"] == []


def test_the_graph_of_clauses_keeps_their_anchors(agreement):
    graph = clause_graph(agreement)
    assert [b.anchor for b in graph.blocks] == [c.anchor for c in agreement]
    assert graph.section_of(anchor_of(agreement, "3.2 ")).label == "Section 3.2"


def test_batches_count_the_related_context_against_the_request_budget(agreement, playbook):
    texts = [c.text for c in agreement if c.text.startswith(("3.1 ", "3.2 "))]
    provider = CountingProvider()
    provider.max_batch_chars = 400  # both paragraphs fit (~200 chars); with what they rely on they do not
    assert sum(len(t) for t in texts) < 400
    review(agreement, termination(playbook), provider, graph=clause_graph(agreement))
    asked = [[item.text[:3] for item in r.items if item.related] for r in provider.requests]
    assert asked == [["3.1"], ["3.2"]]
    review(agreement, termination(playbook), provider)  # without the graph: one request
    assert len(provider.requests) == 3
