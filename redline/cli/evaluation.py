"""``redline review-eval``: the offline review's suggestions measured on CUAD's dev contracts."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .commands import EXIT_OK, InputError, command


@command
def add_review_eval(sub: argparse._SubParsersAction) -> None:
    """``redline review-eval``: on target, number changes, vocabulary and missing claims (docs/review-quality.md)."""
    p = sub.add_parser("review-eval", help="measure the offline review's suggestions on CUAD's dev contracts")
    p.add_argument("--data", required=True, help="the CUAD folder (dev-docx/, gold.jsonl.gz, splits.json)")
    p.add_argument("--split", choices=["dev"], default="dev", help="the split to measure (dev only: train trains)")
    p.add_argument("--sides", help="JSON {contract id: party acted for}; contracts not in it are reviewed "
                                   "without a side")
    p.add_argument("--only", help="comma-separated contract ids (default: the whole split)")
    p.add_argument("--json", dest="json_out", help="write every figure and every failing case here")
    p.set_defaults(handler=run_review_eval)


def run_review_eval(args: argparse.Namespace) -> int:
    """Print the summary table; ``--json`` writes the cases behind each figure."""
    from redline.analysis.pipeline import ReviewError
    from redline.evaluation.review_quality import evaluate

    data = Path(args.data)
    if not (data / "splits.json").is_file() or not (data / "dev-docx").is_dir():
        raise InputError("bad_data", f"{data} is not the CUAD folder (splits.json, dev-docx/)")
    try:
        sides = json.loads(Path(args.sides).read_text()) if args.sides else {}
    except (OSError, ValueError) as exc:
        raise InputError("bad_sides", f"--sides: {exc}") from None
    if not isinstance(sides, dict) or not all(isinstance(v, str) for v in sides.values()):
        raise InputError("bad_sides", "--sides: expected a JSON object of contract id to party name")
    split = json.loads((data / "splits.json").read_text())[args.split]
    ids = args.only.split(",") if args.only else split
    if set(ids) - set(split):
        raise InputError("bad_ids", f"--only: not in the {args.split} split: {', '.join(sorted(set(ids) - set(split)))}")
    try:
        figures = evaluate(data, sides=sides, ids=ids,
                           progress=lambda cid: print(cid, end=" ", file=sys.stderr, flush=True))
    except ReviewError as exc:  # a side that names no party of its contract
        raise InputError(exc.code, exc.message) from None
    print(file=sys.stderr)
    out = figures.to_dict()
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    t, n, m = out["on_target"], out["numbers"], out["missing"]
    print(f"contracts {out['contracts']}  suggestions {out['suggestions']}  {out['by_kind']}")
    print(f"on target          {t['hits']}/{t['scored']} ({t['percent']}%)")
    print(f"number changes     {n['changes']}  no-op {len(n['no_op'])}  wrong direction {len(n['wrong_direction'])}")
    print(f"new texts          {out['new_texts']}  foreign vocabulary {len(out['foreign_vocabulary'])}  "
          f"placeholders {len(out['placeholders'])}  spelling mismatches {len(out['spelling_mismatch'])}")
    print(f"asks               {m['asks']} ({m['asks_decided_by_cuad']} decided by CUAD, {m['asks_right']} right)")
    print(f"missing claims     {m['claims']} decided by CUAD, {m['right']} right ({m['precision']}%); "
          f"CUAD-absent {m['gold_absent']}, claimed or asked {m['gold_absent_claimed_or_asked']} ({m['recall']}%)")
    if m["silent"]:
        print("  neither claimed nor asked: " + ", ".join(f"{x['contract']} {x['rule']}" for x in m["silent"]))
    return EXIT_OK


@command
def add_review_ratings(sub: argparse._SubParsersAction) -> None:
    """``redline review-ratings``: a lawyer-rated set's shares and the validator's verdicts against them."""
    p = sub.add_parser("review-ratings", help="summarise a lawyer-rated suggestion set (docs/review-ratings/)")
    p.add_argument("file", help="ratings JSON: a list of {rating, validator, still_proposed?, ...}")
    p.set_defaults(handler=run_review_ratings)


def run_review_ratings(args: argparse.Namespace) -> int:
    """Print the summary as JSON."""
    from redline.evaluation.review_quality import ratings_summary

    try:
        records = json.loads(Path(args.file).read_text(encoding="utf-8"))
        summary = ratings_summary(records)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise InputError("bad_ratings", f"{args.file}: {exc}") from None
    print(json.dumps(summary, indent=1))
    return EXIT_OK
