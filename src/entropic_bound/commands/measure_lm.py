"""Measure every head of one trained E6 cell at its kept weights, after its trajectory."""

from __future__ import annotations

import argparse

from entropic_bound.commands._args import add_paths
from entropic_bound.commands._lm import lm_args


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_paths(p, "--tokens", "--meta", "--weights", "--metrics", "--trajectory-in", "--out",
              "--trajectory")


def run(a: argparse.Namespace) -> None:
    from entropic_bound.measures.lm import measure_lm

    cell, cfg = lm_args(a.params)
    measure_lm(a.tokens, a.meta, a.weights, a.metrics, a.trajectory_in, a.out, a.trajectory,
               cfg=cfg, **cell)
