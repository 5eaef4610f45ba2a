"""Each claim's firmness across machines: held or moved in a published machine study
(``entropic-bound machine-study``, its ``claims.csv`` and ``study.json``), where the study
recomputed its experiment's trained cells."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from entropic_bound.plumbing.experiments import TRAINED_EXPERIMENTS


def machine_firmness(claims: pd.DataFrame, study: str | Path) -> pd.Series:
    """Each claim's verdict across machines, from a published study (its ``claims.csv`` and
    ``study.json``): held or moved where its experiment's cells were recomputed, else not
    studied (and none at all without a study)."""
    folder = Path(study)
    if not (folder / "study.json").is_file():
        return pd.Series("no machine study", index=claims.index)
    study_record = json.loads((folder / "study.json").read_text())
    studied = {e.upper() for e in study_record["experiments"]}
    moved = pd.read_csv(folder / "claims.csv").set_index("id")
    cpu = study_record["recomputed_on"]["cpu_model"]
    where = (f"{study_record['cells']} cells of {', '.join(sorted(studied))} recomputed on {cpu}"
             + (f" ({', '.join(f'{k}={v}' for k, v in study_record['kernel_env'].items())})"
                if study_record["kernel_env"] else ""))

    def readings(cid: str) -> str:
        """What the study says of the claim's other readings (studies before readings were
        compared have no such column)."""
        if "readings" not in moved.columns or not moved.loc[cid, "readings"] > 0:
            return ""
        changed = moved.loc[cid, "readings_moved"]
        return (f"; a reading MOVES: {changed}" if isinstance(changed, str) and changed
                else "; so does each other reading")

    def one(row) -> str:
        if row["experiment"].lower() not in TRAINED_EXPERIMENTS:
            return ("not studied: it reads no trained cell (the study recomputes training; "
                    "the audit compares its estimates elementwise)")
        if row["experiment"] not in studied:
            return "not studied (its cells were not recomputed on another machine)"
        if row["id"] not in moved.index:
            return f"not in the study ({where})"
        if moved.loc[row["id"], "moved"]:
            return (f"MOVES to {moved.loc[row['id'], 'verdict_study']} ({where})"
                    + readings(row["id"]))
        return f"holds ({where})" + readings(row["id"])

    return claims.apply(one, axis=1)
