"""The benchmark's whole-DAG pricing: the grids' students counted from the paper's config, and
their cost from per-cell seconds per step (closed forms on constructed cell costs)."""

import pytest

from entropic_bound.bench import CELLS, GRID_EXPERIMENTS, dag_estimate, grid_students
from entropic_bound.settings import effective_config

PAPER = effective_config("config.yaml", "workflow/schemas/config.schema.yaml")
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
