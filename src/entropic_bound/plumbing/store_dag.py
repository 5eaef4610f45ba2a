"""What the store holds of the current DAG, asked of Snakemake itself.

A dry run makes Snakemake look each stored job up in the store; the store's cache
(:mod:`entropic_bound.plumbing.store_cache`) writes each lookup to a ledger: the job's rule,
its key (None where it waits for upstream outputs that cannot be predicted) and the entry that
serves it (:func:`lookups`). The entries no lookup finds are what ``entropic-bound store
unused`` lists and ``store rekeys`` prices. For every planned stored job Snakemake says whether
its output "will be obtained from" or "will be written to" the store (:func:`store_plan`): a
run wholly in the store plans to write none. Run with the options of the run that defines the
DAG (profile, ``--config``), from the workflow's directory.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

LEDGER_VARIABLE = "ENTROPIC_BOUND_STORE_LEDGER"  # read by plumbing.store_cache
RULE = re.compile(r"^(?:local)?rule (\w+):")
PLANNED = re.compile(r"will be (obtained from|written to) global between-workflow cache")


def _dry_run(snakemake_args: list[str], workdir: str | Path,
             env: dict[str, str] | None = None) -> str:
    """The log of ``snakemake -n <snakemake_args>``; one line naming the command on failure."""
    cmd = [sys.executable, "-m", "snakemake", "-n", *snakemake_args]
    proc = subprocess.run(cmd, cwd=workdir, capture_output=True, text=True,
                          env={**os.environ, **(env or {})})
    if proc.returncode:
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-5:])
        raise SystemExit(f"the dry run that asks the store failed ({' '.join(cmd[2:])}):\n"
                         f"{tail}")
    return proc.stdout + proc.stderr


def ledger(snakemake_args: list[str], workdir: str | Path = ".",
           env: dict[str, str] | None = None) -> list[dict]:
    """One record per stored job of the whole DAG of ``snakemake <snakemake_args>`` (a
    ``--forceall`` dry run, with ``env`` added to the environment): ``rule``, ``output`` (its
    first), ``key`` (None: unknown until its upstream jobs run) and ``entry`` (the entry that
    serves it, None: not stored); and one per cheap job whose realisation a prediction read,
    with ``realisation``, its outputs by name (:func:`lookups` leaves these out)."""
    with tempfile.TemporaryDirectory() as tmp:
        ledger = Path(tmp) / "ledger.jsonl"
        _dry_run(["--forceall", *snakemake_args], workdir,
                 {**(env or {}), LEDGER_VARIABLE: str(ledger)})
        lines = ledger.read_text().splitlines() if ledger.exists() else []
    found = {}
    for line in lines:
        record = json.loads(line)
        if "realisation" in record:  # a cheap job's realisation, read by a prediction
            found[("realisation", record["output"])] = record
        else:
            found[record["output"]] = record  # a job asked twice: its last answer
    return list(found.values())


def lookups(snakemake_args: list[str], workdir: str | Path = ".",
            env: dict[str, str] | None = None) -> list[dict]:
    """The stored jobs' records of :func:`ledger` (not the realisations it read)."""
    return stored(ledger(snakemake_args, workdir, env))


def stored(found: list[dict]) -> list[dict]:
    return [r for r in found if "realisation" not in r]


def in_use(found: list[dict]) -> set[str]:
    """The keys of :func:`lookups` records, and the entries serving them."""
    return {name for r in found for name in (r["key"], r["entry"]) if name}


def used_keys(snakemake_args: list[str], workdir: str | Path = ".") -> set[str]:
    """The keys the DAG of ``snakemake <snakemake_args>`` asks for, and the entries serving
    them."""
    return in_use(ledger(snakemake_args, workdir))


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
