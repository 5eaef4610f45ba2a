"""Judge every claim of the paper on the tables of a run, and how firm each verdict is."""

from __future__ import annotations

import argparse

from entropic_bound.commands._args import add_paths

EVIDENCE = ("--grid-cells", "--e1-measures", "--e1-estimates", "--e2-measures",
            "--e4-estimates", "--e6-measures", "--e6-trajectory", "--e6-data-side")


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_paths(p, "--out", many=("--tables",))
    p.add_argument("--machine-study", default=None, metavar="DIR",
                   help="a published machine study (entropic-bound machine-study): each "
                        "verdict's firmness across machines beside it")
    for flag in EVIDENCE:
        p.add_argument(flag, nargs="+", default=None,
                       help="per-cell evidence the firmness of the verdicts is judged on "
                            "(--params: e1_operator, e2_operator, h1_margin); all or none")


def run(a: argparse.Namespace) -> None:
    from entropic_bound.claims.registry import write_claims

    given = {flag: getattr(a, flag[2:].replace("-", "_")) for flag in EVIDENCE}
    if any(given.values()) and not all(given.values()):
        raise SystemExit(f"claims: firmness needs all of {', '.join(EVIDENCE)}")
    evidence = None
    if all(given.values()):
        evidence = {flag[2:].replace("-", "_"): paths for flag, paths in given.items()}
        evidence["grid_cells"] = {path.rsplit("/", 1)[-1].removesuffix("_cells.parquet"): path
                                  for path in evidence["grid_cells"]}
        evidence["params"] = a.params
    write_claims(a.tables, a.out, evidence, a.machine_study)
