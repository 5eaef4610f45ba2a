"""Cost summary from Snakemake's benchmark files: experiments and totals of a constructed run."""

import os
import re
from datetime import datetime, timedelta
from pathlib import Path

import pandas as pd
import pytest

from entropic_bound.reporting.costs import (
    LOG_STAMP,
    cost_summary,
    first_job_started,
    invocations,
    read_benchmarks,
    running_seconds,
    wall_summary,
)

HEADER = "s\th:m:s\tmax_rss\tmax_vms\tmax_uss\tmax_pss\tio_in\tio_out\tmean_load\tcpu_time\n"


def bench(root, rel, seconds, rss=100.0):
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(HEADER + f"{seconds}\t0:00:01\t{rss}\t0\t0\t0\t0\t0\t0\t{seconds}\n")


def test_each_record_is_charged_to_the_experiment_its_rule_serves(tmp_path):
    bench(tmp_path, "train_grid_cells/e3/linear_qk/sharp/r1/s0.tsv", 100.0, rss=400)
    bench(tmp_path, "train_grid_cells/e5/linear_qk/flat/r4/s0.tsv", 30.0)
    # E4 runs on E3's datasets and on its own settings: both are E4's cost, not E3's.
    bench(tmp_path, "estimate_e4_data/e3/softmax_qk/sharp/r2/s0.tsv", 20.0)
    bench(tmp_path, "estimate_e4_data/e4_size/softmax_qk/sharp/r2/s10.tsv", 10.0, rss=900)
    bench(tmp_path, "train_lm_cells/english/d64/s0.tsv", 15.0)
    records = read_benchmarks(tmp_path)
    assert dict(zip(records["job"], records["experiment"])) == {
        "e3/linear_qk/sharp/r1/s0": "e3", "e5/linear_qk/flat/r4/s0": "e5",
        "e3/softmax_qk/sharp/r2/s0": "e4", "e4_size/softmax_qk/sharp/r2/s10": "e4",
        "english/d64/s0": "e6"}
    summary = cost_summary(records, "experiment").set_index("experiment")
    assert summary.loc["e3", "job_seconds"] == 100.0
    assert summary.loc["e4", "job_seconds"] == 30.0 and summary.loc["e4", "jobs"] == 2
    assert summary.loc["e4", "peak_rss_mb"] == 900.0
    assert summary.loc["total", "job_seconds"] == pytest.approx(175.0)
    assert summary.index[0] == "e3" and summary.index[-1] == "total"  # most expensive first
    # The records were written together; the longest job (100 s) began first.
    e3 = records.set_index("job").loc["e3/linear_qk/sharp/r1/s0"]
    assert first_job_started(records) == e3["finished"] - timedelta(seconds=100)
    assert first_job_started(records.iloc[:0]) is None


def test_every_rule_of_the_workflow_is_charged_to_an_experiment(tmp_path):
    # rules with no e<k> wildcard: their own name (Table k is Ek), a table<k> wildcard, or
    # the named rules (E6's corpus and LM rules; the claims and the report)
    for rel in ["estimate_e1_data/independent/s0.tsv", "aggregate_table2.tsv",
                "aggregate_grid/table5.tsv", "make_grid_data/e4_size/linear_qk/sharp/r1/s10.tsv",
                "fetch_corpus/english.tsv", "measure_lm_cells/json/d64/s1.tsv",
                "render_report.tsv", "nothing_here/x.tsv"]:
        bench(tmp_path, rel, 1.0)
    records = read_benchmarks(tmp_path)
    assert dict(zip(records["rule"], records["experiment"])) == {
        "estimate_e1_data": "e1", "aggregate_table2": "e2", "aggregate_grid": "e5",
        "make_grid_data": "e4", "fetch_corpus": "e6", "measure_lm_cells": "e6",
        "render_report": "report", "nothing_here": "other"}
    assert records.set_index("rule").loc["aggregate_table2", "job"] == ""
    # every rule the workflow runs has a benchmark file or, when it is stored (Snakemake
    # refuses benchmark: there), writes its own record: every job is in the summary
    texts = [f.read_text() for f in sorted(Path("workflow/rules").glob("*.smk"))]
    everything = "\n".join(texts)

    def shell(block: str) -> str:
        """A rule's command: its text (a stored rule's is in its `job` param), or the
        constant's that its shell names."""
        name = re.search(r"    shell:\n\s+([A-Z][A-Z0-9_]*)\s*\n", block)
        if name is None or name.group(1) == "STORED":
            return block
        return re.search(rf"^{name.group(1)} = (\([^)]*\)|\"[^\n]*)", everything,
                         re.M).group(1)

    blocks = [b for text in texts for b in text.split("\nrule ")[1:]]
    stored = [b for b in blocks if "**stored(" in b and "keep=" not in b]
    assert len(blocks) >= 20 and len(stored) == 8  # measure_lm_cells assembles: not stored
    assert all("    benchmark:\n" in b or "--record {output.record}" in shell(b)
               for b in blocks if b not in stored)
    assert all("record=record(" in b and "--record {output.record}" in shell(b)
               for b in stored)


def test_no_benchmarks_give_an_empty_summary(tmp_path):
    records = read_benchmarks(tmp_path)
    assert records.empty and isinstance(cost_summary(records, "rule"), pd.DataFrame)


def snakemake_log(log_dir, start: datetime, seconds: float) -> None:
    """A Snakemake log as Snakemake leaves it: named after its start, last written at its end."""
    path = log_dir / f"{start.strftime(LOG_STAMP)}.snakemake.log"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("...")
    end = (start + timedelta(seconds=seconds)).timestamp()
    os.utime(path, (end, end))


def test_a_resumed_run_counts_the_time_snakemake_ran_not_the_pauses(tmp_path):
    t0 = datetime(2026, 11, 30, 14, 0, 0)
    snakemake_log(tmp_path, t0, 3600)  # interrupted after an hour
    snakemake_log(tmp_path, t0 + timedelta(hours=5), 1800)  # resumed five hours later
    snakemake_log(tmp_path, t0 + timedelta(hours=5, minutes=10), 60)  # a dry run during it
    (tmp_path / "notes.log").write_text("not a Snakemake log")
    runs = invocations(tmp_path)
    assert runs["seconds"].tolist() == [3600, 1800, 60]
    end = t0 + timedelta(hours=5, minutes=30)
    assert running_seconds(runs, t0, end) == 5400  # the overlapping dry run counted once
    # Clipped to the span asked for: from the second invocation on.
    assert running_seconds(runs, t0 + timedelta(hours=5), end) == 1800
    # The report's header: the time Snakemake ran since the first job, not the 5.5 h span.
    first_job = t0 + timedelta(minutes=1)
    assert wall_summary(runs, first_job, end) == (
        "89.0 min of Snakemake running over 3 invocations since the first job "
        "(2026-11-30 14:01); the newest started 2026-11-30 19:10")


def test_a_run_built_in_one_invocation_reports_that_invocations_time(tmp_path):
    t0 = datetime(2026, 11, 30, 14, 0, 0)
    snakemake_log(tmp_path, t0 - timedelta(hours=3), 60)  # an earlier run, its results replaced
    snakemake_log(tmp_path, t0, 600)
    runs = invocations(tmp_path)
    now = t0 + timedelta(minutes=10)
    assert wall_summary(runs, t0 + timedelta(seconds=5), now) == (
        "10.0 min (run started 2026-11-30 14:00)")
    assert wall_summary(invocations(tmp_path / "none"), None, now) == "unknown (no Snakemake log)"


def test_a_stored_jobs_record_counts_like_a_benchmark_file(tmp_path):
    """The record a stored job writes (plumbing.job_record) gives the same columns, and the
    CPU and commit it ran on."""
    from entropic_bound.plumbing.job_record import write_job_record

    # a stored job's record (its note, written by the store's wrapper, says it is stored)
    root = tmp_path / "benchmarks"
    rel = "train_grid_cells/e3/linear_qk/sharp/r2/s0.json"
    record = write_job_record(root / rel, ["entropic-bound", "train-grid"])
    from entropic_bound.store.notes import write_note

    write_note({"rule": "train_grid_cells", "keep": "entry", "argv": [],
                "outputs": {"record": f"results/benchmarks/{rel}"}}, tmp_path / "jobs")
    bench(root, "make_grid_data/e3/linear_qk/sharp/r2/s0.tsv", 2.0)
    # a job that is not stored but records itself (E6's measures, which the audit reruns)
    write_job_record(root / "measure_lm_cells/json/d64/s0.json", ["entropic-bound", "measure-lm"])
    records = read_benchmarks(root).set_index("rule")
    row = records.loc["train_grid_cells"]
    assert row["experiment"] == "e3" and row["job"] == "e3/linear_qk/sharp/r2/s0"
    assert row["seconds"] == record["s"] and row["cpu_model"] == record["machine"]["cpu_model"]
    assert row["stored"] and not records.loc["make_grid_data", "stored"]
    assert not records.loc["measure_lm_cells", "stored"]
    assert records.loc["measure_lm_cells", "experiment"] == "e6"
