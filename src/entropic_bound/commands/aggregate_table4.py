"""Table 4 from the estimates of every dataset."""

from __future__ import annotations

import argparse

from entropic_bound.commands._args import add_paths


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_paths(p, "--summary", "--scores", many=("--inputs",))


def run(a: argparse.Namespace) -> None:
    from entropic_bound.plumbing.atomic import write_parquet
    from entropic_bound.tables.aggregate import read_parquets, table4

    pred, scores = table4(read_parquets(a.inputs))
    write_parquet(a.summary, pred)
    write_parquet(a.scores, scores)
