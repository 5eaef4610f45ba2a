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


def trajectory_means(trajectory: pd.DataFrame) -> pd.DataFrame:
    """Seed-and-head means of the measures along training per (corpus, d_model, layer,
    step): the checkpoints (``final`` false) and, as one more point, the kept weights."""
    cols = ["val_loss", "static_reff", "mean_attn_reff", "whitened_reff", "ffn_stable_rank",
            "tokens"]
    keys = ["corpus", "d_model", "layer"]
    points = (trajectory[~trajectory["final"]].groupby([*keys, "step"])[cols].mean()
              .reset_index().assign(final=False))
    kept = (trajectory[trajectory["final"]].groupby(keys)[[*cols, "step"]].mean()
            .reset_index().assign(final=True))
    return pd.concat([points, kept], ignore_index=True).sort_values(
        [*keys, "final", "step"], ignore_index=True)


def figure_trajectory(trajectory: pd.DataFrame) -> bytes:
    """Each corpus's static Reff against its held-out validation loss along training, one
    panel per (layer, d_model): seed-and-head means at each checkpoint, joined in step order
    from the initialisation (right, high loss) to the kept weights (ringed)."""
    import matplotlib.pyplot as plt
    import seaborn as sns

    means = trajectory_means(trajectory)
    layers, sizes = sorted(means["layer"].unique()), sorted(means["d_model"].unique())
    corpora = sorted(means["corpus"].unique())
    colours = dict(zip(corpora, sns.color_palette("colorblind", len(corpora))))

    def draw():
        fig, axes = plt.subplots(len(layers), len(sizes), squeeze=False,
                                 figsize=(3.4 * len(sizes), 3.0 * len(layers)))
        for (i, layer), (j, d) in ((a, b) for a in enumerate(layers) for b in enumerate(sizes)):
            ax = axes[i][j]
            for corpus in corpora:
                part = means[(means["corpus"] == corpus) & (means["d_model"] == d)
                             & (means["layer"] == layer)]
                line = part.sort_values(["final", "step"])
                ax.plot(line["val_loss"], line["static_reff"], marker=".", lw=1,
                        color=colours[corpus], label=corpus)
                kept = part[part["final"]]
                ax.scatter(kept["val_loss"], kept["static_reff"], s=60, facecolors="none",
                           edgecolors=colours[corpus])
            ax.set_title(f"d_model {d}, layer {layer}", fontsize=9)
            ax.set_xlabel("held-out validation loss (nats/char)", fontsize=8)
            ax.set_ylabel("static Reff(W_QK)", fontsize=8)
        axes[0][-1].legend(fontsize=7, bbox_to_anchor=(1.02, 1), loc="upper left")
        fig.tight_layout()
        return fig

    return png(draw)


INSPECT_PANELS = ("static_reff", "whitened_reff", "mean_attn_reff", "per_input_reff")


def figure_inspect(frame: pd.DataFrame, title: str) -> bytes:
    """``entropic-bound inspect``: one layer x head heatmap per measure (annotated values)."""
    import matplotlib.pyplot as plt
    import seaborn as sns

    layers, heads = frame["layer"].nunique(), frame["head"].nunique()

    def draw():
        fig, axes = plt.subplots(1, len(INSPECT_PANELS), squeeze=False,
                                 figsize=(max(10, 1.2 * heads * len(INSPECT_PANELS) / 2),
                                          1.2 + 0.45 * layers))
        for ax, measure in zip(axes[0], INSPECT_PANELS):
            grid = frame.pivot(index="layer", columns="head", values=measure)
            sns.heatmap(grid, ax=ax, annot=heads * layers <= 64, fmt=".1f", cmap="viridis",
                        cbar=True, annot_kws={"fontsize": 6})
            ax.set_title(measure, fontsize=9)
        fig.suptitle(title, fontsize=9)
        fig.tight_layout()
        return fig

    return png(draw)
