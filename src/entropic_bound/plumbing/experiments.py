"""Which experiment of the paper a job serves, from its rule and wildcards.

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
from pathlib import PurePosixPath

# Rules whose name and path name no experiment, or whose work serves no one experiment.
RULE_EXPERIMENT = {**dict.fromkeys(["fetch_corpus", "tokenize_corpus", "corpus_stats",
                                    "train_lm_cells", "measure_lm_cells"], "e6"),
                   **dict.fromkeys(["evaluate_claims", "render_report", "snapshot",
                                    "audit_store"], "report")}
# e<k> or table<k> (Table k is experiment Ek), alone or as a word of a rule's name
_EXPERIMENT = re.compile(r"(?:^|_)(?:e|table)(\d+)(?:_|$)")
# the experiments whose claims read trained cells (E4 estimates from data alone)
TRAINED_EXPERIMENTS = ("e1", "e2", "e3", "e5", "e6")
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
