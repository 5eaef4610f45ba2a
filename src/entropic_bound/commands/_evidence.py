"""The per-cell evidence options the claims and the audit share: the files each claims table
is built from (:func:`entropic_bound.claims.evidence.evidence`)."""

from __future__ import annotations

import argparse
import re

EVIDENCE = ("--grid-measures", "--e1-measures", "--e1-estimates", "--e2-measures",
            "--e4-estimates", "--e6-measures", "--e6-trajectory", "--e6-data-side")
GRID_MEASURE = re.compile(r"results/measures/(e\d+)/")


def add_evidence_arguments(p: argparse.ArgumentParser, purpose: str) -> None:
    """The evidence flags, all or none (with ``--params``: ``e1_operator``, ``e2_operator``,
    ``h1_margin`` and ``grid_tables``, paper table -> experiment)."""
    for flag in EVIDENCE:
        p.add_argument(flag, nargs="+", default=None,
                       help=f"per-cell evidence {purpose} (--params: e1_operator, e2_operator, "
                            "h1_margin, grid_tables); all or none")
    p.add_argument("--experiment-evidence", nargs="+", default=[], metavar="NAME=FILE",
                   help="the per-cell evidence of experiments with rules of their own, each "
                        "file named by its frame (the experiment's claims module reads it)")


def evidence_paths(a: argparse.Namespace, command: str) -> dict | None:
    """The keyword arguments of :func:`entropic_bound.claims.evidence.evidence` from the
    options (None when none is given); the grids' measures grouped by paper table."""
    given = {flag: getattr(a, flag[2:].replace("-", "_")) for flag in EVIDENCE}
    if not any(given.values()):
        return None
    if not all(given.values()):
        raise SystemExit(f"{command}: the evidence needs all of {', '.join(EVIDENCE)}")
    paths = {flag[2:].replace("-", "_"): files for flag, files in given.items()}
    tables = {exp: table for table, exp in a.params["grid_tables"].items()}
    grid: dict[str, list[str]] = {table: [] for table in a.params["grid_tables"]}
    for path in paths["grid_measures"]:
        found = GRID_MEASURE.search(path)
        if found is None or found.group(1) not in tables:
            raise SystemExit(f"{command}: --grid-measures {path}: expected a measure of "
                             f"results/measures/<{'|'.join(sorted(tables))}>/")
        grid[tables[found.group(1)]].append(path)
    paths["grid_measures"] = grid
    experiments: dict[str, list[str]] = {}
    for token in a.experiment_evidence:
        name, sep, path = token.partition("=")
        if not (sep and name and path):
            raise SystemExit(f"{command}: --experiment-evidence {token}: expected NAME=FILE")
        experiments.setdefault(name, []).append(path)
    paths["experiment_evidence"] = experiments
    paths["params"] = a.params
    return paths
