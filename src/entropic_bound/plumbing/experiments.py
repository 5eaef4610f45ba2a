"""The experiments of the workflow, each registered once (:data:`EXPERIMENTS`), and which
experiment a job serves, from its rule and wildcards.

**The registry.** An experiment is one :class:`Experiment`: the machinery its jobs run on (a
grid of teachers, a fixed-operator task, data-only estimates, the char LMs), its paper tables
(one report section each), the module of its claims and of its report sections, and, where
it trains, the training command and how the machine study groups its seeds. Everything that
finds an experiment reads this entry, by name (this module imports nothing of the package):
the workflow's grids and fixed tasks (``GRID_TABLES``, ``FIXED_EXPERIMENTS`` in
``workflow/rules/common.smk``), the claims (:mod:`entropic_bound.claims.registry`), the report's
sections (:mod:`entropic_bound.reporting.sections`), the evidence of the grids, the machine
study (:mod:`entropic_bound.audit.machine_study`) and which verdicts rest on trained cells. An
experiment on existing machinery is an entry here, its settings (``config.yaml`` and its
schema) and its own new modules (docs/contributing.md).

The experiment of a job is the one its rule serves: named in :data:`RULE_EXPERIMENT` (E6's
corpus and LM rules; the claims and the report: ``report``), else by the rule's own name
(``estimate_e1_data``, ``aggregate_table4``: Table k is experiment Ek; E4's estimators run on
E3's datasets and on their own settings), else by the ``e<k>`` or ``table<k>`` wildcard in its
path (``aggregate_grid/table3``), else ``other``. Costs are summed per experiment with it
(:mod:`entropic_bound.reporting.costs`) and the audit draws its entries per experiment with it
(:mod:`entropic_bound.audit.entries`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath


@dataclass(frozen=True)
class Experiment:
    """One experiment (the module's doc). ``tables``: its paper tables, in the report's order,
    each a section ``section_<table>`` of the module ``sections``; ``claims``: the module whose
    ``CLAIMS`` hold its claims (those whose ``experiment`` is its name in capitals);
    ``training``: the command that trains its cells (None: it trains nothing);
    ``seed_group``: how many parts of a cell's path (below ``results/cells/<name>/``) form a
    group of which the machine study recomputes one seed (None: every seed)."""

    name: str
    machinery: str
    tables: tuple[str, ...]
    claims: str
    sections: str = "entropic_bound.reporting.sections"
    training: str | None = None
    seed_group: int | None = None


# in the report's order of claims (E3, E5, E1-E2, E4, E6, E7); sections in the order of their
# tables
EXPERIMENTS: tuple[Experiment, ...] = (
    Experiment("e3", "grid", ("table3",), "entropic_bound.claims.grid",
               training="train-grid", seed_group=3),
    Experiment("e5", "grid", ("table5",), "entropic_bound.claims.grid", training="train-grid"),
    Experiment("e1", "fixed", ("table1",), "entropic_bound.claims.fixed",
               training="train-fixed"),
    Experiment("e2", "fixed", ("table2",), "entropic_bound.claims.fixed",
               training="train-fixed", seed_group=1),
    Experiment("e4", "predict", ("table4_predictability",), "entropic_bound.claims.predict"),
    Experiment("e6", "lm", ("table6_stats", "table6_trajectory"), "entropic_bound.claims.lm",
               training="train-lm", seed_group=2),
    Experiment("e7", "lm", ("table7",), "entropic_bound.claims.e7",
               sections="entropic_bound.reporting.e7", training="train-lm", seed_group=3),
)


def of_machinery(machinery: str) -> list[Experiment]:
    """The registered experiments that run on ``machinery``."""
    return [e for e in EXPERIMENTS if e.machinery == machinery]

# Rules whose name and path name no experiment, or whose work serves no one experiment.
RULE_EXPERIMENT = {**dict.fromkeys(["fetch_corpus", "tokenize_corpus", "corpus_stats",
                                    "train_lm_cells", "measure_lm_cells"], "e6"),
                   **dict.fromkeys(["evaluate_claims", "render_report", "snapshot",
                                    "audit_store"], "report")}
# e<k> or table<k> (Table k is experiment Ek), alone or as a word of a rule's name
_EXPERIMENT = re.compile(r"(?:^|_)(?:e|table)(\d+)(?:_|$)")
# the experiments whose claims read trained cells (E4 estimates from data alone)
TRAINED_EXPERIMENTS = tuple(e.name for e in EXPERIMENTS if e.training)
# where every job's cost record lies: results/benchmarks/<rule>/<wildcards...>.<tsv|json>
BENCHMARKS = "benchmarks"


def experiment_of(rule: str, wildcards: list[str]) -> str:
    """The experiment a job of ``rule`` with these wildcard values serves (see the module)."""
    if rule in RULE_EXPERIMENT:
        return RULE_EXPERIMENT[rule]
    for name in (rule, *wildcards):
        match = _EXPERIMENT.search(name)
        if match:
            return f"e{match.group(1)}"
    return "other"


def experiment_of_record(record_path: str) -> str:
    """The experiment of a job whose cost record is written to ``record_path``
    (``.../benchmarks/<rule>/<wildcards...>.json``, as a stored job's ``--record`` names it);
    ``other`` for a path outside a benchmarks folder."""
    parts = PurePosixPath(record_path).with_suffix("").parts
    if BENCHMARKS not in parts[:-1]:
        return "other"
    rule, *wildcards = parts[parts.index(BENCHMARKS) + 1:]
    return experiment_of(rule, wildcards)
