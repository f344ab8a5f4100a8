"""Playbooks in the database: immutable versions, idempotent import, faithful round trip."""

from __future__ import annotations

import dataclasses

import pytest

from redline.analysis.playbook.io import default_playbook, dump_playbook
from redline.errors import ApplicationError
from redline.models import PlaybookVersion, Rule
from redline.services.playbooks import (
    playbook_default_install,
    playbook_import,
    playbook_version_create,
    playbook_version_spec,
)


@pytest.mark.django_db
def test_default_playbook_round_trips_through_the_database(alice):
    version = playbook_default_install(workspace=alice.workspace)
    spec = default_playbook()
    assert version.number == 1 and version.rules.count() == len(spec.rules) >= 20
    assert playbook_version_spec(version=version).rules == spec.rules
    assert playbook_default_install(workspace=alice.workspace).pk == version.pk  # idempotent


@pytest.mark.django_db
def test_an_edit_makes_a_new_version_and_leaves_the_old_one_intact(alice):
    v1 = playbook_default_install(workspace=alice.workspace)
    spec = default_playbook()
    first = spec.rules[0]
    edited = dataclasses.replace(spec, rules=(dataclasses.replace(first, enabled=False), *spec.rules[1:]))
    v2 = playbook_version_create(workspace=alice.workspace, spec=edited, note="disable one rule")
    assert (v1.playbook_id, v2.number) == (v2.playbook_id, 2)
    assert Rule.objects.get(version=v1, key=first.key).enabled is True
    assert Rule.objects.get(version=v2, key=first.key).enabled is False
    assert playbook_version_spec(version=v1).rules == spec.rules


@pytest.mark.django_db
def test_import_yaml_and_json_and_reject_invalid_with_a_path(alice):
    yaml_text = dump_playbook(default_playbook(), "yaml")
    v = playbook_import(workspace=alice.workspace, source=yaml_text)
    assert playbook_import(workspace=alice.workspace, source=dump_playbook(default_playbook(), "json")).pk == v.pk
    broken = yaml_text.replace("severity: critical", "severity: apocalyptic", 1)
    with pytest.raises(ApplicationError) as err:
        playbook_import(workspace=alice.workspace, source=broken)
    assert err.value.status == 422 and "rules" in err.value.detail.get("path", "")
    assert PlaybookVersion.objects.count() == 1


@pytest.mark.django_db
def test_playbooks_are_per_workspace(alice, bob):
    a = playbook_default_install(workspace=alice.workspace)
    b = playbook_default_install(workspace=bob.workspace)
    assert a.playbook_id != b.playbook_id
