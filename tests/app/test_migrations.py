"""The migrations are one line and match the models: two branches that each add a migration must be joined
before they land, or ``migrate`` refuses to run on every fresh machine."""

import pytest
from django.core.management import call_command
from django.db.migrations.loader import MigrationLoader


def test_one_leaf_per_app():
    conflicts = MigrationLoader(None, ignore_no_migrations=True).detect_conflicts()
    assert conflicts == {}


@pytest.mark.django_db
def test_models_have_no_unmigrated_change():
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)  # exits non-zero on a missing migration
