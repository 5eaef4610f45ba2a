"""Tables 3 and 5 from the measures of every dataset of a grid experiment."""

from __future__ import annotations

import argparse

from entropic_bound.commands._args import add_paths


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_paths(p, "--cells", "--sweep", "--summary", many=("--inputs",))


def run(a: argparse.Namespace) -> None:
    from entropic_bound.commands._tables import write_table
    from entropic_bound.tables.aggregate import concat_cells, grid_summary, grid_sweep

    cells = concat_cells(a.inputs)
    write_table(a.cells, cells)
    write_table(a.sweep, grid_sweep(cells))
    write_table(a.summary, grid_summary(cells))
