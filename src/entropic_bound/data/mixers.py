"""Token-mixing matrices M(X) of the synthetic teachers (paper eq. 9; numpy): what turns X
into the attention output M(X) X V. Shared by the data generator and the data-only
estimators, so neither borrows it from the other.
"""

from __future__ import annotations

import math

import numpy as np

from entropic_bound.data.mixing import mixing


def mixer(kind: str, x: np.ndarray, operator: np.ndarray) -> np.ndarray:
    """Token-mixing matrices M(X), shape (n, T, T).

    A mixing kind (:mod:`entropic_bound.data.mixing`; linear_qk: S = X K* X^T / sqrt(d),
    softmax_qk: softmax_row(S), eq. 9, no causal mask); fixed_operator: A* for every sample
    (Section 4).
    """
    if kind == "fixed_operator":
        return np.broadcast_to(operator, (x.shape[0],) + operator.shape)
    scores = np.einsum("ntd,de,nse->nts", x, operator, x) / math.sqrt(x.shape[-1])
    return mixing(kind).forward(scores)
