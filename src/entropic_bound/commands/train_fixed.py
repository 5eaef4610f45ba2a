"""Train every student of one fixed-operator dataset (E1's sweep, E2's ladder)."""

from __future__ import annotations

import argparse

from entropic_bound.commands._args import add_paths, add_spec
from entropic_bound.commands._dataset import dataset
from entropic_bound.plumbing.device import resolve_device


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_spec(p)
    add_paths(p, "--data", "--weights", "--metrics")


def run(a: argparse.Namespace) -> None:
    from entropic_bound.training.fixed import FixedTraining, train_fixed

    params = dict(a.params)
    on = resolve_device(params.pop("device"))
    for key in ("classes", "variants"):
        if key in params:
            params[key] = tuple(params[key])
    train_fixed(params.pop("experiment"), dataset(a), a.weights, a.metrics,
                FixedTraining(**params), device=on)
