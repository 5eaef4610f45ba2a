"""The report's section on E7 (open problem (iv)): Table 7 and its figure, the per-layer static
Reff over its ceiling against the layer index, one line per corpus, a panel per (depth,
d_model)."""

from __future__ import annotations

import base64

import pandas as pd

from entropic_bound.reporting.figures import png
from entropic_bound.reporting.sections import Section, Tables, fmt


def figure_table7(layers: pd.DataFrame) -> bytes:
    """Static Reff / d_head (seed-and-head means) against the layer index."""
    import seaborn as sns
    from matplotlib.ticker import MaxNLocator

    data = layers.assign(config=[f"depth {d}, d_model {w}" for d, w in
                                 zip(layers["depth"], layers["d_model"])])
    order = [f"depth {d}, d_model {w}" for d, w in
             sorted(set(zip(layers["depth"], layers["d_model"])), key=lambda c: (c[1], c[0]))]

    def draw():
        grid = sns.relplot(data=data, x="layer", y="static_reff_norm", hue="corpus",
                           col="config", col_order=order, kind="line", marker="o",
                           height=3.0, aspect=1.0, facet_kws={"sharex": False})
        grid.set_axis_labels("layer index", "static Reff / d_head")
        grid.set_titles("{col_name}")
        # layers are whole numbers: no tick at 0.2 of a layer on the depth-2 panels
        for ax in grid.axes.flat:
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        return grid.figure

    return png(draw)


def section_table7(t: Tables) -> Section:
    layers = t["table7"]
    shown = layers[["depth", "d_model", "corpus", "layer", "static_reff", "static_reff_norm",
                    "static_drop", "mean_attn_reff", "per_input_reff", "participation",
                    "whitened_reff", "val_loss", "seeds", "seeds_at_max_steps"]]
    tables = [("Per layer (seed-and-head means)", fmt(shown))]
    stats = t.get("table7_stats")
    if stats is not None and not stats.empty:
        cv = stats[stats["stat"] == "cv_across_corpora"].pivot_table(
            index=["depth", "d_model", "layer"], columns="measure", values="value").reset_index()
        tables.append(("Coefficient of variation across corpora, per layer", fmt(cv)))
    return Section(
        "table7", "Table 7 — depth and width, open problem (iv) (E7)",
        "The paper's open problem (iv): \"Extend the depth-width analysis (early layers "
        "task-specific, later layers saturating)\". E6's char Transformers on its six corpora "
        "at more depths and a second width, at E6's training protocol (stopping rule, "
        "precision, held-out split), three seeds a cell; depth 2 at d_model 64 is E6's own "
        "cells (the same seeds). Per layer, every App. B measure E6 reports, averaged over "
        "heads and seeds; static Reff / d_head is the static kernel's Reff over its ceiling "
        "(a head's W_Q W_K^T has rank at most d_head = d_model / heads); static_drop = 1 - "
        "static Reff / its value at initialisation. The claims were committed before any E7 "
        "cell was trained (docs/results.md names the commit).",
        tables, figure=base64.b64encode(figure_table7(layers)).decode())
