"""The per-head table of one trained E6 cell, from the measures its training took."""

from __future__ import annotations

import argparse

from entropic_bound.commands._args import add_paths

OPTIONS = ("params", "record")  # the shared options it reads (cli.SHARED)


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_paths(p, "--metrics", "--trajectory", "--weights", "--out")


def run(a: argparse.Namespace) -> None:
    from entropic_bound.measures.lm import measure_lm

    measure_lm(a.metrics, a.trajectory, a.weights, a.out,
               **{k: a.params[k] for k in ("corpus", "d_model", "seed")})
