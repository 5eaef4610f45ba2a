"""The jobs below a file, found in this run's notes, and a noted command rewritten to run on
other inputs (entropic_bound.audit.downstream), on constructed notes."""

from __future__ import annotations

from pathlib import Path

from entropic_bound.audit.downstream import readers, rewritten
from entropic_bound.store.notes import write_note

WEIGHTS = "results/cells/e6/python/d64/s0.npz"
MEASURES = "results/measures/e6/python/d64/s0.parquet"
TRAIN = {"rule": "train_lm_cells",
         "argv": ["entropic-bound", "train-lm", "--weights", WEIGHTS],
         "inputs": {"tokens": ["results/corpora/python/tokens.npz"]},
         "outputs": {"weights": WEIGHTS}}
MEASURE = {"rule": "measure_lm_cells",
           "argv": ["entropic-bound", "measure-lm", "--params", '{"seed": 0}', "--record",
                    "results/benchmarks/measure_lm_cells/python/d64/s0.json", "--weights",
                    WEIGHTS, "--out", MEASURES],
           "inputs": {"weights": [WEIGHTS]},
           "outputs": {"measures": MEASURES,
                       "record": "results/benchmarks/measure_lm_cells/python/d64/s0.json"}}
OTHER = {"rule": "measure_lm_cells",
         "argv": ["entropic-bound", "measure-lm", "--weights", "results/cells/e6/json/d64/s0.npz"],
         "inputs": {"weights": ["results/cells/e6/json/d64/s0.npz"]},
         "outputs": {"measures": "results/measures/e6/json/d64/s0.parquet"}}


def write(root: Path, name: str, note: dict) -> None:
    write_note(note, root)  # as the store's wrapper writes it: with this user's mac
    for path in note["outputs"].values():  # a note counts while its outputs exist
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text("x")


def test_the_readers_of_a_file_are_the_noted_jobs_that_take_it_as_an_input(tmp_path,
                                                                            monkeypatch):
    monkeypatch.chdir(tmp_path)
    notes = tmp_path / "results/jobs"
    for name, note in (("train", TRAIN), ("measure", MEASURE), ("other", OTHER)):
        write(notes, name, note)
    assert readers([WEIGHTS], made_by=TRAIN["argv"], root=notes) == [MEASURE]
    # an output names no reader, and a note whose outputs are gone is not this run's
    assert readers([MEASURES], made_by=TRAIN["argv"], root=notes) == []
    Path(MEASURES).unlink()
    assert readers([WEIGHTS], made_by=TRAIN["argv"], root=notes) == []


def test_a_rerun_reads_the_substitutes_and_writes_only_under_its_scratch_folder(tmp_path):
    args, made = rewritten(MEASURE, {WEIGHTS: "/tmp/audit/s0.npz"}, tmp_path)
    out = str(tmp_path / "measures_s0.parquet")
    record = str(tmp_path / "record_s0.json")
    assert args == ["measure-lm", "--params", '{"seed": 0}', "--record", record, "--weights",
                    "/tmp/audit/s0.npz", "--out", out]
    assert made == {MEASURES: out,
                    "results/benchmarks/measure_lm_cells/python/d64/s0.json": record}
