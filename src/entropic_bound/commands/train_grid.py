"""Train every student of one E3/E5 dataset: the rank sweep and the recovery student."""

from __future__ import annotations

import argparse

from entropic_bound.commands._dataset import add_training_arguments, dataset, training_settings

OPTIONS = ("params", "record", "threads")  # the shared options it reads (cli.SHARED)


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_training_arguments(p)


def run(a: argparse.Namespace) -> None:
    from entropic_bound.training.grid import GridTraining, train_dataset

    params, on = training_settings(a)
    train_dataset(dataset(a), a.weights, a.metrics, GridTraining(**params), device=on)
