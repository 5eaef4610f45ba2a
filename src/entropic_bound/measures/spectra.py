"""Spectral complexity measures of a matrix (paper Section 3, eqs. 1-3; protocol §1).

Pure numpy, float64 throughout. Every measure of the zero matrix is 0 (never NaN), so a
collapsed student or an empty estimate aggregates cleanly.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "singular_values",
    "entropy_rank",
    "product_singular_values",
    "reff",
    "reff_energy",
    "rstable",
    "numerical_rank",
    "gavish_donoho_omega",
    "gavish_donoho_rank",
    "gap_rank",
    "mp_correct",
    "measures",
    "reff_stack",
]


def singular_values(m: np.ndarray) -> np.ndarray:
    """Singular values of ``m`` in float64, descending."""
    m = np.asarray(m, dtype=np.float64)
    if m.ndim != 2:
        raise ValueError(f"expected a matrix, got an array of shape {m.shape}")
    if m.size == 0:
        return np.zeros(0)
    return np.linalg.svd(m, compute_uv=False)


def product_singular_values(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Singular values of a @ b.T for thin factors a (p x k) and b (q x k), k <= p, q: those
    of R_a R_b^T with a = Q_a R_a and b = Q_b R_b (Q orthonormal), a k x k problem instead of
    p x q (a d_model x d_model head kernel of rank d_head costs one d_head x d_head SVD)."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if a.shape[1] >= min(a.shape[0], b.shape[0]):
        return singular_values(a @ b.T)
    return singular_values(np.linalg.qr(a, mode="r") @ np.linalg.qr(b, mode="r").T)


def entropy_rank(weights: np.ndarray) -> float:
    """exp(-sum p_i log p_i) for p = weights / sum(weights); 0 for all-zero weights."""
    total = weights.sum()
    if total <= 0.0:
        return 0.0
    p = weights[weights > 0] / total
    return float(np.exp(-(p * np.log(p)).sum()))


def reff(m: np.ndarray) -> float:
    """Effective rank (eq. 1): exp(H(p)), p_i = sigma_i / sum_j sigma_j (Roy & Vetterli 2007)."""
    return entropy_rank(singular_values(m))


def reff_energy(m: np.ndarray) -> float:
    """Energy effective rank (eq. 2): exp(H(p~)), p~_i = sigma_i^2 / sum_j sigma_j^2."""
    return entropy_rank(singular_values(m) ** 2)


def _rstable(s: np.ndarray) -> float:
    if s.size == 0 or s[0] == 0.0:
        return 0.0
    return float((s**2).sum() / s[0] ** 2)


def rstable(m: np.ndarray) -> float:
    """Stable rank (eq. 3): ||M||_F^2 / ||M||_2^2; 0 for the zero matrix."""
    return _rstable(singular_values(m))


def _numerical_rank(s: np.ndarray, tol: float) -> int:
    if s.size == 0 or s[0] == 0.0:
        return 0
    return int((s > tol * s[0]).sum())


def numerical_rank(m: np.ndarray, tol: float) -> int:
    """Number of singular values above ``tol * sigma_1`` (relative threshold, protocol §1)."""
    return _numerical_rank(singular_values(m), tol)


def rank_margins(m: np.ndarray, tol: float) -> dict[str, float]:
    """How clearly the numerical rank k (relative ``tol``) is read: ``kept_over_tol`` =
    (sigma_k / sigma_1) / tol, the smallest kept singular value over the threshold (> 1), and
    ``dropped_over_tol`` = (sigma_{k+1} / sigma_1) / tol, the first dropped one over it (< 1;
    NaN at full rank). Both near 1: a small change of the noise or of ``tol`` moves the rank."""
    s = singular_values(m)
    k = _numerical_rank(s, tol)
    if k == 0:
        return {"kept_over_tol": np.nan, "dropped_over_tol": np.nan}
    return {"kept_over_tol": float(s[k - 1] / s[0] / tol),
            "dropped_over_tol": float(s[k] / s[0] / tol) if k < len(s) else np.nan}


def gavish_donoho_omega(beta: float) -> float:
    """Optimal hard-threshold coefficient for unknown noise (Gavish & Donoho 2014, eq. 5).

    omega(beta) ~= 0.56 beta^3 - 0.95 beta^2 + 1.82 beta + 1.43, beta = aspect ratio <= 1.
    The threshold is omega(beta) * median singular value.
    """
    if not 0.0 < beta <= 1.0:
        raise ValueError(f"aspect ratio beta must lie in (0, 1], got {beta}")
    return 0.56 * beta**3 - 0.95 * beta**2 + 1.82 * beta + 1.43


def gavish_donoho_rank(m: np.ndarray) -> int:
    """Number of singular values above the Gavish-Donoho optimal hard threshold (unknown noise).

    A noise-aware count: the threshold omega(beta) * median(sigma) scales with the noise bulk,
    so it does not depend on an arbitrary relative tolerance.
    """
    return _gavish_donoho_rank(singular_values(m), np.shape(m))


def _gavish_donoho_rank(s: np.ndarray, shape: tuple[int, ...]) -> int:
    if s.size == 0 or s[0] == 0.0:
        return 0
    beta = min(shape) / max(shape)
    return int((s > gavish_donoho_omega(beta) * np.median(s)).sum())


def gap_rank(m: np.ndarray) -> int:
    """Largest-gap rank: the k maximising sigma_k / sigma_{k+1} over the nonzero singular values
    (a scale-free count with no tolerance; 0 for the zero matrix, the size for one nonzero)."""
    s = singular_values(m)
    s = s[s > 0]
    if s.size <= 1:
        return int(s.size)
    return int(np.argmax(s[:-1] / s[1:]) + 1)


def mp_correct(r_hat: float, m: int, n: int) -> float:
    """Invert the Marchenko-Pastur finite-sample correction (Theorem 8).

    R_hat = R_true + (m - R_true) / (2n)  =>  R_true = (2n R_hat - m) / (2n - 1),
    with m the matrix dimension and n the number of samples.
    """
    if n < 1:
        raise ValueError(f"sample count n must be >= 1, got {n}")
    return (2 * n * r_hat - m) / (2 * n - 1)


def measures(m: np.ndarray, tol: float) -> dict[str, float]:
    """All spectral measures of ``m`` as one flat dict (the columns of every measure table)."""
    s = singular_values(m)  # one SVD for all five measures
    return {
        "reff": entropy_rank(s),
        "reff_energy": entropy_rank(s**2),
        "rstable": _rstable(s),
        "numerical_rank": _numerical_rank(s, tol),
        "gd_rank": _gavish_donoho_rank(s, np.shape(m)),
    }


def reff_stack(ms: np.ndarray, energy: bool = False) -> np.ndarray:
    """Reff (eq. 1) or, with ``energy``, R~eff (eq. 2) of each matrix of a stack (..., p, q)."""
    s = np.linalg.svd(np.asarray(ms, dtype=np.float64), compute_uv=False)
    w = s**2 if energy else s
    total = w.sum(axis=-1, keepdims=True)
    p = np.divide(w, total, out=np.zeros_like(w), where=total > 0)
    plogp = np.where(p > 0, p * np.log(np.where(p > 0, p, 1.0)), 0.0)
    return np.where(total[..., 0] > 0, np.exp(-plogp.sum(axis=-1)), 0.0)
