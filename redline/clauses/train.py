"""Training the clause model on CUAD's ``train`` split, deterministically.

1. Every training contract is cut into sentence units (the same code the
   product runs on .docx paragraphs) and each unit is labelled with the
   categories whose gold spans it overlaps.
2. One L2-regularised logistic regression per category over the hashed
   features (liblinear: deterministic, no random state).
3. Presence is calibrated out of fold: the contracts are dealt into folds,
   each fold is scored by a model trained on the others, and a Platt scaling
   of each contract's best sentence logit is fitted per category; the
   threshold is 0.7 (``recall_bias``, chosen on dev) times the one that
   maximises F1 on those out-of-fold predictions: a clause the engine
   misses is never shown to the reviewer, an extra passage costs a glance.
   No dev contract is read here.
4. Where the keyword search (``keywords.py``) decided presence better than
   the model did out of fold (a few rare categories), it decides presence
   there, with the training frequency of the clause given a hit or none as
   its probability; where a hit outside the headings almost always means
   the clause (:data:`KEYWORD_CONFIRMS`), such a hit lifts the probability
   to that frequency.
5. Per category, the ranking bonus of a keyword-matching sentence that
   ranked the clause's sentences best out of fold (:func:`_keyword_bonus`).
6. The weights are quantised to int8 per category and written with a
   metadata file (data version, split, counts, metrics, attribution).

scikit-learn is needed to train, never to run the model.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .cuad import Dataset, contract_units, unit_labels
from .features import FEATURE_VERSION, KEYWORD_NAMES, hashed, keyword_matches

# The ranking bonuses tried for a keyword match (logits), and the training precision from which a keyword hit
# alone makes a clause present (Governing Law: 97% of the contracts with a hit have one).
KEYWORD_BONUSES = (0.0, 0.5, 1.0, 2.0, 4.0)
KEYWORD_CONFIRMS = 0.95
ATTRIBUTION = ("Trained on CUAD v1 by The Atticus Project, Inc. (CC BY 4.0, "
               "https://creativecommons.org/licenses/by/4.0/); Hendrycks et al., CUAD: An Expert-Annotated NLP "
               "Dataset for Legal Contract Review, NeurIPS 2021, arXiv:2103.06268.")


@dataclass(frozen=True, slots=True)
class TrainConfig:
    """What a training run is made of; recorded in the metadata."""

    bits: int = 18
    c: float = 1.0
    folds: int = 3
    jobs: int = 2
    beta: float = 1.0
    recall_bias: float = 0.7


@dataclass
class _Matrix:
    x: object  # scipy.sparse.csr_matrix
    y: np.ndarray  # units x categories, bool
    contract_of: np.ndarray  # unit -> contract number
    present: np.ndarray  # contracts x categories, bool
    keyword_hit: np.ndarray  # contracts x categories, bool: a sentence matches the category's keyword search
    unit_hit: np.ndarray  # units x categories, bool: the unit matches the category's keyword search
    body_hit: np.ndarray  # contracts x categories, bool: a sentence that is not a heading matches it


def _matrix(dataset: Dataset, ids: list[str] | None, buckets: int) -> tuple[_Matrix, list[str]]:
    import scipy.sparse as sp

    units_all, labels_all, owner, present, matches, names = [], [], [], [], [], []
    for n, contract in enumerate(dataset.contracts("train", ids)):
        units, spans = contract_units(contract)
        units_all.extend(units)
        labels_all.extend(unit_labels(spans, contract.gold, dataset.categories))
        owner.extend([n] * len(units))
        present.append([bool(contract.gold.get(c)) for c in dataset.categories])
        matches.append(keyword_matches(units))
        names.append(contract.id)
    matched = np.concatenate(matches) if matches else np.zeros((0, len(KEYWORD_NAMES)), dtype=bool)
    idx, offsets = hashed(units_all, buckets, matched)
    x = sp.csr_matrix((np.ones(len(idx), dtype=np.float32), idx, offsets), shape=(len(units_all), buckets))
    x.sum_duplicates()
    y = np.zeros((len(units_all), len(dataset.categories)), dtype=bool)
    for i, labels in enumerate(labels_all):
        y[i, labels] = True
    unit_hit = np.zeros((len(units_all), len(dataset.categories)), dtype=bool)
    for k, name in enumerate(dataset.categories):
        if name in KEYWORD_NAMES:
            unit_hit[:, k] = matched[:, KEYWORD_NAMES.index(name)]
    owner_arr = np.asarray(owner, dtype=np.int64)
    hits = np.zeros((len(names), len(dataset.categories)), dtype=bool)
    np.logical_or.at(hits, owner_arr, unit_hit)
    body = np.zeros_like(hits)
    np.logical_or.at(body, owner_arr, unit_hit & ~np.asarray([u.is_heading for u in units_all], dtype=bool)[:, None])
    return _Matrix(x, y, owner_arr, np.asarray(present, dtype=bool).reshape(-1, len(dataset.categories)),
                   hits, unit_hit, body), names


def _keyword_presence(m: _Matrix, report: list[dict]) -> tuple[np.ndarray, np.ndarray]:
    """Per category: whether the keyword search decides presence better than the model did out of fold
    (then it does), and the training frequency of the clause given a hit and given none (Laplace-smoothed)."""
    use = np.zeros(m.present.shape[1], dtype=bool)
    probs = np.zeros((m.present.shape[1], 2))
    for k, row in enumerate(report):
        hit, t = m.keyword_hit[:, k], m.present[:, k]
        tp = float((hit & t).sum())
        f1 = 200 * tp / max(1.0, hit.sum() + t.sum())
        probs[k] = ((tp + 1) / (hit.sum() + 2), ((~hit & t).sum() + 1) / ((~hit).sum() + 2))
        row["keyword_f1"] = round(f1, 1)
        use[k] = row["f1"] is not None and f1 > row["f1"]
    return use, probs


def _keyword_confirms(m: _Matrix, by_keywords: np.ndarray) -> np.ndarray:
    """Per category, the training frequency of the clause given a keyword hit outside the headings, where it
    is at least :data:`KEYWORD_CONFIRMS` (else 0): such a hit makes the clause present. A heading is left
    out: "Notices and Governing Law" over a notices clause is no governing-law clause."""
    hit, t = m.body_hit, m.present
    prob = ((hit & t).sum(axis=0) + 1) / (hit.sum(axis=0) + 2)
    return np.where(~by_keywords & (prob >= KEYWORD_CONFIRMS), prob, 0.0).astype(np.float32)


def _keyword_bonus(oof: np.ndarray, m: _Matrix, k: int = 5) -> np.ndarray:
    """Per category, the logit bonus for a sentence matching its keyword search that ranks best out of fold.

    Measured as the share of a contract's clause sentences in its top ``k`` (of
    at most ``k``), averaged over the training contracts with the clause; a tie
    keeps the smaller bonus. The model already weighs the keyword as a feature
    among thousands; the bonus lets a lawyer's search lift a sentence where
    that ranked the clause better (Change Of Control, the rare categories).
    """
    bonus = np.zeros(m.y.shape[1], dtype=np.float32)
    order = np.argsort(m.contract_of, kind="stable")
    bounds = np.searchsorted(m.contract_of[order], np.arange(m.present.shape[0] + 1))
    for c in range(m.y.shape[1]):
        best = -1.0
        for b in KEYWORD_BONUSES:
            shares = []
            for n in np.flatnonzero(m.present[:, c]):
                rows = order[bounds[n]: bounds[n + 1]]
                positives = int(m.y[rows, c].sum())
                if positives:
                    top = np.argsort(-(oof[rows, c] + b * m.unit_hit[rows, c]), kind="stable")[:k]
                    shares.append(m.y[rows[top], c].sum() / min(k, positives))
            score = round(float(np.mean(shares)), 4) if shares else 0.0
            if score > best:
                best, bonus[c] = score, b
    return bonus


def _fit_column(x: object, y: np.ndarray, c: float) -> tuple[np.ndarray, float]:
    from sklearn.linear_model import LogisticRegression

    if not y.any():  # a category the slice never shows: never fires
        return np.zeros(x.shape[1], dtype=np.float32), -20.0
    model = LogisticRegression(C=c, solver="liblinear", max_iter=300)
    model.fit(x, y)
    return model.coef_[0].astype(np.float32), float(model.intercept_[0])


def _fit(x: object, y: np.ndarray, config: TrainConfig) -> tuple[np.ndarray, np.ndarray]:
    from joblib import Parallel, delayed

    columns = Parallel(n_jobs=config.jobs)(delayed(_fit_column)(x, y[:, k], config.c) for k in range(y.shape[1]))
    weights = np.stack([w for w, _ in columns], axis=1)
    bias = np.asarray([b for _, b in columns], dtype=np.float32)
    return weights, bias


def _best_per_contract(logits: np.ndarray, owner: np.ndarray, contracts: int) -> np.ndarray:
    best = np.full((contracts, logits.shape[1]), -np.inf, dtype=np.float64)
    np.maximum.at(best, owner, logits)
    return best


def _calibrate(best: np.ndarray, present: np.ndarray, beta: float = 1.0,
               recall_bias: float = 1.0) -> tuple[np.ndarray, np.ndarray, list[dict]]:
    """Platt scaling and the F-beta-best threshold per category, from out-of-fold best logits.

    ``beta`` > 1 weighs recall above precision: a clause the engine misses is
    never shown to the reviewer, an extra passage costs a glance.
    """
    from sklearn.linear_model import LogisticRegression

    calib = np.zeros((best.shape[1], 2))
    thresholds = np.ones(best.shape[1])
    report = []
    for k in range(best.shape[1]):
        s, t = best[:, k], present[:, k]
        if t.all() or not t.any():
            # Every training contract has it (the title, the parties) or none does: nothing to calibrate
            # against, so the best sentence's own probability is reported, and the threshold keeps 98% of
            # the training contracts (or, with no positives, never fires).
            calib[k] = (1.0, 0.0)
            prob = 1.0 / (1.0 + np.exp(-s))
            thresholds[k] = float(np.quantile(prob, 0.02)) if t.any() else 1.0
            report.append({"positives": int(t.sum()), "f1": None, "threshold": round(float(thresholds[k]), 4)})
            continue
        platt = LogisticRegression(C=1e4, solver="lbfgs").fit(s.reshape(-1, 1), t)
        calib[k] = (float(platt.coef_[0, 0]), float(platt.intercept_[0]))
        prob = 1.0 / (1.0 + np.exp(-(calib[k, 0] * s + calib[k, 1])))
        best_f, best_t, best_f1 = -1.0, 0.5, 0.0
        b2 = beta * beta
        for cut in np.unique(np.round(prob, 4)):
            pred = prob >= cut
            tp = float((pred & t).sum())
            f_beta = (1 + b2) * tp / (pred.sum() + b2 * t.sum())
            if f_beta > best_f + 1e-9:
                best_f, best_t, best_f1 = f_beta, float(cut), 2 * tp / (pred.sum() + t.sum())
        thresholds[k] = best_t * recall_bias
        report.append({"positives": int(t.sum()), "f1": round(100 * best_f1, 1), "threshold": round(best_t, 4)})
    return calib, thresholds, report


def _quantise(weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    scales = np.abs(weights).max(axis=0) / 127.0
    scales[scales == 0] = 1.0
    return np.round(weights / scales[None, :]).astype(np.int8), scales.astype(np.float32)


def train(data: str | Path, out: str | Path, *, config: TrainConfig | None = None, ids: list[str] | None = None,
          log: Callable[[str], None] = print) -> dict:
    """Train on the ``train`` split (or its contracts ``ids``), write ``out``, return the metadata."""
    config = config or TrainConfig()
    started = time.monotonic()
    dataset = Dataset(data)
    buckets = 2 ** config.bits
    m, names = _matrix(dataset, ids, buckets)
    log(f"{len(names)} contracts, {m.x.shape[0]} sentence units, {m.x.nnz} features set")
    folds = min(config.folds, len(names))
    fold_of = np.arange(len(names)) % folds
    oof = np.zeros(m.y.shape, dtype=np.float32)
    for f in range(folds):
        held = fold_of[m.contract_of] == f
        w, b = _fit(m.x[~held], m.y[~held], config)
        oof[held] = m.x[held] @ w + b
        log(f"fold {f + 1}/{folds} done ({time.monotonic() - started:.0f} s)")
    calib, thresholds, report = _calibrate(_best_per_contract(oof, m.contract_of, len(names)), m.present,
                                             config.beta, config.recall_bias)
    by_keywords, keyword_probability = _keyword_presence(m, report)
    confirms = _keyword_confirms(m, by_keywords)
    bonus = _keyword_bonus(oof, m)
    weights, bias = _fit(m.x, m.y, config)
    q, scales = _quantise(weights)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out / "clauses.npz", weights=q, scales=scales, bias=bias.astype(np.float32),
                        calibration=calib.astype(np.float32), threshold=thresholds.astype(np.float32),
                        keyword_presence=by_keywords, keyword_probability=keyword_probability.astype(np.float32),
                        keyword_bonus=bonus, keyword_confirms=confirms)
    f1s = [r["f1"] for r in report if r["f1"] is not None]
    meta = {
        "model": "hashed logistic regression over sentence units (words, bigrams, heading, caption, "
                 "title, position, shapes, keyword matches); presence = Platt-calibrated best sentence (lifted by a "
                 "keyword hit where a hit was nearly always the clause), or the keyword search where it was better "
                 "out of fold; ranking = logit + the category's out-of-fold keyword bonus",
        "presence_by_keywords": [c for c, use in zip(dataset.categories, by_keywords, strict=True) if use],
        "presence_confirmed_by_keywords": {c: round(float(p), 3)
                                           for c, p in zip(dataset.categories, confirms, strict=True) if p},
        "keyword_bonus": {c: float(b) for c, b in zip(dataset.categories, bonus, strict=True) if b},
        "feature_version": FEATURE_VERSION,
        "buckets": buckets,
        "categories": dataset.categories,
        "data": {"name": "CUAD v1", "version": dataset.version(), "split": "train", "contracts": len(names),
                 "units": int(m.x.shape[0])},
        "config": {"bits": config.bits, "c": config.c, "folds": folds, "beta": config.beta,
                   "recall_bias": config.recall_bias},
        "metrics": {"train_oof_presence_f1_macro": round(float(np.mean(f1s)), 1) if f1s else None,
                    "train_oof_presence": dict(zip(dataset.categories, report, strict=True))},
        "attribution": ATTRIBUTION,
        "license": "CC BY 4.0 (training data); the model is derived from it",
    }
    (out / "model.json").write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n")
    log(f"written {out} ({time.monotonic() - started:.0f} s)")
    return meta
