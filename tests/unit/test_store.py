"""The job record, the audit's comparison and draw, verify, the command modules. The store's
files: test_store_layout.py; a job through the store: test_store_job.py; the store through
Snakemake: tests/workflow."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from entropic_bound.audit import entries as audit
from entropic_bound.plumbing import job_record


def test_the_job_record_has_the_benchmark_fields_the_machine_and_the_argv(tmp_path):
    record = job_record.write_job_record(tmp_path / "r.json", ["entropic-bound", "x"])
    on_disk = json.loads((tmp_path / "r.json").read_text())
    assert on_disk == record
    assert record["s"] > 0 and record["cpu_time"] > 0 and record["max_rss"] > 1
    assert record["argv"] == ["entropic-bound", "x"]
    assert set(record["machine"]["cpu_flags"]) <= set(job_record.KERNEL_FLAGS)
    assert record["machine"]["cpu_model"]
    # the code it ran: this package's loaded modules, checked against the checkout's HEAD
    assert any(f.endswith("plumbing/job_record.py") for f in job_record.loaded_sources())
    if record["commit"] is not None:
        assert len(record["commit"]["sha"]) == 40 and record["commit"]["dirty"] in (True, False)


def test_audit_comparison_is_exact_or_within_tolerance(tmp_path):
    import pandas as pd

    from entropic_bound.plumbing.atomic import write_parquet

    base = pd.DataFrame({"x": [1.0, 2.0, np.nan], "name": ["a", "b", "c"],
                         "train_seconds": [1.0, 2.0, 3.0]})
    write_parquet(tmp_path / "a.parquet", base)
    near = base.assign(x=[1.0, 2.0 * (1 + 1e-7), np.nan], train_seconds=[9.0, 9.0, 9.0])
    write_parquet(tmp_path / "b.parquet", near)
    far = base.assign(x=[1.0, 2.1, np.nan])
    write_parquet(tmp_path / "c.parquet", far)
    same = audit.compare(tmp_path / "a.parquet", tmp_path / "a.parquet")
    assert same[:4] == (0.0, 0.0, True, True)
    # timings differ on every run and are not compared; 1e-7 relative is close, not exact
    _, rel, exact, close, _, _ = audit.compare(tmp_path / "b.parquet", tmp_path / "a.parquet")
    assert rel == pytest.approx(1e-7, rel=1e-3) and not exact and close
    _, rel, exact, close, where, _ = audit.compare(tmp_path / "c.parquet",
                                                   tmp_path / "a.parquet")
    assert rel == pytest.approx(0.05) and not close and where == "a.parquet:x"
    moved_nan = base.assign(x=[1.0, np.nan, 2.0])
    write_parquet(tmp_path / "d.parquet", moved_nan)
    assert not audit.compare(tmp_path / "d.parquet", tmp_path / "a.parquet")[3]


def test_kernel_flags_are_read_on_x86_and_on_arm(monkeypatch):
    """An ARM CPU lists its features as "Features": read as nothing before, so two ARM
    machines with and without SVE or bf16 looked like one kernel class."""
    x86 = "processor : 0\nflags\t\t: fpu sse avx2 fma avx512f avx512_bf16\n"
    arm = "processor : 0\nFeatures\t: fp asimd sve sve2 bf16 i8mm\nCPU part\t: 0xd4f\n"
    monkeypatch.setattr(job_record, "_cpuinfo", lambda: x86)
    assert job_record.kernel_flags() == ["avx2", "fma", "avx512f", "avx512_bf16"]
    monkeypatch.setattr(job_record, "_cpuinfo", lambda: arm)
    assert job_record.kernel_flags() == ["asimd", "sve", "sve2", "bf16", "i8mm"]


def test_every_command_module_has_a_summary_arguments_and_run():
    from importlib import import_module

    from entropic_bound.cli import PACKAGE, build_parser, command_names

    for name, module_name in command_names().items():
        module = import_module(f"{PACKAGE}.{module_name}")
        assert (module.__doc__ or "").strip(), name
        assert callable(module.add_arguments) and callable(module.run), name
    build_parser()  # every command's arguments at once (--help) do not clash


def test_verify_skips_a_file_that_vanishes_while_it_reads(tmp_path, monkeypatch):
    """A file deleted between listing and reading it was a traceback."""
    import pandas as pd

    from entropic_bound import verify
    from entropic_bound.plumbing.atomic import write_parquet

    root = tmp_path / "results"
    write_parquet(root / "measures/a.parquet", pd.DataFrame({"x": [1.0]}))
    write_parquet(root / "measures/b.parquet", pd.DataFrame({"x": [2.0]}))
    check = verify.check_file

    def vanishing(path):
        if path.name == "a.parquet":
            path.unlink()  # a run beside this one replaced it just now
        return check(path)

    monkeypatch.setattr(verify, "check_file", vanishing)
    assert list(verify.corrupt_files(root)) == []


def test_verify_remove_refuses_while_a_run_holds_the_directory(tmp_path, monkeypatch):
    from entropic_bound import verify

    monkeypatch.chdir(tmp_path)
    (tmp_path / "results").mkdir()
    (tmp_path / ".snakemake/locks").mkdir(parents=True)
    (tmp_path / ".snakemake/locks/0.input.lock").write_text("")
    with pytest.raises(SystemExit, match="a Snakemake run holds this directory"):
        verify.verify("results", remove=True, store_dir=None)
    assert verify.verify("results", remove=False, store_dir=None) == []  # reading is fine


def test_a_records_odd_fields_are_data_never_an_environment_or_a_crash():
    """The audit recomputed with the BLAS thread count a store record stated: a record whose
    `blas_threads` held a NUL crashed it (ValueError: embedded null byte), and a record's
    fields of another shape raised in kernel_class. The count is now this run's (the job's
    note); odd record fields are unknown, and an odd cost is none."""
    odd = {"cpu_flags": 7, "kernel_env": {"A": 1}, "aten_cpu_capability": ["x"],
           "device": None, "blas_threads": "1\u0000"}
    assert audit.kernel_class(odd) == (None, None, None, None)
    assert audit.kernel_class("not a machine") == (None, None, None, "cpu")  # as {}
    assert audit.kernel_class(odd) != audit.this_kernel_class({})
    for note, threads in [({"blas_threads": "1\u0000"}, "1"), ({"blas_threads": "4"}, "4"),
                          ({}, "1"), ({"blas_threads": "99999"}, "1")]:
        env = audit.job_environment(note)
        assert {env[v] for v in audit.THREAD_VARIABLES} == {threads}, note
    for s, cost in [(12.5, 12.5), ("1e12", 0.0), (float("nan"), 0.0), (-3, 0.0), (None, 0.0),
                    (10**400, 0.0), (True, 0.0)]:
        assert audit.recorded_seconds({"s": s}) == cost
    # the run's last lines read a record's software: another shape is none, never a crash
    from entropic_bound.plumbing.job_record import VERSIONED, other_versions

    for software in ("xxxx", {"torch": 7}, ["numpy"], None):
        assert set(other_versions({"software": software}, {})) <= set(VERSIONED)


def test_the_audits_kernel_class_and_ranks_without_bands(tmp_path):
    """Exact comparison only within a kernel class (CPU flags, torch capability, the variables
    that choose numpy's and OpenBLAS's kernels); across classes a rank read off a spectrum
    agrees only within the band its recomputed spectrum allows (tests/unit/test_rank_bands.py):
    with no band learned, a rank that moved by one differs, integer column or not."""
    import pandas as pd

    from entropic_bound.plumbing.atomic import write_parquet

    here = {"cpu_flags": ["avx2"], "aten_cpu_capability": "AVX2", "kernel_env": {}}
    assert audit.kernel_class(here) == audit.kernel_class(dict(here))
    assert audit.kernel_class(here) != audit.kernel_class(
        {**here, "kernel_env": {"OPENBLAS_CORETYPE": "Haswell"}})
    assert audit.kernel_class(here) != audit.kernel_class({**here, "aten_cpu_capability": None})
    write_parquet(tmp_path / "a.parquet", pd.DataFrame({"gd_rank": [6, 3], "seed": [1, 2]}))
    write_parquet(tmp_path / "b.parquet", pd.DataFrame({"gd_rank": [5, 3], "seed": [1, 2]}))
    _, _, exact, close, where, _ = audit.compare(tmp_path / "b.parquet", tmp_path / "a.parquet")
    assert not exact and not close and "gd_rank[0]: stored 6, recomputed 5" in where


def note(rule: str, command: str, out: str, record: dict | None = None,
         tmp: Path | None = None) -> dict:
    """A note of this run's job (entropic_bound.store.notes) whose record output holds
    ``record``."""
    outputs = {"out": out}
    if record is not None and tmp is not None:
        path = tmp / f"{abs(hash(out))}.json"
        path.write_text(json.dumps(record))
        outputs["record"] = str(path)
    return {"rule": rule, "keep": "entry", "argv": ["entropic-bound", command, "--out", out],
            "inputs": {}, "outputs": outputs}


def test_the_audit_draws_entries_of_this_run_per_experiment_and_never_a_download():
    """Per experiment (from the job's rule and outputs), ``count`` entries of each; corpus
    downloads are not drawn; the draw is fixed by its seed."""
    candidates = {
        "1" * 64: note("train_lm_cells", "train-lm", "results/cells/e6/json/d64/s0.npz"),
        "2" * 64: note("train_lm_cells", "train-lm", "results/cells/e6/json/d64/s1.npz"),
        "3" * 64: note("fetch_corpus", "fetch-corpus", "results/corpora/json/text.txt"),
        "4" * 64: note("train_grid_cells", "train-grid",
                       "results/cells/e3/linear_qk/sharp/r1/s0.npz"),
        "5" * 64: note("train_grid_cells", "train-grid",
                       "results/cells/e5/linear_qk/flat/r4/s0.npz"),
        "6" * 64: note("estimate_e4_data", "estimate-e4",
                       "results/estimates/e4_size/linear_qk/sharp/r1/s0.parquet"),
    }
    experiment = {"1": "e6", "2": "e6", "4": "e3", "5": "e5", "6": "e4"}
    once, _ = audit.draw(candidates, 1, seed=3, per_experiment=True)
    assert sorted(experiment[k[0]] for k in once) == ["e3", "e4", "e5", "e6"]
    assert audit.draw(candidates, 1, seed=3, per_experiment=True)[0] == once
    twice, _ = audit.draw(candidates, 2, seed=3, per_experiment=True)
    assert sorted(k[0] for k in twice) == ["1", "2", "4", "5", "6"]
    assert sorted(k[0] for k in audit.draw(candidates, 10, seed=0)[0]) == ["1", "2", "4", "5", "6"]


def test_an_audit_with_nothing_to_draw_is_one_line_or_an_empty_table(tmp_path):
    """Alone, nothing to recompute fails in one line; in the workflow (--exit-zero --out) it is
    an empty table the report explains."""
    import subprocess
    import sys

    import pandas as pd

    cmd = [sys.executable, "-m", "entropic_bound.cli", "audit", "1"]
    alone = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True)
    assert alone.returncode == 1 and "no stored job of this run" in alone.stderr.splitlines()[-1]
    assert "Traceback" not in alone.stderr
    out = tmp_path / "audit.parquet"
    workflow = subprocess.run([*cmd, "--exit-zero", "--out", str(out)], cwd=tmp_path,
                              capture_output=True, text=True)
    assert workflow.returncode == 0, workflow.stderr
    table = pd.read_parquet(out)
    assert table.empty and {"key", "ok", "recomputed", "seed"} <= set(table.columns)


def test_the_audit_draws_within_its_budget_cheapest_experiments_first(tmp_path):
    """Entries of three experiments with recorded costs: within 100 s the two cheap
    experiments are drawn and the one whose every entry costs more than what is left is left
    out; with no budget each experiment gives one; an unaffordable budget leaves all out."""
    costs = {"e1": [5.0, 8.0], "e3": [40.0, 90.0], "e6": [700.0, 900.0]}
    candidates = {}
    for exp, seconds in costs.items():
        for i, s in enumerate(seconds):
            candidates[f"{exp}{i}".ljust(64, "0")] = note(
                "measure_grid_cells", "measure-grid", f"results/measures/{exp}/{i}.parquet",
                {"s": s}, tmp_path)
    chosen, left_out = audit.draw(candidates, 1, seed=3, per_experiment=True,
                                  budget_seconds=100)
    assert [k[:2] for k in chosen] == ["e1", "e3"] and left_out == ["e6"]
    assert sum(audit._record(candidates[k])["s"] for k in chosen) <= 100
    chosen, left_out = audit.draw(candidates, 1, seed=3, per_experiment=True)
    assert sorted(k[:2] for k in chosen) == ["e1", "e3", "e6"] and left_out == []
    assert audit.draw(candidates, 1, seed=3, per_experiment=True, budget_seconds=1)[1] == [
        "e1", "e3", "e6"]


def test_the_audits_budget_is_this_machines_seconds(tmp_path, monkeypatch):
    """A machine twice as slow as the recording one (by the calibration probe) buys half the
    recorded job time: within 200 of its seconds, 100 recorded, E6's 700 s entries are left
    out; the probe itself is timed, not assumed."""
    from entropic_bound.audit import calibration

    seen = {}

    def draw(candidates, count, seed, per_experiment, budget):
        seen["budget"] = budget
        return [], []

    monkeypatch.setattr(audit, "draw", draw)
    monkeypatch.setattr(audit, "notes", lambda root: [])
    audit.audit(tmp_path, 1, 0, per_experiment=True, budget_seconds=200, speed=2.0)
    assert seen["budget"] == 100
    audit.audit(tmp_path, 1, 0, per_experiment=True, budget_seconds=200)
    assert seen["budget"] == 200  # no calibration: recorded seconds
    monkeypatch.setattr(calibration, "probe_seconds", lambda: 2 * calibration.REFERENCE_SECONDS)
    assert calibration.speed_ratio() == 2.0
    # the probe's run-to-run noise on one machine (0.94-1.10 measured) keeps the ratio at 1
    assert {calibration.half_octave(r) for r in (0.9, 0.94, 1.1, 1.18)} == {1.0}
    assert calibration.half_octave(1.3) == pytest.approx(2 ** 0.5)
    monkeypatch.undo()
    assert 0 < calibration.probe_seconds(rounds=1) < 30
