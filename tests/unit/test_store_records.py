"""A store record read as data (entropic_bound.store.records): plans, rekeys and the machine
study read only signed records, of bounded size, each field checked; a record's text that
reaches the report is escaped there. From the attack review of 730da7b: an unsigned record
with ``"s": "lots"`` crashed `store rekeys` and `machine-study`, one with ``"s": 5`` became a
machine-study cell, and a 1.5 GB sparse record took 3.1 GB of memory."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from test_store_keyring import PEAK_KB
from test_store_planted import victim

from entropic_bound.store import keyring, trust
from entropic_bound.store.files import Refused
from entropic_bound.store.layout import Store
from entropic_bound.store.records import checked, record_of

KEY = "ab" * 32
CELL = "results/cells/e1/independent/s7.npz"
SCRIPT = "<script>alert(1)</script>"


@pytest.fixture()
def workdir(tmp_path, monkeypatch):
    return victim(tmp_path, monkeypatch)


def plant(store: Store, record: dict, sign: bool) -> None:
    """An E1 training entry whose record is ``record``, sealed; signed by the victim's key
    where ``sign``."""
    seal = store.write_entry(KEY, {"_record.json": json.dumps(record).encode(),
                                   "_weights.npz": b"weights"})
    if sign:
        trust.sign(store, trust.load_signer(), "entry", KEY, seal)


def test_an_unsigned_record_is_not_read(workdir):
    store = Store(workdir / "store")
    plant(store, {"argv": ["entropic-bound", "train-fixed", CELL], "s": 5}, sign=False)
    refused: list[str] = []
    assert record_of(store, KEY, keyring.trusted(), refused) == {}
    assert refused == [f"{store}/{KEY[:12]}: record not read: no signature by a trusted key"]
    # an unsigned store (no list) reads it
    assert record_of(store, KEY, None)["s"] == 5


@pytest.mark.parametrize(("field", "value", "said"), [
    ("s", "lots", "s: expected a finite number >= 0, not lots"),
    ("s", -1, "s: expected a finite number >= 0"),
    ("s", True, "s: expected a finite number >= 0"),
    ("max_rss", float("inf"), "max_rss: expected a finite number >= 0"),
    ("argv", "entropic-bound train", "argv: expected a list of strings"),
    ("machine", {"cpu_flags": [1, 2]}, "machine: expected an object of strings"),
    ("finished", "yesterday", "finished: expected a time as"),
])
def test_a_signed_record_of_another_form_is_one_line(workdir, field, value, said):
    store = Store(workdir / "store")
    plant(store, {"argv": ["entropic-bound", "train-fixed", CELL], "s": 5, field: value},
          sign=True)
    refused: list[str] = []
    assert record_of(store, KEY, keyring.trusted(), refused) == {}
    (line,) = refused
    assert said in line and "\n" not in line
    with pytest.raises(Refused, match=said.split(":")[0]):
        checked({"argv": ["x"], field: value})


def test_the_machine_study_chooses_no_unsigned_cell(workdir, caplog):
    from entropic_bound.audit.machine_study import training_cells

    store = Store(workdir / "store")
    plant(store, {"argv": ["entropic-bound", "train-fixed", CELL], "s": 5,
                  "machine": {"cpu_model": SCRIPT}}, sign=False)
    assert training_cells(store.path).empty
    assert "record not read: no signature by a trusted key" in caplog.text
    trust.sign(store, trust.load_signer(), "entry", KEY)
    (cell,) = training_cells(store.path).itertuples()
    assert (cell.experiment, cell.seed, cell.cpu) == ("e1", 7, SCRIPT)


def test_a_sparse_gigabyte_record_is_refused_by_its_size_in_little_memory(workdir):
    """A 1.5 GB sparse record with a matching seal, signed: refused before a byte is read;
    the process's peak memory stays under 200 MB."""
    store = Store(workdir / "store")
    plant(store, {"argv": ["x"]}, sign=True)
    size = 1_500_000_000
    with open(store.path / f"{KEY}_record.json", "wb") as fh:
        fh.truncate(size)
    digest = hashlib.sha256()
    with open(store.path / f"{KEY}_record.json", "rb") as fh:
        while block := fh.read(1 << 24):
            digest.update(block)
    seal = store.path / f"{KEY}.sha256"
    lines = [line for line in seal.read_text().splitlines() if "_record.json" not in line]
    seal.write_text("\n".join([*lines, f"{digest.hexdigest()}  {KEY}_record.json"]) + "\n")
    trust.sign(store, trust.load_signer(), "entry", KEY)
    code = ("import json\n"
            "from entropic_bound.store import keyring\n"
            "from entropic_bound.store.layout import Store\n"
            "from entropic_bound.store.records import record_of\n"
            "refused = []\n"
            f"got = record_of(Store('store'), '{KEY}', keyring.trusted(), refused)\n"
            f"print(json.dumps([got, refused, {PEAK_KB}]))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    got, refused, peak_kb = json.loads(out.stdout)
    assert got == {} and refused == [f"store/{KEY[:12]}: record not read: {KEY}_record.json: "
                                     f"{size} bytes, more than the 1048576 such a file may "
                                     "have"], refused
    assert peak_kb < 200_000, f"peak memory {peak_kb / 1024:.0f} MB"


def test_a_records_text_is_escaped_in_the_report(tmp_path):
    """The planted cpu of an unsigned record, had it reached the machine study, is text in
    the report, never markup."""
    from entropic_bound.plumbing.atomic import write_parquet
    from entropic_bound.reporting.report import TEMPLATES, render_report

    study = tmp_path / "study"
    study.mkdir()
    (study / "study.json").write_text(json.dumps({
        "experiments": ["e1"], "cells": 1, "entries_cpu": [SCRIPT], "kernel_env": {},
        "command": "entropic-bound machine-study", "recomputed_on": {"cpu_model": SCRIPT}}))
    pd.DataFrame({"key": ["a"], "experiment": ["e1"], "seconds": [1.0], "cpu": [SCRIPT],
                  "kernels": [SCRIPT]}).to_csv(study / "cells.csv")
    pd.DataFrame({"table": ["table1"], "compared": [True], "largest_relative_move": [0.0],
                  "where": [SCRIPT], "largest_move_in_seed_sd": [0.0]}).to_csv(
        study / "tables.csv")
    pd.DataFrame({"id": ["E1.a"], "verdict": ["reproduced"], "verdict_study": ["reproduced"],
                  "moved": [False], "readings": [0], "readings_moved": [""]}).to_csv(
        study / "claims.csv", index=False)
    columns = ["id", "column", "kind", "location", "statement", "published", "reproduced",
               "verdict", "firmness", "firmness_detail", "reading_firmness", "rule"]
    write_parquet(tmp_path / "c.parquet",
                  pd.DataFrame({c: pd.Series(dtype=str) for c in columns}))
    html = tmp_path / "report.html"
    render_report([], str(tmp_path / "c.parquet"), TEMPLATES, str(tmp_path / "report.md"),
                  str(html), {}, machine_study=str(study))
    page = html.read_text()
    assert SCRIPT not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert Path(tmp_path / "report.md").exists()


def test_a_record_of_another_form_is_one_line_of_the_costs_not_a_traceback(tmp_path, caplog):
    from entropic_bound.plumbing.job_record import write_job_record
    from entropic_bound.reporting.costs import read_benchmarks

    root = tmp_path / "benchmarks"
    write_job_record(root / "train_fixed_cells/e1/independent/s0.json", ["entropic-bound"])
    bad = root / "train_fixed_cells/e1/independent/s1.json"
    bad.write_text(json.dumps({"argv": ["x"], "s": "lots", "max_rss": 1, "cpu_time": 1,
                               "finished": "2026-12-07T00:00:00+0000"}))
    rows = read_benchmarks(root)
    assert list(rows["job"]) == ["e1/independent/s0"]
    assert f"costs: {bad} not counted: s: expected a finite number >= 0, not lots" in caplog.text


def test_a_time_past_the_calendar_and_a_bare_benchmark_are_one_line_each(tmp_path, caplog):
    """From the second attack review: `"finished": "0001-01-01T00:00:00+2359"` passed the
    check and overflowed in the costs; a benchmark file with only its header raised."""
    from entropic_bound.reporting.costs import read_benchmarks

    root = tmp_path / "benchmarks"
    (root / "train_fixed_cells/e1").mkdir(parents=True)
    (root / "train_fixed_cells/e1/s0.json").write_text(json.dumps(
        {"argv": ["x"], "s": 1, "max_rss": 1, "cpu_time": 1,
         "finished": "0001-01-01T00:00:00+2359"}))
    (root / "make_grid_data").mkdir()
    (root / "make_grid_data/s0.tsv").write_text("s\tmax_rss\n")
    assert read_benchmarks(root).empty
    assert "s0.json not counted: finished: expected a time" in caplog.text
    assert "s0.tsv not counted" in caplog.text
    with pytest.raises(Refused, match="cpu_flags"):
        checked({"argv": ["x"], "machine": {"cpu_flags": "avx2"}})


def test_a_record_written_outside_a_checkout_is_read():
    """A job that ran outside a git checkout records a null commit (the quick profile's test
    copies): the costs counted none of those records."""
    import tempfile
    from pathlib import Path as P

    from entropic_bound.plumbing.job_record import write_job_record

    with tempfile.TemporaryDirectory() as tmp:
        record = write_job_record(P(tmp) / "r.json", ["entropic-bound", "train-grid"])
    assert checked({**record, "commit": None}) == {**record, "commit": None}
