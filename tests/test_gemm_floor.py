"""The GEMM floor: each formulation's products carry exactly its closed-form flops, and the
floor picks the cheapest formulation and chunk under a constructed product timer; the DAG
pricing sums it over the grids' students."""

import math

import pytest

from entropic_bound.bench import dag_estimate, floor_flops, step_flops
from entropic_bound.gemm_floor import GemmFloor, flops, formulations, products, stacked
from entropic_bound.settings import effective_config

PAPER = effective_config("config.yaml", "workflow/schemas/config.schema.yaml")
SHAPES = [(16, 32, 3), (16, 32, 16), (10, 12, 4), (12, 10, 1)]  # (T, d, r)


@pytest.mark.parametrize("T,d,r", SHAPES)
def test_each_formulation_has_its_closed_form_flops(T, d, r):
    m = 7
    total = {f: sum(flops(p) for p, _ in products(f, T, d, r, m))
             for f in formulations("linear_qk")}
    # The fast trainer's orders (step_flops, n = m samples): kernel and Gram.
    assert total["kernel"] == step_flops("fast", "softmax_qk", m, T, d, r)
    assert total["gram"] == 10 * m * r * d * (T + d)
    # Value-first with kernel scores is floor_flops' kernel-scores formulation, exactly.
    scores_k = 2 * m * T * d * d + 2 * m * T * T * d
    value = 4 * m * T * d * d + 6 * m * T * T * d
    assert total["value_first"] == 2 * scores_k + value
    # Factor scores: forward 4mTdr + 2mT^2 r; backward 4mTdr + 4mT^2 r (S = Q K^T needs two
    # products back), so 2mT^2 r above floor_flops' count of twice the forward.
    assert total["factor_scores"] == 8 * m * T * d * r + 6 * m * T * T * r + value
    assert min(total.values()) >= floor_flops("linear_qk", m, T, d, r)


def test_the_gram_order_is_for_the_linear_mixer_only():
    assert "gram" in formulations("linear_qk")
    assert "gram" not in formulations("softmax_qk")
    with pytest.raises(ValueError, match="unknown formulation"):
        products("nope", 16, 32, 3, 8)


def timer_with_overhead(per_call: float, gflops: float):
    """A product takes its flops at ``gflops`` plus a fixed ``per_call`` seconds."""
    calls = []

    def timer(p):
        calls.append(p)
        return per_call + flops(p) / (gflops * 1e9)
    return timer, calls


def test_the_floor_is_the_cheapest_formulation_at_each_products_best_chunk():
    n, T, d = 3000, 16, 32
    timer, calls = timer_with_overhead(1e-4, 10.0)
    g = GemmFloor(timer, chunks=(100, 1000, 3000), stacks=(1,))
    seconds, best = g.step_seconds("linear_qk", n, T, d, 1)
    # A fixed cost per call: the largest chunk wins, one call per product; at r = 1 the Gram
    # order has the fewest flops.
    assert best == "gram"
    gram = [p for p, _ in products("gram", T, d, 1, n)]
    assert seconds == pytest.approx(len(gram) * 1e-4 + sum(map(flops, gram)) / 1e10)
    # Softmax has no Gram order; the kernel orders' flops do not depend on r.
    s1, f1 = g.step_seconds("softmax_qk", n, T, d, 1)
    s8, _ = g.step_seconds("softmax_qk", n, T, d, 8)
    assert f1 != "gram" and s8 >= s1 * 0.999
    # Each distinct product is timed once, whatever formulation or rank asks again.
    assert len(calls) == len(set(calls))
    # With no per-call cost the chunk does not matter: the floor is the flops at 10 GFLOP/s.
    flat = GemmFloor(timer_with_overhead(0.0, 10.0)[0], chunks=(100, 3000), stacks=(1, 4))
    seconds, best = flat.step_seconds("softmax_qk", n, T, d, 16)
    assert seconds == pytest.approx(min(sum(flops(p) for p, _ in products(f, T, d, 16, n))
                                        for f in formulations("softmax_qk")) / 1e10)


def test_stacking_students_shares_a_products_fixed_cost_only_where_an_operand_is_shared():
    n, T, d, r = 3000, 16, 32, 3
    timer, _ = timer_with_overhead(1e-4, 10.0)
    alone = GemmFloor(timer, chunks=(3000,), stacks=(1,))
    four = GemmFloor(timer, chunks=(3000,), stacks=(1, 4))
    for f in formulations("linear_qk"):
        prods = products(f, T, d, r, n)
        shared = sum(stack is not None for _, stack in prods)
        # Per student, a stack of 4 pays a quarter of each shared product's 1e-4 s call.
        saved = sum(alone._product_seconds(n, f, T, d, r, i)
                    - four._product_seconds(n, f, T, d, r, i) for i in range(len(prods)))
        assert saved == pytest.approx(shared * 0.75e-4)
    assert stacked(("bmm", 5, 16, 32, 16), "M", 4) == ("bmm", 5, 64, 32, 16)
    assert stacked(("mm", 48, 32, 32), "N", 4) == ("mm", 48, 32, 128)
    with pytest.raises(ValueError, match="shares no operand"):
        stacked(("mm", 48, 32, 32), None, 2)


def test_the_dag_sums_the_gemm_floor_over_every_grid_student():
    costs = {}  # no cell: the estimate is unpriced, the floors are still summed
    per_step = {("linear_qk", 16): 2e-3, ("softmax_qk", 16): 3e-3}

    def floor(kind, n, T, d, r):
        return per_step.get((kind, T), 1e-3)  # E5 (T = 10) at 1 ms

    rows = {row["experiment"]: row for row in dag_estimate(PAPER, costs, 100.0, {}, floor)}
    e3 = 5 * (48 * 1500 + 6 * 2500)  # student-steps per teacher
    assert rows["e3"]["gemm_floor_s"] == pytest.approx(e3 * 2e-3 + e3 * 3e-3)
    assert rows["e5"]["gemm_floor_s"] == pytest.approx(15 * (8 * 1500 + 2500) * 1e-3)
    assert math.isnan(rows["e2"]["gemm_floor_s"])
    assert "gemm_floor_s" not in dag_estimate(PAPER, costs, 100.0)[0]


def test_a_real_product_is_timed_positive_and_finite():
    seconds = GemmFloor(chunks=(8,), stacks=(1, 2)).step_seconds("softmax_qk", 8, 4, 6, 2)[0]
    assert 0 < seconds < 1
