"""Recompute stored entries drawn at random and compare them with the store."""

from __future__ import annotations

import argparse
import sys

from entropic_bound.commands._evidence import add_evidence_arguments, evidence_paths

OPTIONS = ("params",)  # the shared options it reads (cli.SHARED)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("count", type=int,
                   help="how many entries to recompute (of each experiment's, with "
                        "--per-experiment)")
    p.add_argument("--per-experiment", action="store_true",
                   help="draw count entries of each experiment instead of the whole store")
    p.add_argument("--keys", nargs="+", default=None, metavar="KEY",
                   help="audit these entries (key prefixes) instead of a random draw")
    p.add_argument("--budget-seconds", type=float, default=None, metavar="S",
                   help="with --per-experiment: draw within S seconds of this machine's job "
                        "time (a calibration probe converts it to recorded time), experiments "
                        "cheapest first; one that does not fit is left out")
    p.add_argument("--seed", type=int, default=0, help="seed of the draw (printed)")
    p.add_argument("--jobs", type=int, default=1, metavar="N",
                   help="recompute N entries at once (each with its job's own thread counts)")
    p.add_argument("--notes", default="results/jobs",
                   help="this run's notes of its jobs (written by the store's wrapper)")
    p.add_argument("--store", default="store",
                   help="the store (config store): E6's seeds are read from its signed entries")
    p.add_argument("--out", default=None, help="also write the outcomes as parquet")
    p.add_argument("--exit-zero", action="store_true",
                   help="exit 0 even when an entry differs (the outcomes in --out say so: the "
                        "workflow's report shows them)")
    add_evidence_arguments(p, "of the run's claims, for the verdict check (every claim judged "
                              "with each recomputed entry in place of the stored one)")


def run(a: argparse.Namespace) -> None:
    from dataclasses import asdict, fields

    import pandas as pd

    from entropic_bound.audit.entries import Outcome, audit
    from entropic_bound.commands._tables import write_table

    if a.count < 1:
        sys.exit("audit: count must be at least 1")
    paths = evidence_paths(a, "audit")
    check = None
    if paths is not None:
        from entropic_bound.audit.verdict_check import checker

        check = checker(paths)
    speed = None
    if a.budget_seconds is not None and not a.keys:
        from entropic_bound.audit.calibration import speed_ratio

        speed = speed_ratio()
    outcomes, left_out = audit(a.notes, a.count, a.seed, keys=a.keys,
                               per_experiment=a.per_experiment,
                               budget_seconds=a.budget_seconds, speed=speed, check=check,
                               jobs=a.jobs, store=a.store)
    if not outcomes:
        line = (f"audit: no stored job of this run noted in {a.notes}"
                + (f" whose entry starts with {' or '.join(a.keys)}" if a.keys else "")
                + " (run the workflow first: the audit recomputes this run's jobs)")
        if not (a.exit_zero and a.out):
            sys.exit(line)
        print(line, file=sys.stderr)
    if a.out:
        columns = [f.name for f in fields(Outcome)]
        write_table(a.out, pd.DataFrame([asdict(o) for o in outcomes], columns=columns)
                      .assign(seed=a.seed, budget_seconds=a.budget_seconds,
                              speed_ratio=speed, left_out=", ".join(left_out)))
    if not all(o.ok and not o.verdicts_moved for o in outcomes) and not a.exit_zero:
        sys.exit(1)
