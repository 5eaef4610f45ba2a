"""The jobs below a file, found by their records, and a recorded command rewritten to run on
other inputs (entropic_bound.plumbing.downstream), on constructed records."""

from __future__ import annotations

import json
from pathlib import Path

from entropic_bound.plumbing.downstream import readers, rewritten

WEIGHTS = "results/cells/e6/python/d64/s0.npz"
TRAIN = ["entropic-bound", "train-lm", "--record", "results/benchmarks/train_lm_cells/x.json",
         "--weights", WEIGHTS, "--metrics", "results/cells/e6/python/d64/s0.metrics.parquet"]
MEASURE = ["entropic-bound", "measure-lm", "--params", '{"seed": 0}', "--record",
           "results/benchmarks/measure_lm_cells/python/d64/s0.json", "--weights", WEIGHTS,
           "--out", "results/measures/e6/python/d64/s0.parquet"]
OTHER = ["entropic-bound", "measure-lm", "--weights", "results/cells/e6/json/d64/s0.npz",
         "--out", "results/measures/e6/json/d64/s0.parquet"]


def write(root: Path, rel: str, argv: list[str]) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"s": 1.0, "argv": argv}))


def test_the_readers_of_a_file_are_the_recorded_jobs_that_name_it_as_an_input(tmp_path):
    write(tmp_path, "train_lm_cells/python/d64/s0.json", TRAIN)
    write(tmp_path, "measure_lm_cells/python/d64/s0.json", MEASURE)
    write(tmp_path, "measure_lm_cells/json/d64/s0.json", OTHER)
    (tmp_path / "aggregate_table6.tsv").write_text("s\th:m:s\n1.0\t0:00:01\n")  # a benchmark
    assert readers([WEIGHTS], made_by=TRAIN, root=tmp_path) == [MEASURE]
    # the job that made the file is not its reader, and an output names no reader
    assert readers([WEIGHTS], made_by=[], root=tmp_path) == [MEASURE, TRAIN]
    assert readers(["results/measures/e6/python/d64/s0.parquet"], made_by=TRAIN,
                   root=tmp_path) == []


def test_a_rerun_reads_the_substitutes_and_writes_only_under_its_scratch_folder(tmp_path):
    args, made = rewritten(MEASURE, {WEIGHTS: "/tmp/audit/s0.npz"}, tmp_path)
    out = str(tmp_path / "0_s0.parquet")
    assert args == ["measure-lm", "--params", '{"seed": 0}', "--weights", "/tmp/audit/s0.npz",
                    "--out", out]
    assert made == {"results/measures/e6/python/d64/s0.parquet": out}
