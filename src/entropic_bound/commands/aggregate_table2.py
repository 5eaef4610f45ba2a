"""Table 2 from E2's measures."""

from __future__ import annotations

import argparse

from entropic_bound.commands._args import add_paths

OPTIONS = ("params",)  # the shared options it reads (cli.SHARED)


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_paths(p, "--summary", many=("--inputs",))


def run(a: argparse.Namespace) -> None:
    from entropic_bound.commands._tables import write_table
    from entropic_bound.tables.aggregate import read_parquets, table2

    write_table(a.summary, table2(read_parquets(a.inputs), primary=a.params["operator"]))
