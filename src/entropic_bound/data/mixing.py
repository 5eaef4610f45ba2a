"""The kinds of token mixing M = phi(S) of the attention tasks, S = X K X^T / sqrt(d) (eqs. 8-9),
in one registry that every site reads: the teachers (numpy), the students (torch), the fast
trainer's hand-written gradient, the held-out fits, the data-only estimators, the config's
checks, the schema and ``estimate-rank --mixing``.

A kind is its forward map phi (numpy and torch, in place on the scores where the caller owns
them), the gradient through it, dL/dS from A = phi(S) and dL/dA (in place on dL/dA), and two
properties the algorithms branch on:

* ``linear``: phi is the identity (eq. 8), so M is linear in K: least squares recovers K
  exactly, and the fast trainer may re-associate the products through the Gram matrices.
* ``row_normalised``: every row of M sums to 1 (the row softmax of eq. 9), so the scores are
  known from M only up to a per-row offset (the estimators' log-inversion centres rows), and
  with T = 1 the mixing is the constant 1 (a meaningless setting).

A new kind is one :class:`Mixing` in :data:`MIXINGS` and its name in the config schema's
``teachers`` enum (a test holds the two equal, and the CLI's ``--mixing`` choices to them).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Mixing:
    """One mixing kind; see the module's doc."""

    name: str
    short: str  # the CLI's name for it (``estimate-rank --mixing``)
    forward: Callable[[np.ndarray], np.ndarray]
    backward: Callable[[np.ndarray, np.ndarray], np.ndarray]
    forward_torch: Callable[[Any], Any]
    backward_torch: Callable[[Any, Any], Any]
    linear: bool
    row_normalised: bool


def _identity(s):
    return s


def _identity_grad(a, da):
    return da


def _softmax_rows_inplace(s: np.ndarray) -> np.ndarray:
    """Row softmax over the last axis, max-shifted for stability, in place on ``s``."""
    s -= s.max(axis=-1, keepdims=True)
    np.exp(s, out=s)
    s /= s.sum(axis=-1, keepdims=True)
    return s


def _softmax_grad_inplace(a: np.ndarray, da: np.ndarray) -> np.ndarray:
    """dL/dS = A o (dL/dA - rowsum(dL/dA o A)), in place on ``da``."""
    da -= (da * a).sum(axis=-1, keepdims=True)
    da *= a
    return da


def _softmax_torch(s):
    import torch

    return torch.softmax(s, dim=-1)


def _softmax_grad_torch(a, da):
    """dL/dS = A o (dL/dA - rowsum(dL/dA o A)), in place on ``a`` and ``da``."""
    return a.mul_(da.sub_((da * a).sum(dim=-1, keepdim=True)))


LINEAR = Mixing("linear_qk", "linear", _identity, _identity_grad, _identity, _identity_grad,
                linear=True, row_normalised=False)
SOFTMAX = Mixing("softmax_qk", "softmax", _softmax_rows_inplace, _softmax_grad_inplace,
                 _softmax_torch, _softmax_grad_torch, linear=False, row_normalised=True)
MIXINGS: dict[str, Mixing] = {m.name: m for m in (LINEAR, SOFTMAX)}
BY_SHORT_NAME: dict[str, Mixing] = {m.short: m for m in MIXINGS.values()}


class UnknownMixing(ValueError):
    """A mixing kind that is not in the registry (the message lists the known ones)."""


def mixing(kind: str) -> Mixing:
    """The registered kind ``kind`` (``linear_qk``, ``softmax_qk``)."""
    try:
        return MIXINGS[kind]
    except KeyError:
        raise UnknownMixing(f"mixing kind {kind!r} is not one of {', '.join(MIXINGS)}") from None
