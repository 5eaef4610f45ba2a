"""Student models (App. C.3; protocol §E3): query-key attention students with a factored kernel.

K = W_Q W_K^T with W_Q, W_K in R^{d x r}; the student has the teacher's mixing type:
  linear_qk:  Y_hat = (X K X^T / sqrt(d)) X V
  softmax_qk: Y_hat = softmax_row(X K X^T / sqrt(d)) X V
Initialisation (protocol §1): a factor W in R^{a x b} is N(0, 1/a), drawn in float64 from a
numpy stream keyed by (seed, r, role) so that every trainer (naive, fast, CPU, GPU) starts from
the same numbers; the factors are multiplied by ``init_scale`` (0.3 for recovery, App. C.4).
"""

from __future__ import annotations

import math

import numpy as np
import torch

from entropic_bound.data.mixing import mixing


def init_factor(rng: np.random.Generator, rows: int, cols: int, scale: float = 1.0) -> np.ndarray:
    """N(0, 1/rows) entries times ``scale`` (float64)."""
    return rng.standard_normal((rows, cols)) * (scale / math.sqrt(rows))


def init_qk(d: int, r: int, seed: int, role: int, init_scale: float = 1.0) -> dict[str, np.ndarray]:
    """Initial W_Q, W_K (d x r, times init_scale) and V (d x d) of one QK student.

    ``role`` separates students of the same rank (0 = rank sweep, 1 = recovery).
    """
    rng = np.random.default_rng(np.random.SeedSequence([seed, r, role, 7919]))
    return {
        "WQ": init_factor(rng, d, r, init_scale),
        "WK": init_factor(rng, d, r, init_scale),
        "V": init_factor(rng, d, d),
    }


def qk_forward(kind: str, x: torch.Tensor, wq: torch.Tensor, wk: torch.Tensor,
               v: torch.Tensor) -> torch.Tensor:
    """Y_hat for inputs x of shape (n, T, d): the direct formula of the docstring above."""
    d = x.shape[-1]
    scores = (x @ wq) @ (x @ wk).transpose(-1, -2) / math.sqrt(d)  # (n, T, T)
    mix = mixing(kind).forward_torch(scores)
    return mix @ x @ v

