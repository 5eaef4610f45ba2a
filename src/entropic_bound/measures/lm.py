"""Per-layer, per-head measures of a trained char Transformer (App. B; SPEC E6).

For head h of layer l, with A(X) its causal attention map (T x T, rows sum to 1) on input
window X, and H_l = LN(x) the layer's attention input:
  static_reff       Reff(W_QK) (eq. 1), W_QK = W_Q W_K^T (d_model x d_model)
  mean_attn_reff    Reff(E_X[A(X)])
  per_input_reff    E_X[Reff(A(X))]
  participation     E_X[mean_i 1 / sum_j A_ij^2] (1 for one-hot rows, i+1 for uniform row i)
  whitened_reff     Reff(W_QK Sigma_X^{1/2}), Sigma_X the covariance of H_l over all positions
and per layer the FFN stable rank ||W_in||_F^2 / ||W_in||_2^2 (eq. 3) of the up-projection.
``static_reff_init`` is the same head's Reff(W_QK) at initialisation (the cell's seed rebuilds
it): how far training moved the kernel decides whether a short budget's ranks are comparable
with the paper's.
The math is on arrays (:func:`head_measures`), testable on constructed attention maps.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import torch

from entropic_bound.data.tokens import load_tokens
from entropic_bound.measures import spectra
from entropic_bound.models.lm import LMConfig, build, eval_starts, load_model, windows
from entropic_bound.plumbing.atomic import read_parquet, write_parquet


def participation(attn: np.ndarray) -> float:
    """Mean over inputs and query rows of the participation ratio 1 / sum_j a_ij^2."""
    return float((1.0 / np.square(attn).sum(axis=-1)).mean())


def sqrt_psd(cov: np.ndarray) -> np.ndarray:
    """Symmetric square root of a covariance (negative rounding eigenvalues clipped to 0)."""
    w, u = np.linalg.eigh(np.asarray(cov, dtype=np.float64))
    return (u * np.sqrt(np.clip(w, 0.0, None))) @ u.T


def head_measures(kernel: np.ndarray, attn: np.ndarray, cov: np.ndarray) -> dict[str, float]:
    """The five head measures from W_QK (d x d), the head's maps (N, T, T) and Sigma_X (d x d)."""
    attn = np.asarray(attn, dtype=np.float64)
    return {
        "static_reff": spectra.reff(kernel),
        "static_reff_energy": spectra.reff_energy(kernel),
        "mean_attn_reff": spectra.reff(attn.mean(axis=0)),
        "per_input_reff": float(spectra.reff_stack(attn).mean()),
        "participation": participation(attn),
        "whitened_reff": spectra.reff(kernel @ sqrt_psd(cov)),
    }


def measure_lm(tokens: str, meta: str, weights: str, metrics: str, out: str, *, corpus: str,
               d_model: int, seed: int, cfg: LMConfig) -> pd.DataFrame:
    """Measure every head of one trained cell on the fixed validation windows."""
    arrays, info = load_tokens(tokens, meta)
    model = load_model(weights, info["vocab_size"], d_model, cfg)
    init = build(info["vocab_size"], d_model, cfg, seed)
    val = arrays["val"]
    x, _ = windows(val, eval_starts(len(val), cfg.context, cfg.eval_windows), cfg.context)
    probe: list[dict] = []
    with torch.no_grad():
        model(x, probe)
    val_loss = float(read_parquet(metrics)["val_loss"].iloc[0])
    rows = []
    for layer, (block, block0, seen) in enumerate(zip(model.blocks, init.blocks, probe)):
        h = seen["input"].double().reshape(-1, d_model).numpy()
        cov = np.cov(h, rowvar=False)
        ffn = spectra.rstable(block.fc.weight.detach().double().numpy())
        for head in range(block.heads):
            rows.append({"corpus": corpus, "d_model": d_model, "seed": seed, "layer": layer,
                         "head": head, "val_loss": val_loss, "ffn_stable_rank": ffn,
                         "static_reff_init": spectra.reff(block0.head_kernel(head)),
                         **head_measures(block.head_kernel(head),
                                         seen["attn"][:, head].numpy(), cov)})
    frame = pd.DataFrame(rows)
    write_parquet(out, frame)
    return frame

