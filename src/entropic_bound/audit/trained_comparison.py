"""How the audit compares a recomputed *training* entry with the stored one when the two ran on
different kernel classes: by what is identifiable and what the paper reads, not factor by factor.

Across kernel classes a training run rounds otherwise from its first step, and the factors of a
student are not identifiable: ``W_Q`` and ``W_K`` of a QK student (``P`` and ``Q`` of the fixed
operator's) are defined only up to an invertible ``G`` (``W_Q G``, ``W_K G^{-T}`` give the same
model), so two correct runs can hold factors that differ by O(1) while every quantity the paper
reads agrees. Compared instead:

* **Operators** (eqs. 3-4): the kernel ``W_Q W_K^T`` (or ``P Q^T``) and the value map ``V`` of
  every bilinear student (the grids', and B0-B2 of the ladder; B1c's kernel ``K`` as stored),
  by their relative Frobenius distance ``||A - B||_F / ||B||_F`` <= :data:`OPERATOR_RTOL`. The
  nonlinear B3 students (MLP, layer norms, embeddings) are compared through their losses only.
  The kernel of an over-parameterised student (rank above r*: the ladder's ``overparam`` and
  the grids' ``recovery`` rows) is compared in the subspace the data identifies: its weakest
  directions fit the noise, and where training stops in them depends on rounding. With
  ``U_k S_k V_k^T`` the stored kernel's singular directions above its Gavish-Donoho threshold
  (the hard threshold that separates a signal from a noise bulk, Gavish & Donoho 2014), both
  kernels are read as ``U_k^T A V_k`` and compared by the same relative distance.
* **Losses and excesses** (eq. 5: the excess is the loss above the noise floor ``sigma^2 T d``),
  their final values and the end of each loss curve, in units of that noise floor:
  ``|a - b| / floor`` <= :data:`LOSS_FLOORS`. A relative error means nothing for an excess
  near zero (a converged student's excess is the floor's noise, either sign): the floor is the
  quantity's scale. The middle of a curve is not compared: an over-parameterized student's
  loss spikes at a step that rounding moves (E5's recovery curve, 0.59 floors apart at step
  1,700 of 2,000 across machines, converged within 1e-7 floors). For the same reason a row
  flagged ``spiked`` (protocol §3b: a final iterate above its converged excess) or
  ``unsettled`` (its last 10 % of steps still moving) on either machine is compared by its
  converged excess alone; the flags themselves are not required to agree
  (:data:`FINAL_ITERATE`). Measured: E3's linear r* = 1 seed 2 recovery row (r = 32) spiked
  at its last step on the EPYC (final excess 0.124, converged 0.098) and ended unsettled on the
  Xeon (0.0034, converged 0.134): 0.028 floors apart in converged excess, its kernel 7.3e-3.
  Whether a flip of a flag moves a verdict is what the machine study's verdict check answers.
* Everything else of the metrics (ranks, steps, flags, names) exactly.
* **E6** (bf16 training, chaotic: docs/design.md, "Determinism"): a recomputation on another
  kernel class is another draw of a chaotic training, so the held-out and selection losses are
  judged as the difference of two draws, against the spread of the cell's seeds in this run
  (the other seeds' entries of the same corpus and d_model, n of them, sample sd s): two
  independent draws differ by sd sqrt(2) sigma, and with sigma estimated by s from n draws
  ``(a - b) / (s sqrt 2)`` follows Student's t with n - 1 degrees of freedom, so ``|a - b|`` <=
  t_{n-1}(1 - (1 - :data:`E6_LEVEL`) / 2) sqrt(2) s is the two-sided prediction bound (3.93 s
  at n = 5). Two seeds of one cell can lie closer than that (python d_model 64's five seeds
  span 1.543-1.613 nats), so this comparison cannot tell a seed from another; the record check
  (its command must be this job's) refuses an entry stored under another seed's key.

The tolerances come from measurements of the same cells recomputed on another kernel class
(docs/design.md, "Determinism"); each comparison reports its margin, the largest measured
difference over its tolerance (below 1: agrees).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

# The tolerances are twice the largest difference measured 2026-12-05 over every training cell
# of E1 (5) and E5 (15), stored from AMD EPYC machines and recomputed on an Intel Xeon (AVX-512,
# AMX; `entropic-bound machine-study`, report/machine/), rounded up.
# Operators, relative Frobenius: at most 1.3e-3 in any sweep row; 1.35e-2 in the
# over-parameterized recovery rows (E5 power law r* 4 seed 4, r = 12; E1's r = 16, full rank,
# 6.4e-3): their weakest directions fit noise and are the last to converge. A 5 % change of one
# factor moves its operator by 5e-2, 1.7x the tolerance.
OPERATOR_RTOL = 3e-2
# Losses and excesses in noise floors: final-iterate values at most 0.039 floors, the
# converged excess 0.086 (both in E5's recovery rows, r = 12), every sweep row below 1e-3.
# Rows that spiked or ended unsettled on either machine (protocol §3b: 4 of the 20 cells had a
# recovery row spiked on one machine only, its final iterate up to 0.70 floors apart) are
# compared by their converged excess alone (0.023 floors there).
LOSS_FLOORS = 0.2
# E6: the level of the prediction bound on the difference of two draws (the module's doc),
# fixed 2026-12-06 before the cells it was tried on were recomputed (docs/design.md).
# Measured before (docs/design.md, "Determinism"): python d_model 64 seed 0 on an Intel Xeon,
# held-out 1.5899 vs 1.5763 on the AMD EPYC (0.014 nats; the five seeds' sd 0.029),
# selection 2.0159 vs 2.0411 (0.025; sd 0.022).
E6_LEVEL = 0.95

LOSS_COLUMNS = ("loss", "loss_test", "excess", "excess_converged", "excess_test", "curve_loss")
# the columns of a row's final iterate, not compared where the row spiked on either machine
FINAL_ITERATE = ("loss", "loss_test", "excess", "excess_test", "curve_loss", "spiked", "unsettled")
TRANSIENT_FLAGS = ("spiked", "unsettled")
E6_LOSSES = ("val_loss", "best_select_loss")
# the students whose operators are identifiable (bilinear in the data): all but the ladder's B3
NONLINEAR_STUDENT = re.compile(r"^B3")
FACTOR_PAIRS = (("WQ", "WK"), ("P", "Q"))
# students of rank above r*, whose kernels are compared where the data identifies them
OVERPARAMETERISED = re.compile(r"(^|_)(overparam|recovery)_")
SINGLE_OPERATORS = ("V", "K")


@dataclass(frozen=True)
class Comparison:
    """One output compared: the largest difference over its tolerance (``margin``, <= 1
    agrees), where, and by what."""

    margin: float
    where: str
    how: str

    @property
    def agrees(self) -> bool:
        """Within the tolerance, or not judged (NaN: nothing to judge by, ``how`` says why)."""
        return bool(self.margin <= 1.0 or np.isnan(self.margin))


def _worst(items: list[tuple[float, str]], how: str) -> Comparison:
    margin, where = max(items, default=(0.0, ""), key=lambda t: t[0])
    return Comparison(float(margin), where, how)


def relative_frobenius(a: np.ndarray, b: np.ndarray) -> float:
    """``||a - b||_F / ||b||_F`` (inf where shapes differ; the absolute norm where b is 0)."""
    if a.shape != b.shape:
        return float("inf")
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    scale = float(np.linalg.norm(b64))
    diff = float(np.linalg.norm(a64 - b64))
    return diff / scale if scale > 0 else diff


def operators(weights: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The identifiable operators of every bilinear student in a weights file: ``<student>
    WQ WK^T`` (or ``P Q^T``) and its ``V`` (or ``K``), by student prefix."""
    found = {}
    for name, array in weights.items():
        student, _, part = name.rpartition("_")
        if NONLINEAR_STUDENT.match(student):
            continue
        for left, right in FACTOR_PAIRS:
            if part == left and f"{student}_{right}" in weights:
                right_factor = weights[f"{student}_{right}"].astype(np.float64)
                found[f"{student}_{left}{right}^T"] = array.astype(np.float64) @ right_factor.T
        if part in SINGLE_OPERATORS:
            found[name] = array
    return found


def identified(ours: np.ndarray, stored: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Both kernels read in the stored one's singular directions above its Gavish-Donoho
    threshold, ``U_k^T A V_k`` (the module's doc)."""
    from entropic_bound.measures.spectra import gavish_donoho_rank

    if ours.shape != stored.shape:
        return ours, stored
    u, _, vt = np.linalg.svd(stored.astype(np.float64))
    k = max(gavish_donoho_rank(stored), 1)
    return (u[:, :k].T @ ours.astype(np.float64) @ vt[:k].T,
            u[:, :k].T @ stored.astype(np.float64) @ vt[:k].T)


def _is_kernel(name: str) -> bool:
    return name.endswith("^T") or name.endswith("_K")


def compare_operators(ours: dict[str, np.ndarray], stored: dict[str, np.ndarray],
                      label: str) -> Comparison:
    """The operators of two weights files (:func:`operators`) against :data:`OPERATOR_RTOL`,
    an over-parameterised student's kernel where the data identifies it (:func:`identified`)."""
    a, b = operators(ours), operators(stored)
    if set(a) != set(b):
        return Comparison(float("inf"), f"{label}: students differ", "operators")
    items = []
    for k in sorted(b):
        if OVERPARAMETERISED.search(k) and _is_kernel(k):
            items.append((relative_frobenius(*identified(a[k], b[k])) / OPERATOR_RTOL,
                          f"{label}:{k} (identified part)"))
        else:
            items.append((relative_frobenius(a[k], b[k]) / OPERATOR_RTOL, f"{label}:{k}"))
    return _worst(items, f"operators, relative Frobenius <= {OPERATOR_RTOL:g} (an "
                         "over-parameterised kernel where the data identifies it)")


def _final(column: pd.Series) -> np.ndarray:
    """A column's values as floats; of a column of curves, each curve's last value."""
    values = column.to_list()
    if values and isinstance(values[0], list | np.ndarray):
        return np.asarray([np.asarray(v, dtype=float)[-1] for v in values])
    return np.asarray(values, dtype=float)


def compare_metrics(ours: pd.DataFrame, stored: pd.DataFrame, label: str) -> Comparison:
    """A training metrics table: losses and excesses in noise floors (:data:`LOSS_FLOORS`),
    every other column but timings exactly."""
    how = f"losses in noise floors <= {LOSS_FLOORS:g}, the rest exactly"
    if list(ours.columns) != list(stored.columns) or len(ours) != len(stored):
        return Comparison(float("inf"), f"{label}: columns or rows differ", how)
    items = []
    spiked = np.zeros(len(stored), bool)  # rows whose end was a transient on either machine
    for flag in TRANSIENT_FLAGS:
        if flag in stored:
            spiked |= ours[flag].to_numpy(bool) | stored[flag].to_numpy(bool)
    for column in stored.columns:
        if "seconds" in column:
            continue
        kept = ~spiked if column in FINAL_ITERATE else np.ones(len(stored), bool)
        if column in LOSS_COLUMNS:
            floors = stored["noise_floor"].to_numpy(float)
            a, b = _final(ours[column]), _final(stored[column])
            if a.shape != b.shape:
                items.append((float("inf"), f"{label}:{column}"))
                continue
            diff = (np.abs(a - b) / floors)[kept]
            items.append((float(np.nanmax(diff)) / LOSS_FLOORS if diff.size else 0.0,
                          f"{label}:{column}"))
        elif not ours[column][kept].astype(str).equals(stored[column][kept].astype(str)):
            items.append((float("inf"), f"{label}:{column}"))
    if spiked.any():
        items.append((0.0, f"{label}: rows {list(np.flatnonzero(spiked))} spiked or unsettled, "
                           "compared by their converged excess"))
    return _worst(items, how)


def seed_spread(values: list[float]) -> float:
    """The sample standard deviation of a cell's seeds' values (0 with fewer than two)."""
    return float(np.std(values, ddof=1)) if len(values) > 1 else 0.0


def draw_bound(n: int, level: float = E6_LEVEL) -> float:
    """How many of the seeds' sample standard deviations two draws of a cell may differ by:
    t_{n-1}((1 + level) / 2) sqrt(2), from n seeds (inf below two: nothing to judge by)."""
    from scipy.stats import t

    return float(t.ppf((1 + level) / 2, n - 1) * np.sqrt(2)) if n > 1 else float("inf")


def compare_lm_metrics(ours: pd.DataFrame, stored: pd.DataFrame,
                       seeds: pd.DataFrame, label: str) -> Comparison:
    """E6: :data:`E6_LOSSES` as the difference of two draws, within :func:`draw_bound` sample
    standard deviations of the seeds (``seeds``: the metrics rows of the cell's seeds, this one
    included). With one seed there is no spread to judge by: the margin is NaN, "not judged"
    (never a difference for want of seeds), unless the two draws are identical."""
    bound = draw_bound(len(seeds))
    if not np.isfinite(bound):
        moved = max(abs(float(ours[c].iloc[0]) - float(stored[c].iloc[0])) for c in E6_LOSSES)
        return Comparison(0.0 if moved == 0 else float("nan"),
                          f"{label} (moved {moved:.4g})",
                          f"E6 losses not judged: {len(seeds)} seed of the cell stored, two "
                          "draws' bound needs the spread of two or more")
    how = (f"E6 losses within the {E6_LEVEL:.0%} bound of two draws' difference "
           f"({bound:.2f} seed sd at n = {len(seeds)})")
    items = []
    for column in E6_LOSSES:
        spread = seed_spread(seeds[column].astype(float).tolist())
        diff = abs(float(ours[column].iloc[0]) - float(stored[column].iloc[0]))
        allowed = bound * spread
        items.append((diff / allowed if allowed > 0 else (float("inf") if diff else 0.0),
                      f"{label}:{column} (moved {diff:.4g}, seeds' sd {spread:.3g})"))
    return _worst(items, how)


def weights_of(path: Path) -> dict[str, np.ndarray]:
    from entropic_bound.plumbing.atomic import open_npz

    with open_npz(path) as z:
        return {name: np.asarray(z[name]) for name in z.files}
