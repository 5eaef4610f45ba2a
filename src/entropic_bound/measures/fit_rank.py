"""Rank of the attention kernel by fitting the teacher's own model (open problem (i); protocol §E4).

The paper's data-only estimators read r* off a *spectrum* (of a log-inverted kernel, or of an
ALS kernel) with a threshold. Here r* is read the way the paper defines it: the smallest rank
whose model reaches the best held-out error. For each candidate rank r the kernel K = P Q^T
(P, Q of shape d x r) is fitted by nonlinear least squares to the model of eq. 9,

    L(P, Q, V) = (1 / n) sum_n || M_K(X_n) X_n V - Y_n ||_F^2,
    M_K(X) = softmax_row(X K X^T / sqrt(d))   (linear_qk: X K X^T / sqrt(d)),

with V known (``V*``) or projected out (V unknown: for each K, the least-squares V), by
L-BFGS from the truncated SVD of a data-only starting kernel (the log-inversion of Section 6,
or the ALS kernel). The data are split once into a fitting part and a held-out part; l_r(n)
is sample n's held-out loss at rank r and l_full(n) the same for the unconstrained d x d
kernel. The estimate is

    r_hat = min { r : mean_n (l_r(n) - l_full(n)) <= z_crit * se_n(l_r - l_full) },

the smallest rank statistically indistinguishable from the full-rank fit on held-out data
(a paired one-sided test; no noise level or spectral threshold needed). Below r* the missing
direction of K biases every sample's prediction and the paired difference is many standard
errors; at and above r* the difference is estimation noise, of which the full-rank fit carries
more, so l_r - l_full is negative on average.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import minimize

from entropic_bound.data.mixing import mixing


@dataclass(frozen=True)
class RankSelection:
    """The selected rank, its kernel and V, and the paired statistic z(r) of every rank fitted."""

    rank: int
    kernel: np.ndarray
    v: np.ndarray
    z: dict[int, float]
    heldout_full: float  # mean held-out loss of the full-rank fit


def _flat(a: np.ndarray) -> np.ndarray:
    return a.reshape(-1, a.shape[-1])


def kernel_mixers(kind: str, x: np.ndarray, k: np.ndarray) -> np.ndarray:
    """M_K(X_n) for every sample (eq. 9), as batched matmuls (the teacher's einsum is exact
    but slow here)."""
    s = (_flat(x) @ k).reshape(x.shape) @ x.transpose(0, 2, 1) / np.sqrt(x.shape[-1])
    return mixing(kind).forward(s)


def per_sample_loss(kind: str, x: np.ndarray, y: np.ndarray, k: np.ndarray,
                    v: np.ndarray) -> np.ndarray:
    """|| M_K(X_n) X_n V - Y_n ||_F^2 for each sample n."""
    r = (_flat(kernel_mixers(kind, x, k) @ x) @ v).reshape(y.shape) - y
    return (r * r).sum(axis=(1, 2))


def least_squares_v(ax: np.ndarray, y: np.ndarray) -> np.ndarray:
    """V = argmin_V sum_n ||A_n X_n V - Y_n||^2 (normal equations, d x d)."""
    return np.linalg.solve(_flat(ax).T @ _flat(ax), _flat(ax).T @ _flat(y))


def loss_and_grad(kind: str, x: np.ndarray, y: np.ndarray, p: np.ndarray, q: np.ndarray,
                  v: np.ndarray | None) -> tuple[float, np.ndarray, np.ndarray, np.ndarray]:
    """L(P, Q, V) and its gradients in P and Q (the chain rule through eq. 9, by hand).

    With S = X P Q^T X^T / sqrt(d), A = M(S), R = A X V - Y:
    dL/dA = 2 R (X V)^T / n; softmax: dL/dS = A o (dL/dA - rowsum(dL/dA o A)); linear:
    dL/dS = dL/dA. With G = sum_n X_n^T dL/dS_n X_n / sqrt(d) = dL/dK: dL/dP = G Q,
    dL/dQ = G^T P. G is never formed: G Q = sum_n X_n^T (dL/dS_n X_n Q) / sqrt(d), one
    (nT x d)^T (nT x r) product.
    V = None is V unknown, by variable projection: V = V(K), the exact least squares for the
    current K, so L(K) = min_V L(K, V); since dL/dV = 0 there, the gradient of the projected
    objective is the partial gradient at V(K) (Golub & Pereyra 1973). Returns (L, dL/dP,
    dL/dQ, V).
    """
    n, t, d = x.shape
    xp = (_flat(x) @ p).reshape(n, t, -1)
    xq = (_flat(x) @ q).reshape(n, t, -1)
    s = xp @ xq.transpose(0, 2, 1)
    s /= np.sqrt(d)
    a = mixing(kind).forward(s)
    ax = a @ x
    if v is None:
        v = least_squares_v(ax, y)
    r = (_flat(ax) @ v).reshape(n, t, d)
    r -= y
    loss = float(np.vdot(r, r) / n)
    r *= 2.0 / n  # dL/d(A X V) from here on
    ds = r @ (_flat(x) @ v).reshape(n, t, d).transpose(0, 2, 1)  # dL/dA
    ds = mixing(kind).backward(a, ds)
    gp = _flat(x).T @ _flat(ds @ xq) / np.sqrt(d)
    gq = _flat(x).T @ _flat(ds.transpose(0, 2, 1) @ xp) / np.sqrt(d)
    return loss, gp, gq, v


def fit_kernel(kind: str, x: np.ndarray, y: np.ndarray, start: np.ndarray, v: np.ndarray | None,
               rank: int, max_iter: int) -> tuple[np.ndarray, np.ndarray]:
    """Minimise L over K = P Q^T of rank ``rank`` by L-BFGS, from P = U_r S_r^(1/2),
    Q = W_r S_r^(1/2) (the truncated SVD of ``start`` = U S W^T); V given, or projected out
    when ``v`` is None (see :func:`loss_and_grad`). Returns (K, V)."""
    d = x.shape[-1]
    u, sv, wt = np.linalg.svd(start)
    root = np.sqrt(sv[:rank])
    size = d * rank

    def objective(theta: np.ndarray) -> tuple[float, np.ndarray]:
        loss, gp, gq, _ = loss_and_grad(kind, x, y, theta[:size].reshape(d, rank),
                                        theta[size:].reshape(d, rank), v)
        return loss, np.concatenate([gp.ravel(), gq.ravel()])

    theta0 = np.concatenate([(u[:, :rank] * root).ravel(), (wt[:rank].T * root).ravel()])
    res = minimize(objective, theta0, jac=True, method="L-BFGS-B",
                   options={"maxiter": max_iter})
    p, q = res.x[:size].reshape(d, rank), res.x[size:].reshape(d, rank)
    k = p @ q.T
    if v is None:
        v = least_squares_v(kernel_mixers(kind, x, k) @ x, y)
    return k, v


def heldout_rank(kind: str, x: np.ndarray, y: np.ndarray, start: np.ndarray,
                 v: np.ndarray | None, *, heldout_fraction: float, z_crit: float, max_iter: int,
                 guess: int) -> RankSelection:
    """r_hat = min{r : z(r) <= z_crit}, z(r) = mean(l_r - l_full) / se(l_r - l_full) over the
    held-out samples (see the module docstring).

    z(r) falls with r (nested models), so the search walks from ``guess`` (any cheap data-only
    estimate): down while z(r - 1) <= z_crit, else up until z(r) <= z_crit; it fits about
    |guess - r_hat| + 2 ranks instead of r_hat + 1. The last ``heldout_fraction`` of the
    samples are held out (the samples are i.i.d., so the order carries no information).
    """
    n, _, d = x.shape
    cut = n - int(round(heldout_fraction * n))
    if not 0 < cut < n:
        raise ValueError(f"heldout_fraction={heldout_fraction} leaves no fitting or no "
                         f"held-out samples out of {n}")
    fit_x, fit_y, held_x, held_y = x[:cut], y[:cut], x[cut:], y[cut:]
    k_full, v_full = fit_kernel(kind, fit_x, fit_y, start, v, d, max_iter)
    full = per_sample_loss(kind, held_x, held_y, k_full, v_full)
    fits: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    z: dict[int, float] = {}

    def passes(r: int) -> bool:
        if r not in z:
            # rank d is the full model itself: indistinguishable from it by definition
            fits[r] = (k_full, v_full) if r == d else fit_kernel(kind, fit_x, fit_y, start, v,
                                                                  r, max_iter)
            diff = per_sample_loss(kind, held_x, held_y, *fits[r]) - full
            spread = diff.std(ddof=1) / np.sqrt(diff.size)
            z[r] = float(diff.mean() / spread) if spread > 0 else 0.0
        return z[r] <= z_crit

    r = min(max(guess, 1), d)
    if passes(r):
        while r > 1 and passes(r - 1):
            r -= 1
    else:
        while not passes(r + 1):  # ends at r + 1 = d at the latest, which passes
            r += 1
        r += 1
    return RankSelection(rank=r, kernel=fits[r][0], v=fits[r][1], z=z,
                         heldout_full=float(full.mean()))
