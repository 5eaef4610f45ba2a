"""Train one E6 char Transformer cell to its stopping criterion, measuring it along the way."""

from __future__ import annotations

import argparse
from typing import Any

from entropic_bound.commands._args import add_paths
from entropic_bound.plumbing.device import resolve_device

OPTIONS = ("params", "record", "threads")  # the shared options it reads (cli.SHARED)


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_paths(p, "--tokens", "--meta", "--weights", "--metrics", "--trajectory")
    p.add_argument("--checkpoints", default=None,
                   help="also keep the weights at every checkpoint (for inspect --step)")
    p.add_argument("--weights-dtype", choices=["float32", "float16"], default="float32",
                   help="the kept weights as written (measures are taken in float32 first)")


def lm_args(params: dict) -> dict[str, Any]:
    """train_lm's keywords from one ``--params`` object: the cell (corpus, d_model, seed), its
    architecture (``model``, config ``e6.model``) and its training (``train``, ``e6.train``)."""
    from entropic_bound.models.lm import LMShape
    from entropic_bound.training.lm import TrainConfig

    return {**{k: params[k] for k in ("corpus", "d_model", "seed")},
            "shape": LMShape(**params["model"]), "cfg": TrainConfig(**params["train"])}


def run(a: argparse.Namespace) -> None:
    from entropic_bound.training.lm import train_lm

    train_lm(a.tokens, a.meta, a.weights, a.metrics, a.trajectory,
             device=resolve_device(a.params["device"]), checkpoints_out=a.checkpoints,
             weights_dtype=a.weights_dtype, **lm_args(a.params))
