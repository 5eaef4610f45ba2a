"""What a run cost: job-seconds and peak memory per experiment and per rule."""

from __future__ import annotations

import argparse
import sys


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--root", default="results/benchmarks",
                   help="Snakemake benchmark files and stored jobs' records of a run")


def run(a: argparse.Namespace) -> None:
    from entropic_bound.reporting.costs import cost_summary, read_benchmarks

    records = read_benchmarks(a.root)
    if records.empty:
        sys.exit(f"no benchmark files under {a.root}: run the workflow first")
    for by in ("experiment", "rule"):
        print(cost_summary(records, by).to_string(index=False, float_format="{:.1f}".format))
        print()
