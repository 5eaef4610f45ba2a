"""Estimate r* of a user's attention task from its data, before any training."""

from __future__ import annotations

import argparse

from entropic_bound.commands._args import exit_with
from entropic_bound.data.mixing import BY_SHORT_NAME

OPTIONS = ("params",)  # the shared options it reads (cli.SHARED)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("data", help="an .npz with X and Y (n x T x d), and V (d x d) where known")
    p.add_argument("--mixing", choices=list(BY_SHORT_NAME), default="softmax",
                   help="the model class the held-out fit assumes")
    p.add_argument("--tol", type=float, default=None,
                   help="relative numerical-rank tolerance (default: the schema's)")
    p.add_argument("--out", default=None, help="also write every estimator's row as parquet")
    p.add_argument("-q", "--quiet", action="store_true",
                   help="no progress lines (none either where stderr is no terminal)")


def run(a: argparse.Namespace) -> None:
    from entropic_bound.measures.user_task import BadTask, estimate_task
    from entropic_bound.plumbing.progress import Progress
    from entropic_bound.plumbing.settings import schema_defaults

    settings = {**schema_defaults("e4"), **a.params}
    try:
        estimate_task(a.data, a.mixing, settings, a.tol or schema_defaults("spectra")["tol"],
                      a.out, Progress("estimate-rank", a.quiet))
    except BadTask as err:
        exit_with(err)
