"""The audit's comparison of training entries across kernel classes
(entropic_bound.audit.trained_comparison), on constructed weights and metrics: what is not
identifiable (factors up to an invertible G) agrees, what the paper reads and a planted change
to it does not."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from entropic_bound.audit.trained_comparison import (
    LOSS_FLOORS,
    OPERATOR_RTOL,
    compare_lm_metrics,
    compare_metrics,
    compare_operators,
    draw_bound,
    operators,
    relative_frobenius,
)


def student(rng, r: int = 3, d: int = 8) -> dict[str, np.ndarray]:
    return {"recovery_r3_WQ": rng.standard_normal((d, r)),
            "recovery_r3_WK": rng.standard_normal((d, r)),
            "recovery_r3_V": rng.standard_normal((d, d))}


def test_factors_moved_by_an_invertible_transform_are_the_same_operator():
    """W_Q G and W_K G^-T: factors apart by O(1), the kernel W_Q W_K^T the same."""
    rng = np.random.default_rng(0)
    w = student(rng)
    g = rng.standard_normal((3, 3)) + 3 * np.eye(3)
    moved = {**w, "recovery_r3_WQ": w["recovery_r3_WQ"] @ g,
             "recovery_r3_WK": w["recovery_r3_WK"] @ np.linalg.inv(g).T}
    assert relative_frobenius(moved["recovery_r3_WQ"], w["recovery_r3_WQ"]) > 0.5
    result = compare_operators(moved, w, "weights")
    assert result.agrees and result.margin < 1e-10 / OPERATOR_RTOL


def test_a_five_percent_change_of_one_factor_differs():
    rng = np.random.default_rng(1)
    w = student(rng)
    planted = {**w, "recovery_r3_WQ": w["recovery_r3_WQ"] * 1.05}
    result = compare_operators(planted, w, "weights")
    assert not result.agrees and result.where == "weights:recovery_r3_WQWK^T (identified part)"
    assert result.margin == pytest.approx(0.05 / OPERATOR_RTOL, rel=1e-9)


def test_operators_are_the_bilinear_students_products_and_value_maps():
    rng = np.random.default_rng(2)
    w = {"B0_sweep_r2_P": rng.standard_normal((6, 2)), "B0_sweep_r2_Q": rng.standard_normal((6, 2)),
         "B0_sweep_r2_V": np.eye(4), "B1c_at_r_star_r6_K": np.eye(6),
         "B3_at_r_star_r2_WQ": np.ones((4, 2)), "B3_at_r_star_r2_WK": np.ones((4, 2)),
         "B3_at_r_star_r2_V": np.eye(4)}
    found = operators(w)
    assert sorted(found) == ["B0_sweep_r2_PQ^T", "B0_sweep_r2_V", "B1c_at_r_star_r6_K"]
    np.testing.assert_allclose(found["B0_sweep_r2_PQ^T"], w["B0_sweep_r2_P"] @ w["B0_sweep_r2_Q"].T)


def metrics(excess: list[float], floor: float = 0.3) -> pd.DataFrame:
    return pd.DataFrame({"role": ["sweep"] * len(excess), "r": list(range(1, len(excess) + 1)),
                         "steps": [100] * len(excess), "loss": [e + floor for e in excess],
                         "excess": excess, "excess_converged": excess,
                         "spiked": [False] * len(excess),
                         "noise_floor": [floor] * len(excess),
                         "curve_loss": [[5.0, 2.0, e + floor] for e in excess],
                         "train_seconds": [1.0] * len(excess)})


def test_an_excess_near_zero_is_judged_in_noise_floors_not_relatively():
    """-0.0008 against -0.0007 is a relative error of 14 % and 3e-4 floors: it agrees."""
    stored, ours = metrics([12.0, -0.0008]), metrics([12.0, -0.0007])
    result = compare_metrics(ours, stored, "metrics")
    assert result.agrees and result.margin == pytest.approx(1e-4 / 0.3 / LOSS_FLOORS, rel=1e-6)


def test_a_changed_loss_differs_and_timings_and_mid_curves_do_not_count():
    stored = metrics([12.0, -0.0008])
    changed = stored.assign(loss=stored["loss"] + [0.0, 0.3])  # one noise floor
    assert not compare_metrics(changed, stored, "metrics").agrees
    quiet = stored.assign(train_seconds=[9.0, 9.0],
                          curve_loss=[[5.0, 9.0, c[-1]] for c in stored["curve_loss"]])
    assert compare_metrics(quiet, stored, "metrics").margin == 0
    # a row that spiked on one machine (protocol §3b): its final iterate is far off, its
    # converged excess is what is compared
    spiked = stored.assign(spiked=[False, True], loss=stored["loss"] + [0.0, 3.0],
                           excess=stored["excess"] + [0.0, 3.0])
    judged = compare_metrics(spiked, stored, "metrics")
    assert judged.agrees and judged.margin == 0
    moved = spiked.assign(excess_converged=stored["excess"] + [0.0, 0.3])
    assert not compare_metrics(moved, stored, "metrics").agrees


def test_e6_losses_are_judged_against_the_seeds_spread():
    seeds = pd.DataFrame({"val_loss": [1.543, 1.56, 1.576, 1.59, 1.613],
                          "best_select_loss": [2.0, 2.02, 2.03, 2.04, 2.06]})
    stored = seeds.iloc[[2]].reset_index(drop=True)
    machine = stored + 0.014
    assert compare_lm_metrics(machine, stored, seeds, "metrics").agrees
    other_corpus = stored.assign(val_loss=0.46)  # json's level, not python's
    result = compare_lm_metrics(other_corpus, stored, seeds, "metrics")
    assert not result.agrees and "val_loss" in result.where
    sd = float(np.std(seeds["val_loss"], ddof=1))
    assert result.margin == pytest.approx((1.576 - 0.46) / (draw_bound(5) * sd))


def test_two_draws_may_differ_by_the_t_prediction_bound_of_their_difference():
    """t_{n-1}(0.975) sqrt 2: 3.93 seed sd from five seeds, 12.7 * 1.41 from two, and
    nothing to judge by from one (a loss that moved at all then differs)."""
    assert draw_bound(5) == pytest.approx(2.776445 * np.sqrt(2), rel=1e-5)
    assert draw_bound(2) == pytest.approx(12.706205 * np.sqrt(2), rel=1e-5)
    assert draw_bound(1) == np.inf
    one = pd.DataFrame({"val_loss": [1.5], "best_select_loss": [2.0]})
    # one seed: not judged (NaN), never a difference for want of seeds; identical draws agree
    alone = compare_lm_metrics(one + 0.01, one, one, "metrics")
    assert alone.agrees and np.isnan(alone.margin) and "not judged: 1 seed" in alone.how
    assert compare_lm_metrics(one, one, one, "metrics").margin == 0


def test_an_overparameterised_kernel_is_compared_where_the_data_identifies_it():
    """A rank-3 signal in a 10 x 10 kernel with a noise fit in its other directions: another
    machine's noise fit (a new draw at that scale) agrees, a 5 % change of the signal does not;
    the same change of the noise fit in a kernel at r* (no over-parameterisation) is judged
    whole, as before."""
    rng = np.random.default_rng(3)
    signal = rng.standard_normal((10, 3)) @ rng.standard_normal((3, 10))
    noise = lambda: 0.06 * rng.standard_normal((10, 10))  # noqa: E731
    stored = {"B1c_overparam_r10_K": signal + noise(), "B1c_overparam_r10_V": np.eye(10)}
    machine = {**stored, "B1c_overparam_r10_K": signal + noise()}
    whole = np.linalg.norm(machine["B1c_overparam_r10_K"] - stored["B1c_overparam_r10_K"]) \
        / np.linalg.norm(stored["B1c_overparam_r10_K"])
    assert whole > OPERATOR_RTOL  # judged whole, the noise fit alone would differ
    judged = compare_operators(machine, stored, "weights")
    assert judged.agrees and "identified part" in judged.where
    planted = {**stored, "B1c_overparam_r10_K": 1.05 * signal + noise()}
    assert not compare_operators(planted, stored, "weights").agrees
    at_r_star = {k.replace("overparam", "at_r_star"): v for k, v in stored.items()}
    moved = {k.replace("overparam", "at_r_star"): v for k, v in machine.items()}
    assert not compare_operators(moved, at_r_star, "weights").agrees
