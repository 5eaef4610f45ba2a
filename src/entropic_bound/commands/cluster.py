"""Run the workflow on a cluster: fetch the stored jobs here, submit only the rest.

``entropic-bound cluster -- OPTIONS`` (OPTIONS: your ``snakemake`` options, the cluster profile
among them) first fetches every stored job of ``snakemake OPTIONS`` that the store serves, in a
local Snakemake run that computes nothing (:mod:`entropic_bound.store.cluster`), then becomes
``snakemake OPTIONS``, which submits what is left (docs/running.md, "SLURM")."""

from __future__ import annotations

import argparse
import os
import sys


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--cores", type=int, default=min(4, os.cpu_count() or 1),
                   help="jobs the local pass fetches at once (default: up to 4)")


def run(a: argparse.Namespace) -> None:
    from entropic_bound.store import fetch_pass

    if not a.passthrough:
        sys.exit("cluster: give the run's snakemake options after --, e.g. entropic-bound "
                 "cluster -- --workflow-profile slurm --default-resources slurm_partition=P")
    fetched = fetch_pass(a.passthrough, max(1, a.cores))
    print(f"cluster: {fetched} stored jobs fetched here; now snakemake "
          f"{' '.join(a.passthrough)} submits the rest", file=sys.stderr, flush=True)
    # this process becomes the submitting Snakemake: its signals (Ctrl-C) and exit code
    os.execv(sys.executable, [sys.executable, "-m", "snakemake", *a.passthrough])
