"""Aggregation of E6's cells into the tables of Appendix B (protocol §E6): ``table6`` (one row
per corpus and d_model: the head measures averaged per cell, then the paper's statistics),
``table6_layers``, ``table6_stats`` and ``table6_corpora``, the readings of a layer's rank
beside the binding per-head static Reff, and the measures along training
(:func:`fitting_progress`). The E1-E5 tables are :mod:`entropic_bound.tables.aggregate`'."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from entropic_bound.tables import criteria

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
               (:func:`entropic_bound.tables.criteria.training_criterion`; ``trained_seeds`` of
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
