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

from collections.abc import Callable, Iterable

import numpy as np
import pandas as pd

from entropic_bound.claims import criteria
from entropic_bound.plumbing.atomic import read_parquet


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

    The thresholds are :mod:`entropic_bound.claims.criteria`'s.
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


# Appendix B (protocol §E6): head measures averaged per cell, then the paper's statistics.
HEAD_MEASURES = ("static_reff", "mean_attn_reff", "per_input_reff", "participation",
                 "whitened_reff")
CELL_EXTRAS = ("static_reff_init", "ffn_stable_rank", "val_loss")
SEPARATION_Z = 3.0  # a corpus is "separated" when |z| > 3 against the other corpora


def _cv(values: pd.Series) -> float:
    return float(values.std(ddof=1) / values.mean()) if len(values) > 1 else float("nan")


def initial_cells(trajectory: pd.DataFrame) -> pd.DataFrame:
    """Per (corpus, d_model): the seed-and-head means of every measure at initialisation
    (the step-0 checkpoint of each cell's trajectory)."""
    start = trajectory[(trajectory["step"] == 0) & ~trajectory["final"]]
    return (start.groupby(["corpus", "d_model", "seed"])[[*HEAD_MEASURES, "ffn_stable_rank"]]
            .mean().groupby(["corpus", "d_model"]).mean().reset_index())


# The readings of a layer's rank beside the binding per-head static Reff (protocol §E6): its
# energy rank, the whitened kernel, per-input and mean-attention Reff, and the layer's whole
# kernel (the sum over heads of W_Q W_K^T).
READINGS = ("static_reff_energy", "whitened_reff", "per_input_reff", "mean_attn_reff",
            "layer_kernel_reff")


def readings(measures: pd.DataFrame, stat: Callable[..., dict]) -> list[dict]:
    """Per d_model, Pearson(final loss, reading) across corpora for every reading in
    :data:`READINGS`, for layer 0's static Reff alone, and Spearman for the binding static
    Reff; for the largest model, each layer's range over corpora of the energy rank, the
    whitened kernel and the whole kernel. Stats named ``reading_*``."""
    present = [r for r in READINGS if r in measures.columns]
    cells = (measures.groupby(["corpus", "d_model"])[["val_loss", "static_reff", *present]]
             .mean())
    layer0 = (measures[measures["layer"] == 0].groupby(["corpus", "d_model"])["static_reff"]
              .mean().rename("static_reff_layer0"))
    cells = cells.join(layer0).reset_index()
    rows = []
    for d, part in cells.groupby("d_model"):
        for r in (*present, "static_reff_layer0"):
            rows.append(stat(f"reading_pearson_loss_vs_{r}_d{d}",
                             part["val_loss"].corr(part[r]), n=len(part)))
        rows.append(stat(f"reading_spearman_loss_vs_static_reff_d{d}",
                         part["val_loss"].corr(part["static_reff"], method="spearman"),
                         n=len(part)))
    largest = measures[measures["d_model"] == measures["d_model"].max()]
    by_layer = largest.groupby(["corpus", "layer"])[present].mean().reset_index()
    ranged = [r for r in ("static_reff_energy", "whitened_reff", "layer_kernel_reff")
              if r in present]
    for layer, part in by_layer.groupby("layer"):
        for r in ranged:
            rows.append(stat(f"reading_largest_layer{layer}_{r}", part[r].mean(),
                             part[r].min(), part[r].max(), len(part)))
    return rows


def table6(measures: pd.DataFrame, data_side: pd.DataFrame, trajectory: pd.DataFrame,
           h1_margin: float) -> tuple[pd.DataFrame, ...]:
    """App. B tables from the per-head measures, the per-corpus data-side quantities and the
    measures along training.

    Returns (cells, layers, stats, trajectory):
    ``cells``  one row per (corpus, d_model): seed means of the head-averaged measures, the
               static Reff at initialisation and the relative drop 1 - static/initial
               (``static_drop``), the FFN stable rank and validation loss, cv_seed of the static
               Reff, the corpus's predicted_rank and h1_bits, the seed means of the stopping
               step and tokens seen, and how many seeds meet the training criterion
               (:func:`entropic_bound.claims.criteria.training_criterion`; ``trained_seeds`` of
               ``seeds``);
    ``layers`` one row per (corpus, d_model, layer): seed-and-head mean of each head measure
               and of the initial static Reff, and the layer's drop from it (``static_drop``);
    ``stats``  one row per statistic (stat, value, lo, hi, n): Pearson/Spearman of predicted vs
               measured static rank (pooled, and Pearson within each d_model), cv_seed range,
               loss-rank Pearson (pooled and per d_model), largest model's layer
               ranges, CV across corpora of every measure and of the predictor (and of every
               measure at initialisation), Pearson(H1, FFN stable rank) (and at
               initialisation, with the median relative change of the FFN stable rank),
               ridge full-rank and repeat-separation counts, the range of static_drop over
               cells, the largest model's initial static Reff per layer, and the cells that
               fail the training criterion (``untrained_cells``: value failing, lo reached
               max_steps, hi not below H1, n cells);
    ``trajectory`` the cells' measures along training, one row per (corpus, d_model, seed,
               checkpoint step, layer, head), with the corpus's h1_bits and the cell's
               training criterion.
    """
    per_seed = (measures.groupby(["corpus", "d_model", "seed"])
                [[*HEAD_MEASURES, *CELL_EXTRAS, "stop_step", "tokens_seen"]].mean()
                .reset_index())
    stops = measures.groupby(["corpus", "d_model", "seed"])["stop_reason"].first()
    per_seed = per_seed.merge(stops.reset_index(), on=["corpus", "d_model", "seed"]).merge(
        data_side[["corpus", "h1_bits"]], on="corpus", how="left")
    per_seed = criteria.training_criterion(per_seed, h1_margin)
    grouped = per_seed.groupby(["corpus", "d_model"])
    cells = grouped[[*HEAD_MEASURES, *CELL_EXTRAS, "stop_step", "tokens_seen"]].mean()
    cells["static_drop"] = 1.0 - cells["static_reff"] / cells["static_reff_init"]
    cells["cv_seed"] = grouped["static_reff"].apply(_cv)
    cells["seeds"] = grouped.size()
    cells["trained_seeds"] = grouped["trained"].sum()
    cells = cells.reset_index().merge(
        data_side[["corpus", "predicted_rank", "h1_bits"]], on="corpus", how="left")
    initial = initial_cells(trajectory).set_index(["corpus", "d_model"])
    cells["ffn_stable_rank_init"] = initial.loc[
        list(zip(cells["corpus"], cells["d_model"])), "ffn_stable_rank"].to_numpy()
    layers = (measures.groupby(["corpus", "d_model", "layer"])
              [[*HEAD_MEASURES, "static_reff_init"]].mean().reset_index())
    # how far training moved each layer's kernel from initialisation: a measured outcome
    layers["static_drop"] = 1.0 - layers["static_reff"] / layers["static_reff_init"]

    def stat(name: str, value: float, lo: float = np.nan, hi: float = np.nan,
             n: int = 0) -> dict:
        return {"stat": name, "value": float(value), "lo": float(lo), "hi": float(hi), "n": n}

    n = len(cells)
    ffn_change = cells["ffn_stable_rank"] / cells["ffn_stable_rank_init"] - 1
    rows = [
        stat("pearson_predicted_vs_static", cells["predicted_rank"].corr(cells["static_reff"]),
             n=n),
        stat("spearman_predicted_vs_static",
             cells["predicted_rank"].corr(cells["static_reff"], method="spearman"), n=n),
        stat("cv_seed_max", cells["cv_seed"].max(), cells["cv_seed"].min(),
             cells["cv_seed"].max(), n),
        stat("pearson_loss_vs_static", cells["val_loss"].corr(cells["static_reff"]), n=n),
        stat("pearson_h1_vs_ffn_stable_rank", cells["h1_bits"].corr(cells["ffn_stable_rank"]),
             n=n),
        stat("static_drop", cells["static_drop"].median(), cells["static_drop"].min(),
             cells["static_drop"].max(), n),
        stat("pearson_h1_vs_ffn_stable_rank_init",
             cells["h1_bits"].corr(cells["ffn_stable_rank_init"]), n=n),
        stat("ffn_stable_rank_change", ffn_change.abs().median(), ffn_change.min(),
             ffn_change.max(), n),
        stat("untrained_cells", (~per_seed["trained"]).sum(), (~per_seed["converged"]).sum(),
             (~per_seed["below_h1"]).sum(), len(per_seed)),
    ]
    # The pooled statistics mix sizes (the measured rank grows with d_model); the same
    # correlations within each size show whether pooling hides or creates the sign.
    for d, part in cells.groupby("d_model"):
        rows.append(stat(f"pearson_predicted_vs_static_d{d}",
                         part["predicted_rank"].corr(part["static_reff"]), n=len(part)))
        rows.append(stat(f"spearman_predicted_vs_static_d{d}",
                         part["predicted_rank"].corr(part["static_reff"], method="spearman"),
                         n=len(part)))
        rows.append(stat(f"pearson_loss_vs_static_d{d}",
                         part["val_loss"].corr(part["static_reff"]), n=len(part)))
    # Readings beside the binding ones (printed, never judged): the loss-rank correlation and
    # the largest model's layer ranges under the other readings of a layer's rank.
    rows += readings(measures, stat)
    largest = layers[layers["d_model"] == layers["d_model"].max()]
    for layer, part in largest.groupby("layer"):
        rows.append(stat(f"largest_layer{layer}_static_reff", part["static_reff"].mean(),
                         part["static_reff"].min(), part["static_reff"].max(), len(part)))
        rows.append(stat(f"largest_layer{layer}_static_reff_init",
                         part["static_reff_init"].mean(), part["static_reff_init"].min(),
                         part["static_reff_init"].max(), len(part)))
    for m in HEAD_MEASURES:
        cvs = cells.groupby("d_model")[m].apply(_cv)
        rows.append(stat(f"cv_across_corpora_{m}", cvs.mean(), cvs.min(), cvs.max(), len(cvs)))
        cvs = initial.groupby("d_model")[m].apply(_cv)
        rows.append(stat(f"cv_across_corpora_{m}_init", cvs.mean(), cvs.min(), cvs.max(),
                         len(cvs)))
    rows.append(stat("cv_across_corpora_predicted_rank", _cv(data_side["predicted_rank"]),
                     n=len(data_side)))
    full = (data_side["ridge_numerical_rank"] == data_side["ridge_dim"]).sum()
    rows.append(stat("ridge_full_rank_corpora", full, data_side["ridge_reff"].min(),
                     data_side["ridge_reff"].max(), len(data_side)))
    if "ridge_rank_numpy" in data_side:
        rows.append(stat("ridge_full_rank_numpy_corpora",
                         (data_side["ridge_rank_numpy"] == data_side["ridge_dim"]).sum(),
                         data_side["ridge_rank_numpy"].min(), data_side["ridge_rank_numpy"].max(),
                         len(data_side)))
    # the embedding width against each corpus's vocabulary (a width above the vocabulary
    # cannot be filled: the operator's rank is at most the vocabulary size)
    rows.append(stat("ridge_dim_over_vocab", float(data_side["ridge_dim"].iloc[0]),
                     data_side["vocab_size"].min(), data_side["vocab_size"].max(),
                     len(data_side)))
    for col in sorted(c for c in data_side.columns if c.startswith("ridge_rank_tol")):
        rows.append(stat(col, data_side[col].median(), data_side[col].min(),
                         data_side[col].max(), len(data_side)))
    rows.append(stat("repeat_separated_corpora", len(separated(data_side["repeat_reff"])),
                     data_side["repeat_reff"].min(), data_side["repeat_reff"].max(),
                     len(data_side)))
    trajectory = trajectory.merge(
        per_seed[["corpus", "d_model", "seed", "h1_bits", "converged", "below_h1", "trained"]],
        on=["corpus", "d_model", "seed"], how="left")
    return cells, layers, pd.DataFrame(rows), trajectory


def separated(values: pd.Series, z: float = SEPARATION_Z) -> list:
    """Index labels whose value lies more than ``z`` standard deviations from the mean of the
    other values (leave-one-out, so one outlier cannot hide itself by inflating the spread)."""
    out = []
    for label in values.index:
        rest = values.drop(label)
        spread = rest.std(ddof=1)
        if len(rest) > 1 and spread > 0 and abs(values[label] - rest.mean()) > z * spread:
            out.append(label)
    return out


ALONG_TRAINING = ("static_reff", "per_input_reff", "mean_attn_reff")


def fitting_progress(trajectory: pd.DataFrame) -> pd.DataFrame:
    """App. B (ii), "the measured rank tracks fitting progress", read two ways along training
    (the checkpoints of ``table6_trajectory``, kept weights left out). ``within a run``: per
    cell, Pearson over its checkpoints of each measure (head mean) against its held-out loss;
    the median over cells and how many are positive. ``across corpora``: at each checkpoint
    step every cell of a d_model reached, Pearson across corpora of the loss against the
    measure (seed and head means)."""
    points = trajectory[~trajectory["final"]]
    keys = ["corpus", "d_model", "seed", "step"]
    per_point = points.groupby(keys)[["val_loss", *ALONG_TRAINING]].mean().reset_index()
    rows = []
    for m in ALONG_TRAINING:
        r = per_point.groupby(["corpus", "d_model", "seed"]).apply(
            lambda c, m=m: c["val_loss"].corr(c[m]), include_groups=False).dropna()
        rows.append({"reading": "within a run", "measure": m, "d_model": pd.NA, "step": pd.NA,
                     "pearson": float(r.median()), "positive": int((r > 0).sum()),
                     "n": int(len(r))})
    cells = per_point.groupby(["d_model", "step", "corpus"])[["val_loss", *ALONG_TRAINING]]
    means = cells.mean().reset_index()
    reached = per_point.groupby(["d_model", "step"])["corpus"].nunique()
    for (d, step), part in means.groupby(["d_model", "step"]):
        if reached[d, step] < per_point["corpus"].nunique():
            continue  # not every corpus's cells reached this step: no across-corpus reading
        for m in ALONG_TRAINING:
            rows.append({"reading": "across corpora", "measure": m, "d_model": int(d),
                         "step": int(step), "pearson": float(part["val_loss"].corr(part[m])),
                         "positive": int(part["val_loss"].corr(part[m]) > 0),
                         "n": int(len(part))})
    # d_model and step are empty (NA) on the within-run rows, which pool every cell
    return pd.DataFrame(rows).astype({"d_model": "Int64", "step": "Int64"})
