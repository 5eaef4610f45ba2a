"""Table 1 from E1's measures and estimates."""

from __future__ import annotations

import argparse

from entropic_bound.commands._args import add_paths

OPTIONS = ("params",)  # the shared options it reads (cli.SHARED)


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_paths(p, "--sweep", "--summary", many=("--inputs", "--estimates"))


def run(a: argparse.Namespace) -> None:
    from entropic_bound.commands._tables import write_table
    from entropic_bound.tables.aggregate import read_parquets, table1

    sweep, summary = table1(read_parquets(a.inputs), read_parquets(a.estimates),
                            primary=a.params["operator"])
    write_table(a.sweep, sweep)
    write_table(a.summary, summary)
