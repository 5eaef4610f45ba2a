"""The per-head table of one trained char Transformer cell (App. B; docs/protocol.md, E6).

Training measured the cell at every checkpoint and at its kept (best) weights, in float32
(:func:`entropic_bound.training.lm.train_lm`, with :mod:`entropic_bound.measures.heads`): the
trajectory, ``final`` true for the kept weights. This takes the kept weights' rows, one per
(layer, head), with the cell's training record (stopping step and reason, tokens seen, best
step) and ``static_reff_init``, the head's Reff(W_QK) at initialisation (the trajectory's
step-0 row): how far training moved the kernel is a measured outcome. Beside the per-head
readings it adds the layer's whole kernel (:func:`layer_kernel_reff`), read from the kept
weights: a reading printed beside the binding per-head mean, never judged.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from entropic_bound.measures import spectra
from entropic_bound.plumbing.atomic import open_npz, read_parquet, write_parquet

# the trajectory's columns before a head's measures (train-lm writes the FFN's stable rank and
# measures.heads.MEASURES after them): the measures are read from the table, so assembling it
# never imports torch (a second a cell)
KEYS = ("corpus", "d_model", "seed", "stop_step", "stop_reason", "step", "tokens", "final",
        "val_loss", "select_loss", "layer", "head")


def layer_kernel_reff(weights: str) -> dict[int, float]:
    """Per layer, the entropy rank (eq. 1) of the layer's whole static kernel: the sum over
    its heads of W_Q,h W_K,h^T = W_Q W_K^T, with W_Q and W_K (d x d) the query and key maps
    of all heads together (the rows of ``blocks.<layer>.qkv.weight`` that make q and k; the
    heads' common 1/sqrt(d_head) leaves the rank unchanged)."""
    found = {}
    with open_npz(weights) as z:
        for name in z.files:
            parts = name.split(".")
            if parts[0] == "blocks" and parts[2:] == ["qkv", "weight"]:
                w = np.asarray(z[name], dtype=np.float64)
                d = w.shape[1]
                found[int(parts[1])] = spectra.entropy_rank(
                    spectra.product_singular_values(w[:d].T, w[d:2 * d].T))
    return found


def measure_lm(metrics: str, trajectory: str, weights: str, out: str, *, corpus: str,
               d_model: int, seed: int) -> pd.DataFrame:
    """One row per (layer, head) of the cell's kept weights into ``out``: its measures from
    the trajectory's final point, its training record from ``metrics``, its initial static
    Reff from the trajectory's step-0 point and its layer's whole-kernel Reff from
    ``weights``."""
    record = read_parquet(metrics).iloc[0]
    along = read_parquet(trajectory)
    final = along[along["final"]]
    start = along[(along["step"] == 0) & ~along["final"]]
    if final.empty or start.empty:
        raise ValueError(f"{trajectory}: no {'kept weights' if final.empty else 'step-0'} "
                         "point; it is not a trajectory written by train-lm")
    initial = start.set_index(["layer", "head"])["static_reff"]
    whole = layer_kernel_reff(weights)
    measured = [c for c in along.columns if c not in KEYS]
    frame = pd.DataFrame([{
        "corpus": corpus, "d_model": d_model, "seed": seed, "layer": row["layer"],
        "head": row["head"], "val_loss": float(record["val_loss"]),
        "stop_step": int(record["stop_step"]), "stop_reason": record["stop_reason"],
        "best_step": int(record["best_step"]), "tokens_seen": int(record["tokens_seen"]),
        "static_reff_init": initial[row["layer"], row["head"]],
        **{k: row[k] for k in measured},
        "layer_kernel_reff": whole[int(row["layer"])]}
        for _, row in final.iterrows()])
    write_parquet(out, frame)
    return frame
