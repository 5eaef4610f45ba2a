"""Aggregation of per-cell measures into one tidy parquet per paper table.

The attention-native grids, Table 3 (SPEC E3) and Table 5 (E5), come in three granularities,
all long-format with documented columns (``<t>`` is ``table3`` or ``table5``):

``<t>_cells``  one row per trained student (teacher, spectrum, r_star, seed, role, r): loss,
               loss_test [squared error per sample], excess, excess_test [same units,
               L - sigma^2 T d], and the learned kernel's reff, reff_energy, rstable,
               numerical_rank, gd_rank, plus the teacher kernel's teacher_* measures.
``<t>_sweep``  one row per (teacher, spectrum, r_star, r) of the rank sweep: excess
               mean/std/min/max over seeds, excess_test mean.
``<t>``        one row per (teacher, spectrum, r_star): the verdicts of SPEC E3 and the numbers
               behind them (see :func:`grid_summary`).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

# Verdict thresholds of SPEC E3, as fractions of the noise floor sigma^2 T d.
DEFICIENCY_FRACTION = 0.1
ACHIEVABILITY_FRACTION = 0.01
ENERGY_TOLERANCE = 0.05


def seed_cv(values: Iterable[float]) -> float:
    """Sample std (ddof=1) over mean across seeds (SPEC section 1); NaN with < 2 seeds."""
    v = np.asarray(list(values), dtype=np.float64)
    if v.size < 2 or v.mean() == 0.0:
        return float("nan")
    return float(v.std(ddof=1) / v.mean())


def concat_cells(paths: Iterable[str]) -> pd.DataFrame:
    frames = [pd.read_parquet(p) for p in paths]
    cells = pd.concat(frames, ignore_index=True)
    return cells.sort_values(GRID_KEYS + ["seed", "role", "r"], ignore_index=True)


GRID_KEYS = ["teacher", "spectrum", "r_star"]


def grid_sweep(cells: pd.DataFrame) -> pd.DataFrame:
    sweep = cells[cells["role"] == "sweep"]
    g = sweep.groupby(GRID_KEYS + ["r"], sort=True)
    out = g["excess"].agg(excess_mean="mean", excess_std="std", excess_min="min",
                          excess_max="max").reset_index()
    out["excess_test_mean"] = g["excess_test"].mean().to_numpy()
    out["noise_floor"] = g["noise_floor"].first().to_numpy()
    out["n_seeds"] = g["seed"].nunique().to_numpy()
    return out


def grid_summary(cells: pd.DataFrame) -> pd.DataFrame:
    """Per (teacher, spectrum, r*): deficiency, achievability and recovery verdicts (SPEC E3).

    deficiency:    seed-mean excess(r) > 0.1 * floor for every r < r* (vacuous at r* = 1)
    achievability: |seed-mean excess(r)| < 0.01 * floor for every swept r >= r*
    recovery:      round(mean Reff(K_hat)) = r* (eq. 1), and the energy check
                   |R~eff(K_hat) - R~eff(K*)| <= 0.05 R~eff(K*) (eq. 2)
    cv_seed:       CV over seeds of the recovery student's Reff(K_hat)
    """
    sweep = grid_sweep(cells)
    rec = cells[cells["role"] == "recovery"]
    rows = []
    for (teacher, spectrum, r_star), s in sweep.groupby(GRID_KEYS, sort=True):
        floor = float(s["noise_floor"].iloc[0])
        below = s[s["r"] < r_star]
        above = s[s["r"] >= r_star]
        rr = rec[(rec["teacher"] == teacher) & (rec["spectrum"] == spectrum)
                 & (rec["r_star"] == r_star)]
        reff_mean = float(rr["reff"].mean())
        energy_mean = float(rr["reff_energy"].mean())
        teacher_energy = float(rr["teacher_reff_energy"].iloc[0])

        def at(r: int) -> float:
            hit = s.loc[s["r"] == r, "excess_mean"]
            return float(hit.iloc[0]) if len(hit) else float("nan")

        rows.append({
            "teacher": teacher, "spectrum": spectrum, "r_star": int(r_star),
            "n_seeds": int(s["n_seeds"].max()),
            "noise_floor": floor,
            "excess_r_star_minus_1": at(r_star - 1),
            "excess_r_star": at(r_star),
            "min_excess_below": float(below["excess_mean"].min()) if len(below) else np.nan,
            "max_abs_excess_at_or_above": float(above["excess_mean"].abs().max()),
            "deficiency": bool((below["excess_mean"] > DEFICIENCY_FRACTION * floor).all()),
            "achievability": bool((above["excess_mean"].abs()
                                   < ACHIEVABILITY_FRACTION * floor).all()),
            "recovery_reff": reff_mean,
            "recovery_reff_energy": energy_mean,
            "recovery_gd_rank": float(rr["gd_rank"].mean()),
            "teacher_reff": float(rr["teacher_reff"].iloc[0]),
            "teacher_reff_energy": teacher_energy,
            "recovery_round": bool(round(reff_mean) == r_star),
            "recovery_energy": bool(abs(energy_mean - teacher_energy)
                                    <= ENERGY_TOLERANCE * teacher_energy),
            "cv_seed": seed_cv(rr["reff"]),
            "cv_seed_energy": seed_cv(rr["reff_energy"]),
        })
    out = pd.DataFrame(rows)
    out["recovery"] = out["recovery_round"] & out["recovery_energy"]
    return out
