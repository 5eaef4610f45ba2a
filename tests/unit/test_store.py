"""The store's own checks (entropic_bound.plumbing.store): seals, set-aside, unused entries;
the job record; the audit's comparison. The store through Snakemake: tests/workflow."""

from __future__ import annotations

import hashlib
import json
import os
import stat

import numpy as np
import pytest

from entropic_bound.plumbing import audit, job_record, store

KEY_A, KEY_B = "a" * 64, "b" * 64


@pytest.fixture()
def filled(tmp_path):
    root = tmp_path / "store"
    root.mkdir()
    (root / f"{KEY_A}_weights.npz").write_bytes(b"weights of a")
    (root / f"{KEY_A}_record.json").write_text("{}")
    (root / f"{KEY_B}.parquet").write_bytes(b"measures of b")
    for path in root.iterdir():
        os.chmod(path, 0o666)  # as Snakemake's store writes them
    return root


def test_seal_lists_each_files_sha256_and_makes_files_0644(filled):
    assert sorted(store.seal(filled)) == [KEY_A, KEY_B]
    listed = store.read_seal(filled / f"{KEY_A}.sha256")
    assert listed == {f"{KEY_A}_record.json": hashlib.sha256(b"{}").hexdigest(),
                      f"{KEY_A}_weights.npz": hashlib.sha256(b"weights of a").hexdigest()}
    assert all(stat.S_IMODE(p.stat().st_mode) == 0o644 for p in filled.iterdir())
    assert store.seal(filled) == []  # sealed entries are left as they are


def test_unsealed_files_are_no_entry_but_leftovers_and_aliases_resolve(filled):
    """An entry exists once sealed (an interrupted writer's files are leftovers no run reads);
    an alias serves a key by an entry of another name, and dangles once that entry is gone."""
    store.seal_entry(filled, KEY_A)
    assert store.resolve(filled, KEY_A) == KEY_A and store.resolve(filled, KEY_B) is None
    assert {p.name for p in store.leftovers(filled)} == {f"{KEY_B}.parquet"}
    new = "d" * 64
    store.write_alias(filled, new, KEY_A)
    assert store.resolve(filled, new) == KEY_A and store.aliases(filled) == {new: KEY_A}
    assert store.unused(filled, [new]) == [KEY_B]  # the alias keeps its entry in use
    assert store.unused(filled, [KEY_A]) == [KEY_B, f"{new}.alias"]
    store.prune(filled, [KEY_A])
    assert store.resolve(filled, new) is None
    assert store.leftovers(filled) == [] and store.aliases(filled) == {}


def test_a_realisation_is_written_once_and_read_back(tmp_path):
    store.write_realisation(tmp_path, KEY_A, {"0": "x" * 64})
    store.write_realisation(tmp_path, KEY_A, {"0": "y" * 64})  # the first one predicts
    assert store.read_realisation(tmp_path, KEY_A) == {"0": "x" * 64}
    assert store.read_realisation(tmp_path, KEY_B) == {}


def test_check_passes_intact_entries(filled):
    store.seal(filled)
    assert store.check(filled) == []


def test_a_flipped_byte_fails_the_check_and_the_entry_is_set_aside_whole(filled, tmp_path):
    store.seal(filled)
    path = filled / f"{KEY_A}_weights.npz"
    raw = bytearray(path.read_bytes())
    raw[3] ^= 0x01
    path.write_bytes(bytes(raw))
    quarantine = tmp_path / "quarantine"
    problems = store.check(filled, quarantine)
    assert [p.key for p in problems] == [KEY_A]
    assert "weights.npz has sha256" in problems[0].reason
    assert not list(filled.glob(f"{KEY_A}*"))  # its files and its seal left the store
    assert sorted(p.name for p in quarantine.iterdir()) == sorted(
        [f"{KEY_A}_weights.npz", f"{KEY_A}_record.json", f"{KEY_A}.sha256"])
    assert store.check(filled) == []  # the other entry is untouched


def test_a_truncated_or_missing_file_fails_the_check(filled):
    store.seal(filled)
    (filled / f"{KEY_B}.parquet").write_bytes(b"meas")
    (filled / f"{KEY_A}_record.json").unlink()
    reasons = {p.key: p.reason for p in store.check(filled)}
    assert reasons[KEY_A] == f"{KEY_A}_record.json is missing"
    assert reasons[KEY_B].startswith(f"{KEY_B}.parquet has sha256")


def test_unused_entries_and_leftovers_are_listed_and_pruned(filled):
    store.seal(filled)
    (filled / "tmpabc123").mkdir()
    (filled / "tmpabc123" / "half").write_bytes(b"x" * 10)
    (filled / f"{'c' * 64}.sha256").write_text("")  # a seal whose entry is gone
    (filled / f"{'e' * 64}_weights.npz").write_bytes(b"half")  # an interrupted writer's
    assert store.unused(filled, [KEY_A, "e" * 64]) == [KEY_B]
    assert {p.name for p in store.leftovers(filled)} == {"tmpabc123", f"{'c' * 64}.sha256",
                                                         f"{'e' * 64}_weights.npz"}
    freed = store.prune(filled, [KEY_B])
    assert freed > len(b"measures of b")
    assert sorted(store.entries(filled)) == [KEY_A] and store.leftovers(filled) == []


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
    _, rel, exact, close, _ = audit.compare(tmp_path / "b.parquet", tmp_path / "a.parquet")
    assert rel == pytest.approx(1e-7, rel=1e-3) and not exact and close
    _, rel, exact, close, where = audit.compare(tmp_path / "c.parquet", tmp_path / "a.parquet")
    assert rel == pytest.approx(0.05) and not close and where == "a.parquet:x"
    moved_nan = base.assign(x=[1.0, np.nan, 2.0])
    write_parquet(tmp_path / "d.parquet", moved_nan)
    assert not audit.compare(tmp_path / "d.parquet", tmp_path / "a.parquet")[3]


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


def test_links_to_entries_that_are_gone_are_found(filled, tmp_path):
    """After an entry is set aside or pruned, its results/ link dangles: Snakemake cannot stat
    it ("Unable to obtain modification time"), so the workflow removes such links first."""
    store.seal(filled)
    results = tmp_path / "results"
    (results / "cells").mkdir(parents=True)
    kept = results / "cells/a.npz"
    kept.symlink_to(filled / f"{KEY_A}_weights.npz")
    gone = results / "cells/b.parquet"
    gone.symlink_to(filled / f"{KEY_B}.parquet")
    (results / "cells/elsewhere").symlink_to(tmp_path / "not-the-store")
    assert store.dangling_links(results, filled) == []
    store.prune(filled, [KEY_B])
    assert store.dangling_links(results, filled) == [gone]  # not a link that points elsewhere


def test_the_audits_kernel_class_and_integer_ranks(tmp_path):
    """Exact comparison only within a kernel class (CPU flags, torch capability, the variables
    that choose numpy's and OpenBLAS's kernels); across classes a threshold rank may move by
    one (measured: a Gavish-Donoho rank of E1 under OpenBLAS's Haswell kernels), not by two."""
    import pandas as pd

    from entropic_bound.plumbing.atomic import write_parquet

    here = {"cpu_flags": ["avx2"], "aten_cpu_capability": "AVX2", "kernel_env": {}}
    assert audit.kernel_class(here) == audit.kernel_class(dict(here))
    assert audit.kernel_class(here) != audit.kernel_class(
        {**here, "kernel_env": {"OPENBLAS_CORETYPE": "Haswell"}})
    assert audit.kernel_class(here) != audit.kernel_class({**here, "aten_cpu_capability": None})
    write_parquet(tmp_path / "a.parquet", pd.DataFrame({"rank": [6, 3]}))
    write_parquet(tmp_path / "b.parquet", pd.DataFrame({"rank": [5, 3]}))
    write_parquet(tmp_path / "c.parquet", pd.DataFrame({"rank": [4, 3]}))
    _, _, exact, close, _ = audit.compare(tmp_path / "b.parquet", tmp_path / "a.parquet")
    assert not exact and close
    assert not audit.compare(tmp_path / "c.parquet", tmp_path / "a.parquet")[3]


def test_the_audit_draws_entries_of_this_run_per_experiment_and_never_a_download(
        tmp_path, monkeypatch):
    """Per experiment (read from the job's record path), ``count`` entries of each; entries
    whose outputs no results/ link names (another run's) and corpus downloads are not drawn;
    the draw is fixed by its seed."""
    monkeypatch.chdir(tmp_path)
    root = tmp_path / "store"
    root.mkdir()
    jobs = {  # key: (command, record path, linked under results/)
        "1" * 64: ("train-lm", "results/benchmarks/train_lm_cells/json/d64/s0.json", True),
        "2" * 64: ("train-lm", "results/benchmarks/train_lm_cells/json/d64/s1.json", True),
        "3" * 64: ("fetch-corpus", "results/benchmarks/fetch_corpus/json.json", True),
        "4" * 64: ("train-grid", "results/benchmarks/train_grid_cells/e3/linear_qk/sharp/r1/"
                                 "s0.json", True),
        "5" * 64: ("train-grid", "results/benchmarks/train_grid_cells/e5/linear_qk/flat/r4/"
                                 "s0.json", True),
        "6" * 64: ("estimate-e4", "results/benchmarks/estimate_e4_data/e4_size/linear_qk/"
                                  "sharp/r1/s0.json", True),
        "7" * 64: ("train-fixed", "results/benchmarks/train_fixed_cells/e1/independent/"
                                  "s0.json", False),
    }
    for key, (command, record, linked) in jobs.items():
        out = root / f"{key}_out.parquet"
        out.write_bytes(b"x")
        link = tmp_path / "results/cells" / f"{key[:4]}.parquet"
        argv = ["entropic-bound", command, "--record", record, "--out", str(link)]
        (root / f"{key}_record.json").write_text(json.dumps({"argv": argv}))
        if linked:
            link.parent.mkdir(parents=True, exist_ok=True)
            link.symlink_to(out)
    candidates = store.entries(root)
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

    (tmp_path / "store").mkdir()
    cmd = [sys.executable, "-m", "entropic_bound.cli", "audit", "1", "--store", "store"]
    alone = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True)
    assert alone.returncode == 1 and "no entry of this run" in alone.stderr.splitlines()[-1]
    assert "Traceback" not in alone.stderr
    out = tmp_path / "audit.parquet"
    workflow = subprocess.run([*cmd, "--exit-zero", "--out", str(out)], cwd=tmp_path,
                              capture_output=True, text=True)
    assert workflow.returncode == 0, workflow.stderr
    table = pd.read_parquet(out)
    assert table.empty and {"key", "ok", "recomputed", "seed"} <= set(table.columns)


def test_the_audit_draws_within_its_budget_cheapest_experiments_first(tmp_path, monkeypatch):
    """Entries of three experiments with recorded costs: within 100 s the two cheap
    experiments are drawn and the one whose every entry costs more than what is left is left
    out; with no budget each experiment gives one; an unaffordable budget leaves all out."""
    monkeypatch.chdir(tmp_path)
    costs = {"e1": [5.0, 8.0], "e3": [40.0, 90.0], "e6": [700.0, 900.0]}
    candidates = {}
    for exp, seconds in costs.items():
        for i, s in enumerate(seconds):
            key = f"{exp}{i}".ljust(64, "0")
            out = tmp_path / "results" / f"{exp}_{i}.parquet"
            out.parent.mkdir(exist_ok=True)
            entry = tmp_path / f"{key}_measures.parquet"
            entry.write_bytes(b"x")
            out.symlink_to(entry)
            record = tmp_path / f"{key}_record.json"
            record.write_text(json.dumps({"s": s, "argv": [
                "entropic-bound", "measure-grid", "--record",
                f"results/benchmarks/measure_grid_cells/{exp}/x.json", "--out", str(out)]}))
            candidates[key] = [entry, record]
    chosen, left_out = audit.draw(candidates, 1, seed=3, per_experiment=True,
                                  budget_seconds=100)
    assert [k[:2] for k in chosen] == ["e1", "e3"] and left_out == ["e6"]
    assert sum(json.loads(candidates[k][1].read_text())["s"] for k in chosen) <= 100
    chosen, left_out = audit.draw(candidates, 1, seed=3, per_experiment=True)
    assert sorted(k[:2] for k in chosen) == ["e1", "e3", "e6"] and left_out == []
    assert audit.draw(candidates, 1, seed=3, per_experiment=True, budget_seconds=1)[1] == [
        "e1", "e3", "e6"]
