"""How far two runs' results are apart: every table's largest relative difference, and whether
any printed claim value or verdict moved. For runs of the same DAG on different CPUs, thread
counts or instruction sets (docs/design.md, "Determinism").

    python -m entropic_bound.benchmarks.compare_runs RUN_A RUN_B

RUN_A and RUN_B are working directories with ``results/tables``. Columns named ``*seconds``
(wall-clock timings) are left out. Relative difference: |a - b| / max(|a|, |b|) per value.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import numpy as np
import pandas as pd

TIMING = re.compile(r"seconds")


def numeric_difference(a: pd.DataFrame, b: pd.DataFrame) -> tuple[float, str]:
    """(largest relative difference over the numeric values, the column where it is)."""
    worst, where = 0.0, ""
    for column in a.columns:
        if TIMING.search(column) or column not in b.columns:
            continue
        x, y = a[column].to_numpy(), b[column].to_numpy()
        if x.dtype.kind not in "fi" or y.dtype.kind not in "fi" or x.shape != y.shape:
            continue
        x, y = x.astype(float), y.astype(float)
        scale = np.maximum(np.abs(x), np.abs(y))
        with np.errstate(invalid="ignore", divide="ignore"):
            rel = np.where(scale > 0, np.abs(x - y) / scale, 0.0)
        rel = rel[~np.isnan(rel)]
        if rel.size and rel.max() > worst:
            worst, where = float(rel.max()), column
    return worst, where


def compare(run_a: Path, run_b: Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(per table: largest relative difference and its column; the claims whose printed value
    or verdict differ)."""
    rows = []
    for path in sorted((run_a / "results/tables").glob("*.parquet")):
        other = run_b / "results/tables" / path.name
        if not other.exists():
            continue
        worst, where = numeric_difference(pd.read_parquet(path), pd.read_parquet(other))
        rows.append({"table": path.stem, "max_rel_diff": worst, "column": where})
    claims_a = pd.read_parquet(run_a / "results/tables/claims.parquet")
    claims_b = pd.read_parquet(run_b / "results/tables/claims.parquet")
    both = claims_a.merge(claims_b, on="id", suffixes=("_a", "_b")).set_index("id")
    moved = both[(both["reproduced_a"] != both["reproduced_b"])
                 | (both["verdict_a"] != both["verdict_b"])]
    return pd.DataFrame(rows), moved[["reproduced_a", "reproduced_b", "verdict_a", "verdict_b"]]


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("run_a", type=Path)
    p.add_argument("run_b", type=Path)
    a = p.parse_args(argv)
    tables, moved = compare(a.run_a, a.run_b)
    with pd.option_context("display.width", 200, "display.max_rows", 200):
        print(tables.to_string(index=False, float_format="{:.2e}".format))
        print(f"\n{len(moved)} claim(s) whose printed value or verdict moved")
        if len(moved):
            print(moved.to_string())


if __name__ == "__main__":
    main()
