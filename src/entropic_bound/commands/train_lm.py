"""Train one E6 char Transformer cell to its stopping criterion, measuring it along the way."""

from __future__ import annotations

import argparse
from typing import Any

from entropic_bound.commands._args import add_paths
from entropic_bound.plumbing.device import resolve_device


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_paths(p, "--tokens", "--meta", "--weights", "--metrics", "--trajectory")
    p.add_argument("--checkpoints", default=None,
                   help="also keep the weights at every checkpoint (for inspect --step)")
    p.add_argument("--weights-dtype", choices=["float32", "float16"], default="float32",
                   help="the kept weights as written (measures are taken in float32 first)")


def lm_args(params: dict) -> tuple[dict, Any]:
    """(the cell: corpus, d_model, seed; its LMConfig) from one ``--params`` object."""
    from entropic_bound.models.lm import LMConfig

    params = dict(params)
    cell = {k: params.pop(k) for k in ("corpus", "d_model", "seed")}
    return cell, LMConfig(**params)


def run(a: argparse.Namespace) -> None:
    from entropic_bound.training.lm import train_lm

    params = dict(a.params)
    on = resolve_device(params.pop("device"))
    cell, cfg = lm_args(params)
    train_lm(a.tokens, a.meta, a.weights, a.metrics, a.trajectory, cfg=cfg, device=on,
             checkpoints_out=a.checkpoints, weights_dtype=a.weights_dtype, **cell)
