"""Rule-level edits as immutable versions: validation with paths, merges, conflicts, restore, import preview."""

from __future__ import annotations

import dataclasses

import pytest
import yaml

from redline.analysis.playbook.io import default_playbook, dump_playbook
from redline.errors import ApplicationError
from redline.services.playbook_diff import playbook_diff
from redline.services.playbook_edits import (
    playbook_import_apply,
    playbook_import_preview,
    playbook_version_restore,
    rule_create,
    rule_delete,
    rule_move,
    rule_set_enabled,
    rule_update,
)
from redline.services.playbooks import playbook_version_spec
from redline.services.rule_trial import rule_checkable, rule_try

NEW_RULE = {"key": "escrow", "title": "Source code escrow", "category": "intellectual_property", "severity": "minor",
            "keywords": ["escrow"]}


def keys(version) -> list[str]:
    return list(version.rules.order_by("position").values_list("key", flat=True))


@pytest.mark.django_db
def test_each_edit_is_a_new_version_and_old_versions_never_change(playbook, alice):
    before = keys(playbook)
    v2 = rule_create(base=playbook, spec=NEW_RULE, created_by=alice.membership.user)
    assert (v2.number, v2.note, keys(v2)) == (2, "add rule escrow", [*before, "escrow"])
    v3 = rule_set_enabled(base=v2, key="escrow", enabled=False)
    assert v3.rules.get(key="escrow").enabled is False and v3.rules.get(key="escrow").spec["enabled"] is False
    v4 = rule_move(base=v3, key="escrow", offset=-1)
    assert keys(v4)[-2:] == ["escrow", before[-1]]
    v5 = rule_update(base=v4, key="escrow", spec={**NEW_RULE, "title": "Escrow"})
    assert v5.rules.get(key="escrow").title == "Escrow" and v5.rules.get(key="escrow").enabled is True
    v6 = rule_delete(base=v5, key="escrow")
    assert keys(v6) == before
    assert keys(playbook) == before and keys(v2)[-1] == "escrow"  # history intact
    assert [v.number for v in playbook.playbook.versions.order_by("number")] == [1, 2, 3, 4, 5, 6]


@pytest.mark.django_db
def test_no_op_edits_create_nothing(playbook):
    assert rule_move(base=playbook, key=keys(playbook)[0], offset=-1).pk == playbook.pk
    assert rule_set_enabled(base=playbook, key="indemnity", enabled=True).pk == playbook.pk
    spec = playbook.rules.get(key="indemnity").spec
    assert rule_update(base=playbook, key="indemnity", spec=dict(spec)).pk == playbook.pk


@pytest.mark.django_db
def test_invalid_rules_fail_with_the_path_of_the_problem(playbook):
    with pytest.raises(ApplicationError) as dup:
        rule_create(base=playbook, spec={**NEW_RULE, "key": "indemnity"})
    assert dup.value.code == "duplicate_key" and dup.value.detail["path"].endswith("/key")
    bad_flag = {**NEW_RULE, "red_flags": [{"pattern": "(unclosed", "message": "m"}]}
    with pytest.raises(ApplicationError) as regex:
        rule_create(base=playbook, spec=bad_flag)
    assert regex.value.status == 422 and regex.value.detail["path"].endswith("/red_flags/0/pattern")
    assert playbook.playbook.versions.count() == 1


@pytest.mark.django_db
def test_a_rules_key_is_fixed_once_created(playbook):
    spec = playbook.rules.get(key="indemnity").spec
    with pytest.raises(ApplicationError) as renamed:
        rule_update(base=playbook, key="indemnity", spec={**spec, "key": "indemnities"})
    assert renamed.value.code == "key_fixed" and renamed.value.detail["path"].endswith("/key")
    assert playbook.playbook.versions.count() == 1


@pytest.mark.django_db
def test_concurrent_edits_merge_unless_they_touch_the_same_rule(playbook):
    theirs = rule_set_enabled(base=playbook, key="indemnity", enabled=False)
    # Ours started from v1 too but edits another rule: both changes survive.
    merged = rule_set_enabled(base=playbook, key="assignment", enabled=False)
    assert merged.number == theirs.number + 1
    assert not merged.rules.get(key="indemnity").enabled and not merged.rules.get(key="assignment").enabled
    # The same rule: refused, nothing stored.
    with pytest.raises(ApplicationError) as conflict:
        rule_update(base=playbook, key="indemnity", spec={**playbook.rules.get(key="indemnity").spec, "title": "X"})
    assert conflict.value.status == 409 and conflict.value.detail == {"latest": merged.number}
    with pytest.raises(ApplicationError) as gone:
        rule_delete(base=merged, key="no-such-rule")
    assert gone.value.status == 404


@pytest.mark.django_db
def test_restore_is_a_new_version_with_the_old_rules(playbook):
    v2 = rule_delete(base=playbook, key="indemnity")
    v3 = playbook_version_restore(version=playbook)
    assert v3.number == 3 and v3.note == "restore version 1" and keys(v3) == keys(playbook)
    assert playbook_version_restore(version=v3).pk == v3.pk  # already current
    assert "indemnity" not in keys(v2)


@pytest.mark.django_db
def test_import_preview_shows_rule_changes_and_apply_checks_the_base(playbook, alice):
    spec = playbook_version_spec(version=playbook)
    data = spec.to_dict()
    data["rules"] = [r for r in data["rules"] if r["key"] != "indemnity"]
    data["rules"][0]["title"] = "Liability cap"
    data["rules"].append(NEW_RULE)
    data["rules"][1], data["rules"][2] = data["rules"][2], data["rules"][1]
    source = yaml.safe_dump(data)
    preview = playbook_import_preview(workspace=alice.workspace, source=source)
    assert preview.playbook == playbook.playbook and preview.base == playbook
    changes = {c.key: c for c in preview.diff.rules}
    assert changes["indemnity"].change == "removed" and changes["escrow"].change == "added"
    assert changes["limitation-of-liability"].change == "changed" and changes["limitation-of-liability"].fields == ("title",)
    assert "+title: Liability cap" in changes["limitation-of-liability"].diff
    moved = {k for k, c in changes.items() if c.change == "moved"}
    assert len(moved) == 1
    assert preview.diff.summary.startswith("1 added, 1 changed, 1 moved, 1 removed")
    assert playbook.playbook.versions.count() == 1  # preview stores nothing

    rule_set_enabled(base=playbook, key="assignment", enabled=False)  # someone saves in between
    with pytest.raises(ApplicationError) as stale:
        playbook_import_apply(workspace=alice.workspace, source=source, base_number=1)
    assert stale.value.status == 409
    applied = playbook_import_apply(workspace=alice.workspace, source=source, base_number=2)
    assert applied.number == 3 and applied.note == "import" and "escrow" in keys(applied)


@pytest.mark.django_db
def test_an_export_imports_back_as_no_change(playbook, alice):
    source = dump_playbook(playbook_version_spec(version=playbook), "json")
    preview = playbook_import_preview(workspace=alice.workspace, source=source)
    assert preview.diff.is_empty
    assert playbook_import_apply(workspace=alice.workspace, source=source, base_number=1).pk == playbook.pk


@pytest.mark.django_db
def test_import_of_a_new_playbook_and_of_bad_files(alice):
    source = "format: redline-playbook/1\nname: NDA\nrules:\n  - {key: a, title: A, category: confidentiality, severity: major}\n"
    preview = playbook_import_preview(workspace=alice.workspace, source=source)
    assert preview.playbook is None and preview.base is None and preview.diff.count("added") == 1
    version = playbook_import_apply(workspace=alice.workspace, source=source, base_number=None)
    assert version.playbook.name == "NDA" and version.number == 1
    with pytest.raises(ApplicationError) as bad:
        playbook_import_preview(workspace=alice.workspace, source="format: redline-playbook/1\nname: X\nrules: [{key: B}]")
    assert bad.value.status == 422 and bad.value.detail["path"].startswith("/rules/0")


def test_diff_of_identical_content_is_empty():
    diff = playbook_diff(default_playbook(), default_playbook())
    assert diff.is_empty and diff.unchanged == len(default_playbook().rules) and diff.summary.startswith("no changes")


def test_try_a_rule_runs_the_offline_engine_on_pasted_paragraphs():
    rule = default_playbook().rule("payment-terms")
    text = "Definitions apply.\n\nThe Customer shall pay each undisputed invoice within ninety (90) days of receipt."
    findings = rule_try(rule=rule, text=text, acting_for="Supplier")
    assert [(f.paragraph, f.suggestion.kind.value, f.suggestion.new_text) for f in findings] == [
        (2, "replace", "sixty (60) days")]
    assert [f.suggestion.kind.value for f in rule_try(rule=rule, text=text)] == ["comment"]  # no side: it asks
    assert rule_try(rule=rule, text=text, acting_for="Customer") == []  # the Customer's own advantage
    assert rule_try(rule=rule, text="The Customer shall pay within thirty (30) days of receipt.") == []
    assert rule_try(rule=rule, text="  \n\n ") == []
    missing = rule_try(rule=default_playbook().rule("governing-law"), text="The Supplier shall deliver the Goods.")
    assert missing and missing[0].suggestion.source == "missing"
    with pytest.raises(ApplicationError):
        rule_try(rule=rule, text="x" * 20_001)
    prose = dataclasses.replace(rule, red_flags=(), thresholds=(), required=False,
                                preferred_position="Pay within thirty (30) days.")
    assert rule_checkable(rule=prose)  # its position's number is checked
    assert [f.suggestion.kind.value for f in rule_try(rule=prose, text=text)] == ["comment"]
    assert not rule_checkable(rule=dataclasses.replace(prose, preferred_position="Pay promptly."))
