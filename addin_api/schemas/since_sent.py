from __future__ import annotations

from datetime import datetime

from ninja import Schema


class UntrackedOut(Schema):
    kind: str  # changed, inserted (added), deleted (removed)
    anchor: str | None
    before: str
    after: str
    severity: str  # critical (a number or an obligation word), major, minor


class TrackedOut(Schema):
    anchor: str | None  # the paragraph (its anchor, or an _anon_para_N placeholder)
    authors: list[str]  # who tracked changes there (not us)
    before: str  # the paragraph with their changes rejected
    after: str  # and accepted


class SinceSentOut(Schema):
    """What the other side did to the redline we sent: tracked by them, and changed without tracking."""

    sent_run: int  # the run whose redline was downloaded last before this version
    exported_at: datetime
    version_id: int
    untracked: list[UntrackedOut]
    tracked: list[TrackedOut]
