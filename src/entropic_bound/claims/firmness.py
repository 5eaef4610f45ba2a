"""How firm each verdict is (protocol §4, "Firmness"): the same rules, on resampled evidence.

No rule and no threshold changes here: each claim's table is rebuilt, by the same function
that builds it in the workflow, from its per-cell frames with the evidence resampled, and the
claim is judged again.

* **Claims judged on seeds** (E1-E5: every table averages over seeds): :data:`DRAWS` bootstrap
  resamples of the seeds (drawn with replacement, ``numpy.random.default_rng([seed, draw,
  group])``, a draw's i-th seed taking the i-th seed's label so that seed-keyed joins still
  pair; E4's settings, which have seeds of their own, are resampled each within itself), and
  each seed left out once. Reading: ``firm`` when no seed left out changes the verdict and at
  least :data:`FIRM_SHARE` of the resamples give it; ``rests on one seed`` when leaving out one
  seed changes it (the detail names the seed and the verdict it then gets); ``not firm``
  otherwise.
* **Claims judged across corpora** (App. B, E6: each statistic is taken over the six corpora):
  each corpus left out once. Reading: ``firm`` when no corpus left out changes the verdict, else
  ``rests on one corpus``; the detail gives the claim's value with each corpus left out (the
  range of its statistic).
* **Claims judged on both** (E7: statistics over corpora of seed means; ``unit``
  ``seed+corpus``): each reading above; ``firm`` when both are, else the first that is not
  (seeds first), with both details.
"""

from __future__ import annotations

import multiprocessing
import zlib
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from entropic_bound.claims.rules import Claim

PLURAL = {"seed": "seeds", "corpus": "corpora"}
DRAWS = 100
FIRM_SHARE = 0.95
FIRM, ONE_SEED, ONE_CORPUS, NOT_FIRM = ("firm", "rests on one seed", "rests on one corpus",
                                        "not firm")


@dataclass(frozen=True)
class Evidence:
    """The per-cell frames one table is built from, how it is built, and what it is judged
    over: ``unit`` ``seed`` (resampled) or ``corpus`` (left out one at a time)."""

    table: str
    frames: dict[str, pd.DataFrame]
    build: Callable[[dict[str, pd.DataFrame]], pd.DataFrame]
    unit: str


def _groups(frame: pd.DataFrame) -> Iterator[tuple[str, pd.DataFrame]]:
    if "setting" in frame.columns:
        yield from ((str(k), rows) for k, rows in frame.groupby("setting", sort=True))
    else:
        yield "", frame


def resample_seeds(frames: dict[str, pd.DataFrame], seed: int, draw: int
                   ) -> dict[str, pd.DataFrame]:
    """One bootstrap resample of the seeds of every frame: within each group, as many seeds as
    it has, drawn with replacement; the same draw in every frame (so cells and estimates of one
    seed stay together)."""
    out = {}
    for name, frame in frames.items():
        parts = []
        for group, rows in _groups(frame):
            seeds = sorted(rows["seed"].unique())
            rng = np.random.default_rng([seed, draw, zlib.crc32(group.encode())])
            for slot, pick in enumerate(rng.integers(len(seeds), size=len(seeds))):
                parts.append(rows[rows["seed"] == seeds[pick]].assign(seed=seeds[slot]))
        out[name] = pd.concat(parts, ignore_index=True)
    return out


def leave_out(frames: dict[str, pd.DataFrame], unit: str, value) -> dict[str, pd.DataFrame]:
    return {name: frame[frame[unit] != value] if unit in frame.columns else frame
            for name, frame in frames.items()}


def _values(frames: dict[str, pd.DataFrame], unit: str) -> list:
    return sorted({v for f in frames.values() if unit in f.columns for v in f[unit].unique()})


def _judge(claim: Claim, table: pd.DataFrame) -> tuple[str, str]:
    return claim.evaluate(table) if not table.empty else ("-", "not run")


@dataclass(frozen=True)
class Variants:
    """The tables of one piece of evidence with each unit left out, and resampled."""

    unit: str
    left_out: dict[object, pd.DataFrame]
    resampled: list[pd.DataFrame]


def variants(evidence: Evidence, draws: int = DRAWS, seed: int = 0) -> Variants:
    frames, unit = evidence.frames, evidence.unit
    values = _values(frames, unit)
    if len(values) < 2:  # nothing to leave out or resample: the verdict rests on that one
        return Variants(unit, {}, [])
    left = {v: evidence.build(leave_out(frames, unit, v)) for v in values}
    resampled = ([evidence.build(resample_seeds(frames, seed, d)) for d in range(draws)]
                 if unit == "seed" else [])
    return Variants(unit, left, resampled)


def firmness(claim: Claim, found: Variants, verdict: str) -> tuple[str, str]:
    """(reading, detail) of ``claim``, whose verdict on all the evidence is ``verdict``."""
    if not found.left_out:
        return ((ONE_CORPUS, "judged on one corpus only") if found.unit == "corpus"
                else (ONE_SEED, "judged on one seed only"))
    left = {v: _judge(claim, table) for v, table in found.left_out.items()}
    flips = {v: out for v, out in left.items() if out[1] != verdict}
    if found.unit == "corpus":
        values = "; ".join(f"without {v}: {out[0]}" for v, out in left.items())
        if not flips:
            return FIRM, f"the same verdict with any one corpus left out ({values})"
        named = ", ".join(f"{v} ({out[1]})" for v, out in flips.items())
        return ONE_CORPUS, f"leaving out {named} changes it ({values})"
    draws = len(found.resampled)
    same = sum(_judge(claim, table)[1] == verdict for table in found.resampled)
    share = f"{same} of {draws} seed resamples give {verdict}"
    if flips:
        named = ", ".join(f"seed {v} ({out[1]})" for v, out in flips.items())
        return ONE_SEED, f"{share}; leaving out {named} changes it"
    return (FIRM if same >= FIRM_SHARE * draws else NOT_FIRM,
            f"{share}; no seed left out changes it")


def _table_rows(claims: list[Claim], ev: Evidence, verdicts: dict[str, str], draws: int,
                seed: int) -> dict[str, dict]:
    """Claim id -> its firmness row, for ``claims`` (judged, of the table ``ev`` builds)."""
    built = [variants(replace(ev, unit=unit), draws, seed) for unit in ev.unit.split("+")]
    rows = {}
    for claim in claims:
        found = [firmness(claim, v, verdicts[claim.id]) for v in built]
        reading = next((r for r, _ in found if r != FIRM), FIRM)
        detail = found[0][1] if len(found) == 1 else "; ".join(
            f"across {PLURAL[v.unit]}: {d}" for v, (_, d) in zip(built, found))
        rows[claim.id] = {"id": claim.id, "firmness": reading, "firmness_detail": detail}
    return rows


def firmness_table(claims: list[Claim], evidence: dict[str, Evidence],
                   verdicts: dict[str, str], draws: int = DRAWS, seed: int = 0,
                   jobs: int = 1) -> pd.DataFrame:
    """One row per claim: ``id``, ``firmness`` (the reading) and ``firmness_detail``; a claim
    whose table has no evidence here, or that was not run, gets neither. Each table's evidence
    is resampled and judged in one of ``jobs`` processes (the same rows whatever ``jobs``)."""
    judged = {table: [c for c in claims if c.table == table
                      and verdicts.get(c.id) not in (None, "not run")] for table in evidence}
    tables = [table for table, of in judged.items() if of]
    found: dict[str, dict] = {}
    for rows in in_processes(lambda t: _table_rows(judged[t], evidence[t], verdicts, draws,
                                                   seed), tables, jobs):
        found.update(rows)
    return pd.DataFrame([found.get(c.id, {"id": c.id, "firmness": "", "firmness_detail": ""})
                         for c in claims])


_TASK: Callable | None = None


def _run_task(item):
    return _TASK(item)


def in_processes(fn: Callable, items: list, jobs: int) -> list:
    """``fn`` over ``items`` in up to ``jobs`` forked processes, in order; in this process where
    ``jobs`` is 1 or the platform cannot fork. Forked children inherit ``fn`` and what it
    reads (evidence frames and closures, which would not pickle); only the items and results
    cross between processes."""
    if jobs <= 1 or len(items) <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        return [fn(item) for item in items]
    global _TASK
    _TASK = fn
    try:
        with ProcessPoolExecutor(min(jobs, len(items)),
                                 mp_context=multiprocessing.get_context("fork")) as pool:
            return list(pool.map(_run_task, items))
    finally:
        _TASK = None
