"""``redline review-eval`` (the offline review's suggestions) and ``redline hygiene-eval`` (its drafting-hygiene
recall on planted defects), measured on CUAD's dev contracts; ``redline hygiene-terms``, the vocabulary the
undefined-term check ships, counted on the train contracts."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .commands import EXIT_OK, InputError, command, read_input


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


@command
def add_hygiene_eval(sub: argparse._SubParsersAction) -> None:
    """``redline hygiene-eval``: drafting defects planted in the dev contracts, and the review's recall of them."""
    p = sub.add_parser("hygiene-eval", help="plant drafting defects in CUAD's dev contracts and measure the "
                                            "review's hygiene recall, its findings on untouched contracts and its time")
    p.add_argument("--data", required=True, help="the CUAD folder (dev-docx/, splits.json)")
    p.add_argument("--seed", type=int, default=0, help="seed of the places and variants planted (default 0)")
    p.add_argument("--contracts", type=int, help="only the first K dev contracts (default: all)")
    p.add_argument("--per-kind", type=int, default=1, help="defects of each kind planted per contract (default 1)")
    p.add_argument("--kinds", help="comma-separated kinds to plant (default: every kind with an injector)")
    p.add_argument("--long", help="a long .docx to time the check on directly (make_contract.py --pages 100)")
    p.add_argument("--json", action="store_true", help="print every figure and every miss as JSON")
    p.add_argument("--sample", type=int, default=0, help="draw N findings on the untouched contracts to rate")
    p.add_argument("--sample-out", help="write the sample here (JSON, with empty rating and reason to fill)")
    p.set_defaults(handler=run_hygiene_eval)


def run_hygiene_eval(args: argparse.Namespace) -> int:
    """Print recall per kind, findings on the untouched contracts, the check's time and the sample."""
    from redline.evaluation.hygiene_eval import evaluate, time_long
    from redline.evaluation.hygiene_inject import INJECTORS

    data = Path(args.data)
    if not (data / "splits.json").is_file() or not (data / "dev-docx").is_dir():
        raise InputError("bad_data", f"{data} is not the CUAD folder (splits.json, dev-docx/)")
    kinds = tuple(args.kinds.split(",")) if args.kinds else tuple(INJECTORS)
    if set(kinds) - set(INJECTORS):
        raise InputError("bad_kinds", f"--kinds: no injector for {', '.join(sorted(set(kinds) - set(INJECTORS)))}")
    if (args.contracts is not None and args.contracts < 1) or args.per_kind < 1 or args.sample < 0:
        raise InputError("bad_count", "--contracts and --per-kind must be at least 1, --sample at least 0")
    try:
        ids = json.loads((data / "splits.json").read_text())["dev"][: args.contracts]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise InputError("bad_data", f"{data / 'splits.json'}: {exc}") from None
    long = read_input(args.long) if args.long else None
    figures = evaluate(data, seed=args.seed, ids=ids, per_kind=args.per_kind, kinds=kinds,
                       progress=lambda cid: print(cid, end=" ", file=sys.stderr, flush=True))
    print(file=sys.stderr)
    if long is not None:
        figures.long = time_long(long)
    out = figures.to_dict()
    sample = figures.sample(args.sample)
    if args.sample_out:
        Path(args.sample_out).write_text(json.dumps(sample, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    if args.json:
        print(json.dumps({**out, "sample": sample}, indent=1, ensure_ascii=False))
        return EXIT_OK
    _print_hygiene(out, sample)
    return EXIT_OK


@command
def add_hygiene_terms(sub: argparse._SubParsersAction) -> None:
    """``redline hygiene-terms``: count the terms contracts commonly define, on CUAD's train split."""
    p = sub.add_parser("hygiene-terms", help="count the multi-word terms CUAD's training contracts define (the "
                                             "undefined-term check's vocabulary)")
    p.add_argument("--data", required=True, help="the CUAD folder (contracts.jsonl.gz, splits.json)")
    p.add_argument("--min", type=int, default=4, help="defined in at least this many contracts (default 4)")
    p.add_argument("--out", help="write the vocabulary here (the product ships "
                                 "redline/retrieval/hygiene/common_terms.json); default: print it")
    p.set_defaults(handler=run_hygiene_terms)


def run_hygiene_terms(args: argparse.Namespace) -> int:
    """Count on train and print or write the vocabulary (JSON)."""
    from redline.evaluation.common_terms import common_terms

    data = Path(args.data)
    if not (data / "splits.json").is_file() or not (data / "contracts.jsonl.gz").is_file():
        raise InputError("bad_data", f"{data} is not the CUAD folder (splits.json, contracts.jsonl.gz)")
    if args.min < 1:
        raise InputError("bad_count", "--min must be at least 1")
    text = json.dumps(common_terms(data, args.min), indent=1, ensure_ascii=False) + "\n"
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    else:
        print(text, end="")
    return EXIT_OK


def _print_hygiene(out: dict, sample: list[dict]) -> None:
    print(f"contracts {out['contracts']}  pages {out['pages']}  seed {out['seed']}  per kind {out['per_kind']}")
    print(f"{'kind':<20} {'planted':>7} {'recalled':>8} {'recall':>7} {'no place':>8}")
    for kind, r in [*out["recall"].items(), ("all", {**out["all"], "no_place": ""})]:
        percent = "-" if r["percent"] is None else f"{r['percent']:.1f}%"
        print(f"{kind:<20} {r['injected']:>7} {r['recalled']:>8} {percent:>7} {r['no_place']!s:>8}")
    paths = out["words_digits_paths"]
    print("words_digits paths: " + ", ".join(f"{p} {v['recalled']}/{v['injected']}" for p, v in paths.items()))
    found = {k: v for k, v in out["untouched"].items() if v["findings"]}
    print(f"untouched contracts: {out['untouched_total']} findings" + "".join(
        f"\n  {k:<22} {v['findings']:>4} in {v['contracts']} contracts" for k, v in found.items()))
    t = out["timing"]
    print(f"check(): median {t['median_ms_per_contract']} ms per contract ({t['median_pages_per_contract']} pages), "
          f"{t['median_s_per_100_pages']} s per 100 pages (max {t['max_s_per_100_pages']}; target "
          f"{t['target_s_per_100_pages']})")
    if t["long"]:
        lg = t["long"]
        print(f"check() on the long contract: {lg['seconds']} s for {lg['pages']} pages "
              f"({lg['s_per_100_pages']} s per 100 pages)")
    for n, f in enumerate(sample, 1):
        print(f"\n[{n}] {f['contract']} {f['kind']} ({f['severity']}): {f['quote'][:100]!r}\n    {f['comment']}\n"
              f"    ¶ {f['paragraph']}")
