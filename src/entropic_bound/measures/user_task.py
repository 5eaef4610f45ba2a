"""``entropic-bound estimate-rank``: r* of a user's attention task from data, before any
training, by the estimators of E4 (:func:`entropic_bound.measures.estimators.estimate_rank`, the
code Table 4 runs).

The task is one ``.npz`` file with ``X`` and ``Y`` of shape (n, T, d), the inputs and targets
of Y_n = M(X_n) X_n V + noise with M the linear (eq. 8) or softmax (eq. 9) mixing of a
query-key kernel K, and optionally ``V`` (d x d) where the value map is known. The held-out fit
(open problem (i)) needs the model class (``--mixing``) and holds out the last
``e4.heldout_fraction`` of the samples; the softmax estimators and every V-known one invert the
per-sample mixers, which needs T <= d. Settings default to the config schema's E4 values.
"""

from __future__ import annotations

import zipfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

from entropic_bound.data.mixing import BY_SHORT_NAME
from entropic_bound.measures.estimators import estimate_rank
from entropic_bound.plumbing.atomic import write_parquet

SHOWN = ["estimator", "estimate", "numerical_rank", "reff_energy", "kept_over_tol",
         "dropped_over_tol", "z_below", "z_at", "seconds"]


class BadTask(ValueError):
    """A task file that the estimators cannot read as (X, Y[, V])."""


def read_task(path: str | Path, mixing: str) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """(X, Y, V or None) of a task file, checked: one clear line naming the file and what it
    expects when an array is missing, misshapen or not finite, or T > d where it must not be."""
    path = Path(path)
    if not path.is_file():
        raise BadTask(f"{path}: no such file (expected an .npz with X and Y of shape n x T x d)")
    try:
        loaded = np.load(path)  # allow_pickle stays off: no code in a user's file runs
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as err:
        raise BadTask(f"{path}: not a readable .npz file ({err or 'empty file'})") from None
    if not isinstance(loaded, np.lib.npyio.NpzFile):
        raise BadTask(f"{path}: one bare array of shape {loaded.shape} (.npy); expected an .npz "
                      f"archive with arrays named X and Y (np.savez(path, X=..., Y=...))")
    try:
        with loaded as z:
            raw = {k: z[k] for k in z.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as err:
        raise BadTask(f"{path}: not a readable .npz file ({err})") from None
    for name, a in raw.items():
        if a.dtype.kind not in "fiub":
            raise BadTask(f"{path}: array {name} holds {a.dtype} values; expected real numbers")
    arrays = {k: np.asarray(a, dtype=np.float64) for k, a in raw.items()}
    missing = [k for k in ("X", "Y") if k not in arrays]
    if missing:
        raise BadTask(f"{path}: no array {' or '.join(missing)}; expected X and Y of shape "
                      f"n x T x d (and optionally V, d x d); found {sorted(arrays)}")
    x, y, v = arrays["X"], arrays["Y"], arrays.get("V")
    if x.ndim != 3 or y.shape != x.shape:
        raise BadTask(f"{path}: X has shape {x.shape} and Y {y.shape}; expected both n x T x d")
    n, T, d = x.shape
    if v is not None and v.shape != (d, d):
        raise BadTask(f"{path}: V has shape {v.shape}; expected d x d = {d} x {d}")
    for name, a in (("X", x), ("Y", y), ("V", v)):
        if a is not None and not np.isfinite(a).all():
            raise BadTask(f"{path}: {name} holds {int((~np.isfinite(a)).sum())} NaN or infinite "
                          f"values")
    inverts = BY_SHORT_NAME[mixing].row_normalised  # log-inversion of the recovered mixers
    if d < T and (inverts or v is not None):
        raise BadTask(f"{path}: T = {T} > d = {d}; the {mixing if inverts else ''}"
                      f"{' and ' if inverts and v is not None else ''}"
                      f"{'V-known' if v is not None else ''} estimators invert each sample's "
                      f"T x T mixer from its T x d inputs, which needs T <= d")
    if n < 10:
        raise BadTask(f"{path}: n = {n} samples; the held-out fit needs at least 10")
    return x, y, v


def estimate_task(path: str | Path, mixing: str, settings: dict, tol: float,
                  out: str | None = None,
                  progress: Callable[[str], None] = lambda step: None) -> pd.DataFrame:
    """Every estimator on the task file (settings: the E4 keys of the config schema); the
    selected rank of the held-out fit (V known where V is given, else V unknown) with its
    margins, printed; the table written as parquet to ``out`` when given."""
    x, y, v = read_task(path, mixing)
    progress(f"{path} read: every estimator of Table 4 and the held-out fit")
    frame = estimate_rank(BY_SHORT_NAME[mixing].name, x, y, v, tol=tol,
                          iterations=settings["als_iterations"], shrinkage=settings["shrinkage"],
                          eps=settings["eps"], heldout_fraction=settings["heldout_fraction"],
                          z_crit=settings["z_crit"], fit_iterations=settings["fit_iterations"],
                          progress=progress)
    n, T, d = x.shape
    best = frame.set_index("estimator").loc["heldout_fit" if v is not None else "heldout_fit_als"]
    print(f"{path}: n = {n}, T = {T}, d = {d}, {mixing} mixing, V "
          f"{'known' if v is not None else 'unknown'}")
    print(f"r_hat = {best['estimate']:.0f} (held-out fit{'' if v is not None else ', V unknown'}"
          f"): z(r_hat - 1) = {best['z_below']:.1f} > z_crit = {settings['z_crit']:g} >= "
          f"z(r_hat) = {best['z_at']:.1f}")
    print(frame[SHOWN].to_string(index=False, float_format="{:.4g}".format))
    if out:
        write_parquet(out, frame)
    return frame
