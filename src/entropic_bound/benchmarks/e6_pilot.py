"""The pilot that chose E6's training budget (docs/protocol.md, "E6 training budget").

Trains (corpus, d_model, seed, precision) cells with the workflow's own trainer and measures
(:func:`entropic_bound.training.lm.train_lm`, :func:`entropic_bound.measures.lm.measure_lm`)
at a long budget with early stopping switched off, so each cell's whole validation curve is
seen, then replays the stopping rule (:class:`entropic_bound.training.stopping.EarlyStopping`) on
those curves for candidate patiences. Tokens come from a finished workflow's
``results/corpora/<corpus>/``. Cells run in parallel processes of one thread each.

    python -m entropic_bound.benchmarks.e6_pilot --corpora english linux \\
        --d-models 64 128 256 --runs fp32:0 bf16:0 bf16:1 --max-steps 3000 --out results/pilot
"""

from __future__ import annotations

import argparse
import json
import logging
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pandas as pd

from entropic_bound.models.lm import LMShape
from entropic_bound.plumbing.atomic import read_parquet, write_parquet
from entropic_bound.plumbing.settings import schema_defaults
from entropic_bound.training.lm import TrainConfig
from entropic_bound.training.stopping import EarlyStopping

NO_STOP = 10**9  # a patience no run reaches: the pilot sees every curve to max_steps


def pilot_config(max_steps: int, precision: str,
                 patience: int = NO_STOP) -> dict[str, LMShape | TrainConfig]:
    """train_lm's ``shape`` and ``cfg``: the schema's E6 model and training settings with the
    pilot's budget and precision (and, to try the stopping rule itself, a patience)."""
    return {"shape": LMShape(**schema_defaults("e6", "model")),
            "cfg": TrainConfig(**{**schema_defaults("e6", "train"), "max_steps": max_steps,
                                  "patience": patience, "precision": precision})}


def run_cell(corpora: str, out: str, corpus: str, d_model: int, seed: int, precision: str,
             max_steps: int, patience: int = NO_STOP) -> str:
    """Train and measure one pilot cell; returns its folder."""
    import torch

    from entropic_bound.measures.lm import measure_lm
    from entropic_bound.training.lm import train_lm

    torch.set_num_threads(1)
    cell = Path(out) / f"{corpus}_d{d_model}_s{seed}_{precision}"
    cell.mkdir(parents=True, exist_ok=True)
    logging.basicConfig(filename=cell / "log.txt", level=logging.INFO, force=True)
    tokens, meta = f"{corpora}/{corpus}/tokens.npz", f"{corpora}/{corpus}/meta.json"
    kw = {"corpus": corpus, "d_model": d_model, "seed": seed,
          **pilot_config(max_steps, precision, patience)}
    train_lm(tokens, meta, str(cell / "weights.npz"), str(cell / "metrics.parquet"),
             str(cell / "trajectory.parquet"), **kw)
    measure_lm(str(cell / "metrics.parquet"), str(cell / "trajectory.parquet"),
               str(cell / "weights.npz"), str(cell / "measures.parquet"),
               **{k: kw[k] for k in ("corpus", "d_model", "seed")})
    return str(cell)


def replay(steps: list[int], losses: list[float], patience: int,
           min_delta: float) -> tuple[int, int, float]:
    """(stop step, best step, best loss) of the stopping rule on a validation curve; the stop
    step is the curve's last when the rule never fires."""
    rule = EarlyStopping(patience, min_delta)
    for step, loss in zip(steps, losses):
        rule.update(step, loss)
        if rule.stop:
            return step, rule.best_step, rule.best_loss
    return steps[-1], rule.best_step, rule.best_loss


def summary(out: str, patiences: list[int], min_delta: float) -> pd.DataFrame:
    """One row per pilot cell and candidate patience: where the rule would stop and what it
    would keep, beside the curve's own minimum and the cost of validation and measures."""
    rows = []
    for metrics in sorted(Path(out).glob("*/metrics.parquet")):
        m = read_parquet(metrics).iloc[0]
        steps, losses = list(m["select_step"]), list(m["select_loss"])
        base = {"corpus": m["corpus"], "d_model": int(m["d_model"]), "seed": int(m["seed"]),
                "precision": m["precision"], "max_steps": int(m["max_steps"]),
                "curve_min_step": steps[losses.index(min(losses))], "curve_min": min(losses),
                "final_select_loss": losses[-1], "held_out_loss": float(m["val_loss"]),
                "train_seconds": float(m["train_seconds"]),
                "eval_share": float(m["eval_seconds"]) / float(m["train_seconds"])}
        for patience in patiences:
            stop, best, loss = replay(steps, losses, patience, min_delta)
            rows.append({**base, "patience": patience, "min_delta": min_delta,
                         "stop_step": stop, "best_step": best, "best_loss": loss,
                         "stopped": stop < steps[-1]})
    return pd.DataFrame(rows)


def figure(out: str) -> bytes:
    """The pilot's curves: per d_model, each cell's validation loss on the selection windows
    against the step (top) and its layers' static Reff at the checkpoints and the kept
    weights (bottom)."""
    import matplotlib.pyplot as plt

    from entropic_bound.reporting.figures import png

    cells = sorted(Path(out).glob("*/trajectory.parquet"))
    metrics = {p.parent.name: read_parquet(p.parent / "metrics.parquet").iloc[0] for p in cells}
    sizes = sorted({int(m["d_model"]) for m in metrics.values()})

    def draw():
        fig, axes = plt.subplots(2, len(sizes), squeeze=False,
                                 figsize=(4.2 * len(sizes), 6.4))
        for j, d in enumerate(sizes):
            for path in sorted(cells, key=lambda c: c.parent.name):
                m = metrics[path.parent.name]
                if int(m["d_model"]) != d:
                    continue
                label = f"{m['corpus']} s{m['seed']} {m['precision']} to {m['max_steps']}"
                style = "-" if m["precision"] == "bf16" else "--"
                line, = axes[0][j].plot(m["select_step"], m["select_loss"], style, lw=1,
                                        label=label)
                traj = read_parquet(path)  # the checkpoints, then the kept weights
                traj = traj.sort_values(["final", "step"]).groupby(
                    ["step", "layer"], sort=False)["static_reff"].mean()
                for layer, part in traj.groupby(level="layer"):
                    # one colour per cell (as above), one marker per layer
                    axes[1][j].plot(part.index.get_level_values("step"), part.to_numpy(),
                                    style, marker="o" if layer == 0 else "x", ms=4, lw=1,
                                    color=line.get_color())
            axes[0][j].set_title(f"d_model {d}", fontsize=9)
            axes[0][j].set_ylabel("validation loss (nats/char)", fontsize=8)
            axes[0][j].set_ylim(top=2.6)
            axes[1][j].set_ylabel("static Reff(W_QK), head mean (o layer 0, x layer 1)",
                                  fontsize=8)
            axes[1][j].set_xlabel("step", fontsize=8)
            axes[0][j].legend(fontsize=6)
        fig.tight_layout()
        return fig

    return png(draw)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--corpora-root", default="results/corpora")
    p.add_argument("--corpora", nargs="+", required=True)
    p.add_argument("--d-models", nargs="+", type=int, required=True)
    p.add_argument("--runs", nargs="+", default=["fp32:0"],
                   help="precision:seed pairs, e.g. fp32:0 bf16:0 bf16:1")
    p.add_argument("--max-steps", type=int, required=True)
    p.add_argument("--patience", type=int, default=NO_STOP,
                   help="train with the stopping rule at this patience (default: never stop)")
    p.add_argument("--patiences", nargs="+", type=int, default=[3, 5, 10],
                   help="patiences to replay on the curves")
    p.add_argument("--min-delta", type=float, default=schema_defaults("e6", "train")["min_delta"])
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--out", required=True)
    p.add_argument("--figure", default=None, help="also draw the curves (PNG)")
    a = p.parse_args(argv)
    cells = [(c, d, int(run.split(":")[1]), run.split(":")[0])
             for d in sorted(a.d_models, reverse=True) for c in a.corpora for run in a.runs]
    todo = [cell for cell in cells if not (Path(a.out) / "{}_d{}_s{}_{}".format(*cell)
                                           / "trajectory.parquet").exists()]
    with ProcessPoolExecutor(a.jobs) as pool:
        futures = [pool.submit(run_cell, a.corpora_root, a.out, *cell, a.max_steps, a.patience)
                   for cell in todo]
        for f in futures:
            print("done", f.result(), flush=True)
    table = summary(a.out, a.patiences, a.min_delta)
    write_parquet(Path(a.out) / "summary.parquet", table)
    if a.figure:
        from entropic_bound.plumbing.atomic import write_bytes

        write_bytes(a.figure, figure(a.out))
    print(json.dumps(table.to_dict("records"), indent=0, default=str)[:20000])


if __name__ == "__main__":
    main()
