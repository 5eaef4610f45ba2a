"""The measures of one trained char Transformer cell at its kept weights (App. B;
docs/protocol.md, E6), beside its trajectory.

The measures themselves are :mod:`entropic_bound.measures.heads`. Training measured every
checkpoint as it went (the trajectory, one row per checkpoint, layer and head); this adds the
kept (best) weights, measured on the same held-out windows, as the trajectory's last point
(``final`` true), and writes one row per (layer, head) with the cell's training record
(stopping step and reason, tokens seen, best step) and ``static_reff_init``, the head's
Reff(W_QK) at initialisation (the trajectory's step-0 row): how far training moved the kernel
is a measured outcome.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from entropic_bound.data.tokens import load_tokens
from entropic_bound.measures.heads import MEASURES, trajectory_rows
from entropic_bound.models.lm import LMConfig, fixed_windows, load_model, split_validation
from entropic_bound.plumbing.atomic import read_parquet, write_parquet


def measure_lm(tokens: str, meta: str, weights: str, metrics: str, trajectory_in: str,
               out: str, trajectory_out: str, *, corpus: str, d_model: int, seed: int,
               cfg: LMConfig) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Measure every head of one trained cell's kept weights on the fixed held-out windows;
    write them into ``out`` (one row per layer and head) and the training trajectory
    (``trajectory_in``) with the kept weights appended into ``trajectory_out``."""
    arrays, info = load_tokens(tokens, meta)
    x, y = fixed_windows(split_validation(arrays["val"])[1], cfg, cfg.eval_windows)
    record = read_parquet(metrics).iloc[0]
    cell = {"corpus": corpus, "d_model": d_model, "seed": seed}
    selection = dict(zip(record["select_step"], record["select_loss"]))
    best = int(record["best_step"])
    model = load_model(weights, info["vocab_size"], d_model, cfg)
    fields = {**cell, "stop_step": int(record["stop_step"]),
              "stop_reason": record["stop_reason"]}
    final = pd.DataFrame(trajectory_rows(model, x, y, step=best, final=True,
                                         tokens=best * cfg.batch * cfg.context,
                                         select_loss=selection.get(best, np.nan),
                                         fields=fields))
    along = read_parquet(trajectory_in)
    trajectory = pd.concat([along, final[along.columns]], ignore_index=True)
    # the step-0 checkpoint is the initialisation: its static Reff is the initial one
    start = along[along["step"] == 0]
    initial = start.set_index(["layer", "head"])["static_reff"]
    frame = pd.DataFrame([{
        **cell, "layer": row["layer"], "head": row["head"],
        "val_loss": float(record["val_loss"]), "stop_step": int(record["stop_step"]),
        "stop_reason": record["stop_reason"], "best_step": best,
        "tokens_seen": int(record["tokens_seen"]),
        "static_reff_init": initial[row["layer"], row["head"]],
        **{k: row[k] for k in ("ffn_stable_rank", *MEASURES)}}
        for _, row in final.iterrows()])
    write_parquet(out, frame)
    write_parquet(trajectory_out, trajectory)
    return frame, trajectory
