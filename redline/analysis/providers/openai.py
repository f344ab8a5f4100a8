"""The OpenAI(-compatible) provider: one chat completion per batch of the contract, for every rule it needs.

Uses the official ``openai`` SDK against any server speaking the
chat-completions protocol. Model, base URL, key, timeout and retry budget come
from the caller (server settings — never from a client request). Answers are
constrained with Structured Outputs (a strict JSON Schema) and then checked
again here, because not every compatible server enforces the schema.

Retries are ours, not the SDK's (its own are switched off), so they are
counted and bounded in one place: 408/409/429/5xx, timeouts and connection
errors are retried with exponential backoff and jitter, honouring
``Retry-After``; anything else fails at once with a :class:`ProviderError`
whose message is safe to show (the upstream body is never echoed). An adaptive
limiter (limiter.py) bounds concurrent calls — the provider's own, or one shared by
a workspace's runs — lowering the bound on 429/5xx, and holds every thread's next
call for the server's ``Retry-After`` and spent rate-limit budgets.
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import jsonschema
import openai

from ..playbook.model import Rule, Severity
from ..prompts import (
    PromptMode,
    batch_prompt,
    number_paragraphs,
    prompts_fingerprint,
    related_context,
    render,
    system_prompt,
)
from ..validator import DocumentFacts, IssueType, ValidationIssue, ValidationResult, decide_status, text_hash
from .base import BatchRequest, PreferenceUpdate, ProviderError, ProviderResponse, RawFinding, Usage
from .limiter import AdaptiveLimiter, retry_after

_RETRY_STATUS = frozenset({408, 409, 429})
_SEVERITIES = ["critical", "major", "minor"]

# The answer as a whole: a list of findings (each checked against the batch's schema on its own) and, on a
# re-run, the preferences tool's call or null.
_ANSWER_SHAPE: dict[str, Any] = {
    "type": "object",
    "required": ["findings"],
    "properties": {"findings": {"type": "array"},
                   "update_preferences": {"anyOf": [{"type": "null"}, {
                       "type": "object", "required": ["action", "lines"],
                       "properties": {"action": {"enum": ["append", "replace"]},
                                      "lines": {"type": "array", "items": {"type": "string"}}}}]}},
}


def _by_item(missing: dict[str, int]) -> dict[int, list[str]]:
    """Item number → the rules (local names) whose missing clause goes after it."""
    out: dict[int, list[str]] = {}
    for ref, number in missing.items():
        out.setdefault(number, []).append(ref)
    return out


def findings_schema(rules: list[str], *, rerun: bool = False) -> dict[str, Any]:
    """The strict JSON Schema of a batch's answer: findings, each under one of ``rules`` (local names). Re-runs
    may also call the seed's ``update_preferences``: a nullable object, since strict structured outputs
    require every property to be present."""
    finding = {
        "type": "object",
        "additionalProperties": False,
        "required": ["rule", "paragraph", "kind", "quote", "new_text", "comment", "severity", "confidence"],
        "properties": {
            "rule": {"type": "string", "enum": rules},
            "paragraph": {"type": "integer"},
            "kind": {"type": "string", "enum": ["comment", "replace", "rewrite", "insert", "delete"]},
            "quote": {"type": "string"},
            "new_text": {"type": "string"},
            "comment": {"type": "string"},
            "severity": {"type": "string", "enum": _SEVERITIES},
            "confidence": {"type": "number"},
        },
    }
    properties: dict[str, Any] = {"findings": {"type": "array", "items": finding}}
    if rerun:
        properties["update_preferences"] = {
            "type": ["object", "null"],
            "additionalProperties": False,
            "required": ["action", "lines"],
            "properties": {
                "action": {"type": "string", "enum": ["append", "replace"]},
                "lines": {"type": "array", "items": {"type": "string"}},
            },
        }
    return {"type": "object", "additionalProperties": False, "required": list(properties), "properties": properties}


VERDICT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["confidence", "issues"],
    "properties": {
        "confidence": {"type": "number"},
        "issues": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["issue_type", "severity", "description", "location_hint"],
                "properties": {
                    "issue_type": {"type": "string", "enum": [t.value for t in IssueType]},
                    "severity": {"type": "string", "enum": _SEVERITIES},
                    "description": {"type": "string"},
                    "location_hint": {"type": "string"},
                },
            },
        },
    },
}


class OpenAIProvider:
    """Findings from a chat-completions model; see the module docstring.

    Prices are USD per million tokens, for the cost recorded per run.
    ``sleep`` is injectable so retry tests need not wait. ``limiter``: one shared
    with other providers (a workspace's), else the provider's own of ``max_concurrency``.
    """

    name = "openai"

    def __init__(
        self,
        *,
        model: str,
        api_key: str,
        base_url: str | None = None,
        timeout: float = 60.0,
        max_retries: int = 3,
        max_concurrency: int = 16,
        max_batch_chars: int = 56_000,
        backoff: float = 0.5,
        max_backoff: float = 8.0,
        temperature: float | None = 0.0,
        input_price_per_mtok: float = 0.0,
        output_price_per_mtok: float = 0.0,
        sleep: Callable[[float], None] = time.sleep,
        limiter: AdaptiveLimiter | None = None,
    ) -> None:
        self.model = model
        self.base_url = base_url or "https://api.openai.com/v1"
        self.max_concurrency = max_concurrency
        self.max_batch_chars: int | None = max_batch_chars
        self.reads_context = True  # each clause comes with the definitions and sections it relies on
        self.excerpts = True  # a long paragraph is given as the rule's excerpt (redline/analysis/excerpts.py)
        self.max_retries = max_retries
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.temperature = temperature
        self.prices = (input_price_per_mtok, output_price_per_mtok)
        self._sleep = sleep
        self._limiter = limiter or AdaptiveLimiter(max_concurrency)
        self._client = openai.OpenAI(api_key=api_key, base_url=self.base_url, timeout=timeout, max_retries=0)

    @property
    def identity(self) -> str:
        """Cache identity: server, model and prompt files."""
        return f"openai:{self.base_url}:{self.model}:{prompts_fingerprint()}"

    def analyze_batch(self, request: BatchRequest) -> ProviderResponse:
        """Ask the model about a run of locally numbered paragraphs, each against the rules it names
        (rules are named R1, R2, … here, and each finding names its rule: it is mapped back to the key)."""
        refs = {rule.key: f"R{n}" for n, rule in enumerate(request.rules, 1)}
        paragraphs = number_paragraphs([(i.number, i.text, i.context, i.label) for i in request.items],
                                       excerpts=frozenset(i.number for i in request.items if i.excerpt),
                                       rules={i.number: [refs[k] for k in i.rules] for i in request.items},
                                       inserts=_by_item({refs[k]: n for k, n in request.missing.items()}))
        context = related_context([(i.number, r.key, r.label, r.text) for i in request.items for r in i.related],
                                  [(i.number, i.text) for i in request.items])
        titles = {rule.key: rule.title for rule in request.rules}
        messages = [
            {"role": "system", "content": system_prompt(
                request.mode, prior_rejections=request.prior_rejections, preferences_text=request.preferences_text)},
            {"role": "user", "content": batch_prompt(
                [(refs[r.key], r) for r in request.rules], paragraphs, context=context, side=request.acting_for,
                missing=[(refs[k], titles[k], after) for k, after in request.missing.items()],
                parties=request.parties, terms=request.terms)},
        ]
        rerun = request.mode is PromptMode.RERUN
        schema = findings_schema(list(refs.values()), rerun=rerun)
        # What is checked as a whole is the answer's shape; each finding is checked on its own, so one a server
        # that does not enforce the schema got wrong costs that finding, not the batch (half a contract).
        data, usage = self.complete(messages, "contract_findings", schema, accepted=_ANSWER_SHAPE)
        update = data.get("update_preferences") if rerun else None
        updates = (PreferenceUpdate(update["action"], tuple(update["lines"])),) if update and update["lines"] else ()
        keys = {ref: key for key, ref in refs.items()}
        item = schema["properties"]["findings"]["items"]
        valid = [f for f in data["findings"] if jsonschema.Draft202012Validator(item).is_valid(f)]
        findings = tuple(
            RawFinding(
                paragraph=f["paragraph"], kind=f["kind"], quote=f["quote"], new_text=f["new_text"],
                comment=f["comment"], severity=f["severity"], confidence=f["confidence"], source="model",
                rule=keys[f["rule"]],
            )
            for f in valid
        )
        return ProviderResponse(findings, usage, updates, malformed=len(data["findings"]) - len(valid))

    def complete(self, messages: list[dict[str, str]], schema_name: str, schema: dict[str, Any], *,
                 accepted: dict[str, Any] | None = None) -> tuple[dict, Usage]:
        """One structured-output completion, retried as the module docstring says;
        returns the parsed, schema-checked JSON and what it cost."""
        usage = Usage(calls=1)  # HTTP attempts = calls + retries
        kwargs: dict[str, Any] = {
            "model": self.model,
            "messages": messages,
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": schema_name, "strict": True, "schema": schema},
            },
        }
        if self.temperature is not None:
            kwargs["temperature"] = self.temperature
        attempt = 0
        while True:
            try:
                completion = _create(self._client, self._limiter, kwargs)
                break
            except openai.APIStatusError as exc:
                retryable = exc.status_code in _RETRY_STATUS or exc.status_code >= 500
                if not retryable or attempt >= self.max_retries:
                    raise _status_error(exc, attempt, usage) from exc
                delay = retry_after(exc.response.headers)
            except openai.APIConnectionError as exc:  # includes timeouts
                if attempt >= self.max_retries:
                    code = "timeout" if isinstance(exc, openai.APITimeoutError) else "connection"
                    what = "did not answer in time" if code == "timeout" else "could not be reached"
                    raise _error(code, f"the model server {what} ({attempt + 1} attempts)", usage) from exc
                delay = None
            except openai.OpenAIError as exc:  # e.g. a response the SDK itself cannot read
                raise _error("malformed_output", "the model server's response could not be read", usage) from exc
            attempt += 1
            usage.retries += 1
            self._sleep(self._delay(attempt, delay))
        self._count(completion, usage)
        return _parse(completion, accepted or schema, usage), usage

    def _delay(self, attempt: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return min(retry_after, self.max_backoff)
        base = min(self.backoff * 2 ** (attempt - 1), self.max_backoff)
        return base + random.uniform(0, base / 4)

    def _count(self, completion: Any, usage: Usage) -> None:
        if completion.usage is None:
            return
        prompt = completion.usage.prompt_tokens or 0
        answer = completion.usage.completion_tokens or 0
        usage.prompt_tokens += prompt
        usage.completion_tokens += answer
        usage.cost_usd += (prompt * self.prices[0] + answer * self.prices[1]) / 1e6


def _error(code: str, message: str, usage: Usage) -> ProviderError:
    return ProviderError(code, message, usage)


def _status_error(exc: openai.APIStatusError, attempt: int, usage: Usage) -> ProviderError:
    status = exc.status_code
    if status == 429:
        return _error("rate_limited", f"the model server is rate limiting requests ({attempt + 1} attempts)", usage)
    if status >= 500:
        return _error("server_error", f"the model server failed with HTTP {status} ({attempt + 1} attempts)", usage)
    if status in (401, 403):
        return _error("auth", f"the model server refused the credentials (HTTP {status})", usage)
    return _error("bad_request", f"the model server rejected the request (HTTP {status})", usage)


def _create(client: openai.OpenAI, limiter: AdaptiveLimiter, kwargs: dict[str, Any]) -> Any:
    """One HTTP attempt in a limiter slot. The raw response is asked for because the limiter needs the
    rate-limit headers of successful answers too (that is where a spent budget is announced)."""
    with limiter.slot() as call:
        try:
            raw = client.chat.completions.with_raw_response.create(**kwargs)
        except openai.APIStatusError as exc:
            call.report(exc.status_code, exc.response.headers)
            raise
        call.report(raw.status_code, raw.headers)
    return raw.parse()


def _parse(completion: Any, schema: dict[str, Any], usage: Usage) -> dict:
    if not completion.choices:
        raise _error("malformed_output", "the model returned no answer", usage)
    choice = completion.choices[0]
    if choice.finish_reason == "length":
        raise _error("truncated", "the model's answer was cut off at the token limit", usage)
    message = choice.message
    if getattr(message, "refusal", None):
        raise _error("refused", "the model refused to answer", usage)
    try:
        data = json.loads(message.content or "")
    except json.JSONDecodeError as exc:
        raise _error("malformed_output", "the model's answer was not valid JSON", usage) from exc
    try:
        jsonschema.validate(data, schema)
    except jsonschema.ValidationError as exc:
        where = "/".join(str(p) for p in exc.absolute_path) or "top level"
        raise _error("malformed_output", f"the model's answer did not match the schema at {where}", usage) from exc
    return data


class OpenAIValidator:
    """The validator with a model's judgement; the status is still computed by
    :func:`~redline.analysis.validator.decide_status`, never taken from the model.

    ``usage`` accumulates what its calls cost (one validator per run gives the
    run's validation cost).
    """

    def __init__(self, provider: OpenAIProvider) -> None:
        self.provider = provider
        self.identity = f"openai-validator:{provider.identity}"
        self.usage = Usage()
        self._lock = threading.Lock()

    def validate(
        self,
        text: str,
        *,
        rules: Sequence[Rule] = (),
        facts: DocumentFacts,
        parties: tuple[str, ...] = (),
        replaces: str | None = None,
    ) -> ValidationResult:
        """Ask the model for issues and a confidence, then decide the status in code."""
        rule_text = "\n\n".join(
            f"{r.title}: {r.guidance}\nPreferred position: {r.preferred_position}" for r in rules
        ) or "(none)"
        own = {text_hash(text), text_hash(replaces) if replaces is not None else ""}
        terms = "\n".join(f"- {f.metric}: {f.value}" for f in facts.facts if f.source not in own) or "(none)"
        messages = [
            {"role": "system", "content": render("validator")},
            {"role": "user", "content": render("validator_input", rule=rule_text, facts=terms, text=text)},
        ]
        data, usage = self.provider.complete(messages, "clause_verdict", VERDICT_SCHEMA)
        with self._lock:
            self.usage.add(usage)
        issues = tuple(
            ValidationIssue(IssueType(i["issue_type"]), Severity(i["severity"]), i["description"], i["location_hint"])
            for i in data["issues"]
        )
        confidence = max(0.0, min(1.0, float(data["confidence"])))
        return ValidationResult(decide_status(confidence, issues), confidence, issues, self.identity)
