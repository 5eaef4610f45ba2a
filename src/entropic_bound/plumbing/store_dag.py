"""What the store holds of the current DAG, asked of Snakemake itself.

A dry run makes Snakemake look each cached job up in the store. With ``--verbose`` it logs
each entry it finds ("Output file ... exists as <entry> in the cache"): those entries are in
use (:func:`used_keys`); the rest of the store is what ``entropic-bound store unused`` lists.
For every planned cached job it says whether its output "will be obtained from" or "will be
written to" the store (:func:`store_plan`): a run wholly in the store plans to write none.
Run with the options of the run that defines the DAG (profile, ``--config``), from the
workflow's directory.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

from entropic_bound.plumbing.store import ENTRY

FOUND = re.compile(r"exists as (\S+) in the cache")
RULE = re.compile(r"^(?:local)?rule (\w+):")
PLANNED = re.compile(r"will be (obtained from|written to) global between-workflow cache")


def _dry_run(snakemake_args: list[str], workdir: str | Path) -> str:
    """The log of ``snakemake -n <snakemake_args>``; one line naming the command on failure."""
    cmd = [sys.executable, "-m", "snakemake", "-n", *snakemake_args]
    proc = subprocess.run(cmd, cwd=workdir, capture_output=True, text=True)
    if proc.returncode:
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-5:])
        raise SystemExit(f"the dry run that asks the store failed ({' '.join(cmd[2:])}):\n"
                         f"{tail}")
    return proc.stdout + proc.stderr


def used_keys(snakemake_args: list[str], workdir: str | Path = ".") -> set[str]:
    """Keys of the entries the DAG of ``snakemake <snakemake_args>`` would fetch."""
    keys = set()
    for m in FOUND.finditer(_dry_run(["--forceall", "--verbose", *snakemake_args], workdir)):
        name = m.group(1).rsplit("/", 1)[-1]
        if entry := ENTRY.match(name):
            keys.add(entry.group("key"))
    return keys


def store_plan(snakemake_args: list[str], workdir: str | Path = ".") -> dict[str, Counter]:
    """Per cached rule, how many of the jobs ``snakemake -n <snakemake_args>`` plans would be
    ``fetched`` from the store and how many ``computed`` (add ``--forceall`` to ask about
    every job of the DAG, not only those whose outputs are missing)."""
    plan: dict[str, Counter] = {}
    rule = None
    for line in _dry_run(snakemake_args, workdir).splitlines():
        if m := RULE.match(line):
            rule = m.group(1)
        elif m := PLANNED.search(line):
            kind = "fetched" if m.group(1) == "obtained from" else "computed"
            plan.setdefault(rule, Counter())[kind] += 1
    return plan
