"""Shared fixtures: workspaces, members, API keys, and clients that use them."""

from __future__ import annotations

import os
from dataclasses import dataclass

import pytest
from django.test import Client

from redline.models import Membership, Role, Workspace
from redline.services.accounts import api_key_issue, membership_create, user_create, workspace_create
from tests.support.docx_builder import build_docx, para
from tests.support.written import WrittenFiles


@pytest.fixture(scope="session", autouse=True)
def engine_writes():
    """The spy on every file the engine writes, for the whole session (so a package
    opened in a session or module fixture still knows its input). Files written
    outside any test, by those fixtures, are judged when the session ends."""
    with pytest.MonkeyPatch.context() as mp:
        spy = WrittenFiles()
        spy.install(mp)
        yield spy
        spy.check()


@pytest.fixture(autouse=True)
def written_files(engine_writes: WrittenFiles):
    """Every file the engine writes in this test must pass the Open XML validator
    rule: no finding its input did not have (see ``tests/support/written.py``)."""
    outside, engine_writes.pairs = engine_writes.pairs, []
    try:
        yield engine_writes
        engine_writes.check()
    finally:
        engine_writes.pairs = outside


@dataclass
class Member:
    workspace: Workspace
    membership: Membership
    key: str
    password: str = "correct horse battery staple"

    def api(self) -> Client:
        return Client(HTTP_AUTHORIZATION=f"Bearer {self.key}")


def make_member(name: str, role: str = Role.ADMIN) -> Member:
    workspace = workspace_create(name=f"{name} LLP", slug=name.lower())
    user = user_create(username=name.lower(), password=Member.password)
    membership = membership_create(user=user, workspace=workspace, role=role)
    return Member(workspace, membership, api_key_issue(membership=membership).secret)


@pytest.fixture
def alice(db) -> Member:
    return make_member("Alice")


@pytest.fixture
def bob(db) -> Member:
    return make_member("Bob")


@pytest.fixture
def simple_docx() -> bytes:
    return build_docx(para("1. Definitions", style="Heading1") + para("The Supplier shall deliver the Goods."))


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """In CI a skipped test is a failure: a missing service must never pass silently."""
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = len(reporter.stats.get("skipped", [])) if reporter else 0
    if os.environ.get("CI") == "true" and skipped and exitstatus == 0:
        session.exitstatus = 1
        if reporter:
            reporter.write_line(f"CI: {skipped} test(s) skipped; skips are failures in CI", red=True)
