"""The audit judges an E6 entry by its cell's seeds as the store holds them, signed, fetched
by this run or not (issue: a partial run that fetched one seed called an honest recomputation
DIFFERS, "inf seed sd at n = 1"). The cell is every param but the seed, depth included."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pandas as pd
import pytest
from test_store_planted import victim

from entropic_bound.audit.entries import lm_seed_metrics
from entropic_bound.plumbing.atomic import write_parquet
from entropic_bound.store import trust, write_note
from entropic_bound.store.layout import Store

PARAMS = {"corpus": "python", "d_model": 64, "model": {"layers": 2, "heads": 4},
          "train": {"max_steps": 8000}}
LOSSES = {0: 1.543, 1: 1.56, 2: 1.576, 3: 1.59, 4: 1.613}


def argv(seed: int, layers: int = 2) -> list[str]:
    params = {**PARAMS, "model": {**PARAMS["model"], "layers": layers}, "seed": seed}
    return ["entropic-bound", "train-lm", "--params", json.dumps(params),
            "--metrics", f"results/cells/e6/python/d64/s{seed}.metrics.parquet"]


def metrics(seed: int) -> bytes:
    buffer = io.BytesIO()
    pd.DataFrame({"corpus": ["python"], "d_model": [64], "val_loss": [LOSSES[seed]],
                  "best_select_loss": [2.0 + seed / 100]}).to_parquet(buffer)
    return buffer.getvalue()


def stored_seed(store: Store, seed: int, sign: bool = True, layers: int = 2) -> None:
    key = f"{seed:x}{layers:x}".ljust(64, "0")
    seal = store.write_entry(key, {"_record.json": json.dumps({"argv": argv(seed, layers)})
                                   .encode(), "_metrics.parquet": metrics(seed)})
    if sign:
        trust.sign(store, trust.load_signer(), "entry", key, seal)


@pytest.fixture()
def run_of_one_seed(tmp_path, monkeypatch) -> Path:
    """A partial run: seed 2 fetched and noted; the store holds the cell's five seeds."""
    victim(tmp_path, monkeypatch)
    out = Path("results/cells/e6/python/d64/s2.metrics.parquet")
    write_parquet(out, pd.read_parquet(io.BytesIO(metrics(2))))
    write_note({"rule": "train_lm_cells", "argv": argv(2), "inputs": {},
                "outputs": {"metrics": str(out)}})
    return out


def test_a_partial_run_reads_the_cells_other_seeds_from_the_store(run_of_one_seed):
    store = Store("store")
    for seed in LOSSES:
        stored_seed(store, seed)
    seeds = lm_seed_metrics(run_of_one_seed, "store")
    assert sorted(seeds["val_loss"]) == sorted(LOSSES.values())


def test_unsigned_entries_and_other_depths_are_not_the_cells_seeds(run_of_one_seed):
    store = Store("store")
    stored_seed(store, 0, sign=False)  # planted, unsigned
    stored_seed(store, 1, layers=4)  # a deeper model: another cell
    stored_seed(store, 3)
    seeds = lm_seed_metrics(run_of_one_seed, "store")
    assert sorted(seeds["val_loss"]) == [LOSSES[2], LOSSES[3]]
