"""``redline bench``: time reading and writing as whole processes (:mod:`redline.bench`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .commands import EXIT_OK, InputError, command


@command
def add_bench(sub: argparse._SubParsersAction) -> None:
    """``redline bench``: time reading and writing on generated contracts."""
    p = sub.add_parser("bench", help="benchmark read and apply-ops on generated contracts (whole processes)")
    p.add_argument("--pages", default="10,100,300", help="comma-separated contract sizes in pages")
    p.add_argument("--repeat", type=int, default=5, help="runs per measurement (median reported)")
    p.add_argument("--workdir", default="bench-out", help="where generated contracts and outputs go")
    p.add_argument("--openai-latency", type=float, default=1.5,
                   help="also run `redline review --provider openai` on 20- and 100-page contracts against a "
                        "loopback server answering after this many seconds per call (0 to skip)")
    p.add_argument("--revisions", type=int, metavar="N", default=0,
                   help="instead: accept, reject and extract on contracts given about N tracked changes "
                        "(e.g. --pages 300 --revisions 2000), beside pandoc's own accept")
    p.set_defaults(handler=run_bench)


def run_bench(args: argparse.Namespace) -> int:
    """Generate contracts once, then run each measurement as fresh processes."""
    from redline.bench.processes import run

    try:
        pages = [int(x) for x in args.pages.split(",") if x.strip()]
    except ValueError:
        raise InputError("bad_arguments", f"--pages must be comma-separated integers, not {args.pages!r}") from None
    if not pages or min(pages) < 1 or args.repeat < 1 or args.revisions < 0:
        raise InputError("bad_arguments", "--pages and --repeat must be positive, --revisions not negative")
    if args.revisions:
        from redline.bench.revisions import run_revisions

        run_revisions(pages, count=args.revisions, repeat=args.repeat, workdir=Path(args.workdir), out=sys.stdout)
        return EXIT_OK
    run(pages, repeat=args.repeat, workdir=Path(args.workdir), out=sys.stdout)
    from redline.bench.overview import overview_rows  # the run page of the largest contract, reviewed

    overview_rows(pages, repeat=args.repeat, workdir=Path(args.workdir), out=sys.stdout)
    from redline.bench.analytics import analytics_row  # the analytics page of a workspace in use

    analytics_row(pages, repeat=args.repeat, workdir=Path(args.workdir), out=sys.stdout)
    from redline.bench.compare import compare_rows  # two versions into a redline, beside a public comparer

    compare_rows(pages, repeat=args.repeat, workdir=Path(args.workdir), out=sys.stdout)
    if args.openai_latency > 0:
        from redline.bench.model_path import model_rows  # the path users run, batching and all

        model_rows([20, 100], latency=args.openai_latency, workdir=Path(args.workdir), out=sys.stdout)
    return EXIT_OK
