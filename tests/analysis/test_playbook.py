"""The playbook interchange format: schema, round trips, clear errors, the default playbook."""

from __future__ import annotations

import dataclasses
import json
import textwrap
from pathlib import Path

import jsonschema
import pytest

from redline.analysis.categories import CATEGORIES, Category
from redline.analysis.checks import check_rule
from redline.analysis.playbook.io import (
    MAX_BYTES,
    default_playbook,
    dump_playbook,
    load_playbook,
    playbook_from_dict,
    schema,
)
from redline.analysis.playbook.model import Playbook, PlaybookError

MINIMAL = {"format": "redline-playbook/1", "name": "Tiny", "rules": [
    {"key": "pay", "title": "Payment", "category": "payment_terms", "severity": "major"},
]}


def with_rule(**fields) -> dict:
    data = json.loads(json.dumps(MINIMAL))
    data["rules"][0].update(fields)
    return data


def test_schema_file_is_a_valid_draft_2020_12_schema_naming_all_26_categories():
    jsonschema.Draft202012Validator.check_schema(schema())
    enum = schema()["$defs"]["rule"]["properties"]["category"]["enum"]
    assert enum == list(CATEGORIES)
    assert len(Category) == 26


def test_default_playbook_has_at_least_20_rules_covering_the_issue_topics(playbook):
    assert len(playbook.enabled_rules) >= 20
    keys = {r.key for r in playbook.rules}
    topics = {
        "limitation-of-liability", "indemnity", "payment-terms", "late-payment", "termination-for-convenience",
        "termination-for-cause", "auto-renewal", "governing-law", "jurisdiction", "confidentiality", "ip-ownership",
        "license-scope", "warranties-and-disclaimers", "assignment", "non-solicitation", "data-protection",
        "force-majeure", "audit-rights", "insurance", "notices", "exclusivity", "service-levels",
    }
    assert topics <= keys
    for rule in playbook.rules:  # lawyer-facing content is present, not placeholders
        assert len(rule.guidance) > 150 and rule.preferred_position and rule.fallbacks, rule.key
        assert rule.examples, rule.key
        assert not rule.required or rule.suggested_language, rule.key


@pytest.mark.parametrize("rule_key,example", [
    (r.key, e) for r in default_playbook().rules for e in r.examples
], ids=lambda v: v if isinstance(v, str) else v.text[:40])
def test_every_default_example_is_flagged_or_passed_by_the_offline_engine(playbook, rule_key, example):
    hits = check_rule(playbook.rule(rule_key), example.text)
    assert bool(hits) == (example.expect == "flag"), [(h.kind, example.text[h.start:h.end]) for h in hits]


@pytest.mark.parametrize("fmt", ["yaml", "json"])
def test_round_trip_is_lossless(playbook, fmt):
    text = dump_playbook(playbook, fmt)
    again = load_playbook(text)
    assert again == playbook
    assert dump_playbook(again, fmt) == text
    assert [r.fingerprint for r in again.rules] == [r.fingerprint for r in playbook.rules]


def test_json_export_validates_against_the_schema(playbook):
    jsonschema.validate(json.loads(dump_playbook(playbook, "json")), schema())


def test_load_from_path_and_bytes(tmp_path):
    path = tmp_path / "p.json"
    path.write_text(json.dumps(MINIMAL))
    assert load_playbook(path) == load_playbook(path.read_bytes()) == playbook_from_dict(MINIMAL)
    assert load_playbook(path).rules[0].enabled and not load_playbook(path).rules[0].required


def test_fingerprint_changes_with_the_rule_only(playbook):
    rule = playbook.rules[0]
    edited = dataclasses.replace(rule, guidance=rule.guidance + " More.")
    assert edited.fingerprint != rule.fingerprint
    assert dataclasses.replace(rule).fingerprint == rule.fingerprint


def _error(source) -> PlaybookError:
    with pytest.raises(PlaybookError) as info:
        load_playbook(source) if isinstance(source, str | bytes | Path) else playbook_from_dict(source)
    return info.value


@pytest.mark.parametrize("data,code,path,words", [
    (with_rule(category="nope"), "schema", "/rules/0/category", "is not one of"),
    (with_rule(severity="high"), "schema", "/rules/0/severity", "critical, major, minor"),
    (with_rule(colour="red"), "schema", "/rules/0", "unknown field: 'colour'"),
    ({"format": "redline-playbook/1", "rules": []}, "schema", "", "missing field: 'name'"),
    ({**MINIMAL, "format": "other/2"}, "schema", "/format", "redline-playbook/1"),
    (with_rule(red_flags=[{"pattern": "(unclosed", "message": "m"}]), "bad_regex", "/rules/0/red_flags/0/pattern",
     "invalid regular expression"),
    (with_rule(red_flags=[{"pattern": "x", "message": "m", "context": "["}]), "bad_regex",
     "/rules/0/red_flags/0/context", "invalid"),
    (with_rule(red_flags=[{"pattern": "x(y)", "message": "m", "replacement": r"\g<nope>"}]), "bad_regex",
     "/rules/0/red_flags/0/replacement", "replacement template"),
    (with_rule(red_flags=[{"pattern": "the Supplier may", "message": "m", "reciprocal": True}]), "bad_flag",
     "/rules/0/red_flags/0/pattern", "{party}"),
    (with_rule(red_flags=[{"pattern": "x", "message": "m", "replacement": "y", "insert": "z"}]), "schema",
     "/rules/0/red_flags/0", ""),
    (with_rule(thresholds=[{"metric": "payment_days", "operator": "<=", "value": 60, "unit": "days", "near": "(pay"}]),
     "bad_regex", "/rules/0/thresholds/0/near", "invalid"),
    (with_rule(thresholds=[{"metric": "payment_days", "operator": "<=", "value": 60, "unit": "days", "near": "pay",
                            "per": "month"}]), "bad_threshold", "/rules/0/thresholds/0/per", "percent"),
    (with_rule(thresholds=[{"metric": "m", "operator": "≤", "value": 60, "unit": "days", "near": "pay"}]), "schema",
     "/rules/0/thresholds/0/operator", "is not one of"),
    ({**MINIMAL, "rules": MINIMAL["rules"] * 2}, "duplicate_key", "/rules/1/key", "also used by rule 0"),
])
def test_invalid_playbooks_fail_with_code_message_and_path(data, code, path, words):
    err = _error(data)
    assert (err.code, err.path) == (code, path)
    assert words in err.message
    assert path in str(err)


def test_every_problem_is_reported_at_once():
    rule = MINIMAL["rules"][0]
    schema = _error({**MINIMAL, "rules": [{**rule, "category": "nope"}, {**rule, "key": "b", "severity": "huge"}]})
    assert {path for path, _ in schema.problems} == {"/rules/0/category", "/rules/1/severity"}
    assert schema.problems[0] == (schema.path, schema.message)  # the headline problem first
    semantic = _error({**MINIMAL, "rules": [
        {**rule, "detect": ["(unclosed"]}, {**rule}, {**rule, "key": "c", "red_flags": [{"pattern": "[", "message": "m"}]}]})
    assert [path for path, _ in semantic.problems] == ["/rules/0/detect/0", "/rules/1/key", "/rules/2/red_flags/0/pattern"]
    assert "also used by rule 0" in semantic.problems[1][1]
    assert _error(with_rule(severity="high")).problems == (("/rules/0/severity", _error(with_rule(severity="high")).message),)


def test_syntax_errors_say_where():
    err = _error("format: redline-playbook/1\nname: [unclosed\nrules: []\n")
    assert err.code == "syntax" and "line" in err.message


def test_yaml_aliases_are_refused_so_an_upload_cannot_explode():
    bomb = textwrap.dedent("""\
        a: &a ["x", "x", "x", "x", "x", "x", "x", "x", "x"]
        b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]
        c: [*b, *b, *b, *b, *b, *b, *b, *b, *b]
    """)
    err = _error(bomb)
    assert err.code == "syntax" and "aliases" in err.message


def test_non_utf8_oversized_and_missing_files(tmp_path):
    assert _error(b"\xff\xfe\x00name").code == "syntax"
    assert _error(b"x" * (MAX_BYTES + 1)).code == "too_large"
    assert _error(tmp_path / "absent.yaml").code == "not_found"


def test_unknown_dump_format(playbook):
    with pytest.raises(ValueError, match="unknown playbook format"):
        dump_playbook(playbook, "toml")


def test_enabled_rules_and_lookup():
    pb = playbook_from_dict(with_rule(enabled=False))
    assert isinstance(pb, Playbook) and pb.enabled_rules == ()
    assert pb.rule("pay").title == "Payment"
    with pytest.raises(KeyError):
        pb.rule("absent")
