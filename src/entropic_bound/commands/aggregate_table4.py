"""Table 4 from the estimates of every dataset."""

from __future__ import annotations

import argparse

from entropic_bound.commands._args import add_paths


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_paths(p, "--summary", "--scores", many=("--inputs",))


def run(a: argparse.Namespace) -> None:
    from entropic_bound.commands._tables import write_table
    from entropic_bound.tables.aggregate import read_parquets, table4

    pred, scores = table4(read_parquets(a.inputs))
    write_table(a.summary, pred)
    write_table(a.scores, scores)
