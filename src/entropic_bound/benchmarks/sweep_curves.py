"""The widest sweep students of a grid cell read at a shorter budget: why the r* = 8
students of Table 3 had not settled in 1,500 steps; docs/results.md).

Full-batch Adam at a constant learning rate is deterministic, so the first ``mark`` steps of a
run with more steps are the run of ``mark`` steps: one run of the cells at the longer budget
gives both readings. Per seed and sweep r it reports the excess (logged training loss minus
the noise floor sigma^2 T d, protocol §3b) at ``mark`` and at the end, the largest excess logged
after ``mark`` (a late Adam spike shows there), and the run's converged excess and flags; the
figure draws each student's excess against the step on a symmetric-log axis, ``mark`` marked.

    python -m entropic_bound.benchmarks.sweep_curves \\
        results/cells/e3/linear_qk/sharp/r8/s*.metrics.parquet \\
        --r-min 8 --mark 1500 --figure docs/figures/e3_r8_curves.png
"""

from __future__ import annotations

import argparse

import numpy as np
import pandas as pd

from entropic_bound.plumbing.atomic import read_parquet


def excess_at(steps, losses, floor: float, step: int) -> float:
    """Excess of the logged loss at ``step`` (the last logged point at or before it)."""
    steps, losses = np.asarray(steps), np.asarray(losses, dtype=float)
    at = np.flatnonzero(steps <= step)
    return float(losses[at[-1]] - floor) if at.size else float("nan")


def sweep_students(cells: pd.DataFrame, r_min: int) -> pd.DataFrame:
    """The rank-sweep students of ``cells`` at r >= r_min (the recovery student left out)."""
    return cells[(cells["role"] == "sweep") & (cells["r"] >= r_min)]


def curve_table(cells: pd.DataFrame, r_min: int, mark: int) -> pd.DataFrame:
    """One row per (seed, sweep r >= r_min): excess at ``mark`` and at the end, the largest
    excess logged after ``mark``, and the converged excess, spike and unsettled flags."""
    rows = []
    for _, c in sweep_students(cells, r_min).iterrows():
        steps, losses = np.asarray(c["curve_step"]), np.asarray(c["curve_loss"], dtype=float)
        late = losses[steps > mark]
        rows.append({"seed": c["seed"], "r": c["r"], "steps": c["steps"],
                     f"excess_at_{mark}": excess_at(steps, losses, c["noise_floor"], mark),
                     f"max_excess_after_{mark}": float(late.max() - c["noise_floor"])
                     if late.size else float("nan"),
                     "excess_final": c["excess"], "excess_converged": c["excess_converged"],
                     "spiked": c["spiked"], "unsettled": c["unsettled"]})
    return pd.DataFrame(rows).sort_values(["r", "seed"]).reset_index(drop=True)


def figure(cells: pd.DataFrame, r_min: int, mark: int, out: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sweep = sweep_students(cells, r_min)
    rs = sorted(sweep["r"].unique())
    cols = min(3, len(rs))
    rows = -(-len(rs) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(3.4 * cols, 2.6 * rows), sharex=True,
                             sharey=True, squeeze=False)
    for ax in axes.flat[len(rs):]:
        ax.set_visible(False)
    for ax, r in zip(axes.flat, rs):
        for _, c in sweep[sweep["r"] == r].sort_values("seed").iterrows():
            ax.plot(c["curve_step"], np.asarray(c["curve_loss"]) - c["noise_floor"],
                    lw=1, label=f"seed {c['seed']}")
        ax.axvline(mark, color="grey", ls="--", lw=0.8)
        ax.set_yscale("symlog", linthresh=1e-2)
        ax.set_title(f"r* = {int(sweep['r_star'].iloc[0])}, r = {r}")
    for ax in axes[-1]:
        ax.set_xlabel("Adam step")
    for ax in axes[:, 0]:
        ax.set_ylabel("excess")
    axes.flat[0].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("metrics", nargs="+", help="train-grid metrics parquet of the cells")
    ap.add_argument("--r-min", type=int, default=1, help="the smallest sweep r to show")
    ap.add_argument("--mark", type=int, default=1500, help="the shorter budget, in steps")
    ap.add_argument("--figure", help="write the curves here (png)")
    args = ap.parse_args()
    cells = pd.concat([read_parquet(p) for p in args.metrics], ignore_index=True)
    with pd.option_context("display.width", 200, "display.max_columns", 20):
        print(curve_table(cells, args.r_min, args.mark).to_string(index=False))
    if args.figure:
        figure(cells, args.r_min, args.mark, args.figure)


if __name__ == "__main__":
    main()
