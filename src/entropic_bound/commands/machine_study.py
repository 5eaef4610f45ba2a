"""Recompute training cells on this machine and see which tables and verdicts move."""

from __future__ import annotations

import argparse


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--experiments", nargs="+", default=["e1", "e5", "e2", "e3", "e6"],
                   metavar="EXP", help="whose cells to recompute (default all: every training "
                   "cell of E1 and E5, one seed of each (class, operator) of E2, (teacher, r*) "
                   "of E3 and (corpus, d_model) of E6)")
    p.add_argument("--env", nargs="*", default=[], metavar="NAME=VALUE",
                   help="kernel variables for the study's jobs (OPENBLAS_CORETYPE=Haswell, "
                        "ATEN_CPU_CAPABILITY=avx2, ONEDNN_MAX_CPU_ISA=...)")
    p.add_argument("--cores", type=int, default=2, help="snakemake --cores of the study's run")
    p.add_argument("--work", default="results/machine-study",
                   help="its work folder (a copy of the workflow and of the store)")
    p.add_argument("--published", default="report/paper", help="the snapshot to compare with")
    p.add_argument("--out", default="report/machine", help="where its results are published")
    p.add_argument("--store", default="store", help="the paper's store (copied, not changed)")
    p.add_argument("--compare-only", action="store_true",
                   help="compare a finished study's work folder again, without rerunning it")


def run(a: argparse.Namespace) -> None:
    import logging
    from pathlib import Path

    from entropic_bound.audit.machine_study import choose, training_cells

    log = logging.getLogger("entropic_bound")
    cells = choose(training_cells(a.store), a.experiments)
    log.info("machine study: %d training cells of %s to recompute (%.0f recorded job-seconds)",
             len(cells), ", ".join(a.experiments), cells["seconds"].sum())
    work = Path(a.work)
    if not a.compare_only:
        study(a, cells, work)
    compare(a, cells, work)


def study(a: argparse.Namespace, cells, work) -> None:
    """Copy the workflow and the store without the chosen entries; run the workflow there."""
    import logging
    import os
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    from entropic_bound.audit.machine_study import WORKFLOW_FILES
    from entropic_bound.store import ALIAS, LOCKS, Store, carry

    log = logging.getLogger("entropic_bound")
    if work.exists():
        shutil.rmtree(work)
    for name in WORKFLOW_FILES:
        src, dest = Path(name), work / name
        dest.parent.mkdir(parents=True, exist_ok=True)
        if src.is_dir():
            shutil.copytree(src, dest, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(src, dest)
    # the study trusts exactly the keys this checkout trusts: its copy's first use would
    # accept whatever its list holds now
    carry(".", work)
    # the store, linked file by file (a run writes new files and never rewrites one), without
    # the chosen entries and the aliases that name them
    study_store = work / "store"
    shutil.copytree(a.store, study_store, copy_function=os.link, symlinks=True,
                    ignore=shutil.ignore_patterns(LOCKS, ".tmp-*"))
    chosen = set(cells["key"])
    copied = Store(study_store)
    copied.prune([*sorted(chosen), *(f"{alias}{ALIAS}" for alias, entry
                                     in copied.aliases().items() if entry in chosen)])
    env = dict(os.environ, **dict(item.split("=", 1) for item in a.env))
    # the jobs import the copied library, not the checkout's (which may be edited meanwhile)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in [str((work / "src").resolve()), os.environ.get("PYTHONPATH", "")] if p)
    targets = ["results/tables/claims.parquet"]
    log.info("machine study: snakemake in %s (log %s)", work, work / "study.log")
    with open(work / "study.log", "w") as out:
        code = subprocess.call([sys.executable, "-m", "snakemake", "--cores", str(a.cores),
                                *targets], cwd=work, env=env, stdout=out,
                               stderr=subprocess.STDOUT)
    if code:
        sys.exit(f"machine study: the study's run failed (exit {code}); see {work}/study.log")


def compare(a: argparse.Namespace, cells, work) -> None:
    """The study's tables and verdicts against the published snapshot, to ``a.out``."""
    import json
    import logging
    import platform
    import sys
    from pathlib import Path

    import pandas as pd

    from entropic_bound.audit.machine_study import (
        entry_comparisons,
        reading_moves,
        table_moves,
        verdict_moves,
    )
    from entropic_bound.plumbing.atomic import read_parquet, write_text
    from entropic_bound.plumbing.job_record import machine, software

    log = logging.getLogger("entropic_bound")
    published = {p.stem: pd.read_csv(p) for p in Path(a.published).glob("*.csv")
                 if p.stem not in ("claims", "audit")}
    study = {p.stem: read_parquet(p) for p in (work / "results/tables").glob("*.parquet")}
    out_dir = Path(a.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    import torch

    study_env = dict(item.split("=", 1) for item in a.env)
    here = machine()  # this process's; its jobs ran with the study's kernel variables
    here["kernel_env"] = study_env
    here["aten_cpu_capability"] = study_env.get(
        "ATEN_CPU_CAPABILITY", torch.backends.cpu.get_cpu_capability()).upper()
    cells = cells.merge(entry_comparisons(cells, work), on="key", how="left")
    cells.assign(recomputed_on=here["cpu_model"]).to_csv(out_dir / "cells.csv", index=False)
    table_moves(published, study).to_csv(out_dir / "tables.csv", index=False)
    claims = verdict_moves(pd.read_csv(Path(a.published) / "claims.csv"),
                           study["claims"]).merge(reading_moves(published, study), on="id",
                                                  how="left")
    claims["readings"] = claims["readings"].fillna(0).astype(int)
    claims.to_csv(out_dir / "claims.csv", index=False)
    write_text(out_dir / "study.json", json.dumps({
        "experiments": a.experiments, "cells": len(cells),
        "entries_cpu": sorted(cells["cpu"].dropna().unique().tolist()),
        "entries_kernels": sorted(cells["kernels"].dropna().unique().tolist()),
        "recomputed_on": here, "kernel_env": study_env,
        "software": software(), "python": platform.python_version(),
        "command": " ".join(["entropic-bound machine-study",
                             *(arg for arg in sys.argv[2:] if arg != "--compare-only")]),
        "entries_agree": int((cells["margin"] <= 1).sum()),
        "verdicts_moved": int(claims["moved"].sum())}, indent=1) + "\n")
    log.info("machine study: %d cells recomputed; %d of %d verdicts moved; results in %s",
             len(cells), int(claims["moved"].sum()), len(claims), out_dir)
