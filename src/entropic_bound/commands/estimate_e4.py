"""Table 4's data-only estimators and held-out fits on one dataset."""

from __future__ import annotations

import argparse

from entropic_bound.commands._args import add_paths, add_spec
from entropic_bound.commands._dataset import dataset

OPTIONS = ("params", "record")  # the shared options it reads (cli.SHARED)


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_spec(p)
    add_paths(p, "--data", "--out")


def run(a: argparse.Namespace) -> None:
    from entropic_bound.measures.estimators import predictability

    predictability(dataset(a), a.out, **a.params)
