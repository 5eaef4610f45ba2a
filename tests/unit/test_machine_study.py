"""The machine study's choice of cells and its comparison of tables and verdicts
(entropic_bound.audit.machine_study), on constructed tables: a move is found where it is,
in units of the seed spread where the table gives one, and a moved verdict is reported."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from entropic_bound.audit.machine_study import choose, table_moves, verdict_moves


def test_every_e1_cell_and_the_lowest_seed_of_each_e3_and_e6_cell_are_chosen():
    cells = pd.DataFrame({
        "key": list("abcdefgh"),
        "experiment": ["e1", "e1", "e3", "e3", "e3", "e6", "e6", "e2"],
        "cell": ["independent", "independent", "linear_qk/sharp/r1", "linear_qk/sharp/r1",
                 "softmax_qk/sharp/r1", "python/d64", "python/d64", "symmetric"],
        "seed": [0, 1, 3, 2, 0, 4, 1, 0], "seconds": [1.0] * 8, "cpu": ["AMD EPYC"] * 8})
    chosen = choose(cells, ["e1", "e3", "e6"])
    assert sorted(chosen["key"]) == ["a", "b", "d", "e", "g"]


def test_a_table_move_is_found_and_measured_against_the_seed_spread():
    published = {"table1": pd.DataFrame({"quantity": ["x", "y"], "mean": [10.0, 2.0],
                                         "std": [0.5, 0.1], "n_seeds": [5, 5]})}
    same = table_moves(published, {"table1": published["table1"].copy()})
    assert same.loc[0, "largest_relative_move"] == 0 and same.loc[0, "largest_move_in_seed_sd"] == 0
    moved = published["table1"].assign(mean=[10.0, 2.05])
    row = table_moves(published, {"table1": moved}).iloc[0]
    assert row["largest_relative_move"] == pytest.approx(0.025)
    assert row["where"] == "mean, row 1: 2 -> 2.05"
    assert row["largest_move_in_seed_sd"] == pytest.approx(0.5)
    assert not table_moves(published, {})["compared"].iloc[0]
    longer = pd.concat([published["table1"]] * 2, ignore_index=True)
    assert table_moves(published, {"table1": longer})["where"].iloc[0] == (
        "2 rows published, 4 in the study")
    # a count that moved from 0 moves infinitely far, relatively
    counted = {"table2": pd.DataFrame({"n_spiked": [0, 0]})}
    assert table_moves(counted, {"table2": pd.DataFrame({"n_spiked": [0, 1]})}).iloc[0][
        "largest_relative_move"] == np.inf


def test_a_verdict_that_moves_is_reported():
    published = pd.DataFrame({"id": ["E1.a", "E5.b"], "verdict": ["reproduced", "partly"],
                              "reproduced": ["1.0", "0.5"]})
    study = pd.DataFrame({"id": ["E1.a", "E5.b"], "verdict": ["reproduced", "not reproduced"],
                          "reproduced": [1.0, np.nan]})
    moves = verdict_moves(published, study).set_index("id")
    assert not moves.loc["E1.a", "moved"] and moves.loc["E5.b", "moved"]
    assert moves.loc["E5.b", "verdict_study"] == "not reproduced"


def test_each_claim_gets_its_machine_firmness_from_the_published_study(tmp_path):
    import json

    from entropic_bound.claims.machine_firmness import machine_firmness

    claims = pd.DataFrame({"id": ["E1.a", "E5.b", "E3.c", "E4.d"],
                           "experiment": ["E1", "E5", "E3", "E4"]})
    assert set(machine_firmness(claims, tmp_path)) == {"no machine study"}
    (tmp_path / "study.json").write_text(json.dumps({
        "experiments": ["e1", "e5"], "cells": 20, "kernel_env": {},
        "recomputed_on": {"cpu_model": "Intel(R) Xeon(R) Processor"}}))
    pd.DataFrame({"id": ["E1.a", "E5.b"], "moved": [False, True],
                  "verdict_study": ["reproduced", "partly"]}).to_csv(tmp_path / "claims.csv")
    firmness = machine_firmness(claims, tmp_path)
    assert firmness[0].startswith("holds (20 cells of E1, E5 recomputed on Intel")
    assert firmness[1].startswith("MOVES to partly")
    assert firmness[2].startswith("not studied (its cells")
    assert firmness[3].startswith("not studied: it reads no trained cell")


def _ridge(binding: int, numpy_default: int) -> dict[str, pd.DataFrame]:
    return {"table6_stats": pd.DataFrame(
        [{"stat": s, "value": v, "lo": 20.0, "hi": 30.0, "n": 6}
         for s, v in (("ridge_full_rank_corpora", binding),
                      ("ridge_full_rank_numpy_corpora", numpy_default))])}


def test_a_reading_that_moves_across_machines_is_reported(tmp_path):
    import json

    from entropic_bound.audit.machine_study import reading_moves
    from entropic_bound.claims.machine_firmness import machine_firmness

    same = reading_moves(_ridge(0, 6), _ridge(0, 6)).set_index("id").loc["E6.ridge_full_rank"]
    assert same["readings"] == 1 and same["readings_moved"] == ""
    moved = reading_moves(_ridge(0, 6), _ridge(0, 5)).set_index("id").loc["E6.ridge_full_rank"]
    assert moved["readings_moved"] == "numpy's default tolerance: reproduced -> partly"
    (tmp_path / "study.json").write_text(json.dumps({
        "experiments": ["e6"], "cells": 18, "kernel_env": {},
        "recomputed_on": {"cpu_model": "Intel(R) Xeon(R) Processor"}}))
    pd.DataFrame({"id": ["E6.ridge_full_rank", "E6.other"], "moved": [False, False],
                  "verdict_study": ["not reproduced", "reproduced"], "readings": [1, 0],
                  "readings_moved": [moved["readings_moved"], ""]}).to_csv(
        tmp_path / "claims.csv")
    claims = pd.DataFrame({"id": ["E6.ridge_full_rank", "E6.other"], "experiment": ["E6"] * 2})
    firmness = machine_firmness(claims, tmp_path)
    assert firmness[0].endswith("; a reading MOVES: numpy's default tolerance: "
                                "reproduced -> partly")
    assert firmness[1].startswith("holds (") and "reading" not in firmness[1]
    held = pd.read_csv(tmp_path / "claims.csv").assign(readings_moved="")
    held.to_csv(tmp_path / "claims.csv")
    assert machine_firmness(claims, tmp_path)[0].endswith("; so does each other reading")


def test_a_substituted_cell_that_flips_a_verdict_is_reported_by_the_verdict_check():
    """The study's check end to end on tables: the claims judged on the published tables and on
    tables where one corpus's recomputed cell left the ridge operator below full rank."""
    from entropic_bound.claims.registry import evaluate_claims

    published, study = evaluate_claims(_ridge(6, 6)), evaluate_claims(_ridge(5, 6))
    moves = verdict_moves(published, study).set_index("id")
    assert moves["moved"].sum() == 1
    assert moves.loc["E6.ridge_full_rank", ["verdict", "verdict_study"]].tolist() == [
        "reproduced", "partly"]


def test_the_verdict_check_substitutes_files_in_every_list_of_the_evidence():
    from entropic_bound.audit.verdict_check import moved, substituted

    paths = {"grid_measures": {"table3": ["a", "b"], "table5": ["c"]}, "e1_measures": ["b", "d"],
             "params": {"h1_margin": 0.1}}
    assert substituted(paths, {"b": "B"}) == {
        "grid_measures": {"table3": ["a", "B"], "table5": ["c"]}, "e1_measures": ["B", "d"],
        "params": {"h1_margin": 0.1}}
    assert moved({"x": "reproduced", "y": "partly"}, {"x": "reproduced", "y": "reproduced"}) \
        == ["y: partly -> reproduced"]


def test_the_reports_section_gives_cells_kernels_table_moves_and_moved_verdicts(tmp_path):
    import json

    from entropic_bound.reporting.study import study_section

    assert study_section(tmp_path) is None
    (tmp_path / "study.json").write_text(json.dumps({
        "experiments": ["e1", "e6"], "cells": 3, "entries_cpu": ["AMD EPYC"],
        "kernel_env": {"OPENBLAS_CORETYPE": "Haswell"},
        "command": "entropic-bound machine-study --experiments e1 e6",
        "recomputed_on": {"cpu_model": "Intel Xeon", "aten_cpu_capability": "AVX512",
                          "cpu_flags": ["avx2", "amx_bf16"], "openblas_core": "Haswell",
                          "kernel_env": {"OPENBLAS_CORETYPE": "Haswell"}}}))
    pd.DataFrame({"key": ["a", "b", "c"], "experiment": ["e1", "e1", "e6"],
                  "seconds": [10.0, 20.0, 300.0], "cpu": ["AMD EPYC"] * 3,
                  "kernels": ["torch AVX512; flags avx2"] * 3}).to_csv(tmp_path / "cells.csv")
    pd.DataFrame({"table": ["table1"], "compared": [True], "largest_relative_move": [0.01],
                  "where": ["mean, row 2"], "largest_move_in_seed_sd": [0.5]}).to_csv(
        tmp_path / "tables.csv")
    pd.DataFrame({"id": ["E1.a", "E6.b"], "verdict": ["reproduced", "partly"],
                  "verdict_study": ["reproduced", "not reproduced"], "moved": [False, True],
                  "readings": [0, 1], "readings_moved": ["", ""]}).to_csv(
        tmp_path / "claims.csv", index=False)
    section = study_section(tmp_path)
    assert "3 training cells of E1, E6 recomputed on Intel Xeon with OPENBLAS_CORETYPE=Haswell" \
        in section.intro
    assert "Verdicts moved: 1 of 2 (E6.b); readings whose verdict moved: 0." in section.intro
    per_exp = dict(section.tables)["Cells recomputed, per experiment"].set_index("experiment")
    assert per_exp.loc["e1", "cells"] == 2 and per_exp.loc["e1", "recorded_job_seconds"] == "30"
    assert per_exp.loc["e6", "recomputed_kernels"] == (
        "torch AVX512; flags avx2 amx_bf16; OpenBLAS Haswell; OPENBLAS_CORETYPE=Haswell")
    assert list(dict(section.tables)["Claims that moved"]["id"]) == ["E6.b"]


def test_each_recomputed_cell_is_compared_with_its_stored_entry_as_the_audit_does(tmp_path):
    """A recomputed E5 cell whose factors moved by an invertible transform agrees (margin
    about 0); one with a factor 5 % larger differs; a cell the study did not make says so."""
    from entropic_bound.audit.machine_study import entry_comparisons
    from entropic_bound.plumbing.atomic import write_parquet

    rng = np.random.default_rng(0)
    w = {"recovery_r3_WQ": rng.standard_normal((8, 3)),
         "recovery_r3_WK": rng.standard_normal((8, 3)), "recovery_r3_V": np.eye(8)}
    metrics = pd.DataFrame({"role": ["sweep"], "r": [3], "steps": [100], "loss": [0.3],
                            "excess": [0.0], "excess_converged": [0.0], "spiked": [False],
                            "noise_floor": [0.3]})
    # the checkout's run's outputs of each cell (copies of its entry) and the study's
    results, work = tmp_path / "results", tmp_path / "work"
    g = rng.standard_normal((3, 3)) + 3 * np.eye(3)
    recomputed = {"a" * 64: {**w, "recovery_r3_WQ": w["recovery_r3_WQ"] @ g,
                             "recovery_r3_WK": w["recovery_r3_WK"] @ np.linalg.inv(g).T},
                  "b" * 64: {**w, "recovery_r3_WQ": w["recovery_r3_WQ"] * 1.05}}
    for seed, ours in enumerate(recomputed.values()):
        stored = results / f"cells/e5/linear_qk/flat/r4/s{seed}"
        stored.parent.mkdir(parents=True, exist_ok=True)
        np.savez(f"{stored}.npz", **w)
        write_parquet(f"{stored}.metrics.parquet", metrics)
        base = work / f"results/cells/e5/linear_qk/flat/r4/s{seed}"
        base.parent.mkdir(parents=True, exist_ok=True)
        np.savez(f"{base}.npz", **ours)
        write_parquet(f"{base}.metrics.parquet", metrics)
    np.savez(results / "cells/e5/linear_qk/flat/r4/s2.npz", **w)
    cells = pd.DataFrame({"key": ["a" * 64, "b" * 64, "c" * 64], "experiment": ["e5"] * 3,
                          "cell": ["linear_qk/flat/r4"] * 3, "seed": [0, 1, 2]})
    found = entry_comparisons(cells, work, results).set_index("key")
    assert found.loc["a" * 64, "margin"] < 1e-6
    assert found.loc["b" * 64, "margin"] > 1
    assert found.loc["b" * 64, "where"] == "s1.npz:recovery_r3_WQWK^T (identified part)"
    assert found.loc["c" * 64, "where"] == "not recomputed"


def test_a_mean_is_paired_with_its_seed_sd_under_each_naming():
    from entropic_bound.audit.machine_study import _mean_and_sd

    assert _mean_and_sd(["quantity", "mean", "std", "excess_mean", "excess_std",
                         "excess_at_r_star", "excess_at_r_star_std", "lonely_std"]) == [
        ("mean", "std"), ("excess_mean", "excess_std"),
        ("excess_at_r_star", "excess_at_r_star_std")]


def test_the_studied_groups_are_the_experiments_that_train():
    from entropic_bound.audit.machine_study import GROUPS
    from entropic_bound.plumbing.experiments import TRAINED_EXPERIMENTS

    assert sorted(GROUPS) == sorted(TRAINED_EXPERIMENTS)
