"""Create the demo workspace, admin user and API key (idempotent).

Secrets are printed once, when created: the password comes from
``REDLINE_DEMO_PASSWORD`` or is generated; the API key is generated. Running the
command again changes nothing unless ``--new-key`` or a new password is given.
"""

from __future__ import annotations

import os
import secrets

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction

from redline.models import Role, Workspace
from redline.services.accounts import api_key_issue, membership_create, user_create, workspace_create
from redline.services.playbooks import playbook_default_install

DEMO_SLUG = "demo"
DEMO_USER = "admin"


class Command(BaseCommand):
    help = "Create the demo workspace, an admin user and an API key (idempotent)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--new-key", action="store_true", help="Issue another API key even if one exists.")

    @transaction.atomic
    def handle(self, *args: object, **options: object) -> None:
        workspace = Workspace.objects.filter(slug=DEMO_SLUG).first() or workspace_create(name="Demo", slug=DEMO_SLUG)
        env_password = os.environ.get("REDLINE_DEMO_PASSWORD", "")
        user = get_user_model().objects.filter(username=DEMO_USER).first()
        if user is None:
            password = env_password or secrets.token_urlsafe(12)
            user = user_create(username=DEMO_USER, password=password)
            self.stdout.write(f"Demo user:     {DEMO_USER} / {password}  (shown once)")
        elif env_password and not user.check_password(env_password):
            user.set_password(env_password)
            user.save(update_fields=["password"])
            self.stdout.write(f"Demo user:     {DEMO_USER} / password reset from REDLINE_DEMO_PASSWORD")
        else:
            self.stdout.write(f"Demo user:     {DEMO_USER} (exists; set REDLINE_DEMO_PASSWORD to reset its password)")
        membership = membership_create(user=user, workspace=workspace, role=Role.ADMIN)
        if options["new_key"] or not membership.api_keys.filter(revoked_at__isnull=True).exists():
            issued = api_key_issue(membership=membership, name="demo")
            self.stdout.write(f"Demo API key:  {issued.secret}  (shown once)")
        else:
            self.stdout.write("Demo API key:  exists (run `manage.py demo --new-key` for another)")
        version = playbook_default_install(workspace=workspace)
        self.stdout.write(f"Workspace:     {workspace.name} ({workspace.slug})")
        self.stdout.write(f"Playbook:      {version.playbook.name} v{version.number} ({version.rules.count()} rules)")
