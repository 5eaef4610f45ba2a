"""The report's section on a published machine study (:mod:`entropic_bound.audit.machine_study`
makes it; ``entropic-bound machine-study`` publishes it under ``report/machine``)."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from entropic_bound.audit.machine_study import kernel_text
from entropic_bound.reporting.sections import Section, fmt


def study_section(folder: str | Path):
    """The report's section on a published study (``cells.csv``, ``tables.csv``,
    ``claims.csv``, ``study.json`` in ``folder``), or None where there is none: the cells
    recomputed per experiment and the kernel classes they ran on against the entries', the
    largest move per table against its seed spread, and the verdicts that moved."""
    folder = Path(folder)
    if not (folder / "study.json").is_file():
        return None
    record = json.loads((folder / "study.json").read_text())
    cells = pd.read_csv(folder / "cells.csv")
    here = record["recomputed_on"]
    per_exp = cells.groupby("experiment").agg(
        cells=("key", "size"), recorded_job_seconds=("seconds", "sum"),
        entries_cpu=("cpu", lambda c: ", ".join(sorted(set(c.dropna()))))).reset_index()
    per_exp["entries_kernels"] = cells.groupby("experiment")["kernels"].agg(
        lambda k: " | ".join(sorted(set(k.dropna())))).to_numpy() if "kernels" in cells \
        else ""
    if "margin" in cells:
        per_exp["largest_audit_margin"] = cells.groupby("experiment")["margin"].max().to_numpy()
    per_exp["recomputed_on"] = here["cpu_model"]
    per_exp["recomputed_kernels"] = kernel_text(here)
    claims = pd.read_csv(folder / "claims.csv")
    moved = claims[claims["moved"]]
    # an empty CSV column reads as float NaN; studies before readings were compared lack it
    readings = claims.get("readings_moved", pd.Series("", index=claims.index)).astype(object)
    readings = readings.where(readings.notna(), "")
    tables = pd.read_csv(folder / "tables.csv")
    env = record.get("kernel_env") or {}
    intro = (f"The audit run wide (`{record['command']}`, docs/results.md): {record['cells']} "
             f"training cells of {', '.join(e.upper() for e in record['experiments'])} "
             f"recomputed on {here['cpu_model']}"
             + (f" with {', '.join(f'{k}={v}' for k, v in env.items())}" if env else "")
             + f" (the entries': {', '.join(record['entries_cpu'])}), every measure, table and "
             "claim below them rerun, and compared with this snapshot. The largest move of "
             "each table is relative to its published value, and, where the table gives a seed "
             "standard deviation beside a mean, in units of it. Verdicts moved: "
             f"{len(moved)} of {len(claims)}"
             + (f" ({', '.join(moved['id'])})" if len(moved) else "")
             + ("; each cell against its stored entry by the audit's comparison (its largest "
                "margin per experiment, <= 1 agrees): "
                f"{int((cells['margin'] <= 1).sum())} of {len(cells)} agree"
                if "margin" in cells else "")
             + "; readings whose verdict moved: "
             + (f"{int((readings != '').sum())}" if "readings" in claims else "not compared")
             + ".")
    shown = [("Cells recomputed, per experiment", fmt(per_exp)),
             ("Largest move per table", fmt(tables))]
    if len(moved) or (readings != "").any():
        shown.append(("Claims that moved", claims[claims["moved"] | (readings != "")]))
    return Section("machine", "Across machines — the verdicts recomputed on another CPU",
                   intro, shown, own_anchor="machine")
