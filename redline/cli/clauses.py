"""The clause engine's subcommands: ``clauses``, ``clauses-train``, ``clauses-eval``, ``clauses-routing`` and
``clauses-placement``.

Registered, as every subcommand, through :func:`redline.cli.commands.command`.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .commands import EXIT_OK, InputError, command, read_input


@command
def add_clauses(sub: argparse._SubParsersAction) -> None:
    """``redline clauses``: which kinds of clause a contract has, and where."""
    p = sub.add_parser("clauses", help="clause overview of a .docx: each category present or absent, with passages")
    p.add_argument("--input", required=True, help=".docx contract")
    p.add_argument("--json", action="store_true", help="print the full report (passages with anchors) as JSON")
    p.add_argument("--model", help="model folder (default: the committed model)")
    p.set_defaults(handler=run_clauses)


def run_clauses(args: argparse.Namespace) -> int:
    """Read the document (anchored, as an upload is), classify, print."""
    from redline.clauses import analyse
    from redline.ooxml.paragraphs import read_document

    paragraphs = read_document(read_input(args.input), anchor=True).paragraphs
    report = analyse(paragraphs, model=_model(args.model) if args.model else None)
    if args.json:
        print(json.dumps(report.to_dict(), ensure_ascii=False, indent=1))
        return EXIT_OK
    width = max(len(name) for name in report.cuad)
    for name, finding in report.cuad.items():
        mark = "present" if finding.present else "absent "
        where = ""
        if finding.passages:
            top = finding.passages[0]
            where = f"  ¶{top.paragraph + 1} {top.text[:70]}"
        print(f"{name:<{width}}  {mark}  {finding.probability:5.2f}{where}")
    return EXIT_OK


@command
def add_clauses_train(sub: argparse._SubParsersAction) -> None:
    """``redline clauses-train``: rebuild the clause model from CUAD's train split."""
    p = sub.add_parser("clauses-train", help="train the clause model on the train split of a CUAD data set folder")
    p.add_argument("--data", required=True, help="the CUAD folder (contracts.jsonl.gz, gold.jsonl.gz, splits.json)")
    p.add_argument("--out", required=True, help="model folder to write (clauses.npz, model.json)")
    p.add_argument("--contracts", type=int, help="train on only the first N train contracts (for tests)")
    p.add_argument("--folds", type=int, default=3, help="out-of-fold calibration folds (default 3)")
    p.add_argument("--jobs", type=int, default=2, help="categories trained in parallel (default 2)")
    p.add_argument("--eval", action="store_true", help="then score the dev split and add the figures to model.json")
    p.set_defaults(handler=run_clauses_train)


def run_clauses_train(args: argparse.Namespace) -> int:
    """Train, write the model, optionally evaluate on dev."""
    from redline.clauses.train import TrainConfig, train

    dataset = _dataset(args.data)
    ids = dataset.splits["train"][: args.contracts] if args.contracts else None
    meta = train(args.data, args.out, config=TrainConfig(folds=args.folds, jobs=args.jobs), ids=ids, log=_stderr)
    if args.eval:
        meta["metrics"]["dev"] = _evaluate(args.data, Path(args.out))
        (Path(args.out) / "model.json").write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n")
    return EXIT_OK


@command
def add_clauses_eval(sub: argparse._SubParsersAction) -> None:
    """``redline clauses-eval``: score a model on CUAD's dev .docx files."""
    p = sub.add_parser("clauses-eval", help="score the clause model on the dev split (.docx) with the data set's scorer")
    p.add_argument("--data", required=True, help="the CUAD folder")
    p.add_argument("--model", help="model folder (default: the committed model)")
    p.add_argument("--out", default="clauses-dev.jsonl", help="predictions to write (a .md summary goes beside it)")
    p.add_argument("--system", default="model", choices=["model", "ask", "keywords"],
                   help="what to score: the model, `ask` with one plain question per category, or the keyword "
                        "baseline")
    p.add_argument("--questions", default="plain", metavar="SET",
                   help="with --system ask: the questions asked, `plain` (one per category, the default) or "
                        "`held-out-N` (each kind's N-th held-out phrasing, N = 1 to 5: wording the router never saw)")
    p.set_defaults(handler=run_clauses_eval)


def run_clauses_eval(args: argparse.Namespace) -> int:
    """Predict and score; print the macro and micro rows."""
    _dataset(args.data)
    from redline.clauses.model import MODEL_DIR

    summary = _evaluate(args.data, Path(args.model) if args.model else MODEL_DIR, out=Path(args.out),
                        system=args.system, questions=args.questions)
    print(json.dumps(summary, indent=1))
    return EXIT_OK


def _evaluate(data: str, model_dir: Path, out: Path | None = None, system: str = "model",
              questions: str = "plain") -> dict:
    import tempfile

    from redline.clauses import evaluate as ev

    out = out or Path(tempfile.mkdtemp(prefix="redline-clauses-")) / "dev-predictions.jsonl"
    predictors = {"model": lambda: ev.model_predictor(_model(str(model_dir))),
                  "ask": lambda: _ask_predictor(questions), "keywords": lambda: ev.keyword_predictor}
    return _summary(ev.evaluate(data, out, predictors[system]()))


def _ask_predictor(name: str) -> object:
    from redline.retrieval import ask_eval

    try:
        return ask_eval.questions_predictor(ask_eval.questions(name))
    except ValueError as exc:
        raise InputError("bad_questions", str(exc)) from None


def _stderr(line: str) -> None:
    print(line, file=sys.stderr)


def _summary(result: dict) -> dict:
    """The headline figures of a scorer result: macro and micro presence F1, R@5, chars@5 (in %)."""
    system = next(iter(result.values()))
    keys = ("P", "R", "F1", "AP", "R@1", "R@5", "item@5", "chars@5")
    return {avg: {k: _pct(k, system[avg].get(k)) for k in keys if k in system[avg]} for avg in ("macro", "micro")}


def _pct(key: str, value: float | None) -> float | None:
    if value is None:
        return None
    return round(value, 1) if key.startswith("chars") else round(100 * value, 1)


def _model(path: str) -> object:
    from redline.clauses import ClauseModel

    try:
        return ClauseModel.load(path)
    except (OSError, KeyError, ValueError) as exc:
        raise InputError("bad_model", f"cannot load the clause model from {path}: {exc}") from None


def _dataset(path: str) -> object:
    from redline.clauses.cuad import Dataset

    try:
        return Dataset(path)
    except (OSError, ValueError) as exc:
        raise InputError("bad_data", str(exc)) from None


@command
def add_clauses_routing(sub: argparse._SubParsersAction) -> None:
    """``redline clauses-routing``: what share of the gold clauses each playbook rule is shown."""
    p = sub.add_parser("clauses-routing", help="context recall of the review's routing on the dev split (.docx)")
    p.add_argument("--data", required=True, help="the CUAD folder")
    p.add_argument("--json", action="store_true", help="print the figures per rule as JSON")
    p.set_defaults(handler=run_clauses_routing)


def run_clauses_routing(args: argparse.Namespace) -> int:
    """Per rule: recall and characters with the engine's routing and with keywords alone (whole paragraphs),
    and with the engine's routing as a model is given it (a long paragraph's excerpt)."""
    _dataset(args.data)
    from redline.evaluation.routing_recall import measure

    figures = measure(args.data)
    rows = {key: {name: {"recall": round(t.recall, 1), "found": t.found, "spans": t.total, "chars": t.chars}
                  for name, t in views.items()} for key, views in figures.items()}
    total = {name: [sum(v[name][f] for v in rows.values()) for f in ("found", "spans", "chars")]
             for name in ("engine", "keywords", "batches")}
    if args.json:
        print(json.dumps({"rules": rows, "total": total}, indent=1))
        return EXIT_OK
    print(f"{'rule':<36} {'engine recall':>13} {'chars':>10} {'keywords recall':>15} {'chars':>10} "
          f"{'batches recall':>15} {'chars':>10}")
    for key, v in rows.items():
        print(f"{key:<36} {v['engine']['recall']:>12.1f}% {v['engine']['chars']:>10} "
              f"{v['keywords']['recall']:>14.1f}% {v['keywords']['chars']:>10} "
              f"{v['batches']['recall']:>14.1f}% {v['batches']['chars']:>10}")
    for name, (found, spans, chars) in total.items():
        # Two decimals and the counts: 1,245 of 1,311 is 94.97%, which one decimal would show as the 95.0% target.
        print(f"all rules, {name}: {found} of {spans} gold spans ({100 * found / max(1, spans):.2f}%), "
              f"{chars} characters")
    return EXIT_OK


@command
def add_clauses_placement(sub: argparse._SubParsersAction) -> None:
    """``redline clauses-placement``: where missing clauses are inserted, on CUAD's dev contracts."""
    p = sub.add_parser("clauses-placement",
                       help="take each clause out of the dev contracts and measure where the review puts it back")
    p.add_argument("--data", required=True, help="the CUAD folder (dev-docx/, gold.jsonl.gz, splits.json)")
    p.add_argument("--json", action="store_true", help="print every case and the summary as JSON")
    p.set_defaults(handler=run_clauses_placement)


def run_clauses_placement(args: argparse.Namespace) -> int:
    """Per playbook category and in all: same section, near, median distance, signature and front-matter
    insertions, substantive clauses after a general provision and numbers already taken, beside the append-before-the-signatures baseline."""
    _dataset(args.data)
    from dataclasses import asdict

    from redline.evaluation.placement_audit import measure, summary

    cases = measure(args.data)
    categories = sorted({c.category for c in cases})
    rows = {name: summary([c for c in cases if c.category == name]) for name in categories}
    if args.json:
        print(json.dumps({"cases": [asdict(c) for c in cases], "categories": rows, "total": summary(cases)},
                         indent=1))
        return EXIT_OK
    print(f"{'category':<26} {'cases':>5} {'same section':>12} {'near':>6} {'median':>7} {'signatures':>10} "
          f"{'front':>5} {'after general':>13} {'taken':>5}   baseline: {'same':>5} {'near':>6} {'median':>7}")
    for name, r in [*rows.items(), ("all", summary(cases))]:
        print(f"{name:<26} {r['cases']:>5} {r['same_section']:>11.1f}% {r['near']:>5.1f}% {r['median_distance']:>6.1f}% "
              f"{r['in_signatures']:>10} {r['in_front_matter']:>5} {r['after_general']:>13} {r['numbers_taken']:>5}   "
              f"{r['baseline_same_section']:>14.1f}% "
              f"{r['baseline_near']:>5.1f}% {r['baseline_median_distance']:>6.1f}%")
    return EXIT_OK
