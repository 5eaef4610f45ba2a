"""Write a published snapshot (tables, report, stamp) of a finished run."""

from __future__ import annotations

import argparse
import json

from entropic_bound.commands._args import add_paths

OPTIONS = ("params",)  # the shared options it reads (cli.SHARED)


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_paths(p, "--out", "--what", "--command", many=("--tables",))
    p.add_argument("--report-dir", default=None, help="rendered report and figures, if any")
    p.add_argument("--benchmarks", default="results/benchmarks")


def run(a: argparse.Namespace) -> None:
    from entropic_bound.reporting.snapshot import write_snapshot

    stamp = write_snapshot(a.out, what=a.what, command=a.command, run_config=a.params,
                           tables=a.tables, report_dir=a.report_dir, benchmarks=a.benchmarks)
    print(json.dumps(stamp, indent=1))
