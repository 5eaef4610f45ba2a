"""The benchmark's whole-DAG pricing: the grids' and the fixed-operator experiments' students
counted from the paper's config, and their cost from per-cell seconds per step (closed forms on
constructed cell costs)."""

from pathlib import Path

import pytest

from entropic_bound.benchmarks.cells import CELLS
from entropic_bound.benchmarks.dag import (
    GRID_EXPERIMENTS,
    dag_estimate,
    dag_job_counts,
    grid_students,
    job_start_seconds,
    ladder_cells,
    ladder_students,
    rule_commands,
)
from entropic_bound.plumbing.settings import effective_config

PAPER = effective_config("config.yaml", "src/entropic_bound/config.schema.yaml")
SWEEP, RECOVERY = 1500, 2500  # the paper's step counts (schema defaults of e3/e5.train)


def test_the_grids_train_the_papers_student_steps():
    steps = {exp: 0 for exp in GRID_EXPERIMENTS}
    for st in grid_students(PAPER):
        steps[st["experiment"]] += st["steps"] * st["datasets"]
    # E3: 2 teachers x 5 seeds x sum over r* in {1,2,3,4,6,8} of (2 r* sweep + 1 recovery).
    assert steps["e3"] == 2 * 5 * sum(2 * r * SWEEP + RECOVERY for r in (1, 2, 3, 4, 6, 8))
    assert steps["e3"] == 870_000
    # E5: 1 teacher, r* = 4, 5 seeds x 3 spectra.
    assert steps["e5"] == 15 * (8 * SWEEP + RECOVERY)


def cell_costs(**override):
    """Seconds per step of every cell: gram cells 1 ms, linear kernel 2, softmax 3, recovery 4."""
    costs = {}
    for name, (_, kind, _, r, role) in CELLS.items():
        if role == "recovery":
            costs[name] = 4e-3
        elif kind == "softmax_qk":
            costs[name] = 3e-3
        else:
            costs[name] = 1e-3 if r is not None and r <= 4 else 2e-3
    return {**costs, **override}


def test_each_student_is_priced_by_the_cell_of_its_order_scaled_by_its_flops():
    rows = {row["experiment"]: row for row in dag_estimate(PAPER, cell_costs(), ceiling=100.0)}
    # Gram order (linear, r <= 4) costs in proportion to r: the r=3 cell's 1 ms is r/3 ms;
    # the kernel order costs the same at every rank.
    gram = sum(r / 3 * 1e-3 for r_star in (1, 2, 3, 4, 6, 8) for r in range(1, 2 * r_star + 1)
               if r <= 4)
    kernel = sum(2e-3 for r_star in (1, 2, 3, 4, 6, 8) for r in range(1, 2 * r_star + 1)
                 if r > 4)
    linear = 5 * (SWEEP * (gram + kernel) + 6 * RECOVERY * 4e-3)
    softmax = 5 * (SWEEP * 3e-3 * 48 + 6 * RECOVERY * 4e-3)
    assert rows["e3"]["estimate_s"] == pytest.approx(linear + softmax)
    assert rows["e3"]["students"] == 540 and rows["e3"]["unpriced_steps"] == 0
    e5_gram = sum(r / 3 * 1e-3 for r in range(1, 5))
    assert rows["e5"]["estimate_s"] == pytest.approx(
        15 * (SWEEP * (e5_gram + 4 * 2e-3) + RECOVERY * 4e-3))
    # The floor is the flops at the matmul ceiling: half the ceiling, twice the floor.
    slow = {row["experiment"]: row for row in dag_estimate(PAPER, cell_costs(), ceiling=50.0)}
    assert rows["e3"]["floor_s"] > 0
    assert slow["e3"]["floor_s"] == pytest.approx(2 * rows["e3"]["floor_s"])


def test_students_without_a_cell_of_their_kind_are_counted_unpriced():
    costs = cell_costs()
    del costs["e3 softmax_qk sweep (r*=4, r=3)"]
    rows = {row["experiment"]: row for row in dag_estimate(PAPER, costs, ceiling=100.0)}
    assert rows["e3"]["unpriced_steps"] == 5 * SWEEP * 48  # every softmax sweep student


def test_the_ladders_train_the_papers_student_steps():
    steps: dict[str, int] = {}
    b3_family = 0
    for st in ladder_students(PAPER):
        steps[st["experiment"]] = steps.get(st["experiment"], 0) + st["steps"] * st["datasets"]
        b3_family += st["steps"] * st["datasets"] * st["class"].startswith("B3")
    # E1: 5 seeds x (B0 sweep r = 1..2r* = 6, then recovery at r = T).
    assert steps["e1"] == 5 * (6 * SWEEP + RECOVERY)
    # E2: per seed, the independent operator trains five classes at r* and over-parameterised
    # plus seven B3 variants at r*; the symmetric operator every class and variant at r*.
    assert steps["e2"] == 5 * ((5 + 7) * SWEEP + 5 * RECOVERY + 12 * SWEEP) == 242_500
    assert b3_family == 5 * (2 * SWEEP + RECOVERY + 2 * 7 * SWEEP) == 132_500


def test_ladder_cells_are_timed_at_r_star():
    cells = ladder_cells(PAPER)
    assert cells[("e1", "B0")] == PAPER["e1"]["r_star"]
    assert cells[("e2", "B3")] == PAPER["e2"]["r_star"]
    assert cells[("e2", "B1c")] == PAPER["e2"]["d"]
    assert set(cells) == {("e1", "B0"), *(("e2", c) for c in
                                          ("B0", "B1", "B1c", "B2", "B3", "B3_postln",
                                           "B3_rscale", "B3_postln_rscale", "B3_pos",
                                           "B3_causal", "B3_pos_readout",
                                           "B3_causal_readout"))}


def test_each_fixed_operator_student_is_priced_by_its_class_cell():
    ladder = {cell: (0.1 if cell[1].startswith("B3") else 0.01) for cell in ladder_cells(PAPER)}
    rows = {row["experiment"]: row for row in dag_estimate(PAPER, cell_costs(), 100.0, ladder)}
    assert rows["e1"]["estimate_s"] == pytest.approx(5 * (6 * SWEEP + RECOVERY) * 0.01)
    assert rows["e2"]["estimate_s"] == pytest.approx(132_500 * 0.1 + (242_500 - 132_500) * 0.01)
    assert rows["e2"]["students"] == 5 * (17 + 12) and rows["e2"]["unpriced_steps"] == 0
    # E1's floor: B0's flops at the ceiling (100 GFLOP/s), 4T^2 nd + 6nTd^2 per step
    T, d, n = 16, 12, 3000
    assert rows["e1"]["floor_s"] == pytest.approx(
        5 * (6 * SWEEP + RECOVERY) * (4 * T * T * n * d + 6 * n * T * d * d) / 100e9)
    # the grids are priced as before, and a class without a cell is counted unpriced
    assert rows["e3"]["estimate_s"] == pytest.approx(
        {r["experiment"]: r for r in dag_estimate(PAPER, cell_costs(), 100.0)}["e3"]["estimate_s"])
    del ladder[("e2", "B2")]
    rows = {row["experiment"]: row for row in dag_estimate(PAPER, cell_costs(), 100.0, ladder)}
    assert rows["e2"]["unpriced_steps"] == 5 * (2 * SWEEP + RECOVERY)


def _child_peak_mb(_) -> float:
    from entropic_bound.benchmarks.bench import peak_rss_mb

    return peak_rss_mb()


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux's /proc")
def test_a_spawned_cells_peak_memory_is_its_own_not_its_parents():
    import multiprocessing as mp

    held = bytearray(600 * 2**20)  # the parent's 600 MB, touched so that they are resident
    held[::4096] = b"\1" * len(held[::4096])
    with mp.get_context("spawn").Pool(1) as pool:
        child = pool.apply(_child_peak_mb, (0,))
    assert 0 < child < 300, child  # ru_maxrss would report > 600: inherited across the exec
    del held


def test_the_job_start_floor_counts_every_job_of_the_dag_by_its_command():
    counts = dag_job_counts()
    # E3: 2 teachers x 6 r* x 5 seeds; E5: 3 spectra x 5 seeds; E4: E3's 60 datasets and its
    # robustness settings (30 + 36 + 36); E6: 6 corpora x 3 d_model x 5 seeds; E7: 6 corpora
    # x 3 (depth, d_model) x 3 seeds, and its table.
    assert counts["train_grid_cells"] == 60 + 15
    assert counts["estimate_e4_data"] == 60 + 30 + 36 + 36
    assert counts["train_lm_cells"] == counts["measure_lm_cells"] == 90
    assert counts["train_e7_cells"] == counts["measure_e7_cells"] == 54
    assert sum(counts.values()) == 747 + 54 + 54 + 1
    commands = rule_commands()
    assert commands["train_grid_cells"] == "train-grid"
    assert commands["make_grid_data"] == commands["make_fixed_data"] == "make-data"
    assert commands["train_e7_cells"] == commands["train_lm_cells"] == "train-lm"  # use rule
    assert set(counts) - set(commands) == {"all"}  # the one rule that starts no process
    # a job that imports torch starts slower than one that reads a table
    assert job_start_seconds("train-grid", rounds=1) > job_start_seconds("claims", rounds=1)
    with pytest.raises(KeyError, match="no command 'nope'"):
        job_start_seconds("nope")


def test_the_e6_pilot_replays_the_stopping_rule_on_a_curve():
    from entropic_bound.benchmarks.e6_pilot import replay

    steps = [0, 100, 200, 300, 400, 500]
    # improves by 0.5, then by less than min_delta twice: stops at 300 with patience 2
    assert replay(steps, [3.0, 2.5, 2.498, 2.497, 2.0, 1.9], 2, 0.005) == (300, 300, 2.497)
    # with patience 3 it sees the drop at 400 and runs to the end
    assert replay(steps, [3.0, 2.5, 2.498, 2.497, 2.0, 1.9], 3, 0.005) == (500, 500, 1.9)


def test_sweep_curves_read_a_student_at_the_shorter_budget():
    import pandas as pd

    from entropic_bound.benchmarks.sweep_curves import curve_table

    floor = 1.28
    cell = {"role": "sweep", "seed": 0, "steps": 3000, "noise_floor": floor, "excess": 0.001,
            "excess_converged": 0.002, "spiked": False, "unsettled": False, "r_star": 8,
            "curve_step": [1, 1400, 1500, 1600, 2000, 3000]}
    cells = pd.DataFrame([
        # still descending at 1,500, a spike at 2,000, settled at the end
        {**cell, "r": 15, "curve_loss": [9.0, floor + 0.3, floor + 0.2, floor + 0.1,
                                         floor + 0.9, floor + 0.001]},
        {**cell, "r": 14, "curve_loss": [9.0] + [floor + 0.01] * 5},
        {**cell, "r": 3, "role": "sweep", "curve_loss": [9.0] * 6},  # below r_min
        {**cell, "r": 32, "role": "recovery", "curve_loss": [9.0] * 6}])
    table = curve_table(cells, r_min=12, mark=1500)
    assert table["r"].tolist() == [14, 15]
    row = table.set_index("r").loc[15]
    assert row["excess_at_1500"] == pytest.approx(0.2)
    assert row["max_excess_after_1500"] == pytest.approx(0.9)
    assert table.set_index("r").loc[14, "excess_at_1500"] == pytest.approx(0.01)
