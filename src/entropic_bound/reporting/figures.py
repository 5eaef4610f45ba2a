"""The report's figures: seaborn on matplotlib's Agg backend, each returned as PNG bytes
(written beside the report for Snakemake's ``report()`` and embedded in the HTML page)."""

from __future__ import annotations

import io
from collections.abc import Callable

import pandas as pd


def png(draw: Callable[[], object]) -> bytes:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig = draw()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110)
    plt.close("all")
    return buf.getvalue()

def figure_excess(sweep: pd.DataFrame, hue: str, col: str | None) -> bytes:
    """Seed-mean excess vs r - r* (symlog axis: the excess crosses zero at r >= r*)."""
    import seaborn as sns

    data = sweep.assign(r_minus_r_star=sweep["r"] - sweep["r_star"])

    def draw():
        grid = sns.relplot(data=data, x="r_minus_r_star", y="excess_mean", hue=hue, col=col,
                           kind="line", marker="o", palette="viridis",
                           facet_kws={"sharey": False}, height=3.2, aspect=1.3)
        for ax in grid.axes.flat:
            ax.set_yscale("symlog", linthresh=1e-2)
            ax.axvline(-0.5, color="grey", lw=0.8, ls="--")
        grid.set_axis_labels("r - r*", "excess (L - sigma^2 T d)")
        return grid.figure

    return png(draw)

def figure_table1(sweep: pd.DataFrame) -> bytes:
    """Excess vs r beside the exact Eckart-Young value and the Theorem 5 bound (log axis)."""
    import matplotlib.pyplot as plt

    def draw():
        fig, ax = plt.subplots(figsize=(5.5, 3.6))
        ax.plot(sweep["r"], sweep["excess_mean"].abs(), "o-", label="|excess| (seed mean)")
        ax.plot(sweep["r"], sweep["eckart_young"], "s--", label="Eckart-Young (exact)")
        ax.plot(sweep["r"], sweep["theorem5_bound"], "^:", label="Theorem 5 bound")
        ax.set_yscale("log")
        ax.set_xlabel("student rank r")
        ax.set_ylabel("excess (L - sigma^2 T d)")
        ax.legend(fontsize=8)
        fig.tight_layout()
        return fig

    return png(draw)

def figure_table2(t2: pd.DataFrame) -> bytes:
    """One bar per ladder class: excess at r = r*."""
    import seaborn as sns

    def draw():
        ax = sns.barplot(data=t2, x="class", y="excess_at_r_star", color="#4c72b0")
        ax.set_ylabel("excess at r = r*")
        ax.figure.set_size_inches(5.5, 3.4)
        ax.figure.tight_layout()
        return ax.figure

    return png(draw)

def figure_table4(pred: pd.DataFrame) -> bytes:
    """Estimate vs r* per estimator and teacher, with the identity line."""
    import seaborn as sns

    def draw():
        grid = sns.relplot(data=pred, x="r_star", y="estimate", hue="estimator", col="teacher",
                           kind="line", marker="o", height=3.4, aspect=1.2,
                           facet_kws={"sharey": False})
        for ax in grid.axes.flat:
            lim = pred["r_star"].max()
            ax.plot([1, lim], [1, lim], color="black", lw=0.8, ls="--")
        grid.set_axis_labels("r*", "estimate of r*")
        return grid.figure

    return png(draw)

def figure_table6(cells: pd.DataFrame) -> bytes:
    """Measured static Reff against the data-side predicted rank and against the final loss,
    one point per (corpus, d_model), seed means."""
    import matplotlib.pyplot as plt
    import seaborn as sns

    def draw():
        fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
        for ax, x, label in ((axes[0], "predicted_rank", "data-side predicted rank"),
                             (axes[1], "val_loss", "final validation loss (nats/char)")):
            sns.scatterplot(data=cells, x=x, y="static_reff", hue="corpus", style="d_model",
                            s=60, ax=ax, legend=ax is axes[1])
            ax.set_xlabel(label)
            ax.set_ylabel("measured static Reff(W_QK)")
        axes[1].legend(fontsize=7, bbox_to_anchor=(1.02, 1), loc="upper left")
        fig.tight_layout()
        return fig

    return png(draw)
