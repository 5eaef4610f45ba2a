"""Train every student of one E3/E5 dataset: the rank sweep and the recovery student."""

from __future__ import annotations

import argparse

from entropic_bound.commands._args import add_paths, add_spec
from entropic_bound.commands._dataset import dataset
from entropic_bound.plumbing.device import resolve_device


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_spec(p)
    add_paths(p, "--data", "--weights", "--metrics")


def run(a: argparse.Namespace) -> None:
    from entropic_bound.training.grid import GridTraining, train_dataset

    params = dict(a.params)
    on = resolve_device(params.pop("device"))
    train_dataset(dataset(a), a.weights, a.metrics, GridTraining(**params), device=on)
