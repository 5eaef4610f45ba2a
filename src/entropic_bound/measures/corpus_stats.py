"""Data-side quantities of a tokenized corpus (App. B; protocol §E6). Pure numpy on token ids.

  lag MI        I_k = I(x_t; x_{t+k}) in bits, k = 1..K, from pair counts with the Miller-Madow
                bias correction: the plug-in I = H(a) + H(b) - H(a, b) over-estimates by about
                (m_ab - m_a - m_b + 1) / (2 N ln 2) bits (m = occupied cells, N = pairs), which
                grows with the vocabulary (~13% of the lag-64 MI on python)
  predicted rank exp(H(p)), p_k = I_k / sum_j I_j (the entropy rank of the lag-MI profile;
                a corrected I_k below zero, i.e. no detectable dependence, counts as 0)
  H1            H(x_t | x_{t-1}) in bits
  ridge operator W = argmin_W sum_t ||e(x_{t+1}) - W^T e(x_t)||^2 + lam N ||W||_F^2 with a fixed
                random embedding e: tokens -> R^m (N(0, 1/m) entries): its Reff and numerical
                rank (full rank = m) at the binding tolerance and at RIDGE_TOLS
  repeat operator R[a, b] = mean_k P(x_{t+k} = b | x_t = a) - P(b), k = 1..K: the token-space
                operator of what a context window can re-use; its Reff
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from entropic_bound.data.tokens import load_tokens
from entropic_bound.measures import spectra
from entropic_bound.plumbing.atomic import write_parquet


def _pair_counts(ids: np.ndarray, vocab: int, lag: int) -> np.ndarray:
    a, b = ids[:-lag].astype(np.int64), ids[lag:].astype(np.int64)
    return np.bincount(a * vocab + b, minlength=vocab * vocab).reshape(vocab, vocab)


RIDGE_TOLS = (1e-3, 1e-2, 1e-1)  # relative tolerances at which the ridge rank is reported


def _entropy_bits(p: np.ndarray) -> float:
    p = p[p > 0]
    return float(-(p * np.log2(p)).sum())


def _miller_madow_entropy_bits(counts: np.ndarray) -> float:
    """Plug-in entropy plus the Miller-Madow term (m - 1) / (2 N) nats, m occupied cells."""
    n = counts.sum()
    return _entropy_bits(counts / n) + (np.count_nonzero(counts) - 1) / (2.0 * n * np.log(2.0))


def lag_mutual_information(ids: np.ndarray, vocab: int, max_lag: int,
                           corrected: bool = True) -> np.ndarray:
    """I(x_t; x_{t+k}) in bits for k = 1..max_lag (Miller-Madow corrected unless
    ``corrected`` is False, which gives the plug-in estimate)."""
    if len(ids) <= max_lag:
        raise ValueError(f"{len(ids)} tokens are too few for lags up to {max_lag}")
    entropy = _miller_madow_entropy_bits if corrected else (
        lambda c: _entropy_bits(c / c.sum()))
    out = np.empty(max_lag)
    for k in range(1, max_lag + 1):
        joint = _pair_counts(ids, vocab, k).astype(np.float64)
        out[k - 1] = entropy(joint.sum(1)) + entropy(joint.sum(0)) - entropy(joint.ravel())
    return out


def conditional_entropy_h1(ids: np.ndarray, vocab: int) -> float:
    """H(x_t | x_{t-1}) = H(x_{t-1}, x_t) - H(x_{t-1}) in bits."""
    joint = _pair_counts(ids, vocab, 1) / (len(ids) - 1)
    return _entropy_bits(joint.ravel()) - _entropy_bits(joint.sum(1))


def ridge_operator(ids: np.ndarray, vocab: int, dim: int, lam: float, seed: int) -> np.ndarray:
    """The m x m next-token ridge operator in a fixed random embedding (module docstring)."""
    emb = np.random.default_rng(seed).standard_normal((vocab, dim)) / np.sqrt(dim)
    # X^T X and X^T Y through token counts: sum_t e(x_t) e(x_t)^T = E^T diag(c) E, etc.
    pairs = _pair_counts(ids, vocab, 1).astype(np.float64)
    n = pairs.sum()
    xtx = emb.T @ (pairs.sum(1)[:, None] * emb)
    xty = emb.T @ pairs @ emb
    return np.linalg.solve(xtx + lam * n * np.eye(dim), xty)


def repeat_operator(ids: np.ndarray, vocab: int, max_lag: int) -> np.ndarray:
    """R[a, b] = mean_k P(x_{t+k} = b | x_t = a) - P(b) over the tokens that occur."""
    counts = np.bincount(ids.astype(np.int64), minlength=vocab).astype(np.float64)
    seen = counts > 0
    marginal = counts[seen] / counts.sum()
    acc = np.zeros((seen.sum(), seen.sum()))
    for k in range(1, max_lag + 1):
        pairs = _pair_counts(ids, vocab, k)[np.ix_(seen, seen)].astype(np.float64)
        rows = pairs.sum(1, keepdims=True)
        acc += np.divide(pairs, rows, out=np.zeros_like(pairs), where=rows > 0)
    return acc / max_lag - marginal[None, :]


def corpus_stats(tokens: str, meta: str, out: str, *, corpus: str, max_lag: int,
                 ridge_dim: int, ridge_lambda: float, seed: int, tol: float) -> pd.DataFrame:
    """All data-side quantities of one corpus (training split) as one parquet row."""
    arrays, info = load_tokens(tokens, meta)
    ids, vocab = arrays["train"], info["vocab_size"]
    mi = lag_mutual_information(ids, vocab, max_lag)
    ridge = ridge_operator(ids, vocab, ridge_dim, ridge_lambda, seed)
    repeat = repeat_operator(ids, vocab, max_lag)
    frame = pd.DataFrame([{
        "corpus": corpus, "vocab_size": vocab, "tokens": len(ids),
        "predicted_rank": spectra.entropy_rank(np.clip(mi, 0.0, None)),
        "h1_bits": conditional_entropy_h1(ids, vocab),
        "ridge_dim": ridge_dim, "ridge_reff": spectra.reff(ridge),
        "ridge_numerical_rank": spectra.numerical_rank(ridge, tol),
        # numpy's default (sigma_1 max(m, n) machine epsilon): "full rank" read as invertible
        "ridge_rank_numpy": int(np.linalg.matrix_rank(ridge)),
        **{f"ridge_rank_tol{t:g}": spectra.numerical_rank(ridge, t) for t in RIDGE_TOLS},
        "repeat_reff": spectra.reff(repeat),
        "repeat_numerical_rank": spectra.numerical_rank(repeat, tol),
        "lag_mi_bits": mi.tolist()}])
    write_parquet(out, frame)
    return frame
