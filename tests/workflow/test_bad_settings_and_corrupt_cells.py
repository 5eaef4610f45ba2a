"""Faults at the workflow level, each injected and checked against the new outcome:
Snakemake runs on copies of the quick run (the shared run stays untouched)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from conftest import EMPTY_STORE, QUICK, flip_value_byte, planned_jobs, snakemake

QUICK_YAML = "profiles/quick/quick.yaml"


def test_diverged_training_fails_and_marks_the_old_report_stale(run_copy):
    """Lr = 100 used to pass with losses ~1e11 and a 'reproduced' verdict, and a
    failed run left the previous report looking current."""
    (run_copy / "lr100.yaml").write_text("e3: {train: {lr: 100}}\n")
    out = snakemake(run_copy, *QUICK, "--keep-going", "--configfile", QUICK_YAML, "lr100.yaml",
                    check=False)
    assert out.returncode != 0
    logs = "".join(p.read_text() for p in (run_copy / "logs/train_grid_cells").rglob("*.log"))
    assert "TrainingDiverged" in logs and "loss rose from" in logs and "config key 'lr'" in logs
    for page in ("report.md", "report.html"):
        assert "STALE REPORT" in (run_copy / "report/out" / page).read_text()


def test_a_corrupt_cached_cell_stops_the_table_and_verify_rebuilds_exactly_it(run_copy):
    """A flipped byte in a cell's metrics used to halve Table 3's excess silently;
    now the job reading it fails naming the file, and `verify --remove` prints the --forcerun
    that rebuilds just it and its dependents."""
    cell = run_copy / "results/cells/e3/linear_qk/sharp/r1/s0.metrics.parquet"
    flip_value_byte(cell)
    os.utime(cell)  # as fresh as a real write
    target = "results/tables/table3.parquet"
    # with the store the measures are fetched and nothing reads the cell (verify still finds
    # it); with an empty one the measure job reads it
    out = snakemake(run_copy, *QUICK, target, *EMPTY_STORE, check=False)  # --config last
    assert out.returncode != 0
    logs = "".join(p.read_text() for p in (run_copy / "logs").rglob("*.log"))
    assert f"{cell.relative_to(run_copy)} is corrupt" in logs and "verify --remove" in logs
    verify = subprocess.run([sys.executable, "-m", "entropic_bound.cli", "verify", "--remove"],
                            cwd=run_copy, capture_output=True, text=True)
    assert verify.returncode == 0 and "1 corrupt file(s)" in verify.stderr
    rel = str(cell.relative_to(run_copy))
    assert f"--forcerun {rel}" in verify.stderr and not cell.exists()
    jobs = planned_jobs(run_copy, *QUICK, target, "--forcerun", rel)
    assert jobs == {"train_grid_cells": 1, "measure_grid_cells": 1, "aggregate_grid": 1}


def test_nested_config_values_keep_their_types(quick_run):
    """--config 'e3={"n":300}' failed with "'300' is not of type 'integer'"."""
    jobs = planned_jobs(quick_run, *QUICK, "--config", 'e3={"n": 300, "sigma": 5e-2}')
    assert jobs["make_grid_data"] == 2 * 2 * 2  # E3 datasets regenerate at n = 300


def test_an_extra_configfile_layers_over_the_profile_or_fails_loudly(quick_run):
    """`--configfile extra.yaml` with the quick profile silently planned the paper
    grid (60 datasets instead of 8)."""
    (quick_run / "extra.yaml").write_text("e3: {r_stars: [1, 2, 3]}\n")
    out = snakemake(quick_run, "-n", *QUICK, "--configfile", "extra.yaml", check=False)
    assert out.returncode != 0
    assert "--configfile profiles/quick/quick.yaml" in out.stdout + out.stderr
    jobs = planned_jobs(quick_run, *QUICK, "--configfile", QUICK_YAML, "extra.yaml")
    assert jobs["make_grid_data"] == 2 * 2  # the new r* = 3 at quick size, nothing else


@pytest.mark.parametrize("source,missing", [("{type: url}", "url"),
                                            ("{type: pypi, members: ['*.txt']}", "requirement"),
                                            ("{type: files, members: ['*']}", "root")])
def test_a_source_missing_its_fields_fails_validation(quick_run, source, missing):
    """`{type: url}` without `url` validated and died with KeyError inside the job."""
    name = f"src_{missing}.yaml"
    (quick_run / name).write_text(f"e6: {{corpora: {{json: [{source}]}}}}\n")
    out = snakemake(quick_run, "-n", *QUICK, "--configfile", QUICK_YAML, name, check=False)
    assert out.returncode != 0
    text = out.stdout + out.stderr
    assert "Error validating config" in text and f"'{missing}' is a required property" in text


@pytest.mark.parametrize("make, says", [
    (lambda p: p.write_text("not a folder"), "is a file; expected a folder"),
    (lambda p: (p.parent / "ro").write_text("") or None, "cannot be made"),
])
def test_a_store_path_that_cannot_serve_fails_in_one_line(quick_run, tmp_path, make, says):
    target = tmp_path / "store"
    make(target)
    path = target if target.exists() else tmp_path / "ro" / "store"  # under a file
    out = snakemake(quick_run, "-n", *QUICK, "--config", f"store={path}", check=False)
    assert out.returncode != 0
    line = next(x for x in (out.stdout + out.stderr).splitlines() if "config store=" in x)
    assert f"config store={path}: {says}" in line and "Traceback" not in out.stderr
