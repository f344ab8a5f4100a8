"""Reading and writing playbooks: YAML/JSON in, schema and semantic checks, YAML/JSON out.

Split from :mod:`.model`, which holds the rule model and
its patterns: this module turns untrusted text into that model (a bounded,
alias-free YAML parse, ``schema.json``, then the checks the schema
cannot express: regexes compile, replacement templates name real groups,
keys are unique), serialises it back, and loads the built-in playbook.
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

if TYPE_CHECKING:
    import jsonschema

from ..categories import Category
from .model import (
    Example,
    Playbook,
    PlaybookError,
    RedFlag,
    RiskDimension,
    Rule,
    Severity,
    Threshold,
    compile_pattern,
    flag_regex,
)

MAX_BYTES = 2_000_000


@cache
def schema() -> dict[str, Any]:
    """The JSON Schema of the interchange format (also served to clients)."""
    return json.loads(resources.files(__package__).joinpath("schema.json").read_text("utf-8"))


@cache
def _validator() -> jsonschema.Draft202012Validator:
    import jsonschema  # imported when a playbook from outside is read: the review of a file needs only ours

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


def playbook_from_dict(data: Any, *, ours: bool = False) -> Playbook:
    """Validate a parsed document (schema, then semantics) and build the :class:`Playbook`.

    ``ours``: the built-in playbook, whose schema validity the test suite checks, skips the schema pass."""
    errors = [] if ours else sorted(_validator().iter_errors(data), key=lambda e: (list(e.absolute_path), e.message))
    if errors:
        import jsonschema

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
    """The built-in commercial-contract playbook (``default.yaml``).

    Our own file, so it is parsed with libyaml's fast loader (a third of the offline review's start-up with the
    pure-Python one); uploads keep the alias-refusing loader of :func:`load_playbook`."""
    text = resources.files(__package__).joinpath("default.yaml").read_text(encoding="utf-8")
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return playbook_from_dict(yaml.load(text, Loader=loader), ours=True)  # noqa: S506 - a safe loader, our own file


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
            favours=f.get("favours"),
            unless_anywhere=f.get("unless_anywhere"),
        )
        rx = flag_regex(flag, path=f"{path}/pattern")
        for name in ("context", "unless", "unless_anywhere"):
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
                message=t.get("message"), protects=t.get("protects"),
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
