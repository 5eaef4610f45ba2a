"""The settings of one E6 cell, as train-lm and measure-lm receive them."""

from __future__ import annotations

from typing import Any


def lm_args(params: dict) -> tuple[dict, Any]:
    """(the cell: corpus, d_model, seed; its LMConfig) from one ``--params`` object."""
    from entropic_bound.models.lm import LMConfig

    params = dict(params)
    cell = {k: params.pop(k) for k in ("corpus", "d_model", "seed")}
    return cell, LMConfig(**params)
