"""Per-layer, per-head measures of a char Transformer's attention (App. B; docs/protocol.md, E6).

For head h of layer l, with A(X) its causal attention map (T x T, rows sum to 1) on input
window X, and H_l = LN(x) the layer's attention input:
  static_reff       Reff(W_QK) (eq. 1), W_QK = W_Q W_K^T (d_model x d_model)
  static_reff_energy  the same entropy rank of the squared singular values
  mean_attn_reff    Reff(E_X[A(X)])
  per_input_reff    E_X[Reff(A(X))]
  participation     E_X[mean_i 1 / sum_j A_ij^2] (1 for one-hot rows, i+1 for uniform row i)
  whitened_reff     Reff(W_QK Sigma_X^{1/2}), Sigma_X the covariance of H_l over all positions
and per layer the FFN stable rank ||W_in||_F^2 / ||W_in||_2^2 (eq. 3) of the up-projection.

The math is on arrays (:func:`head_measures`), testable on constructed attention maps.
:func:`model_measures` takes them on one model; training takes them at every checkpoint
(:func:`entropic_bound.training.lm.train_lm`, the trajectory), so that no checkpoint file
has to be kept, and :mod:`entropic_bound.measures.lm` at the kept weights. ``inspect`` goes
through :func:`layer_rows` too, so an E6 cell inspected on its held-out windows gives these
numbers.
"""

from __future__ import annotations

import numpy as np
import torch

from entropic_bound.measures import spectra
from entropic_bound.models.evaluation import cross_entropy
from entropic_bound.models.lm import CharTransformer


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


def trajectory_rows(model: CharTransformer, x: torch.Tensor, y: torch.Tensor, *, step: int,
                    final: bool, tokens: int, select_loss: float, fields: dict) -> list[dict]:
    """The rows of one point along training (one per layer and head): the cell's ``fields``
    (corpus, d_model, seed, stopping step and reason), the step, the tokens seen by then,
    whether these are the kept weights, the held-out loss, the selection loss of that step and
    :func:`model_measures`."""
    loss, rows = model_measures(model.eval(), x, y)
    return [{**fields, "step": step, "tokens": tokens, "final": final, "val_loss": loss,
             "select_loss": select_loss, **row} for row in rows]
