"""Aggregation of per-cell measures into one tidy parquet per paper table.

The attention-native grids, Table 3 (protocol §E3) and Table 5 (E5), come in three granularities,
all long-format with documented columns (``<t>`` is ``table3`` or ``table5``):

``<t>_cells``  one row per trained student (teacher, spectrum, r_star, seed, role, r): loss,
               loss_test [squared error per sample], excess (final iterate), excess_converged
               (mean over the last 10% of steps, protocol §3b), spiked, excess_test [same units,
               L - sigma^2 T d], and the learned kernel's reff, reff_energy, rstable,
               numerical_rank, gd_rank, plus the teacher kernel's teacher_* measures.
``<t>_sweep``  one row per (teacher, spectrum, r_star, r) of the rank sweep: converged excess
               mean/std/min/max over seeds (the verdicts' quantity), final-iterate excess mean,
               n_spiked, excess_test mean.
``<t>``        one row per (teacher, spectrum, r_star): the verdicts of protocol §E3 and the numbers
               behind them (see :func:`grid_summary`).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

from entropic_bound.plumbing.atomic import read_parquet
from entropic_bound.tables import criteria


def seed_cv(values: Iterable[float]) -> float:
    """Sample std (ddof=1) over mean across seeds (protocol §1); NaN with < 2 seeds."""
    v = np.asarray(list(values), dtype=np.float64)
    if v.size < 2 or v.mean() == 0.0:
        return float("nan")
    return float(v.std(ddof=1) / v.mean())


def bootstrap_cv_interval(values: Iterable[float], level: float = 0.95,
                          draws: int = 2000) -> tuple[float, float]:
    """Percentile bootstrap interval of :func:`seed_cv` over resampled seeds (``draws``
    resamples with replacement; a fixed generator, so the same values give the same interval).
    With 5 seeds a CV is itself uncertain by about +-35 %; NaN with < 2 seeds."""
    v = np.asarray(list(values), dtype=np.float64)
    if v.size < 2:
        return float("nan"), float("nan")
    samples = v[np.random.default_rng(0).integers(0, v.size, size=(draws, v.size))]
    means = samples.mean(axis=1)
    cvs = np.where(means != 0, samples.std(axis=1, ddof=1) / np.where(means != 0, means, 1),
                   np.nan)
    lo, hi = np.nanquantile(cvs, [(1 - level) / 2, (1 + level) / 2])
    return float(lo), float(hi)


def read_parquets(paths: Iterable[str]) -> pd.DataFrame:
    """The per-cell (or per-dataset) parquet files of one aggregation, stacked."""
    return pd.concat([read_parquet(p) for p in paths], ignore_index=True)


def concat_cells(paths: Iterable[str]) -> pd.DataFrame:
    return read_parquets(paths).sort_values(GRID_KEYS + ["seed", "role", "r"], ignore_index=True)


GRID_KEYS = ["teacher", "spectrum", "r_star"]


def grid_sweep(cells: pd.DataFrame) -> pd.DataFrame:
    """Per swept r: ``excess_*`` are the converged excess (protocol §3b) over seeds."""
    sweep = cells[cells["role"] == "sweep"]
    g = sweep.groupby(GRID_KEYS + ["r"], sort=True)
    out = g["excess_converged"].agg(excess_mean="mean", excess_std="std", excess_min="min",
                                    excess_max="max").reset_index()
    out["excess_final_mean"] = g["excess"].mean().to_numpy()
    out["n_spiked"] = g["spiked"].sum().astype(int).to_numpy()
    out["n_unsettled"] = g["unsettled"].sum().astype(int).to_numpy()
    out["excess_test_mean"] = g["excess_test"].mean().to_numpy()
    out["noise_floor"] = g["noise_floor"].first().to_numpy()
    out["n_seeds"] = g["seed"].nunique().to_numpy()
    return out


def grid_summary(cells: pd.DataFrame) -> pd.DataFrame:
    """Per (teacher, spectrum, r*): deficiency, achievability and recovery verdicts (protocol §E3).

    The thresholds are :mod:`entropic_bound.tables.criteria`'s.
    deficiency:    seed-mean converged excess(r) > DEFICIENCY_FRACTION * floor for every r < r*;
                   <NA> at r* = 1 (no r < r*: not a pass)
    achievability: |seed-mean converged excess(r)| < ACHIEVABILITY_FRACTION * floor for every
                   swept r >= r* whose students all settled (protocol §E3): an r with an
                   unsettled student (never reached a plateau,
                   ``entropic_bound.training.loop.convergence_columns``) is skipped and counted
                   (``n_unsettled_r_at_or_above``), and never hides a settled r that fails;
                   <NA> only where no settled r >= r* is left.
    deficiency is <NA> when any student below r* is unsettled: an unsettled student's excess
    is too high, so a pass built on it could be false.
    recovery:      round(mean Reff(K_hat)) = r* (eq. 1), and the energy check
                   |R~eff(K_hat) - R~eff(K*)| <= ENERGY_TOLERANCE R~eff(K*) (eq. 2)
    cv_seed:       CV over seeds of the recovery student's Reff(K_hat), with its 95 % bootstrap
                   interval over seeds (cv_seed_ci_lo/hi) and the energy rank's (cv_seed_energy)
    """
    sweep = grid_sweep(cells)
    rec = cells[cells["role"] == "recovery"]
    rows = []
    for (teacher, spectrum, r_star), s in sweep.groupby(GRID_KEYS, sort=True):
        floor = float(s["noise_floor"].iloc[0])
        below = s[s["r"] < r_star]
        above = s[s["r"] >= r_star]
        settled = above[above["n_unsettled"] == 0]
        rr = rec[(rec["teacher"] == teacher) & (rec["spectrum"] == spectrum)
                 & (rec["r_star"] == r_star)]
        reff_mean = float(rr["reff"].mean())
        energy_mean = float(rr["reff_energy"].mean())
        teacher_energy = float(rr["teacher_reff_energy"].iloc[0])

        def at(r: int, s: pd.DataFrame = s) -> float:
            hit = s.loc[s["r"] == r, "excess_mean"]
            return float(hit.iloc[0]) if len(hit) else float("nan")

        rows.append({
            "teacher": teacher, "spectrum": spectrum, "r_star": int(r_star),
            "n_seeds": int(s["n_seeds"].max()),
            "noise_floor": floor,
            "excess_r1": at(1),
            "excess_r_star_minus_1": at(r_star - 1),
            "excess_r_star": at(r_star),
            "min_excess_below": float(below["excess_mean"].min()) if len(below) else np.nan,
            "max_abs_excess_at_or_above": float(above["excess_mean"].abs().max()),
            "max_abs_excess_final_at_or_above": float(above["excess_final_mean"].abs().max()),
            "n_spiked": int(s["n_spiked"].sum()),
            "n_unsettled": int(s["n_unsettled"].sum()),
            "deficiency": (criteria.deficient(below["excess_mean"], floor)
                           if len(below) and not below["n_unsettled"].any() else pd.NA),
            "n_unsettled_r_at_or_above": int((above["n_unsettled"] > 0).sum()),
            "achievability": (criteria.achievable(settled["excess_mean"], floor)
                              if len(settled) else pd.NA),
            "recovery_reff": reff_mean,
            "recovery_reff_energy": energy_mean,
            "recovery_gd_rank": float(rr["gd_rank"].mean()),
            "teacher_reff": float(rr["teacher_reff"].iloc[0]),
            "teacher_reff_energy": teacher_energy,
            "recovery_round": bool(round(reff_mean) == r_star),
            "recovery_energy": criteria.energy_recovered(energy_mean, teacher_energy),
            "cv_seed": seed_cv(rr["reff"]),
            **dict(zip(("cv_seed_ci_lo", "cv_seed_ci_hi"), bootstrap_cv_interval(rr["reff"]))),
            "cv_seed_energy": seed_cv(rr["reff_energy"]),
        })
    out = pd.DataFrame(rows)
    out["deficiency"] = out["deficiency"].astype("boolean")
    out["achievability"] = out["achievability"].astype("boolean")
    out["recovery"] = out["recovery_round"] & out["recovery_energy"]
    return out


def _seed_stats(per_seed: dict[str, pd.Series]) -> list[dict]:
    return [{"quantity": k, "mean": float(v.mean()), "std": float(v.std(ddof=1)),
             "min": float(v.min()), "max": float(v.max()), "n_seeds": int(v.size)}
            for k, v in per_seed.items()]


def _with_operator(frames: dict[str, pd.DataFrame], primary: str) -> pd.DataFrame:
    out = pd.concat([f.assign(operator=op) for op, f in frames.items()], ignore_index=True)
    out.insert(0, "operator", out.pop("operator"))
    out.insert(1, "primary", out["operator"] == primary)
    return out


def table1(cells: pd.DataFrame, estimates: pd.DataFrame,
           primary: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Table 1 (protocol §E1): the sweep per r, and a long summary of the published quantities, per
    fixed operator (``primary`` marks the paper's reading, config ``e1.operator``).

    ``table1_sweep``: r, converged excess (protocol §3b) mean/std over seeds, final-iterate excess
    mean, held-out excess mean, the exact Eckart-Young excess and the Theorem 5 bound (seed
    means).
    ``table1``: one row per quantity with mean, std, min, max over seeds: converged excess at
    each r (``excess_r<r>``), its ratio to the seed's own Eckart-Young value for r < r*
    (``excess_r<r>_over_eckart_young``), ||V*||_F^2 (``v_energy``), max |excess| above r*,
    spiked students, raw and MP-corrected Reff of the over-parameterised A, data-only ranks.
    """
    sweeps, summaries = {}, {}
    for op, part in cells.groupby("operator", sort=True):
        est = estimates[estimates["operator"] == op]
        sweeps[op], summaries[op] = _table1_operator(part, est)
    return _with_operator(sweeps, primary), _with_operator(summaries, primary)


def _table1_operator(cells: pd.DataFrame,
                     estimates: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    sweep = cells[cells["role"] == "sweep"]
    g = sweep.groupby("r", sort=True)
    per_r = g.agg(excess_mean=("excess_converged", "mean"),
                  excess_std=("excess_converged", "std"),
                  excess_final_mean=("excess", "mean"),
                  excess_test_mean=("excess_test", "mean"),
                  eckart_young=("eckart_young", "mean"),
                  theorem5_bound=("theorem5_bound", "mean"),
                  n_spiked=("spiked", "sum"),
                  n_unsettled=("unsettled", "sum"),
                  n_seeds=("seed", "nunique")).reset_index()
    r_star = int(estimates["r_star"].iloc[0])
    per_seed: dict[str, pd.Series] = {}
    for r in sorted(sweep["r"].unique()):
        at = sweep[sweep["r"] == r].set_index("seed")
        per_seed[f"excess_r{r}"] = at["excess_converged"]
        if r < r_star:
            per_seed[f"excess_r{r}_over_eckart_young"] = at["excess_converged"] / at["eckart_young"]
    above = sweep[sweep["r"] > r_star].groupby("seed")["excess_converged"].apply(
        lambda e: e.abs().max())
    per_seed["max_abs_excess_above_r_star"] = above
    per_seed["n_spiked"] = cells.groupby("seed")["spiked"].sum().astype(float)
    per_seed["n_unsettled"] = sweep.groupby("seed")["unsettled"].sum().astype(float)
    per_seed["v_energy"] = cells.groupby("seed")["v_energy"].first()
    rec = cells[cells["role"] == "recovery"].set_index("seed")
    per_seed["recovery_reff"] = rec["op_reff"]
    per_seed["recovery_reff_mp"] = rec["op_reff_mp"]
    per_seed["recovery_reff_energy"] = rec["op_reff_energy"]
    for (name, col), grp in estimates.melt(
            id_vars=["seed", "estimator"],
            value_vars=["numerical_rank", "gd_rank", "kept_over_tol", "dropped_over_tol"]).groupby(
            ["estimator", "variable"]):
        per_seed[f"dataonly_{name}_{col}"] = grp.set_index("seed")["value"].astype(float)
    per_seed["noise_floor"] = cells.groupby("seed")["noise_floor"].first()
    return per_r, pd.DataFrame(_seed_stats(per_seed))


# Table 2's achievable excess of each class (protocol §E2; entropic_bound.measures.achievable): B0
# reaches Eckart-Young at r*; B1, B1c, B2 and the position-free B3 blocks are permutation-
# equivariant on i.i.d. rows, so none gets below the equivariance floor. Beside it the table
# keeps B1c's least squares with V = V* and the per-token linear predictor (both equivariant,
# so both at or above the floor). The position-aware variants (B3_pos, B3_causal and their
# readouts) have no bound: they are reported beside the floor.
CLASS_BOUND = {"B0": "bound_eckart_young",
               **{c: "bound_equivariance" for c in
                  ("B1", "B1c", "B2", "B3", "B3_postln", "B3_rscale", "B3_postln_rscale")}}
BOUNDS = ("bound_eckart_young", "bound_equivariance", "bound_b1c_fixed_v",
          "bound_per_token_linear")


def table2(cells: pd.DataFrame, primary: str) -> pd.DataFrame:
    """Table 2 (protocol §E2): per (operator, ladder class), the converged excess at r = r*
    (protocol §3b; final-iterate beside it), the excess normalised by the operator energy
    ||A*||_F^2 ||V*||_F^2 (``excess_normalized``), the class's achievable excess
    (``achievable_excess``, named by ``achievable_by``) and the dataset bounds, and the
    realized-operator measures of the over-parameterised student (seed means; ``*_std`` over
    seeds). ``primary`` marks the paper's operator (config ``e2.operator``)."""
    at_rows = cells[cells["role"] == "at_r_star"].assign(
        excess_normalized=lambda f: f["excess_converged"] / f["operator_energy"])
    at = at_rows.groupby(["operator", "class"])
    out = at.agg(excess_at_r_star=("excess_converged", "mean"),
                 excess_at_r_star_std=("excess_converged", "std"),
                 excess_final_at_r_star=("excess", "mean"),
                 n_spiked=("spiked", "sum"),
                 n_unsettled=("unsettled", "sum"),
                 excess_normalized=("excess_normalized", "mean"),
                 excess_test_at_r_star=("excess_test", "mean"),
                 operator_energy=("operator_energy", "mean"),
                 **{b: (b, "mean") for b in BOUNDS},
                 noise_floor=("noise_floor", "first"), n_seeds=("seed", "nunique"))
    measures = ["excess", "op_reff", "op_reff_energy", "op_reff_mp", "mix_mean_reff",
                "mix_mean_reff_energy", "mix_input_reff", "mix_input_reff_energy"]
    over = cells[cells["role"] == "overparam"].groupby(["operator", "class"])
    out = out.join(over[measures].mean().add_prefix("overparam_")).reset_index()
    out["achievable_by"] = out["class"].map(CLASS_BOUND).fillna("none")
    out["achievable_excess"] = [row[b] if b in BOUNDS else np.nan
                                for b, (_, row) in zip(out["achievable_by"], out.iterrows())]
    out[["n_spiked", "n_unsettled"]] = out[["n_spiked", "n_unsettled"]].astype(int)
    out.insert(1, "primary", out["operator"] == primary)
    return out


PAPER_GRID = "e3"  # the setting of the paper's Table 4: the E3 datasets


def table4(estimates: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Table 4 (protocol §E4): data-only predictability, and the scores of every estimator.

    ``table4_predictability``: on the paper's grid (setting ``e3``), per (teacher, r_star,
    estimator), seed means of the estimate, numerical_rank (binding tolerance), rank_tol1e-2,
    gap_rank, gd_rank and reff_energy, the numerical rank's and the estimate's seed min/max,
    the smallest sigma_min(V*) over seeds, the numerical rank's closest margins over seeds
    (``kept_over_tol_min``, ``dropped_over_tol_max``: :func:`spectra.rank_margins`), and the
    teacher's R~eff(K*).
    ``table4_scores``: per (setting, spectrum, teacher, estimator), over every r* and seed:
    mae = mean |estimate - r*|, hits = #(round(estimate) = r*), n, mae_energy = mean
    |estimate - R~eff(K*)|, r_stars_missed ("r* (count)" of the datasets missed),
    seconds_per_dataset (mean wall time) and, for the held-out fits, the closest calls:
    z_below_min (smallest z at r_hat - 1), z_at_max (largest z at r_hat) and
    full_fit_over_floor_max (worst reference fit: held-out loss over sigma^2 T d, ~1 when
    converged); the paper's grid
    first, ranked by mae within each (setting, spectrum, teacher).
    """
    keys = ["teacher", "r_star", "estimator"]
    g = estimates[estimates["setting"] == PAPER_GRID].groupby(keys, sort=True)
    pred = g.agg(estimate=("estimate", "mean"), estimate_min=("estimate", "min"),
                 estimate_max=("estimate", "max"), numerical_rank=("numerical_rank", "mean"),
                 numerical_rank_min=("numerical_rank", "min"),
                 numerical_rank_max=("numerical_rank", "max"),
                 rank_tol1e_2=("rank_tol1e-2", "mean"), gap_rank=("gap_rank", "mean"),
                 v_sigma_min=("v_sigma_min", "min"),
                 kept_over_tol_min=("kept_over_tol", "min"),
                 dropped_over_tol_max=("dropped_over_tol", "max"),
                 gd_rank=("gd_rank", "mean"), reff_energy=("reff_energy", "mean"),
                 teacher_reff_energy=("teacher_reff_energy", "first"),
                 n_seeds=("seed", "nunique")).reset_index()
    e = estimates.assign(abs_err=(estimates["estimate"] - estimates["r_star"]).abs(),
                         hit=estimates["estimate"].round() == estimates["r_star"],
                         abs_err_energy=(estimates["estimate"]
                                         - estimates["teacher_reff_energy"]).abs())
    by = ["setting", "spectrum", "teacher", "estimator"]
    scores = e.groupby(by).agg(
        mae=("abs_err", "mean"), hits=("hit", "sum"), n=("hit", "size"),
        mae_energy=("abs_err_energy", "mean"),
        seconds_per_dataset=("seconds", "mean"),
        z_below_min=("z_below", "min"), z_at_max=("z_at", "max"),
        full_fit_over_floor_max=("full_fit_over_floor", "max")).reset_index()
    missed = e[~e["hit"]].groupby(by)["r_star"].apply(
        lambda r: ", ".join(f"{k} ({v})" for k, v in sorted(r.value_counts().items())))
    scores["r_stars_missed"] = scores.set_index(by).index.map(missed).fillna("")
    scores["hits"] = scores["hits"].astype(int)
    scores["paper_grid"] = scores["setting"] == PAPER_GRID
    scores = (scores.sort_values(["paper_grid", "setting", "spectrum", "teacher", "mae"],
                                 ascending=[False, True, True, True, True], ignore_index=True)
              .drop(columns="paper_grid"))
    return pred, scores
