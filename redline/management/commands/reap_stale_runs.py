"""``manage.py reap_stale_runs``: end runs whose job stopped making progress (for cron)."""

from __future__ import annotations

from datetime import timedelta

from django.core.management.base import BaseCommand, CommandParser

from redline.services.reaper import runs_reap_stale, stale_after


class Command(BaseCommand):
    help = "Mark runs whose job has not progressed for N minutes (REDLINE_STALE_RUN_MINUTES) as error."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--minutes", type=float, default=None,
                            help=f"staleness threshold (default: {stale_after().total_seconds() / 60:g})")

    def handle(self, *args: object, minutes: float | None = None, **options: object) -> None:
        reaped = runs_reap_stale(older_than=timedelta(minutes=minutes) if minutes is not None else None)
        self.stdout.write(f"reaped {len(reaped)} stale job(s)" + (f": {', '.join(map(str, reaped))}" if reaped else ""))
