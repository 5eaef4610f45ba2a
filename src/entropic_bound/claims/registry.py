"""The claims registry (protocol §4): every claim of the paper, in the report's order
(E3, E5, E1-E2, E4, E6), each with its rule (``claims.rules``); each experiment's claims live in
the module its entry of :data:`entropic_bound.plumbing.experiments.EXPERIMENTS` names.

A claim evaluates against the aggregated tables; a claim whose table is absent is "not run".
Nothing here is tuned to pass: a rule is fixed before the numbers are seen and states its
tolerance in ``rule``. The published values come from :mod:`entropic_bound.claims.published`,
their only home.
"""

from __future__ import annotations

from importlib import import_module
from pathlib import Path

import pandas as pd

from entropic_bound.claims.rules import NOT_RUN, Claim, Tables, reading_firmness
from entropic_bound.plumbing.atomic import read_parquet
from entropic_bound.plumbing.experiments import EXPERIMENTS

# each registered experiment's claims, from the module its entry names, in the registry's order
CLAIMS: list[Claim] = [c for e in EXPERIMENTS for c in import_module(e.claims).CLAIMS
                       if c.experiment == e.name.upper()]


def evaluate_claims(tables: Tables, claims: list[Claim] = CLAIMS) -> pd.DataFrame:
    """One row per claim: id, kind, where, statement, published, rule, column, reproduced,
    verdict, and whether that verdict holds under each other reading the protocol names
    (:func:`entropic_bound.claims.rules.reading_firmness`)."""
    rows = []
    for c in claims:
        table = tables.get(c.table)
        if table is None or table.empty:
            (reproduced, verdict), readings = ("-", NOT_RUN), None
        else:
            reproduced, verdict = c.evaluate(table)
            readings = c.readings(table) if c.readings else None
        rows.append({"id": c.id, "kind": c.kind, "experiment": c.experiment,
                     "location": c.location,
                     "statement": c.statement, "published": c.published, "rule": c.rule,
                     "column": c.column, "reproduced": reproduced, "verdict": verdict,
                     "reading_firmness": reading_firmness(verdict, readings)})
    return pd.DataFrame(rows)


def claim_readings(tables: Tables, claims: list[Claim] = CLAIMS) -> dict[str, dict[str, str]]:
    """Per claim that names other readings: each reading's verdict on ``tables``."""
    return {c.id: c.readings(tables[c.table]) for c in claims
            if c.readings and c.table in tables and not tables[c.table].empty}


def load_tables(paths: list[str]) -> dict[str, pd.DataFrame]:
    """Parquet files keyed by file stem (``results/tables/table3.parquet`` -> ``table3``)."""
    return {Path(p).stem: read_parquet(p) for p in paths}


def run_claims(table_paths: list[str], evidence: dict | None = None,
               machine_study: str | None = None, jobs: int = 1) -> pd.DataFrame:
    """The claims table of a run; with ``evidence`` (the per-cell frames' paths of
    :func:`entropic_bound.claims.evidence.evidence`), each verdict's firmness beside it (judged
    in ``jobs`` processes); with
    ``machine_study`` (a published study's folder), its firmness across machines
    (:func:`entropic_bound.claims.machine_firmness.machine_firmness`)."""
    claims = evaluate_claims(load_tables(table_paths))
    if evidence is not None:
        from entropic_bound.claims.evidence import evidence as load_evidence
        from entropic_bound.claims.firmness import firmness_table

        verdicts = dict(zip(claims["id"], claims["verdict"]))
        claims = claims.merge(firmness_table(CLAIMS, load_evidence(**evidence), verdicts,
                                             jobs=jobs),
                              on="id", how="left", validate="one_to_one")
    if machine_study is not None:
        from entropic_bound.claims.machine_firmness import machine_firmness

        claims["machine_firmness"] = machine_firmness(claims, machine_study)
    return claims
