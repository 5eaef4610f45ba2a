"""Aggregation of E7's cells, the paper's open problem (iv) (protocol §E7): the App. B
measures per layer of char Transformers of several depths and widths on E6's six corpora.

A cell's depth is its number of layers (each cell's measures hold one row per layer and head:
:func:`with_depth`); depth 2 at d_model 64 is E6's own cells. With ``m`` a head measure of
:data:`MEASURES` (App. B's per-head ranks, E6's :data:`entropic_bound.tables.lm.HEAD_MEASURES`,
and ``static_drop`` = 1 - static Reff / its value at initialisation), and per (depth, d_model,
corpus, layer) ``m`` averaged over heads, then seeds:

``table7``        one row per (depth, d_model, corpus, layer): those means, ``static_reff_norm``
                  = static Reff / d_head (its ceiling: a head's kernel W_Q W_K^T has rank at
                  most d_head = d_model / heads), the cell's held-out loss (``val_loss``), how
                  many seeds, and how many of them early stopping did not end
                  (``seeds_at_max_steps``: they reached ``max_steps`` still improving).
``table7_stats``  long, one row per statistic (``stat``, ``depth``, ``d_model``, ``layer``,
                  ``measure``, ``value``, ``lo``, ``hi``, ``n``): per (depth, d_model, layer,
                  measure) ``cv_across_corpora`` (sample sd / mean over the corpora of the
                  corpus means; ``n`` corpora) and ``corpus_mean`` (``lo``, ``hi``: the lowest
                  and highest corpus), also of ``static_reff_norm``; per (depth, d_model)
                  ``val_loss`` (corpus mean of the held-out loss, layer and measure empty) and
                  ``at_max_steps`` (cells that reached max_steps, of ``n`` cells).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from entropic_bound.tables.criteria import STOPPED_BY_PATIENCE
from entropic_bound.tables.lm import HEAD_MEASURES

MEASURES = (*HEAD_MEASURES, "static_drop")
CELL = ["depth", "d_model", "corpus"]
STATS_COLUMNS = ["stat", "depth", "d_model", "layer", "measure", "value", "lo", "hi", "n"]


def with_depth(cells: list[pd.DataFrame]) -> pd.DataFrame:
    """The per-head measures of each cell (``measure-lm``'s frames, one per cell), with the
    cell's ``depth``: its number of layers."""
    return pd.concat([c.assign(depth=int(c["layer"].max()) + 1) for c in cells],
                     ignore_index=True)


def table7(measures: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(table7, table7_stats) from the per-head measures of every cell with its depth
    (:func:`with_depth`); the module's doc defines both."""
    heads = measures.assign(static_drop=1.0 - measures["static_reff"]
                            / measures["static_reff_init"])
    per_seed = (heads.groupby([*CELL, "seed", "layer"])
                .agg(**{m: (m, "mean") for m in MEASURES}, val_loss=("val_loss", "first"),
                     heads=("head", "nunique"),
                     at_max=("stop_reason", lambda s: bool((s != STOPPED_BY_PATIENCE).any())))
                .reset_index())
    layers = (per_seed.groupby([*CELL, "layer"])
              .agg(**{m: (m, "mean") for m in (*MEASURES, "val_loss")},
                   heads=("heads", "first"), seeds=("seed", "nunique"),
                   seeds_at_max_steps=("at_max", "sum"))
              .reset_index())
    layers["static_reff_norm"] = layers["static_reff"] / (layers["d_model"] / layers["heads"])
    layers = layers.drop(columns="heads")
    rows = []

    def stat(name: str, key: tuple, layer: float, measure: str, values: pd.Series) -> None:
        mean = float(values.mean())
        value = (float(values.std(ddof=1) / mean) if len(values) > 1 and mean else np.nan) \
            if name == "cv_across_corpora" else mean
        rows.append({"stat": name, "depth": key[0], "d_model": key[1], "layer": layer,
                     "measure": measure, "value": value, "lo": float(values.min()),
                     "hi": float(values.max()), "n": int(len(values))})

    for (depth, d_model, layer), part in layers.groupby(["depth", "d_model", "layer"]):
        for m in MEASURES:
            stat("cv_across_corpora", (depth, d_model), layer, m, part[m])
            stat("corpus_mean", (depth, d_model), layer, m, part[m])
        stat("corpus_mean", (depth, d_model), layer, "static_reff_norm",
             part["static_reff_norm"])
    cells = per_seed.groupby([*CELL, "seed"]).agg(val_loss=("val_loss", "first"),
                                                  at_max=("at_max", "first")).reset_index()
    for (depth, d_model), part in cells.groupby(["depth", "d_model"]):
        by_corpus = part.groupby("corpus")["val_loss"].mean()
        stat("val_loss", (depth, d_model), np.nan, "", by_corpus)
        rows.append({"stat": "at_max_steps", "depth": depth, "d_model": d_model,
                     "layer": np.nan, "measure": "", "value": float(part["at_max"].sum()),
                     "lo": np.nan, "hi": np.nan, "n": int(len(part))})
    return layers, pd.DataFrame(rows, columns=STATS_COLUMNS)
