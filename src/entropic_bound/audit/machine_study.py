"""The study of each verdict's firmness across machines: the audit run wide.

A chosen set of training entries is recomputed on this machine (whose CPU kernel class differs
from the entries'; kernel variables such as ``OPENBLAS_CORETYPE`` may pin another one), with
everything below them (measures, tables, claims) rerun on those cells in place of the stored
ones, and the tables and verdicts are compared with the published snapshot.

It runs the workflow itself, in a work folder of its own under ``results/`` (a copy of the
checkout's workflow and a copy of the store without the chosen entries): the keys of the
paper's store are untouched, the machine setting travels in the environment of the study's own
jobs, and Snakemake reruns exactly what reads a recomputed cell. :func:`choose` says which
cells (the default set: every training entry of E1 and E5, one seed of every (class, operator)
of E2, of every (teacher, r*) of E3 and of every (corpus, d_model) of E6, the lowest seed);
:func:`table_moves` and :func:`verdict_moves` compare.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd

from entropic_bound.plumbing.experiments import EXPERIMENTS

# What a copy of the workflow needs (tests/conftest.py copies the same)
WORKFLOW_FILES = ["Snakefile", "config.yaml", "workflow", "profiles", "envs", "src",
                  "report/templates", "report/machine", "requirements.lock",
                  "corpora.lock.json", "trusted-keys.txt"]
# per experiment: the training command and the cell's path below results/cells/<exp>/, which of
# its parts form a group of which one seed is recomputed (None: every seed)
GROUPS = {e.name: (e.training, e.seed_group) for e in EXPERIMENTS if e.training}
# a cell's path: word-character folders only (a record is data: no '..' may lead elsewhere)
CELL = re.compile(r"^results/cells/(e\d)/((?:[\w-]+/)*[\w-]+)/s(\d+)\.npz$")


def training_cells(store_dir: str | Path) -> pd.DataFrame:
    """Every training entry of the store that a trusted key signed: its key, experiment, cell
    (the path below ``results/cells/<exp>/`` without the seed), seed, recorded seconds and
    CPU (a record not read is one line of the log)."""
    import logging

    from entropic_bound.store import Store, record_of, trusted

    rows = []
    store = Store(store_dir)
    keys, refused = trusted(), []
    for key in sorted(store.listing().seals):
        # data: the cell its command names, its cost and machine
        r = record_of(store, key, keys, refused)
        argv = r.get("argv") if isinstance(r.get("argv"), list) else []
        if len(argv) < 2:
            continue
        cell = next((m for a in argv if (m := CELL.search(a))), None)
        if cell is None or argv[1] not in {c for c, _ in GROUPS.values()}:
            continue
        machine = r.get("machine") or {}
        rows.append({"key": key, "experiment": cell.group(1), "cell": cell.group(2),
                     "seed": int(cell.group(3)), "seconds": float(r.get("s", 0.0)),
                     "cpu": machine.get("cpu_model"), "kernels": kernel_text(machine)})
    for line in refused:
        logging.getLogger("entropic_bound").warning("machine study: %s", line)
    columns = ["key", "experiment", "cell", "seed", "seconds", "cpu", "kernels"]
    return pd.DataFrame(rows, columns=columns).sort_values(["experiment", "cell", "seed"],
                                                           ignore_index=True)


def kernel_text(machine: dict) -> str:
    """A record's kernel class in words (what the audit's kernel class compares): torch's CPU
    capability, the kernel flags, OpenBLAS's kernel class where recorded, the kernel
    variables set."""
    parts = [f"torch {machine.get('aten_cpu_capability') or '-'}",
             "flags " + " ".join(machine.get("cpu_flags") or ["-"])]
    if machine.get("openblas_core"):
        parts.append(f"OpenBLAS {machine['openblas_core']}")
    parts += [f"{k}={v}" for k, v in sorted((machine.get("kernel_env") or {}).items())]
    return "; ".join(parts)


def choose(cells: pd.DataFrame, experiments: list[str]) -> pd.DataFrame:
    """The cells to recompute: every seed where the experiment's group is None, else the
    lowest seed of each group (the cell path cut to that many parts: E2 its operator, E3 its
    teacher, spectrum and r*, E6 its corpus and d_model)."""
    chosen = []
    for exp in experiments:
        own = cells[cells["experiment"] == exp]
        parts = GROUPS[exp][1]
        if parts is None:
            chosen.append(own)
            continue
        group = own["cell"].str.split("/").str[:parts].str.join("/")
        chosen.append(own.loc[own.groupby(group)["seed"].idxmin()])
    return pd.concat(chosen, ignore_index=True)


# a training cell's outputs under results/
ENTRY_OUTPUTS = (".npz", ".metrics.parquet", ".trajectory.parquet")


def entry_comparisons(cells: pd.DataFrame, work: str | Path,
                      results: str | Path = "results") -> pd.DataFrame:
    """Each recomputed cell (its outputs under ``work``'s ``results/cells/``) against its
    stored entry (this checkout's run's outputs of the cell under ``results``: copies of the
    entry's files, checked against its seal when they were fetched) by the audit's
    comparison of a training entry across kernel classes
    (:func:`entropic_bound.audit.entries.compare_training`): ``margin`` (the largest
    difference over its tolerance, <= 1 agrees), ``where`` and ``comparison``."""
    from entropic_bound.audit.entries import compare_training

    rows = []
    for cell in cells.itertuples():
        rel = f"cells/{cell.experiment}/{cell.cell}/s{cell.seed}"
        outputs = {f"{work}/results/{rel}{ext}": Path(results) / f"{rel}{ext}"
                   for ext in ENTRY_OUTPUTS if (Path(results) / f"{rel}{ext}").exists()}
        if not outputs or not all(Path(ours).exists() for ours in outputs):
            rows.append({"key": cell.key, "margin": np.nan, "where": "not recomputed",
                         "comparison": ""})
            continue
        judged = compare_training(GROUPS[cell.experiment][0], outputs)
        rows.append({"key": cell.key, "margin": judged.margin, "where": judged.where,
                     "comparison": judged.how})
    return pd.DataFrame(rows, columns=["key", "margin", "where", "comparison"])


def _numeric(old: pd.DataFrame, new: pd.DataFrame) -> list[str]:
    """Columns numeric in both (a CSV reads an empty text column as numbers)."""
    return [c for c in old.columns if old[c].dtype.kind in "fi"
            and pd.api.types.is_numeric_dtype(new[c]) and not pd.api.types.is_bool_dtype(new[c])]


def _mean_and_sd(columns) -> list[tuple[str, str]]:
    """(seed mean, its seed standard deviation) column pairs: ``mean``/``std``,
    ``<x>_mean``/``<x>_std`` and ``<x>``/``<x>_std``."""
    pairs = []
    for std in [c for c in columns if c == "std" or c.endswith("_std")]:
        base = std.removesuffix("std").removesuffix("_")
        mean = next((m for m in (f"{base}_mean" if base else "mean", base) if m in columns), None)
        if mean is not None:
            pairs.append((mean, std))
    return pairs


def table_moves(published: dict[str, pd.DataFrame],
                study: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Per table: the largest move of a value, relative to its published value (infinite
    where a published 0 moved, a count such as ``n_spiked``), and where, with both values;
    and, where the table gives a seed standard deviation beside a mean (``mean``/``std``,
    ``<x>_mean``/``<x>_std``), the largest move of a mean in units of that spread. A table
    whose rows or columns differ (a trajectory whose cells stopped at other steps) is not
    compared, and says why."""
    rows = []
    for name, old in sorted(published.items()):
        new = study.get(name)
        if new is None or new.shape != old.shape or list(new.columns) != list(old.columns):
            why = ("absent from the study" if new is None else
                   f"{len(old)} rows published, {len(new)} in the study"
                   if len(new) != len(old) else "other columns")
            rows.append({"table": name, "compared": False, "where": why})
            continue
        largest, where = 0.0, ""
        for column in _numeric(old, new):
            a, b = new[column].to_numpy(float), old[column].to_numpy(float)
            with np.errstate(divide="ignore", invalid="ignore"):
                rel = np.where(b != 0, np.abs(a - b) / np.abs(b), np.where(a != b, np.inf, 0))
            rel = np.nan_to_num(rel, nan=0.0, posinf=np.inf)
            if rel.size and rel.max() > largest:
                i = int(rel.argmax())
                largest, where = float(rel.max()), f"{column}, row {i}: {b[i]:.4g} -> {a[i]:.4g}"
        spread_moves = []
        for mean, std in _mean_and_sd(old.columns):
            with np.errstate(divide="ignore", invalid="ignore"):
                moved = np.abs(new[mean].to_numpy(float) - old[mean].to_numpy(float)) \
                    / old[std].to_numpy(float)
            moved = moved[np.isfinite(moved)]
            if moved.size:
                spread_moves.append(float(moved.max()))
        rows.append({"table": name, "compared": True, "largest_relative_move": largest,
                     "where": where, "largest_move_in_seed_sd":
                     max(spread_moves) if spread_moves else np.nan})
    return pd.DataFrame(rows)


def verdict_moves(published: pd.DataFrame, study: pd.DataFrame) -> pd.DataFrame:
    """Per claim: the published verdict and number, the study's, and whether the verdict
    moved."""
    merged = published[["id", "verdict", "reproduced"]].merge(
        study[["id", "verdict", "reproduced"]].astype({"reproduced": str}),
        on="id", how="left", suffixes=("", "_study"))
    merged["moved"] = merged["verdict"] != merged["verdict_study"]
    return merged


def reading_moves(published: dict[str, pd.DataFrame],
                  study: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Per claim that names other readings (:func:`entropic_bound.claims.registry.
    claim_readings`, evaluated on the published tables and on the study's): how many it has and
    those whose verdict moved, as ``name: published -> study``."""
    from entropic_bound.claims.registry import claim_readings

    before, after = claim_readings(published), claim_readings(study)
    return pd.DataFrame([{"id": cid, "readings": len(names), "readings_moved": "; ".join(
        f"{name}: {v} -> {after.get(cid, {}).get(name, 'absent')}" for name, v in names.items()
        if after.get(cid, {}).get(name) != v)} for cid, names in before.items()],
        columns=["id", "readings", "readings_moved"])
