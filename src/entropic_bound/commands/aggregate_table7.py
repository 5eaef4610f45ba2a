"""Table 7 (E7, open problem (iv)) from the per-head measures of every cell it reads."""

from __future__ import annotations

import argparse

from entropic_bound.commands._args import add_paths


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_paths(p, "--layers", "--stats", many=("--inputs",))


def run(a: argparse.Namespace) -> None:
    from entropic_bound.commands._tables import write_table
    from entropic_bound.plumbing.atomic import read_parquet
    from entropic_bound.tables.e7 import table7, with_depth

    layers, stats = table7(with_depth([read_parquet(p) for p in a.inputs]))
    write_table(a.layers, layers)
    write_table(a.stats, stats)
