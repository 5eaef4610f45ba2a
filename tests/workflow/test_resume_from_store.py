"""The store through Snakemake (the quick profile's own store, results/store): a run fills it,
a fresh clone given only the store fetches every stored job and writes identical tables, a
corrupt entry is caught and recomputed, and an edit misses exactly its own rule's entries."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections import Counter

import numpy as np
import pandas as pd
import pytest
from conftest import QUICK, copy_workflow, snakemake

from entropic_bound.plumbing import store, store_dag

# the rules whose jobs the store holds (cache: True), and how many jobs each has in the quick DAG
STORED = {"train_grid_cells": 8 + 3, "measure_grid_cells": 8 + 3,  # E3 2x2x2, E5 3 spectra
          "train_fixed_cells": 2 + 2, "measure_fixed_cells": 2 + 2,  # E1 2 seeds, E2 2 operators
          "estimate_e1_data": 2, "estimate_e4_data": 22,  # E3's 8 and the settings' 6 + 4 + 4
          "fetch_corpus": 6,  # the pinned texts: a moved registry cannot stop a resumed run
          "train_lm_cells": 6 * 2 * 2}  # corpora x d_models x seeds; E6's measures read the
# trajectory its training measured, in seconds: that job is not stored


def store_plan(workdir, *args: str) -> dict[str, Counter]:
    """Per stored rule, how many of its planned jobs a dry run would fetch from the store and
    how many it would compute."""
    return store_dag.store_plan([*QUICK, *args], workdir)


def tables(workdir) -> dict[str, pd.DataFrame]:
    return {p.name: pd.read_parquet(p) for p in sorted((workdir / "results/tables").glob("*"))}


@pytest.fixture(scope="module")
def clone_with_store(quick_run, tmp_path_factory):
    """A fresh copy of the workflow with nothing but the quick run's store."""
    work = copy_workflow(tmp_path_factory.mktemp("clone"))
    shutil.copytree(quick_run / "results/store", work / "results/store")
    return work


def test_a_run_fills_the_store_with_one_sealed_entry_per_stored_job(quick_run):
    entries = store.entries(quick_run / "results/store")
    records = [json.loads(f.read_text()) for files in entries.values() for f in files
               if f.name.endswith("_record.json")]
    commands = Counter(r["argv"][1] for r in records)
    assert sum(STORED.values()) == len(entries) == len(records)
    assert commands["train-grid"] == STORED["train_grid_cells"]
    assert commands["train-lm"] == STORED["train_lm_cells"]
    assert store.seal(quick_run / "results/store") == []  # the run sealed every entry
    assert store.check(quick_run / "results/store") == []
    # no checkpoint file enters the store: the trajectory is measured during training, and
    # E6's kept weights are stored in half precision
    assert not [f for files in entries.values() for f in files if "checkpoint" in f.name]
    import numpy as np

    from entropic_bound.plumbing.atomic import open_npz

    lm_weights = [f for files in entries.values() for f in files
                  if f.name.endswith("_weights.npz") and any(
                      "train-lm" in g.read_text() for g in files if g.suffix == ".json")]
    assert len(lm_weights) == STORED["train_lm_cells"]
    with open_npz(lm_weights[0]) as z:
        assert {z[k].dtype for k in z.files} == {np.dtype("float16")}
    # the costs tables count stored jobs from their records, with the CPU they ran on
    out = subprocess.run([sys.executable, "-m", "entropic_bound.cli", "costs"], cwd=quick_run,
                         capture_output=True, text=True, check=True).stdout
    assert re.search(r"train_grid_cells\s+11\s", out), out


def test_a_fresh_clone_with_only_the_store_computes_no_stored_job(clone_with_store, quick_run):
    plan = store_plan(clone_with_store)
    assert {rule: counts["fetched"] for rule, counts in plan.items()} == STORED
    assert not any(counts["computed"] for counts in plan.values()), plan
    snakemake(clone_with_store, *QUICK)
    ours, theirs = tables(clone_with_store), tables(quick_run)
    assert ours.keys() == theirs.keys() and len(ours) >= 17
    for name in ours:
        pd.testing.assert_frame_equal(ours[name], theirs[name], check_exact=True, obj=name)


def test_a_corrupt_entry_is_set_aside_and_recomputed(quick_run, tmp_path):
    work = copy_workflow(tmp_path / "w")
    shutil.copytree(quick_run / "results/store", work / "results/store")
    entries = store.entries(work / "results/store")
    key, files = next((k, fs) for k, fs in sorted(entries.items())
                      if any(f.name.endswith("_measures.parquet") for f in fs))
    target = next(f for f in files if f.name.endswith("_measures.parquet"))
    raw = bytearray(target.read_bytes())
    raw[len(raw) // 2] ^= 0x10
    target.write_bytes(bytes(raw))
    out = snakemake(work, "-n", *QUICK)
    assert f"store entry set aside to results/quarantine/store and recomputed: " \
           f"results/store/{key}*" in out.stderr + out.stdout
    assert (work / "results/quarantine/store" / target.name).exists()
    plan = store_plan(work)
    computed = {rule: c["computed"] for rule, c in plan.items() if c["computed"]}
    assert computed in ({"measure_grid_cells": 1}, {"measure_fixed_cells": 1}), computed
    snakemake(work, *QUICK)
    assert store.check(work / "results/store") == []
    ours, theirs = tables(work), tables(quick_run)
    for name in ours:  # recomputed on the same machine: the same numbers
        pd.testing.assert_frame_equal(ours[name], theirs[name], check_exact=True, obj=name)


@pytest.mark.parametrize("module, missed", [
    ("src/entropic_bound/measures/grid.py", {"measure_grid_cells": 11}),
    ("src/entropic_bound/measures/heads.py", {"train_lm_cells": 24}),
    ("src/entropic_bound/commands/estimate_e4.py", {"estimate_e4_data": 22}),
    ("report/templates/report.md.j2", {}),
])
def test_an_edit_misses_exactly_the_entries_of_the_rules_that_run_it(clone_with_store, module,
                                                                       missed):
    """docs/design.md's examples against the store: a measure edit misses the measures, not
    training; one command's module only its own rule; a template edit misses nothing."""
    path = clone_with_store / module
    original = path.read_text()
    try:
        path.write_text(original + "\n# an edit\n")
        plan = store_plan(clone_with_store, "--forceall")
    finally:
        path.write_text(original)
    computed = {rule: c["computed"] for rule, c in plan.items() if c["computed"]}
    assert computed == missed
    fetched = {rule: c["fetched"] for rule, c in plan.items() if c["fetched"]}
    assert fetched == {rule: n for rule, n in STORED.items() if rule not in missed}


def test_the_audit_recomputes_entries_and_fails_on_a_planted_wrong_one(clone_with_store):
    """After the fresh clone's run (its results/ links into the store): a seeded draw agrees
    bit for bit (same machine); an entry whose stored number was changed, and resealed so
    that only a recomputation can tell, fails."""
    from entropic_bound.plumbing.atomic import read_parquet, write_parquet

    if not (clone_with_store / "results/tables/claims.parquet").exists():
        snakemake(clone_with_store, *QUICK)
    audit = [sys.executable, "-m", "entropic_bound.cli", "audit", "--store", "results/store"]
    ok = subprocess.run([*audit, "3", "--seed", "7"], cwd=clone_with_store,
                        capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    assert "drawn with seed 7" in ok.stderr and ok.stderr.count("agrees; max |diff| 0,") == 3
    root = clone_with_store / "results/store"
    key, files = next((k, fs) for k, fs in sorted(store.entries(root).items())
                      if any(f.name.endswith("_measures.parquet") for f in fs))
    target = next(f for f in files if f.name.endswith("_measures.parquet"))
    frame = read_parquet(target)
    column = next(c for c in frame.columns if frame[c].dtype.kind == "f"
                  and np.isfinite(frame.loc[0, c]) and not c.endswith("seconds"))
    frame.loc[0, column] = frame.loc[0, column] * 1.001 + 1e-3
    target.unlink()  # the link under results/ still points at this name
    write_parquet(target, frame)
    (root / f"{key}.sha256").unlink()
    store.seal(root)
    bad = subprocess.run([*audit, "1", "--keys", key[:12]], cwd=clone_with_store,
                         capture_output=True, text=True)
    assert bad.returncode == 1 and "DIFFERS" in bad.stderr, bad.stderr
    assert f"_measures.parquet:{column}" in bad.stderr
