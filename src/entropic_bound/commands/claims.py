"""Judge every claim of the paper on the tables of a run, and how firm each verdict is."""

from __future__ import annotations

import argparse

from entropic_bound.commands._args import add_paths
from entropic_bound.commands._evidence import add_evidence_arguments, evidence_paths

OPTIONS = ("params",)  # the shared options it reads (cli.SHARED)


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_paths(p, "--out", many=("--tables",))
    p.add_argument("--machine-study", default=None, metavar="DIR",
                   help="a published machine study (entropic-bound machine-study): each "
                        "verdict's firmness across machines beside it")
    add_evidence_arguments(p, "the firmness of the verdicts is judged on")
    p.add_argument("--jobs", type=int, default=1, metavar="N",
                   help="processes that judge the firmness, one table's evidence each")


def run(a: argparse.Namespace) -> None:
    from entropic_bound.claims.registry import run_claims
    from entropic_bound.commands._tables import write_table

    write_table(a.out, run_claims(a.tables, evidence_paths(a, "claims"), a.machine_study,
                                  a.jobs))
