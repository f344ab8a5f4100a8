"""Playbooks: the open interchange format, its validation, and the rule model.

A playbook is what a legal team knows about a kind of contract, written down
so a machine can apply it and a lawyer can audit it: per rule, what to look
for (category, keywords, red-flag patterns, numeric thresholds), why it
matters (guidance, severity, risk dimensions), and how to fix it (preferred
position, ordered fallbacks, suggested language). The format is YAML or JSON,
checked against ``playbook.schema.json`` and then semantically (regexes
compile, replacement templates name real groups, keys are unique), so a bad
upload fails at import with a :class:`PlaybookError` that says where, not
halfway through a review. See ``docs/playbook-format.md``.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from .categories import Category
from .document import ROLE_NOUNS

FORMAT = "redline-playbook/1"
MAX_BYTES = 2_000_000
PARTY_PLACEHOLDER = "{party}"


class Severity(StrEnum):
    """How bad a deviation is; ordered critical > major > minor."""

    CRITICAL = "critical"
    MAJOR = "major"
    MINOR = "minor"


class RiskDimension(StrEnum):
    """The five risk dimensions a clause is scored on."""

    FINANCIAL = "financial"
    LEGAL_COMPLIANCE = "legal_compliance"
    OPERATIONAL = "operational"
    TIMELINE = "timeline"
    STRATEGIC_REPUTATIONAL = "strategic_reputational"


class PlaybookError(ValueError):
    """A playbook that cannot be used: ``code`` for programs, ``message`` for people,
    ``path`` (JSON-pointer style, "/rules/3/thresholds/0/near") for where."""

    def __init__(self, code: str, message: str, path: str = "",
                 problems: tuple[tuple[str, str], ...] = ()) -> None:
        super().__init__(f"{message} (at {path})" if path else message)
        self.code = code
        self.message = message
        self.path = path
        # Every problem found, as (path, message), this one first: people fix a file in one go.
        self.problems = problems or ((path, message),)


@dataclass(frozen=True, slots=True)
class RedFlag:
    """Wording that signals a problem. ``match`` is "regex" or "keyword" (a literal
    phrase, whitespace-tolerant). ``{party}`` in a pattern stands for any party
    name. ``context`` limits the flag to paragraphs it matches ("any breach"
    only matters in a termination right); ``unless`` suppresses the flag when
    it matches the paragraph;
    ``reciprocal`` suppresses it when another party does the same thing
    somewhere in the document. ``replacement`` turns the flag into a span
    replacement (regex templates may use groups, e.g. ``\\g<party>``);
    ``insert`` into an insertion after the paragraph; otherwise it is a comment."""

    pattern: str
    message: str
    match: str = "regex"
    severity: Severity | None = None
    context: str | None = None
    unless: str | None = None
    reciprocal: bool = False
    replacement: str | None = None
    insert: str | None = None


@dataclass(frozen=True, slots=True)
class Threshold:
    """A numeric limit: ``metric`` ``operator`` ``value`` ``unit``, read from quantities
    whose surrounding words match ``near`` (and not ``unless``). ``per`` qualifies
    percent rates; ``currency`` restricts amounts; ``suggest`` is the value a
    replacement proposes (default ``value``)."""

    metric: str
    operator: str
    value: float
    unit: str
    near: str
    per: str | None = None
    currency: str | None = None
    unless: str | None = None
    suggest: float | None = None
    message: str | None = None


@dataclass(frozen=True, slots=True)
class Example:
    """A clause the rule should flag or pass: documentation for people and a test for the engine."""

    text: str
    expect: str
    note: str | None = None


@dataclass(frozen=True, slots=True)
class Rule:
    """One playbook rule; see the module docstring and docs/playbook-format.md."""

    key: str
    title: str
    category: Category
    severity: Severity
    risk_dimensions: tuple[RiskDimension, ...] = ()
    guidance: str = ""
    preferred_position: str = ""
    fallbacks: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    detect: tuple[str, ...] = ()
    red_flags: tuple[RedFlag, ...] = ()
    thresholds: tuple[Threshold, ...] = ()
    required: bool = False
    suggested_language: str = ""
    enabled: bool = True
    examples: tuple[Example, ...] = ()

    @property
    def fingerprint(self) -> str:
        """Content hash of the rule: its "version" in cache keys, so editing one rule
        re-asks only that rule."""
        return _fingerprint(self)

    def to_dict(self) -> dict[str, Any]:
        """The interchange form (defaults omitted, so files stay short)."""
        out: dict[str, Any] = {"key": self.key, "title": self.title, "category": self.category.value,
                               "severity": self.severity.value}
        if self.risk_dimensions:
            out["risk_dimensions"] = [d.value for d in self.risk_dimensions]
        for name in ("guidance", "preferred_position", "suggested_language"):
            if getattr(self, name):
                out[name] = getattr(self, name)
        for name in ("fallbacks", "keywords", "detect"):
            if getattr(self, name):
                out[name] = list(getattr(self, name))
        if self.red_flags:
            out["red_flags"] = [_drop_defaults(f, RedFlag) for f in self.red_flags]
        if self.thresholds:
            out["thresholds"] = [_drop_defaults(t, Threshold) for t in self.thresholds]
        if self.required:
            out["required"] = True
        if not self.enabled:
            out["enabled"] = False
        if self.examples:
            out["examples"] = [_drop_defaults(e, Example) for e in self.examples]
        return out


@dataclass(frozen=True, slots=True)
class Playbook:
    """A named, versioned list of rules. ``version`` is the author's number; the
    database's immutable versions are the lead's concern, not this format's."""

    name: str
    rules: tuple[Rule, ...]
    version: int = 1
    contract_type: str = ""
    perspective: str = "balanced"
    description: str = ""
    format: str = field(default=FORMAT)

    @property
    def enabled_rules(self) -> tuple[Rule, ...]:
        """The rules a review applies."""
        return tuple(r for r in self.rules if r.enabled)

    def rule(self, key: str) -> Rule:
        """The rule with ``key``; KeyError when absent."""
        for r in self.rules:
            if r.key == key:
                return r
        raise KeyError(key)

    def to_dict(self) -> dict[str, Any]:
        """The interchange form, ready for JSON or YAML."""
        out: dict[str, Any] = {"format": self.format, "name": self.name, "version": self.version}
        if self.contract_type:
            out["contract_type"] = self.contract_type
        out["perspective"] = self.perspective
        if self.description:
            out["description"] = self.description
        out["rules"] = [r.to_dict() for r in self.rules]
        return out


def _drop_defaults(obj: object, cls: type) -> dict[str, Any]:
    defaults = {name: f.default for name, f in cls.__dataclass_fields__.items()}  # type: ignore[attr-defined]
    out: dict[str, Any] = {}
    for name in defaults:
        value = getattr(obj, name)
        if value == defaults[name]:
            continue
        out[name] = value.value if isinstance(value, StrEnum) else value
    return out


@cache
def _fingerprint(rule: Rule) -> str:
    canonical = json.dumps(rule.to_dict(), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]


# ---------------------------------------------------------------- loading


@cache
def schema() -> dict[str, Any]:
    """The JSON Schema of the interchange format (also served to clients)."""
    return json.loads(resources.files(__package__).joinpath("playbook.schema.json").read_text("utf-8"))


@cache
def _validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(schema())


class _NoAliasLoader(yaml.SafeLoader):
    """Safe YAML without anchors/aliases: an uploaded playbook cannot expand
    into gigabytes ("billion laughs"), and nothing in the format needs them."""

    def compose_node(self, parent: yaml.Node | None, index: object) -> yaml.Node | None:  # type: ignore[override]
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise PlaybookError("syntax", f"YAML aliases are not allowed (line {event.start_mark.line + 1})")
        return super().compose_node(parent, index)


def load_playbook(source: str | bytes | Path) -> Playbook:
    """Load a playbook from a file path, or from YAML/JSON text or bytes.

    JSON is YAML, so one parser reads both. Raises :class:`PlaybookError`.
    """
    if isinstance(source, Path):
        try:
            source = source.read_bytes()
        except OSError as exc:
            raise PlaybookError("not_found", f"cannot read playbook file: {exc.strerror}") from exc
    if len(source) > MAX_BYTES:
        raise PlaybookError("too_large", f"playbook is larger than {MAX_BYTES // 1_000_000} MB")
    if isinstance(source, bytes):
        try:
            source = source.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise PlaybookError("syntax", "playbook is not UTF-8 text") from exc
    try:
        data = yaml.load(source, Loader=_NoAliasLoader)  # noqa: S506 - a SafeLoader subclass
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark else ""
        raise PlaybookError("syntax", f"not valid YAML/JSON: {exc.problem}{where}") from exc
    except yaml.YAMLError as exc:
        raise PlaybookError("syntax", f"not valid YAML/JSON: {exc}") from exc
    return playbook_from_dict(data)


def playbook_from_dict(data: Any) -> Playbook:
    """Validate a parsed document (schema, then semantics) and build the :class:`Playbook`."""
    errors = sorted(_validator().iter_errors(data), key=lambda e: (list(e.absolute_path), e.message))
    if errors:
        best = jsonschema.exceptions.best_match(errors)
        problems: dict[str, str] = {_pointer(best.absolute_path): _schema_message(best)}
        for error in errors:  # one problem per place, the most relevant message for it
            where = _pointer(error.absolute_path)
            if where not in problems:
                problems[where] = _schema_message(jsonschema.exceptions.best_match(
                    [e for e in errors if _pointer(e.absolute_path) == where]))
        raise PlaybookError("schema", _schema_message(best), _pointer(best.absolute_path), tuple(problems.items()))
    built: list[Rule] = []
    failures: list[PlaybookError] = []
    seen: dict[str, int] = {}
    for i, r in enumerate(data["rules"]):
        if r["key"] in seen:
            failures.append(PlaybookError("duplicate_key", f"rule key {r['key']!r} is also used by rule {seen[r['key']]}",
                                          f"/rules/{i}/key"))
        seen.setdefault(r["key"], i)
        try:
            built.append(_rule(r, i))
        except PlaybookError as exc:
            failures.append(exc)
    if failures:
        first = failures[0]
        raise PlaybookError(first.code, first.message, first.path,
                            tuple(p for f in failures for p in f.problems))
    rules = tuple(built)
    return Playbook(
        name=data["name"],
        rules=rules,
        version=data.get("version", 1),
        contract_type=data.get("contract_type", ""),
        perspective=data.get("perspective", "balanced"),
        description=data.get("description", ""),
    )


def dump_playbook(playbook: Playbook, fmt: str = "yaml") -> str:
    """Serialise to "yaml" or "json"; ``load_playbook(dump_playbook(p)) == p``."""
    data = playbook.to_dict()
    if fmt == "json":
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    if fmt == "yaml":
        return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)
    raise ValueError(f"unknown playbook format {fmt!r} (use 'yaml' or 'json')")


class _Dumper(yaml.SafeDumper):
    """Multi-line strings as literal blocks, so exported guidance stays readable."""


def _str_presenter(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str_presenter)


@cache
def default_playbook() -> Playbook:
    """The built-in commercial-contract playbook (``playbooks/default.yaml``)."""
    return load_playbook(resources.files(__package__).joinpath("playbooks/default.yaml").read_bytes())


def _schema_message(error: jsonschema.ValidationError) -> str:
    if error.validator == "additionalProperties":
        return f"unknown field: {error.message.split('(')[-1].rstrip(')')}"
    if error.validator == "required":
        return f"missing field: {error.message.split(' is a required')[0]}"
    if error.validator == "enum":
        allowed = ", ".join(str(v) for v in error.validator_value)
        return f"{error.instance!r} is not one of: {allowed}"
    return error.message


def _pointer(path: Any) -> str:
    return "/" + "/".join(str(p) for p in path) if path else ""


def _rule(data: dict[str, Any], i: int) -> Rule:
    base = f"/rules/{i}"
    for j, pattern in enumerate(data.get("detect", [])):
        compile_pattern(pattern, path=f"{base}/detect/{j}")
    flags = []
    for j, f in enumerate(data.get("red_flags", [])):
        path = f"{base}/red_flags/{j}"
        flag = RedFlag(
            pattern=f["pattern"],
            message=f["message"],
            match=f.get("match", "regex"),
            severity=Severity(f["severity"]) if "severity" in f else None,
            context=f.get("context"),
            unless=f.get("unless"),
            reciprocal=f.get("reciprocal", False),
            replacement=f.get("replacement"),
            insert=f.get("insert"),
        )
        rx = flag_regex(flag, path=f"{path}/pattern")
        for name in ("context", "unless"):
            if getattr(flag, name):
                compile_pattern(getattr(flag, name), path=f"{path}/{name}")
        if flag.reciprocal and "party" not in rx.groupindex:
            raise PlaybookError("bad_flag", "a reciprocal red flag needs {party} in its pattern", f"{path}/pattern")
        if flag.replacement is not None and flag.match == "regex":
            try:
                rx.sub(flag.replacement, "")
            except (re.error, IndexError) as exc:
                raise PlaybookError("bad_regex", f"bad replacement template: {exc}", f"{path}/replacement") from exc
        flags.append(flag)
    thresholds = []
    for j, t in enumerate(data.get("thresholds", [])):
        path = f"{base}/thresholds/{j}"
        if "per" in t and t["unit"] != "percent":
            raise PlaybookError("bad_threshold", "'per' only applies to unit 'percent'", f"{path}/per")
        if "currency" in t and t["unit"] != "amount":
            raise PlaybookError("bad_threshold", "'currency' only applies to unit 'amount'", f"{path}/currency")
        compile_pattern(t["near"], path=f"{path}/near")
        if "unless" in t:
            compile_pattern(t["unless"], path=f"{path}/unless")
        thresholds.append(
            Threshold(
                metric=t["metric"], operator=t["operator"], value=t["value"], unit=t["unit"], near=t["near"],
                per=t.get("per"), currency=t.get("currency"), unless=t.get("unless"), suggest=t.get("suggest"),
                message=t.get("message"),
            )
        )
    return Rule(
        key=data["key"],
        title=data["title"],
        category=Category(data["category"]),
        severity=Severity(data["severity"]),
        risk_dimensions=tuple(RiskDimension(d) for d in data.get("risk_dimensions", [])),
        guidance=data.get("guidance", ""),
        preferred_position=data.get("preferred_position", ""),
        fallbacks=tuple(data.get("fallbacks", [])),
        keywords=tuple(data.get("keywords", [])),
        detect=tuple(data.get("detect", [])),
        red_flags=tuple(flags),
        thresholds=tuple(thresholds),
        required=data.get("required", False),
        suggested_language=data.get("suggested_language", ""),
        enabled=data.get("enabled", True),
        examples=tuple(Example(e["text"], e["expect"], e.get("note")) for e in data.get("examples", [])),
    )


# ---------------------------------------------------------------- patterns


@lru_cache(maxsize=4096)
def compile_pattern(pattern: str, party: str = "", *, path: str = "") -> re.Pattern[str]:
    """Compile a playbook regex case-insensitively, expanding ``{party}`` to the party
    alternation (the first occurrence as the named group ``party``)."""
    if PARTY_PLACEHOLDER in pattern:
        alternation = party or default_party_pattern()
        head, _, tail = pattern.partition(PARTY_PLACEHOLDER)
        pattern = f"{head}(?P<party>{alternation}){tail.replace(PARTY_PLACEHOLDER, f'(?:{alternation})')}"
    try:
        return re.compile(pattern, re.IGNORECASE)
    except re.error as exc:
        raise PlaybookError("bad_regex", f"invalid regular expression: {exc}", path) from exc


def flag_regex(flag: RedFlag, party: str = "", *, path: str = "") -> re.Pattern[str]:
    """The compiled pattern of a red flag (a keyword becomes a whole-phrase regex)."""
    if flag.match == "keyword":
        words = [re.escape(w) for w in flag.pattern.split()]
        return compile_pattern(r"\b" + r"\s+".join(words) + r"\b", party, path=path)
    return compile_pattern(flag.pattern, party, path=path)


@cache
def default_party_pattern() -> str:
    """Party alternation used when a document defines no party names."""
    return party_pattern(())


@lru_cache(maxsize=256)
def party_pattern(names: tuple[str, ...]) -> str:
    """Regex alternation for "the Supplier", "Acme" …: the document's party names plus role nouns."""
    words = sorted({*names, *ROLE_NOUNS}, key=len, reverse=True)
    return r"\b(?:the\s+)?(?:" + "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in words) + r")\b"
