"""What a student class can reach on the fixed-operator task Y = A* X V* + E (Sections 4-5; protocol
§E1, §E2): closed forms and cheap convex fits of the best achievable excess, so that a reader of
Tables 1-2 can tell a capacity gap (the class cannot represent the target) from an optimisation
gap (it can, but training did not get there).

All excesses are L - sigma^2 T d with L = mean_n ||Y_hat_n - Y_n||_F^2 on the training set.

* Eckart-Young (B0 = P Q^T at rank r, isotropic X): ||V*||_F^2 sum_{j>r} lambda_j^2, since
  E_X ||M X V||_F^2 = ||M||_F^2 ||V||_F^2 and the best rank-r approximation of A* leaves
  sum_{j>r} lambda_j^2 (its singular values are lambda for both operator readings).
* Theorem 5 lower bound (eq. 7): lambda_min(Sigma_X) sigma_min(V*)^2 sum_{j>r} lambda_j^2.
* B1c with V fixed at V*: least squares in K of Y_n ~ X_n K B_n, B_n = X_n^T X_n V* / sqrt(d);
  linear in K, so one d^2 x d^2 normal equation (an upper bound on B1c's best excess, which also
  frees V).
* Per-token linear predictor Y_hat_n = X_n W (one d x d map applied to every token): the part of
  the target a residual stream plus a position-wise FFN can reach without mixing tokens.
* Operator energy ||A*||_F^2 ||V*||_F^2: the excess of predicting zero, the scale that makes
  Table 2's excesses comparable across V* draws (the paper's 72.5 = 7.25 x 10).
* Equivariance floor ||A* - A_bar||_F^2 ||V*||_F^2 (protocol §E2), A_bar the Frobenius projection
  of A* onto span{I, 11^T}: X has i.i.d. rows and no positional signal, so B1, B1c, B2 and a
  position-free B3 are permutation-equivariant, and no such student gets below it. The best
  equivariant linear map X W_1 + 11^T X W_2 reaches it exactly: E_X ||A X V - X W_1 -
  11^T X W_2||_F^2 is the squared distance of A kron V from span{I, 11^T} kron R^{d x d}, whose
  nearest point is A_bar kron V.
"""

from __future__ import annotations

import math

import numpy as np

from entropic_bound.measures import spectra


def tail_energy(lam: np.ndarray, r: int) -> float:
    """sum_{j>r} lambda_j^2 of a descending spectrum."""
    return float((np.asarray(lam)[r:] ** 2).sum())


def eckart_young_excess(v: np.ndarray, lam: np.ndarray, r: int) -> float:
    """Minimal rank-r excess for isotropic X: ||V*||_F^2 sum_{j>r} lambda_j^2 (protocol §E1)."""
    return float((v**2).sum()) * tail_energy(lam, r)


def theorem5_bound(x: np.ndarray, v: np.ndarray, lam: np.ndarray, r: int) -> float:
    """lambda_min(Sigma_X) sigma_min(V*)^2 sum_{j>r} lambda_j^2 (eq. 7).

    Sigma_X is the empirical covariance of the token axis that A acts on,
    (1/(n d)) sum_n X_n X_n^T (T x T); its population value is I for i.i.d. N(0, 1) inputs.
    """
    n, T, d = x.shape
    sigma_x = np.einsum("ntd,nsd->ts", x, x) / (n * d)
    lam_min = float(np.linalg.eigvalsh(sigma_x)[0])
    return lam_min * float(spectra.singular_values(v)[-1]) ** 2 * tail_energy(lam, r)


def operator_energy(a: np.ndarray, v: np.ndarray) -> float:
    """||A*||_F^2 ||V*||_F^2 = E_X ||A* X V*||_F^2 for isotropic X."""
    return float((a**2).sum() * (v**2).sum())


def equivariance_floor(a: np.ndarray, v: np.ndarray) -> float:
    """||A* - A_bar||_F^2 ||V*||_F^2 with A_bar = alpha I + beta 11^T the Frobenius projection
    of A* onto span{I, 11^T} (protocol §E2): the Gram system [[T, T], [T, T^2]] [alpha, beta] =
    [tr A*, sum A*]."""
    T = a.shape[0]
    alpha, beta = np.linalg.solve(np.array([[T, T], [T, T * T]], dtype=np.float64),
                                  np.array([np.trace(a), a.sum()], dtype=np.float64))
    residual = a - alpha * np.eye(T) - beta * np.ones((T, T))
    return float((residual**2).sum() * (v**2).sum())


def _mse(y_hat: np.ndarray, y: np.ndarray) -> float:
    return float(((y_hat - y) ** 2).sum(axis=(1, 2)).mean())


def b1c_fixed_v_excess(x: np.ndarray, y: np.ndarray, v: np.ndarray, floor: float) -> float:
    """Excess of the least-squares K in Y_n ~ X_n K B_n, B_n = X_n^T X_n V / sqrt(d).

    Normal equations: G[(a,b),(a',b')] = sum_n (X_n^T X_n)[a,a'] (B_n B_n^T)[b,b'],
    h[a,b] = sum_n (X_n^T Y_n B_n^T)[a,b]; solved by least squares (G may be singular).
    """
    n, T, d = x.shape
    xtx = np.einsum("nta,ntb->nab", x, x)
    b = xtx @ v / math.sqrt(d)
    bbt = b @ b.transpose(0, 2, 1)
    g = (xtx.reshape(n, d * d).T @ bbt.reshape(n, d * d)).reshape(d, d, d, d)
    g = g.transpose(0, 2, 1, 3).reshape(d * d, d * d)  # rows (a, b), columns (a', b')
    h = np.einsum("nta,ntj,nbj->ab", x, y, b).reshape(d * d)
    k = np.linalg.lstsq(g, h, rcond=None)[0].reshape(d, d)
    return _mse(x @ k @ b, y) - floor


def per_token_linear_excess(x: np.ndarray, y: np.ndarray, floor: float) -> float:
    """Excess of the least-squares W in Y_n ~ X_n W over all n T tokens."""
    d = x.shape[-1]
    xf, yf = x.reshape(-1, d), y.reshape(-1, y.shape[-1])
    w = np.linalg.lstsq(xf, yf, rcond=None)[0]
    return _mse(x @ w, y) - floor


def fixed_task_bounds(x: np.ndarray, y: np.ndarray, a: np.ndarray, v: np.ndarray,
                      lam: np.ndarray, r_star: int, floor: float) -> dict[str, float]:
    """The dataset-level achievable excesses of Table 2 (columns ``bound_*``), the operator
    energy that normalises its excesses, and ||V*||_F^2 (whose draw sets Table 1's scale)."""
    return {"v_energy": float((v**2).sum()),
            "bound_eckart_young": eckart_young_excess(v, lam, r_star),
            "bound_b1c_fixed_v": b1c_fixed_v_excess(x, y, v, floor),
            "bound_per_token_linear": per_token_linear_excess(x, y, floor),
            "bound_equivariance": equivariance_floor(a, v),
            "operator_energy": operator_energy(a, v)}
