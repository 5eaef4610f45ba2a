"""The per-cell evidence of each claims table, and how the workflow builds the table from it
(the same calls as the ``aggregate-*`` commands), for :mod:`entropic_bound.claims.firmness`."""

from __future__ import annotations

from importlib import import_module

from entropic_bound.claims.firmness import Evidence
from entropic_bound.plumbing.experiments import EXPERIMENTS
from entropic_bound.tables.aggregate import (
    concat_cells,
    grid_summary,
    read_parquets,
    table1,
    table2,
    table4,
)
from entropic_bound.tables.lm import table6


def evidence(grid_measures: dict[str, list[str]], e1_measures: list[str],
             e1_estimates: list[str], e2_measures: list[str], e4_estimates: list[str],
             e6_measures: list[str], e6_trajectory: list[str], e6_data_side: list[str],
             params: dict, experiment_evidence: dict[str, list[str]] | None = None
             ) -> dict[str, Evidence]:
    """Claims table -> its evidence. ``grid_measures``: paper table -> the measures of its
    datasets (joined into its cells as ``aggregate-grid`` does); ``params``: ``e1_operator``,
    ``e2_operator`` (the primary operators) and ``h1_margin``; ``experiment_evidence``: frame
    name -> files of the experiments with rules of their own, whose claims modules' ``evidence``
    build their tables' evidence from it."""
    found = {table: Evidence(table, {"cells": concat_cells(paths)},
                             lambda f: grid_summary(f["cells"]), "seed")
             for table, paths in grid_measures.items()}
    found["table1"] = Evidence(
        "table1", {"cells": read_parquets(e1_measures), "estimates": read_parquets(e1_estimates)},
        lambda f: table1(f["cells"], f["estimates"], primary=params["e1_operator"])[1], "seed")
    found["table2"] = Evidence("table2", {"cells": read_parquets(e2_measures)},
                               lambda f: table2(f["cells"], primary=params["e2_operator"]), "seed")
    found["table4_predictability"] = Evidence(
        "table4_predictability", {"estimates": read_parquets(e4_estimates)},
        lambda f: table4(f["estimates"])[0], "seed")
    found["table6_stats"] = Evidence(
        "table6_stats", {"measures": read_parquets(e6_measures),
                         "data_side": read_parquets(e6_data_side),
                         "trajectory": read_parquets(e6_trajectory)},
        lambda f: table6(f["measures"], f["data_side"], f["trajectory"],
                         h1_margin=params["h1_margin"])[2], "corpus")
    for experiment in EXPERIMENTS:
        module = import_module(experiment.claims)
        if experiment_evidence and hasattr(module, "evidence"):
            found.update(module.evidence(experiment_evidence))
    return found
