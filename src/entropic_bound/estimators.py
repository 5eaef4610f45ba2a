"""Data-only estimators: the token-mixing operator or kernel from (X, Y) without training
(Section 6 "Predictability"; SPEC E1 and E4). Pure numpy; never imports training code.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from . import spectra
from .atomic import write_parquet
from .data import load_arrays, load_spec


def fixed_operator_vknown(x: np.ndarray, y: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Least squares for A in Y_n V^{-1} = A X_n + E_n V^{-1} (SPEC E1, V known).

    A_hat = (sum_n Z_n X_n^T)(sum_n X_n X_n^T)^{-1},  Z_n = Y_n V^{-1}.
    """
    x = np.asarray(x, dtype=np.float64)
    z = np.asarray(y, dtype=np.float64) @ np.linalg.inv(v)
    zx = np.einsum("ntd,nsd->ts", z, x)
    xx = np.einsum("ntd,nsd->ts", x, x)
    return np.linalg.solve(xx.T, zx.T).T


def fixed_operator_vlp(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """V unknown: Van Loan-Pitsianis nearest Kronecker product (SPEC E1).

    With column-major vec, vec(A X V) = (V^T kron A) vec(X), so the cross-covariance
    C = E[vec(Y) vec(X)^T] = V^T kron A for isotropic X. Rearranging C so that each T x T block
    (i, j) becomes the row vec(C_ij)^T maps V^T kron A to vec(V^T) vec(A)^T; its top right
    singular vector, reshaped to T x T, is A up to scale (sign fixed by its trace).
    """
    n, T, d = x.shape
    vx = np.asarray(x, dtype=np.float64).transpose(0, 2, 1).reshape(n, T * d)  # column-major
    vy = np.asarray(y, dtype=np.float64).transpose(0, 2, 1).reshape(n, T * d)
    c = vy.T @ vx / n  # (Td, Td), blocks C_ij of size T x T
    blocks = c.reshape(d, T, d, T).transpose(0, 2, 3, 1)  # [i, j, col, row] = C_ij[row, col]
    rearranged = blocks.reshape(d * d, T * T)  # rows: vec(C_ij)^T (column-major)
    _, s, vt = np.linalg.svd(rearranged, full_matrices=False)
    a = s[0] * vt[0].reshape(T, T).T  # undo column-major vec
    return a if np.trace(a) >= 0 else -a


def estimate_fixed(data_path: str, out: str, tol: float = 1e-3) -> pd.DataFrame:
    """Data-only rank of A (SPEC E1): V known (least squares) and V unknown (Van Loan-
    Pitsianis), each as numerical rank (relative tol), Gavish-Donoho rank, Reff, R~eff."""
    spec = load_spec(data_path)
    a = load_arrays(data_path, "X", "Y", "V")
    rows = []
    for name, est in (("v_known", fixed_operator_vknown(a["X"], a["Y"], a["V"])),
                      ("v_unknown", fixed_operator_vlp(a["X"], a["Y"]))):
        rows.append({"seed": spec.seed, "r_star": spec.r_star, "estimator": name,
                     **spectra.measures(est, tol)})
    frame = pd.DataFrame(rows)
    write_parquet(out, frame)
    return frame
