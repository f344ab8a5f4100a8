"""The team page and a new workspace's first playbook, through Django's test client on the real database.

Each change is checked in the database and the audit log; the last admin cannot be removed
or demoted; reviewers get 403 and see no controls; another workspace's members are 404s and
never listed; an empty workspace offers its admin the default playbook and tells a reviewer whom to ask.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client

from redline.models import AuditEvent, Membership, Playbook, Role, Workspace
from redline.services.accounts import api_key_authenticate, api_key_issue, membership_create, user_create
from redline.services.documents import document_version_create
from tests.dashboard.conftest import HTMX, PASSWORD, login
from tests.support.world import assert_unchanged, database_snapshot


def role_of(membership: Membership) -> str:
    return Membership.objects.get(pk=membership.pk).role


@pytest.mark.django_db
def test_the_team_page_lists_this_workspaces_members_only(admin, alice, carol, bob):
    page = admin.get("/team/").content.decode()
    assert "<h1>Team</h1>" in page and 'aria-current="page">Team</a>' in page
    assert "alice" in page and "carol" in page and "bob" not in page
    assert f'id="member-{carol.pk}"' in page and f'/team/members/{carol.pk}/role/' in page
    assert f'/team/members/{alice.membership.pk}/role/' not in page  # the only admin: no control to lose them
    assert "the only admin" in page
    fragment = admin.get("/team/", **HTMX).content.decode()
    assert fragment.lstrip().startswith('<div id="team">') and "<html" not in fragment


@pytest.mark.django_db
def test_an_admin_creates_a_workspace_becomes_its_admin_and_can_switch_to_it(admin, alice):
    resp = admin.post("/team/workspaces/new/", {"name": "Alice Litigation"})
    assert resp.status_code == 302 and resp["Location"] == "/team/"
    workspace = Workspace.objects.get(name="Alice Litigation")
    mine = Membership.objects.get(workspace=workspace)
    assert mine.user == alice.membership.user and mine.role == Role.ADMIN
    event = AuditEvent.objects.get(action="workspace.create")
    assert event.workspace == workspace and event.actor == alice.membership.user
    assert "Switch to it with the Workspace menu" in admin.get("/team/").content.decode()
    admin.post("/workspace/", {"workspace": workspace.pk})
    team = admin.get("/team/").content.decode()
    assert "Who works in <strong>Alice Litigation</strong>" in team and "carol" not in team
    again = admin.post("/team/workspaces/new/", {"name": "Alice Litigation"})  # same name: its own slug
    assert again.status_code == 302 and Workspace.objects.filter(name="Alice Litigation").count() == 2
    blank = admin.post("/team/workspaces/new/", {"name": "   "})
    assert blank.status_code == 422 and "This field is required" in blank.content.decode()


@pytest.mark.django_db
def test_add_an_existing_account_by_username_or_email(admin, alice, bob):
    resp = admin.post("/team/members/add/", {"add-who": "bob", "add-role": "reviewer"}, **HTMX)
    body = resp.content.decode()
    assert resp.status_code == 200 and body.lstrip().startswith('<div id="team">')
    assert "bob added as a reviewer." in body
    added = Membership.objects.get(workspace=alice.workspace, user__username="bob")
    assert added.role == Role.REVIEWER
    event = AuditEvent.objects.get(action="membership.add")
    assert event.actor == alice.membership.user and event.detail == {"user": "bob", "role": "reviewer",
                                                                    "new_account": False}
    user_create(username="erin", password=PASSWORD, email="erin@example.com")
    plain = admin.post("/team/members/add/", {"add-who": "ERIN@example.com", "add-role": "admin"})
    assert plain.status_code == 302 and plain["Location"] == "/team/"
    assert Membership.objects.get(workspace=alice.workspace, user__username="erin").role == Role.ADMIN

    again = admin.post("/team/members/add/", {"add-who": "bob", "add-role": "admin"}, **HTMX)
    assert again.status_code == 409 and again["X-Redline-Error"] == "refused"
    assert "bob is already a member of Alice LLP." in again.content.decode() and role_of(added) == Role.REVIEWER
    unknown = admin.post("/team/members/add/", {"add-who": "nobody", "add-role": "reviewer"}, **HTMX)
    assert unknown.status_code == 422 and "No account has the username or email" in unknown.content.decode()
    assert 'autofocus' in unknown.content.decode()  # the cursor goes back to the field to fix


@pytest.mark.django_db
def test_create_an_account_shows_its_password_once(admin, alice):
    resp = admin.post("/team/members/new/", {"new-username": "dave", "new-email": "dave@example.com",
                                             "new-role": "reviewer"}, **HTMX)
    body = resp.content.decode()
    assert resp.status_code == 200 and "no-store" in resp["Cache-Control"]
    password = re.search(r'id="new-password" class="code" value="([^"]+)"', body).group(1)
    assert "Account created for dave" in body and len(password) >= 16
    assert login_with("dave", password).get("/").status_code == 200  # signs in, lands in Alice LLP
    assert password not in admin.get("/team/").content.decode()
    event = AuditEvent.objects.get(action="membership.add")
    assert event.detail["new_account"] is True and password not in str(event.detail)
    taken = admin.post("/team/members/new/", {"new-username": "Dave", "new-role": "reviewer"}, **HTMX)
    assert taken.status_code == 409 and "The username “Dave” is taken" in taken.content.decode()
    same_email = admin.post("/team/members/new/", {"new-username": "dave2", "new-email": "DAVE@example.com",
                                                   "new-role": "reviewer"})
    assert same_email.status_code == 409 and "already uses DAVE@example.com" in same_email.content.decode()


def login_with(username: str, password: str) -> Client:
    client = Client()
    assert client.login(username=username, password=password)
    return client


@pytest.mark.django_db
def test_change_a_role(admin, alice, carol):
    resp = admin.post(f"/team/members/{carol.pk}/role/", {"role": "admin"}, **HTMX)
    assert resp.status_code == 200 and "carol is now an admin." in resp.content.decode()
    assert role_of(carol) == Role.ADMIN
    event = AuditEvent.objects.get(action="membership.role_change")
    assert event.actor == alice.membership.user and event.target == f"membership:{carol.pk}"
    assert event.detail == {"user": "carol", "from": "reviewer", "to": "admin"}
    assert login("carol").get("/team/").status_code == 200  # an admin now
    back = admin.post(f"/team/members/{carol.pk}/role/", {"role": "reviewer"})
    assert back.status_code == 302 and role_of(carol) == Role.REVIEWER
    assert admin.post(f"/team/members/{carol.pk}/role/", {"role": "owner"}, **HTMX).status_code == 422


@pytest.mark.django_db
def test_remove_a_member_and_their_keys(admin, alice, carol):
    key = api_key_issue(membership=carol, name="carol's laptop")
    resp = admin.post(f"/team/members/{carol.pk}/remove/", **HTMX)
    assert resp.status_code == 200 and "carol removed from Alice LLP." in resp.content.decode()
    assert not Membership.objects.filter(pk=carol.pk).exists()
    assert api_key_authenticate(secret=key.secret) is None
    assert login("carol").get("/").status_code == 403  # in no workspace any more
    event = AuditEvent.objects.get(action="membership.remove")
    assert event.actor == alice.membership.user and event.detail == {"user": "carol", "role": "reviewer",
                                                                    "api_keys": 1}


@pytest.mark.django_db
@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain-post"])
def test_the_last_admin_can_be_neither_removed_nor_demoted(admin, alice, carol, htmx):
    me = alice.membership
    before = database_snapshot()
    for url, data in ((f"/team/members/{me.pk}/remove/", {}), (f"/team/members/{me.pk}/role/", {"role": "reviewer"})):
        resp = admin.post(url, data, **(HTMX if htmx else {}))
        body = resp.content.decode()
        assert resp.status_code == 409 and resp["X-Redline-Error"] == "refused", url
        assert "alice is the only admin of Alice LLP" in body and "make another member an admin first" in body
        assert body.lstrip().startswith('<div id="team">') == htmx
    assert_unchanged(before)
    assert not AuditEvent.objects.filter(action__startswith="membership.").exists()


@pytest.mark.django_db
def test_an_admin_with_a_colleague_admin_may_step_down(admin, alice, carol):
    membership_create(user=carol.user, workspace=alice.workspace, role=Role.ADMIN)
    resp = admin.post(f"/team/members/{alice.membership.pk}/role/", {"role": "reviewer"}, **HTMX)
    assert resp.status_code == 200 and resp["HX-Redirect"] == "/"  # the team page is no longer theirs
    assert role_of(alice.membership) == Role.REVIEWER
    carol_admin = login("carol")
    assert carol_admin.post(f"/team/members/{carol.pk}/role/", {"role": "reviewer"}).status_code == 409
    assert carol_admin.post(f"/team/members/{alice.membership.pk}/remove/").status_code == 302


@pytest.mark.django_db
def test_reviewers_get_403_and_no_team_controls(reviewer, alice, carol, bob):
    me = alice.membership
    before = database_snapshot()
    forbidden = [
        ("get", "/team/", None), ("post", "/team/workspaces/new/", {"name": "Mine"}),
        ("post", "/team/members/add/", {"add-who": "bob", "add-role": "admin"}),
        ("post", "/team/members/new/", {"new-username": "eve", "new-role": "admin"}),
        ("post", f"/team/members/{carol.pk}/role/", {"role": "admin"}),
        ("post", f"/team/members/{me.pk}/role/", {"role": "reviewer"}), ("post", f"/team/members/{me.pk}/remove/", {}),
        ("post", "/playbooks/install-default/", {}),
    ]
    for method, url, data in forbidden:
        assert getattr(reviewer, method)(url, data).status_code == 403, (method, url)
    assert_unchanged(before)
    home = reviewer.get("/").content.decode()
    assert "/team/" not in home and ">Team</a>" not in home


@pytest.mark.django_db
def test_another_workspaces_members_are_404_and_never_listed(admin, alice, bob):
    theirs = bob.membership
    before = database_snapshot()
    assert admin.post(f"/team/members/{theirs.pk}/role/", {"role": "reviewer"}).status_code == 404
    assert admin.post(f"/team/members/{theirs.pk}/remove/").status_code == 404
    assert admin.post(f"/team/members/{theirs.pk}/remove/", **HTMX).status_code == 404
    assert admin.post("/team/members/999999/role/", {"role": "admin"}).status_code == 404  # same as a missing id
    assert_unchanged(before)
    assert "bob" not in admin.get("/team/").content.decode()
    assert "alice" not in login("bob").get("/team/").content.decode()


@pytest.mark.django_db
def test_an_empty_workspace_offers_its_admin_the_default_playbook(admin, reviewer, alice, simple_docx):
    version, *_ = document_version_create(workspace=alice.workspace, data=simple_docx, filename="msa.docx",
                                          uploaded_by=None)
    url = f"/documents/{version.document_id}/"
    page = admin.get(url).content.decode()
    assert "This workspace has no playbook yet" in page and "Install the default playbook</button>" in page
    assert f'name="next" value="{url}"' in page and 'href="/playbooks/#new-playbook">Create a playbook' in page
    assert 'name="playbook"' not in page
    asked = reviewer.get(url).content.decode()
    assert "ask an admin of Alice LLP to install the default playbook" in asked
    assert "Install the default playbook</button>" not in asked

    resp = admin.post("/playbooks/install-default/", {"next": url})
    assert resp.status_code == 302 and resp["Location"] == url
    playbook = Playbook.objects.get(workspace=alice.workspace)
    installed = playbook.versions.get()
    assert installed.rules.count() == 24 and installed.created_by == alice.membership.user
    assert AuditEvent.objects.get(action="playbook.version_create").actor == alice.membership.user
    after = admin.get(url).content.decode()
    assert 'name="playbook"' in after and "Review this version" in after and "no playbook yet" not in after
    assert "rules). Choose it to review a contract." in after
    elsewhere = admin.post("/playbooks/install-default/", {"next": "https://evil.example/"})
    assert elsewhere["Location"] == "/playbooks/" and playbook.versions.count() == 1  # idempotent, stays on site
