"""Measure the trained students of one fixed-operator dataset."""

from __future__ import annotations

import argparse

from entropic_bound.commands._args import add_paths, add_spec
from entropic_bound.commands._dataset import dataset

OPTIONS = ("params", "record", "threads")  # the shared options it reads (cli.SHARED)


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_spec(p)
    add_paths(p, "--data", "--weights", "--metrics", "--out")


def run(a: argparse.Namespace) -> None:
    from entropic_bound.measures.fixed import measure_fixed

    measure_fixed(dataset(a), a.weights, a.metrics, a.out, tol=a.params["tol"])
