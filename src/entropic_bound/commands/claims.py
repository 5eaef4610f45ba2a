"""Judge every claim of the paper on the tables of a run."""

from __future__ import annotations

import argparse

from entropic_bound.commands._args import add_paths


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_paths(p, "--out", many=("--tables",))


def run(a: argparse.Namespace) -> None:
    from entropic_bound.claims.registry import write_claims

    write_claims(a.tables, a.out)
