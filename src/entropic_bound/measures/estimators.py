"""Data-only estimators: the token-mixing operator or kernel from (X, Y) without training
(Section 6 "Predictability"; protocol §E1 and E4). Numpy and scipy; never imports training code.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
import pandas as pd

from entropic_bound.data.datasets import load_arrays, load_spec
from entropic_bound.data.mixing import mixing
from entropic_bound.measures import spectra
from entropic_bound.measures.fit_rank import heldout_rank, kernel_mixers
from entropic_bound.plumbing.atomic import write_parquet

# Wall-clock columns: measurements of this machine, not results; the only columns that may
# differ between two runs of the same config and seed.
TIMING_COLUMNS = ("seconds", "seconds_per_dataset")


def fixed_operator_vknown(x: np.ndarray, y: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Least squares of Y_n on A Z_n, with the known value map applied to the inputs,
    Z_n = X_n V* (protocol §E1, V known; binding):

    A_hat = (sum_n Y_n Z_n^T)(sum_n Z_n Z_n^T)^{-1}.

    The noise stays E_n: nothing multiplies it by V*^{-1} (:func:`fixed_operator_vknown_inverse`).
    """
    z = np.asarray(x, dtype=np.float64) @ np.asarray(v, dtype=np.float64)
    yz = np.einsum("ntd,nsd->ts", np.asarray(y, dtype=np.float64), z)
    zz = np.einsum("ntd,nsd->ts", z, z)
    return np.linalg.solve(zz.T, yz.T).T


def fixed_operator_vknown_inverse(x: np.ndarray, y: np.ndarray, v: np.ndarray) -> np.ndarray:
    """The earlier V-known form, kept as the named variant ``inverse`` (protocol §E1): least squares
    for A in Y_n V*^{-1} = A X_n + E_n V*^{-1},

    A_hat = (sum_n W_n X_n^T)(sum_n X_n X_n^T)^{-1},  W_n = Y_n V*^{-1},

    whose noise E_n V*^{-1} is amplified by up to 1 / sigma_min(V*).
    """
    x = np.asarray(x, dtype=np.float64)
    w = np.asarray(y, dtype=np.float64) @ np.linalg.inv(v)
    wx = np.einsum("ntd,nsd->ts", w, x)
    xx = np.einsum("ntd,nsd->ts", x, x)
    return np.linalg.solve(xx.T, wx.T).T


def fixed_operator_vlp(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """V unknown: Van Loan-Pitsianis nearest Kronecker product (protocol §E1).

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


def estimate_fixed(data_path: str, out: str, tol: float) -> pd.DataFrame:
    """Data-only rank of A (protocol §E1): V known (least squares on Z_n = X_n V*; and the variant
    ``v_known_inverse``) and V unknown (Van Loan-Pitsianis), each as numerical rank (relative
    tol) with its margins (:func:`spectra.rank_margins`), Gavish-Donoho rank, Reff, R~eff."""
    spec = load_spec(data_path)
    a = load_arrays(data_path, "X", "Y", "V")
    rows = []
    for name, est in (("v_known", fixed_operator_vknown(a["X"], a["Y"], a["V"])),
                      ("v_known_inverse", fixed_operator_vknown_inverse(a["X"], a["Y"], a["V"])),
                      ("v_unknown", fixed_operator_vlp(a["X"], a["Y"]))):
        rows.append({"operator": spec.operator, "seed": spec.seed, "r_star": spec.r_star,
                     "estimator": name,
                     **spectra.measures(est, tol), **spectra.rank_margins(est, tol)})
    frame = pd.DataFrame(rows)
    write_parquet(out, frame)
    return frame


# --- E4: data-only predictability of the attention kernel (protocol §E4, Table 4) ---------------


def bilinear_lstsq(x: np.ndarray, z: np.ndarray, t: np.ndarray, w: np.ndarray | None = None,
                   center_rows: bool = False, chunk: int = 500,
                   gram: np.ndarray | None = None) -> np.ndarray:
    """K minimising sum_{n,i,j} w_nij (x_ni^T K z_nj - t_nij)^2, shapes x (n, I, d),
    z (n, J, d), t and w (n, I, J); w = None means 1.

    With ``center_rows`` each row i carries a free offset c_ni (the softmax normaliser
    logsumexp_j S_nij), profiled out exactly: z_nj and t_nij are replaced by their deviations
    from the w-weighted row means. The normal equations are assembled without forming the
    n I J x d^2 design: sum_{n,i} (x_ni x_ni^T) kron H_ni with H_ni = sum_j w_nij z~ z~^T.
    Unweighted, H_ni = Z~_n^T Z~_n does not depend on i and the sum is sum_n G_n kron H_n
    (one d^2 x n x d^2 GEMM); weighted, it is one d^2 x nI x d^2 GEMM per chunk.
    The Gram matrix depends on (x, z, w) only, not on t: a caller that solves for many t with
    the same unweighted design passes ``gram`` = :func:`bilinear_gram` once and skips it.
    """
    d = x.shape[-1]
    gram, rhs = _normal_equations(x, z, t, w, center_rows, chunk, gram)
    ridge = 1e-10 * np.trace(gram) / (d * d)  # guards exact rank deficiency only
    return np.linalg.solve(gram + ridge * np.eye(d * d), rhs.reshape(-1)).reshape(d, d)


def bilinear_gram(x: np.ndarray, z: np.ndarray, center_rows: bool = False,
                  chunk: int = 500) -> np.ndarray:
    """The unweighted Gram matrix sum_n G_n kron H_n of :func:`bilinear_lstsq`."""
    t = np.zeros((x.shape[0], x.shape[1], z.shape[1]))
    return _normal_equations(x, z, t, None, center_rows, chunk, None)[0]


def _normal_equations(x, z, t, w, center_rows, chunk, gram):
    """(Gram, right-hand side) of :func:`bilinear_lstsq`; the Gram only when not given."""
    n, _, d = x.shape
    given = gram is not None
    gram = gram if given else np.zeros((d * d, d * d))
    rhs = np.zeros((d, d))
    for lo in range(0, n, chunk):
        xc = np.asarray(x[lo:lo + chunk], dtype=np.float64)
        zc = np.asarray(z[lo:lo + chunk], dtype=np.float64)
        tc = np.asarray(t[lo:lo + chunk], dtype=np.float64)
        if w is None:
            if center_rows:  # the unweighted row mean is the same for every row i
                zc = zc - zc.mean(axis=1, keepdims=True)
                tc = tc - tc.mean(axis=-1, keepdims=True)
            if not given:
                left = xc.transpose(0, 2, 1) @ xc  # G_n = X_n^T X_n
                right = zc.transpose(0, 2, 1) @ zc  # H_n = Z~_n^T Z~_n
                rows = xc.shape[0]
        else:
            if given:
                raise ValueError("a precomputed gram applies to the unweighted design only")
            wc = np.asarray(w[lo:lo + chunk], dtype=np.float64)
            wz = wc[..., None] * zc[:, None, :, :]  # (n, I, J, d)
            right = wz.transpose(0, 1, 3, 2) @ zc[:, None]  # sum_j w z z^T per row (n, I, d, d)
            if center_rows:
                wsum = wc.sum(axis=-1)  # (n, I)
                zbar = (wc @ zc) / wsum[..., None]
                tc = tc - (wc * tc).sum(-1, keepdims=True) / wsum[..., None]
                right -= wsum[..., None, None] * (zbar[..., :, None] * zbar[..., None, :])
            tc = wc * tc  # the centred t has zero weighted row mean, so z needs no centring
            left = xc[..., :, None] * xc[..., None, :]  # x_ni x_ni^T
            rows = xc.shape[0] * xc.shape[1]
        if not given:
            g4 = (left.reshape(rows, d * d).T @ right.reshape(rows, d * d)).reshape(d, d, d, d)
            gram += g4.transpose(0, 2, 1, 3).reshape(d * d, d * d)  # [a,b,c,e]->[(a,c),(b,e)]
        rhs += (xc.transpose(0, 2, 1) @ tc @ zc).sum(axis=0)  # sum_n X_n^T T_n Z_n
    return gram, rhs


def recovered_mixers(x: np.ndarray, y: np.ndarray, v: np.ndarray) -> np.ndarray:
    """The least-squares mixers M_hat_n = Y_n Z_n^+ with Z_n = X_n V (protocol §E4, V known;
    binding): Y_n = M_n Z_n + E_n, so M_hat_n = Y_n Z_n^T (Z_n Z_n^T)^{-1}, needing T <= d."""
    z = np.asarray(x, dtype=np.float64) @ np.asarray(v, dtype=np.float64)
    n, T, d = z.shape
    if d < T:
        raise ValueError(f"recovering M_n needs T <= d (Z_n Z_n^T invertible), got T={T}, d={d}")
    zzt = z @ z.transpose(0, 2, 1)
    return np.linalg.solve(zzt, z @ np.asarray(y, dtype=np.float64).transpose(0, 2, 1)
                           ).transpose(0, 2, 1)


def recovered_mixers_inverse(x: np.ndarray, y: np.ndarray, v: np.ndarray) -> np.ndarray:
    """The earlier form, variant ``inverse`` (and ALS's K-step with its current V):
    M_hat_n = (Y_n V^+) X_n^T (X_n X_n^T)^{-1}, whose noise E_n V^+ is amplified by up to
    1 / sigma_min(V); needs T <= d."""
    x = np.asarray(x, dtype=np.float64)
    n, T, d = x.shape
    if d < T:
        raise ValueError(f"recovering M_n needs T <= d (X_n X_n^T invertible), got T={T}, d={d}")
    w = np.asarray(y, dtype=np.float64) @ np.linalg.pinv(v)
    xxt = x @ x.transpose(0, 2, 1)
    return np.linalg.solve(xxt, x @ w.transpose(0, 2, 1)).transpose(0, 2, 1)


def linear_kernel_vknown(x: np.ndarray, y: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Linear teacher, V known (protocol §E4; binding): K_hat by least squares of Y_n on
    X_n K B_n with B_n = X_n^T Z_n / sqrt(d), Z_n = X_n V (Y_n = X_n K X_n^T X_n V / sqrt(d)),
    from the normal equations in vec K (d^2 unknowns)."""
    x = np.asarray(x, dtype=np.float64)
    b = (x.transpose(0, 2, 1) @ x @ np.asarray(v, dtype=np.float64)) / np.sqrt(x.shape[-1])
    return bilinear_lstsq(x, b.transpose(0, 2, 1), np.asarray(y, dtype=np.float64))


def kernel_from_mixers(kind: str, x: np.ndarray, m_hat: np.ndarray, eps: float,
                       weighted: bool = False, gram: np.ndarray | None = None) -> np.ndarray:
    """K_hat from recovered mixers (S = X K X^T / sqrt(d)).

    linear_qk:  least squares on M_hat_n = X_n K X_n^T / sqrt(d).
    softmax_qk: regress the row-centred log(max(M_hat, eps)) on the row-centred scores (the
                paper's log-inversion). With ``weighted``, each entry is weighted by the inverse
                of its delta-method variance, Var[log M_hat] ~ Var[M_hat] / M^2, i.e. by
                max(M_hat, eps)^2, so that tiny (noise-dominated) probabilities, whose logs are
                the outliers, barely count; the row offsets are profiled with the same weights.
    ``gram``: the unweighted design's Gram matrix (:func:`mixer_gram`), when already known.
    """
    d = x.shape[-1]
    if mixing(kind).linear:
        return bilinear_lstsq(x, x, np.sqrt(d) * m_hat, gram=gram)
    clipped = np.maximum(m_hat, eps)
    if weighted:
        return bilinear_lstsq(x, x, np.sqrt(d) * np.log(clipped), w=clipped**2,
                              center_rows=True)
    return bilinear_lstsq(x, x, np.sqrt(d) * np.log(clipped), center_rows=True, gram=gram)


def mixer_gram(kind: str, x: np.ndarray) -> np.ndarray:
    """The Gram matrix of the unweighted regression of :func:`kernel_from_mixers`: it depends
    on X alone, so ALS computes it once instead of at every K-step."""
    return bilinear_gram(x, x, center_rows=mixing(kind).row_normalised)


def soft_threshold(k: np.ndarray, fraction: float) -> np.ndarray:
    """Singular-value soft-thresholding at ``fraction`` * sigma_1 (the proximal map of the
    nuclear norm, with the threshold relative so that it is scale-free)."""
    u, s, vt = np.linalg.svd(k)
    return (u * np.maximum(s - fraction * s[0], 0.0)) @ vt


def als_kernel(kind: str, x: np.ndarray, y: np.ndarray, iterations: int,
               shrinkage: float, eps: float) -> tuple[np.ndarray, np.ndarray, list[float]]:
    """V unknown: alternate least squares over (K, V) (protocol §E4), from V = I.

    V-step: V = argmin sum_n ||M_K(X_n) X_n V - Y_n||^2 (exact least squares).
    K-step, linear: Y_n = X_n K B_n with B_n = X_n^T X_n V / sqrt(d): exact least squares.
    K-step, softmax: log-inversion of the mixers recovered with the current V (M_hat_n from
    Y_n V^+), as in :func:`kernel_from_mixers`.
    (the ``inverse`` form, :func:`recovered_mixers_inverse`: the estimator the paper names).
    With ``shrinkage`` > 0 the K-step is followed by singular-value soft-thresholding
    (nuclear-norm shrinkage) at shrinkage * sigma_1. Returns K, the V fitted to it, and the
    objective after each iteration, mean_n ||M_K(X_n) X_n V - Y_n||^2.
    """
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    n, T, d = x.shape
    v = np.eye(d)
    history = []
    linear = mixing(kind).linear
    gram = None if linear else mixer_gram(kind, x)
    for _ in range(iterations):
        if linear:
            k = linear_kernel_vknown(x, y, v)
        else:
            k = kernel_from_mixers(kind, x, recovered_mixers_inverse(x, y, v), eps=eps,
                                   gram=gram)
        if shrinkage > 0:
            k = soft_threshold(k, shrinkage)
        sx = (kernel_mixers(kind, x, k) @ x).reshape(n * T, d)
        v = np.linalg.solve(sx.T @ sx, sx.T @ y.reshape(n * T, d))  # normal equations, d x d
        history.append(float(((sx @ v - y.reshape(n * T, d)) ** 2).sum() / n))
    return k, v, history


def estimate_rank(kind: str, x: np.ndarray, y: np.ndarray, v: np.ndarray | None, *,
                  iterations: int, shrinkage: float, eps: float, tol: float,
                  heldout_fraction: float, z_crit: float, fit_iterations: int,
                  noise_floor: float | None = None,
                  progress: Callable[[str], None] = lambda step: None) -> pd.DataFrame:
    """Every E4 estimator of r* from (X, Y) of one dataset, and V where it is known: one row
    per estimator (the columns of :func:`predictability`). ``kind``: the mixing the model class
    assumes (``linear_qk`` or ``softmax_qk``). Without ``v`` only the V-unknown estimators run
    (``als``, ``als_nuclear``, ``heldout_fit_als``); ``noise_floor`` (sigma^2 T d, where known)
    gives ``full_fit_over_floor``, NaN otherwise; ``progress`` hears each estimator done."""
    x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    matrices: dict[str, np.ndarray] = {}
    seconds: dict[str, float] = {}

    def timed(name: str, after: str | None, compute):
        start = time.perf_counter()
        result = compute()
        seconds[name] = time.perf_counter() - start + (seconds[after] if after else 0.0)
        progress(f"{name} done")
        return result

    if v is not None:
        m_hat = timed("recovered_mixers", None, lambda: recovered_mixers(x, y, v))
        if mixing(kind).linear:
            matrices["v_known"] = timed("v_known", None, lambda: linear_kernel_vknown(x, y, v))
        else:
            matrices["v_known"] = timed("v_known", "recovered_mixers",
                                        lambda: kernel_from_mixers(kind, x, m_hat, eps=eps))
        matrices["v_known_inverse"] = timed("v_known_inverse", None, lambda: kernel_from_mixers(
            kind, x, recovered_mixers_inverse(x, y, v), eps=eps))
        matrices["realized_mixer"] = timed("realized_mixer", "recovered_mixers",
                                           lambda: m_hat.mean(axis=0))
        if mixing(kind).row_normalised:
            matrices["v_known_weighted"] = timed(
                "v_known_weighted", "recovered_mixers",
                lambda: kernel_from_mixers(kind, x, m_hat, eps=eps, weighted=True))
    matrices["als"] = timed("als", None,
                            lambda: als_kernel(kind, x, y, iterations, 0.0, eps)[0])
    k_nuclear, _, _ = timed("als_nuclear", None,
                            lambda: als_kernel(kind, x, y, iterations, shrinkage, eps))
    matrices["als_nuclear"] = k_nuclear
    fit = {"heldout_fraction": heldout_fraction, "z_crit": z_crit, "max_iter": fit_iterations}
    selections = {}
    if v is not None:
        selections["heldout_fit"] = timed("heldout_fit", "v_known", lambda: heldout_rank(
            kind, x, y, matrices["v_known"], v,
            guess=round(spectra.reff_energy(matrices["v_known"])), **fit))
    selections["heldout_fit_als"] = timed("heldout_fit_als", "als_nuclear", lambda: heldout_rank(
        kind, x, y, k_nuclear, None, guess=round(spectra.reff_energy(k_nuclear)), **fit))
    matrices.update({name: sel.kernel for name, sel in selections.items()})
    rows = [{"estimator": name, **spectra.measures(mat, tol), **spectra.rank_margins(mat, tol),
             "rank_tol1e-2": spectra.numerical_rank(mat, 1e-2), "gap_rank": spectra.gap_rank(mat)}
            for name, mat in matrices.items()]
    for row in rows:
        sel = selections.get(row["estimator"])
        row["estimate"] = float(sel.rank) if sel else row["reff_energy"]
        row["seconds"] = seconds[row["estimator"]]
        # the selection's margins: z(r_hat - 1) > z_crit >= z(r_hat) (NaN: not a selection)
        row["z_below"] = sel.z.get(sel.rank - 1, np.nan) if sel else np.nan
        row["z_at"] = sel.z[sel.rank] if sel else np.nan
        # the reference fit's held-out loss over the Bayes floor sigma^2 T d: ~1 when it
        # converged; far above 1, every rank "matches" it and the selection means nothing
        row["full_fit_over_floor"] = (sel.heldout_full / noise_floor if sel and noise_floor
                                      else np.nan)
    if v is not None:
        by_name = {row["estimator"]: row for row in rows}
        kernel, mixer_side = by_name["v_known"], by_name["realized_mixer"]
        rows.append({**kernel, "estimator": "v_known_gd", "estimate": float(kernel["gd_rank"])})
        rows.append({"estimator": "combined", "numerical_rank": np.nan, "gd_rank": np.nan,
                     "kept_over_tol": np.nan, "dropped_over_tol": np.nan,
                     "reff": np.nan, "reff_energy": np.nan, "rank_tol1e-2": np.nan,
                     "gap_rank": np.nan,
                     "estimate": float(np.sqrt(kernel["reff_energy"]
                                               * mixer_side["reff_energy"])),
                     "seconds": max(kernel["seconds"], mixer_side["seconds"])})
    return pd.DataFrame(rows)


def predictability(data_path: str, out: str, *, setting: str, iterations: int,
                   shrinkage: float, eps: float, tol: float, heldout_fraction: float,
                   z_crit: float, fit_iterations: int) -> pd.DataFrame:
    """Every E4 estimator on one attention-native dataset (no training), one row each.

    Paper's estimators (protocol §E4): ``v_known`` (with Z_n = X_n V*: least squares of Y_n on
    X_n K X_n^T Z_n / sqrt(d) for the linear teacher, log-inversion of M_hat_n = Y_n Z_n^+ for
    softmax), ``v_known_inverse`` (the earlier form on Y_n V*^-1, reported beside it), ``als``
    and ``als_nuclear`` (V unknown), ``realized_mixer`` (R~eff of mean_n M_hat_n).
    Candidates beyond the paper for open problem (i): ``v_known_weighted`` (delta-method
    weighted log-inversion); two read-outs of the paper's own K_hat: its Gavish-Donoho
    count (``gd`` column, scored as ``v_known_gd``) and ``combined``, the geometric mean of the
    kernel-side and realized-mixer R~eff (the two err in opposite directions at small r*);
    and the held-out model fits of :mod:`fit_rank`, ``heldout_fit`` (V known, started from
    ``v_known``) and ``heldout_fit_als`` (V projected out, started from ``als_nuclear``), whose
    estimate is the selected rank itself and whose matrix is the fitted kernel of that rank.
    Columns: numerical_rank (binding tolerance), rank_tol1e-2 (relative tolerance 1e-2),
    gap_rank (largest singular-value gap), gd_rank, reff, reff_energy of the estimated matrix,
    ``estimate``: the number each estimator offers as its guess of r*; for the held-out fits
    ``z_below`` and ``z_at``, the paired statistic at r_hat - 1 and at r_hat (how clearly the
    selection was made) and ``full_fit_over_floor``, the full-rank reference fit's held-out
    loss over the Bayes floor sigma^2 T d (about 1 when that fit converged; the selection is
    only meaningful then); ``seconds``: wall time
    of the estimator on this dataset including the steps it builds on (wall-clock, so the only
    column that differs between identical runs: ``TIMING_COLUMNS``); ``kept_over_tol`` and
    ``dropped_over_tol``, how clearly the numerical rank was read (:func:`spectra.rank_margins`);
    the dataset's setting, spectrum and sigma_min(V*) (``v_sigma_min``): Y V*^-1 amplifies
    noise by up to 1 / sigma_min(V*), which is why the ``inverse`` variant's kernel of an
    ill-conditioned draw carries a noise floor above the binding tolerance.
    """
    spec = load_spec(data_path)
    a = load_arrays(data_path, "X", "Y", "V")
    frame = estimate_rank(spec.kind, a["X"], a["Y"], a["V"], iterations=iterations,
                          shrinkage=shrinkage, eps=eps, tol=tol,
                          heldout_fraction=heldout_fraction, z_crit=z_crit,
                          fit_iterations=fit_iterations, noise_floor=spec.noise_floor)
    frame.insert(0, "seed", spec.seed)
    frame.insert(0, "r_star", spec.r_star)
    frame.insert(0, "teacher", spec.kind)
    frame.insert(0, "spectrum", spec.spectrum)
    frame.insert(0, "setting", setting)
    operator = load_arrays(data_path, "operator")["operator"]
    frame["teacher_reff_energy"] = spectra.reff_energy(operator)
    frame["v_sigma_min"] = float(spectra.singular_values(a["V"])[-1])
    write_parquet(out, frame)
    return frame
