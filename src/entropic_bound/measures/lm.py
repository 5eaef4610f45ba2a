"""Per-layer, per-head measures of a trained char Transformer (App. B; SPEC E6).

For head h of layer l, with A(X) its causal attention map (T x T, rows sum to 1) on input
window X, and H_l = LN(x) the layer's attention input:
  static_reff       Reff(W_QK) (eq. 1), W_QK = W_Q W_K^T (d_model x d_model)
  mean_attn_reff    Reff(E_X[A(X)])
  per_input_reff    E_X[Reff(A(X))]
  participation     E_X[mean_i 1 / sum_j A_ij^2] (1 for one-hot rows, i+1 for uniform row i)
  whitened_reff     Reff(W_QK Sigma_X^{1/2}), Sigma_X the covariance of H_l over all positions
and per layer the FFN stable rank ||W_in||_F^2 / ||W_in||_2^2 (eq. 3) of the up-projection.
``static_reff_init`` is the same head's Reff(W_QK) at initialisation (the step-0 checkpoint):
how far training moved the kernel is a measured outcome. The same measures at every checkpoint
along training form the cell's trajectory (App. B's diagnosis (ii), inside each cell).
The math is on arrays (:func:`head_measures`), testable on constructed attention maps.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import torch

from entropic_bound.data.tokens import load_tokens
from entropic_bound.measures import spectra
from entropic_bound.models.lm import (
    CharTransformer,
    LMConfig,
    checkpoint_prefix,
    checkpoint_steps_in,
    cross_entropy,
    fixed_windows,
    load_model,
    split_validation,
)
from entropic_bound.plumbing.atomic import read_parquet, write_parquet


def participation(attn: np.ndarray) -> float:
    """Mean over inputs and query rows of the participation ratio 1 / sum_j a_ij^2."""
    return float((1.0 / np.square(attn).sum(axis=-1)).mean())


def sqrt_psd(cov: np.ndarray) -> np.ndarray:
    """Symmetric square root of a covariance (negative rounding eigenvalues clipped to 0)."""
    w, u = np.linalg.eigh(np.asarray(cov, dtype=np.float64))
    return (u * np.sqrt(np.clip(w, 0.0, None))) @ u.T


MEASURES = ("static_reff", "static_reff_energy", "mean_attn_reff", "per_input_reff",
            "participation", "whitened_reff")


def head_measures(wq: np.ndarray, wk: np.ndarray, attn: np.ndarray,
                  cov: np.ndarray) -> dict[str, float]:
    """The head measures from its query and key maps W_Q, W_K (d x d_head each, so that the
    scores are h W_Q (h' W_K)^T), its maps (N, T, T) and Sigma_X (d x d). The kernels are
    taken through their factors (:func:`spectra.product_singular_values`): W_QK = W_Q W_K^T
    and W_QK Sigma^1/2 = W_Q (Sigma^1/2 W_K)^T, Sigma^1/2 being symmetric."""
    attn = np.asarray(attn, dtype=np.float64)
    static = spectra.product_singular_values(wq, wk)
    whitened = spectra.product_singular_values(wq, sqrt_psd(cov) @ np.asarray(wk, np.float64))
    return {
        "static_reff": spectra.entropy_rank(static),
        "static_reff_energy": spectra.entropy_rank(static**2),
        "mean_attn_reff": spectra.reff(attn.mean(axis=0)),
        "per_input_reff": float(spectra.reff_stack(attn).mean()),
        "participation": participation(attn),
        "whitened_reff": spectra.entropy_rank(whitened),
    }


def layer_rows(factors: list[tuple[np.ndarray, np.ndarray]], attn: np.ndarray,
               inputs: np.ndarray, ffn_in: np.ndarray) -> list[dict]:
    """One row per head of one layer, whatever the architecture: ``factors`` (W_Q, W_K) per
    head, ``attn`` its maps (N, heads, T, T), ``inputs`` the layer's attention input
    (N, T, d; its covariance whitens the kernels) and ``ffn_in`` the FFN's up-projection
    (its stable rank, eq. 3, is the layer's)."""
    cov = np.cov(np.asarray(inputs, dtype=np.float64).reshape(-1, inputs.shape[-1]),
                 rowvar=False)
    ffn = spectra.rstable(np.asarray(ffn_in, dtype=np.float64))
    return [{"head": head, "ffn_stable_rank": ffn,
             **head_measures(wq, wk, attn[:, head], cov)}
            for head, (wq, wk) in enumerate(factors)]


def model_measures(model: CharTransformer, x: torch.Tensor, y: torch.Tensor
                   ) -> tuple[float, list[dict]]:
    """The held-out cross-entropy of ``model`` on windows x -> y and one row per (layer, head)
    of :func:`head_measures`, with the layer's FFN stable rank."""
    probe: list[dict] = []
    with torch.no_grad():
        loss = cross_entropy(model(x, probe), y)
    rows = []
    for layer, (block, seen) in enumerate(zip(model.blocks, probe)):
        factors = [block.head_factors(head) for head in range(block.heads)]
        rows += [{"layer": layer, **row} for row in layer_rows(
            factors, seen["attn"].numpy(), seen["input"].numpy(), block.fc.weight.detach())]
    return loss, rows


def measure_lm(tokens: str, meta: str, weights: str, checkpoints: str, metrics: str, out: str,
               trajectory_out: str, *, corpus: str, d_model: int, seed: int,
               cfg: LMConfig) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Measure every head of one trained cell on the fixed held-out windows: the kept (best)
    weights into ``out``, with the cell's training record (stopping step and reason, tokens
    seen, best step) and the initial static Reff; and every checkpoint along training into
    ``trajectory_out`` (one row per checkpoint, layer and head: step, tokens seen, held-out
    and selection loss, each measure), the kept weights last with ``final`` true."""
    arrays, info = load_tokens(tokens, meta)
    x, y = fixed_windows(split_validation(arrays["val"])[1], cfg, cfg.eval_windows)
    record = read_parquet(metrics).iloc[0]
    cell = {"corpus": corpus, "d_model": d_model, "seed": seed}
    selection = dict(zip(record["select_step"], record["select_loss"]))
    vocab = info["vocab_size"]
    points = [(step, load_model(checkpoints, vocab, d_model, cfg, checkpoint_prefix(step)),
               False) for step in checkpoint_steps_in(checkpoints)]
    points.append((int(record["best_step"]), load_model(weights, vocab, d_model, cfg), True))
    trajectory = []
    for step, model, final in points:
        loss, rows = model_measures(model, x, y)
        trajectory += [{**cell, "step": step, "tokens": step * cfg.batch * cfg.context,
                        "final": final, "stop_step": int(record["stop_step"]),
                        "stop_reason": record["stop_reason"], "val_loss": loss,
                        "select_loss": selection.get(step, np.nan), **row} for row in rows]
    trajectory = pd.DataFrame(trajectory)
    # the step-0 checkpoint is the initialisation: its static Reff is the initial one
    start = trajectory[(trajectory["step"] == 0) & ~trajectory["final"]]
    initial = start.set_index(["layer", "head"])["static_reff"]
    frame = pd.DataFrame([{
        **cell, "layer": row["layer"], "head": row["head"],
        "val_loss": float(record["val_loss"]), "stop_step": int(record["stop_step"]),
        "stop_reason": record["stop_reason"], "best_step": int(record["best_step"]),
        "tokens_seen": int(record["tokens_seen"]),
        "static_reff_init": initial[row["layer"], row["head"]],
        **{k: row[k] for k in ("ffn_stable_rank", *MEASURES)}}
        for _, row in trajectory[trajectory["final"]].iterrows()])
    write_parquet(out, frame)
    write_parquet(trajectory_out, trajectory)
    return frame, trajectory
