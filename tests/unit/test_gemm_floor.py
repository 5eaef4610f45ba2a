"""The GEMM floor: each formulation's products carry exactly its closed-form flops (the
query-key step, the ladder's classes, E6's Transformer), and the floor picks the cheapest
formulation and chunk under a constructed product timer; the DAG pricing sums it over every
student of the training DAG."""


import pandas as pd
import pytest

from entropic_bound.benchmarks.cells import floor_flops, step_flops
from entropic_bound.benchmarks.dag import dag_estimate, lm_steps_run
from entropic_bound.benchmarks.gemm_floor import (
    GemmFloor,
    ffn_products,
    flops,
    formulations,
    gradients,
    ladder_listings,
    listing_flops,
    lm_products,
    mixer_products,
    products,
    qk_products,
    stacked,
    time_product,
    transposed,
)
from entropic_bound.plumbing.settings import effective_config

PAPER = effective_config("config.yaml", "src/entropic_bound/config.schema.yaml")
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
        def listing(m, f=f):
            return products(f, T, d, r, m)

        saved = sum(alone.product_seconds(listing, n, i) - four.product_seconds(listing, n, i)
                    for i in range(len(prods)))
        assert saved == pytest.approx(shared * 0.75e-4)
    assert stacked(("bmm", 5, 16, 32, 16), "M", 4) == ("bmm", 5, 64, 32, 16)
    assert stacked(("mm", 48, 32, 32), "N", 4) == ("mm", 48, 32, 128)
    with pytest.raises(ValueError, match="shares no operand"):
        stacked(("mm", 48, 32, 32), None, 2)


class ConstantFloor:
    """A GemmFloor stand-in: fixed seconds per step for each kind of student."""

    def step_seconds(self, kind, n, T, d, r):
        return {("linear_qk", 16): 2e-3, ("softmax_qk", 16): 3e-3}.get((kind, T), 1e-3), kind

    def ladder_step_seconds(self, cls, n, T, d, r):
        return 0.1 if cls.startswith("B3") else 0.01

    def listing_seconds(self, listing, n):
        return 0.5 * listing_flops(listing, n) / 1e12  # E6: half a second per TFLOP


def test_the_dag_sums_the_gemm_floor_over_every_student():
    costs = {}  # no cell: the estimate is unpriced, the floors are still summed
    rows = {row["experiment"]: row for row in dag_estimate(PAPER, costs, 100.0, None,
                                                           ConstantFloor())}
    e3 = 5 * (48 * 1500 + 6 * 2500)  # student-steps per teacher
    assert rows["e3"]["gemm_floor_s"] == pytest.approx(e3 * 2e-3 + e3 * 3e-3)
    assert rows["e5"]["gemm_floor_s"] == pytest.approx(15 * (8 * 1500 + 2500) * 1e-3)
    # E2: 132,500 student-steps of the B3 family (seven variants), 110,000 of the other
    # classes; E1: B0 only.
    assert rows["e2"]["gemm_floor_s"] == pytest.approx(132_500 * 0.1 + 110_000 * 0.01)
    assert rows["e1"]["gemm_floor_s"] == pytest.approx(5 * (6 * 1500 + 2500) * 0.01)
    # E6: 6 corpora x 5 seeds per d_model, at most max_steps of batch 32 x context 64,
    # 2 layers (early stopping can only end a cell sooner: the DAG prices the most)
    steps = PAPER["e6"]["train"]["max_steps"]
    tflop = sum(3 * 2 * (24 * 2048 * d * d + 4 * 2048 * 64 * d) for d in (64, 128, 256)) / 1e12
    assert rows["e6"]["student_steps"] == rows["e6"]["unpriced_steps"] == 90 * steps
    assert rows["e6"]["gemm_floor_s"] == pytest.approx(30 * steps * 0.5 * tflop)
    assert rows["e6"]["floor_s"] == pytest.approx(30 * steps * tflop * 1e12 / 100e9)
    assert "gemm_floor_s" not in dag_estimate(PAPER, costs, 100.0)[0]


def test_backward_products_carry_twice_the_forward_flops():
    assert gradients(("mm", 5, 7, 11)) == [(("mm", 5, 11, 7), None), (("mm", 7, 5, 11), None)]
    # an operand shared in the forward stays shared in the gradient that reads it
    assert gradients(("bmm", 3, 5, 7, 11), "M", right=False) == [(("bmm", 3, 5, 11, 7), "M")]
    rows, d = 360, 10
    assert listing_flops(lambda m: ffn_products(m, d, 4), rows) == 3 * 2 * (2 * rows * d * 4 * d)


@pytest.mark.parametrize("d", [64, 128, 256])
def test_the_transformer_step_has_its_closed_form_flops(d):
    # Per layer forward: QKV 6mTd^2, Q K^T and A V 2mT^2d each, projection 2mTd^2, FFN
    # 16mTd^2; backward twice that. 2 layers, 4 heads, FFN x4 (App. B).
    m, T = 32, 64
    total = listing_flops(lambda k: lm_products(k, d, 4, 2, 4, T), m)
    assert total == 2 * 3 * (24 * m * T * d * d + 4 * m * T * T * d)
    listing = lm_products(m, d, 4, 2, 4, T)
    # per layer: 6 products and their 12 gradients, and the attention's softmax pass
    assert len(listing) == 2 * (3 * 6 + 1)
    assert [p for p, _ in listing if p[0] == "softmax"] == [("softmax", m * 4, T, T)] * 2


def test_a_softmax_step_holds_its_softmax_pass_and_a_linear_step_none():
    T, d, r, m = 16, 32, 3, 8
    for f in formulations("softmax_qk"):
        extra = [p for p in qk_products("softmax_qk", f, T, d, r, m) if p not in products(
            f, T, d, r, m)]
        assert extra == [(("softmax", m, T, T), None)]
        assert qk_products("linear_qk", f, T, d, r, m) == products(f, T, d, r, m)
    assert flops(("softmax", m, T, T)) == 0  # no GEMM: the flop floor is unchanged
    assert transposed(("softmax", m, T, T)) == ("softmax", m, T, T)
    # the floor prices it with a constructed timer, as a product that no student shares
    floor = GemmFloor(timer=lambda p: 1.0 if p[0] == "softmax" else 0.0, chunks=(m,))
    assert floor.step_seconds("softmax_qk", 4 * m, T, d, r)[0] == 4.0
    assert floor.step_seconds("linear_qk", 4 * m, T, d, r)[0] == 0.0
    assert floor.ladder_step_seconds("B2", 4 * m, T, d, r) == 4.0


def test_the_softmax_pass_runs_atens_kernels():
    # torch's private backward kernel is what the floor times: it must exist and run here
    assert 0 < time_product(("softmax", 2, 4, 4), rounds=1) < 1


def test_the_ladder_classes_price_their_own_products():
    n, T, d, r = 3000, 12, 10, 3
    # B0: A X (2T^2 nd) and (A X) V (2nTd^2) forward; dV, dY V^T (2nTd^2 each) and
    # dA = d(AX) X^T (2T^2 nd) backward; X is data, so no dX.
    assert listing_flops(ladder_listings("B0", T, d, r)[0][0], n) == (
        4 * T * T * n * d + 6 * n * T * d * d)
    b2 = ladder_listings("B2", T, d, r)
    assert [listing_flops(f, n) for f, _ in b2] == [
        listing_flops(lambda m, f=f: products(f, T, d, r, m), n)
        for f in formulations("softmax_qk")]
    assert all(stack for _, stack in b2)
    # The B3 family adds its FFN, and its students share no operand (LN(X) is each one's own).
    ffn = listing_flops(lambda m: ffn_products(m * T, d, 4), n)
    for cls in ("B3", "B3_postln"):
        b3 = ladder_listings(cls, T, d, r)
        assert [listing_flops(f, n) - ffn for f, _ in b3] == [listing_flops(f, n) for f, _ in b2]
        assert not any(stack for _, stack in b3)
    assert len(ladder_listings("B1c", T, d, d)) == len(formulations("linear_qk"))
    with pytest.raises(ValueError, match="unknown ladder class"):
        ladder_listings("B9", T, d, r)


def test_the_ladder_floor_stacks_students_only_where_the_class_allows():
    n, T, d, r = 3000, 12, 10, 3
    timer, _ = timer_with_overhead(1e-4, 10.0)
    g = GemmFloor(timer, chunks=(3000,), stacks=(1, 4))
    b0 = g.ladder_step_seconds("B0", n, T, d, r)
    mix = mixer_products(T, d, n)
    shared = sum(stack is not None for _, stack in mix)
    assert b0 == pytest.approx(len(mix) * 1e-4 - shared * 0.75e-4 + sum(
        flops(p) for p, _ in mix) / 1e10)
    b3 = g.ladder_step_seconds("B3", n, T, d, r)
    assert b3 == pytest.approx(min(len(f(n)) * 1e-4 + listing_flops(f, n) / 1e10
                                   for f, _ in ladder_listings("B3", T, d, r)))


def test_each_product_is_priced_in_its_faster_orientation():
    # A BLAS that runs tall products (M >> N) 4x slower than their transposes.
    def timer(p):
        *_, M, K, N = p
        return flops(p) / 1e10 * (4.0 if M > N else 1.0)

    assert transposed(("bmm", 3, 5, 7, 11)) == ("bmm", 3, 11, 7, 5)
    g = GemmFloor(timer, chunks=(3000,), stacks=(1,))
    tall = [(("mm", 36000, 40, 10), None), (("mm", 10, 40, 36000), None)]
    assert g.listing_seconds(lambda m: tall, 3000) == pytest.approx(
        2 * flops(tall[0][0]) / 1e10)


def test_a_real_product_is_timed_positive_and_finite():
    seconds = GemmFloor(chunks=(8,), stacks=(1, 2)).step_seconds("softmax_qk", 8, 4, 6, 2)[0]
    assert 0 < seconds < 1


def test_e6_is_priced_at_the_steps_a_finished_runs_cells_trained(tmp_path):
    """A finished run's cells stop early: summed from their metrics, the steps they ran price
    E6 instead of max_steps, per d_model; a d_model with no cell stays at max_steps."""
    for corpus, d_model, seed, stop in (("json", 64, 0, 2000), ("json", 64, 1, 3100),
                                        ("linux", 64, 0, 700), ("json", 256, 0, 5500)):
        path = tmp_path / corpus / f"d{d_model}" / f"s{seed}.metrics.parquet"
        path.parent.mkdir(parents=True, exist_ok=True)
        pd.DataFrame({"d_model": [d_model], "stop_step": [stop]}).to_parquet(path)
    steps = lm_steps_run(tmp_path)
    assert steps == {64: 5800, 256: 5500}
    e6 = {r["experiment"]: r for r in dag_estimate(PAPER, {}, 100.0, None, ConstantFloor(),
                                                   steps)}["e6"]
    max_steps = PAPER["e6"]["train"]["max_steps"]
    tflop = {d: 3 * 2 * (24 * 2048 * d * d + 4 * 2048 * 64 * d) / 1e12 for d in (64, 128, 256)}
    assert e6["student_steps"] == 5800 + 30 * max_steps + 5500
    assert e6["gemm_floor_s"] == pytest.approx(
        0.5 * (5800 * tflop[64] + 30 * max_steps * tflop[128] + 5500 * tflop[256]))
    with pytest.raises(SystemExit, match="no E6 cell metrics"):
        lm_steps_run(tmp_path / "json" / "d128")
