"""Train every student of one fixed-operator dataset (E1's sweep, E2's ladder)."""

from __future__ import annotations

import argparse

from entropic_bound.commands._dataset import add_training_arguments, dataset, training_settings

OPTIONS = ("params", "record", "threads")  # the shared options it reads (cli.SHARED)


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_training_arguments(p)


def run(a: argparse.Namespace) -> None:
    from entropic_bound.training.fixed import FixedTraining, train_fixed

    params, on = training_settings(a)
    for key in ("classes", "variants"):
        if key in params:
            params[key] = tuple(params[key])
    train_fixed(params.pop("experiment"), dataset(a), a.weights, a.metrics,
                FixedTraining(**params), device=on)
