"""Held-out model fits (open problem (i)): gradients, rank selection, and Table 4's scores."""

import numpy as np
import pandas as pd
import pytest
from conftest import schema_defaults

from entropic_bound.data.datasets import write_dataset
from entropic_bound.data.teachers import TeacherSpec, generate
from entropic_bound.measures.estimators import kernel_from_mixers, predictability, recovered_mixers
from entropic_bound.measures.fit_rank import heldout_rank, least_squares_v, loss_and_grad
from entropic_bound.reporting.sections import open_problem_note
from entropic_bound.tables.aggregate import table4

E4 = schema_defaults("e4")


@pytest.mark.parametrize("kind", ["linear_qk", "softmax_qk"])
@pytest.mark.parametrize("v_known", [True, False])
def test_gradient_matches_finite_differences(kind, v_known):
    rng = np.random.default_rng(3)
    x, y = rng.standard_normal((7, 4, 5)), rng.standard_normal((7, 4, 5))
    p, q = rng.standard_normal((5, 2)), rng.standard_normal((5, 2))
    v = rng.standard_normal((5, 5)) if v_known else None
    _, gp, gq, _ = loss_and_grad(kind, x, y, p, q, v)
    h = 1e-6
    for grad, which in ((gp, 0), (gq, 1)):
        for i, j in [(0, 0), (3, 1), (4, 0)]:
            plus, minus = [p.copy(), q.copy()], [p.copy(), q.copy()]
            plus[which][i, j] += h
            minus[which][i, j] -= h
            numeric = (loss_and_grad(kind, x, y, *plus, v)[0]
                       - loss_and_grad(kind, x, y, *minus, v)[0]) / (2 * h)
            assert grad[i, j] == pytest.approx(numeric, rel=1e-5, abs=1e-8)


def test_projected_v_is_the_least_squares_v():
    rng = np.random.default_rng(4)
    ax, v = rng.standard_normal((50, 4, 3)), rng.standard_normal((3, 3))
    assert np.allclose(least_squares_v(ax, ax @ v), v)


def dataset(kind, r_star, seed=5):
    g = generate(TeacherSpec(kind, T=6, d=8, r_star=r_star, n=600, sigma=0.05, seed=seed))
    start = kernel_from_mixers(kind, g["X"], recovered_mixers(g["X"], g["Y"], g["V"]),
                               E4["eps"])
    return g, start


def select(kind, g, start, v_known=True, **over):
    settings = {"heldout_fraction": E4["heldout_fraction"], "z_crit": E4["z_crit"],
                "max_iter": E4["fit_iterations"], "guess": 1, **over}
    return heldout_rank(kind, g["X"], g["Y"], start, g["V"] if v_known else None, **settings)


@pytest.mark.parametrize("r_star", [1, 3])
def test_heldout_fit_finds_r_star_of_a_softmax_teacher_from_any_guess(r_star):
    g, start = dataset("softmax_qk", r_star)
    for guess in (1, 8):
        sel = select("softmax_qk", g, start, guess=guess)
        assert sel.rank == r_star, sel.z
    # The selection is a test, not a rule that always lands on r*: below r* the missing
    # direction costs several standard errors, and a z_crit that forgives any excess selects 1.
    if r_star > 1:
        assert sel.z[r_star - 1] > 2 * E4["z_crit"]
        assert select("softmax_qk", g, start, z_crit=1e9).rank == 1


def test_heldout_fit_with_v_projected_out_finds_r_star():
    g, start = dataset("softmax_qk", 2, seed=6)
    sel = select("softmax_qk", g, start, v_known=False, guess=4)
    assert sel.rank == 2, sel.z
    # V is fitted, and V* is identified only up to how well the fit explains Y.
    assert np.linalg.norm(sel.v - g["V"]) / np.linalg.norm(g["V"]) < 0.05


def test_heldout_fraction_must_leave_both_parts():
    g, start = dataset("linear_qk", 1)
    with pytest.raises(ValueError, match="heldout_fraction"):
        select("linear_qk", g, start, heldout_fraction=0.9999)


def estimates_frame():
    """Two settings; on 'e3' estimator a hits 3/4 (misses r*=2 once), b hits 4/4."""
    rows = []
    for setting in ("e4_size", "e3"):
        for r_star, seed, a_est in ((1, 0, 1.0), (1, 1, 1.2), (2, 0, 2.0), (2, 1, 3.0)):
            for name, est in (("a", a_est), ("b", float(r_star))):
                rows.append({"setting": setting, "spectrum": "sharp", "teacher": "softmax_qk",
                             "r_star": r_star, "seed": seed, "estimator": name,
                             "estimate": est, "numerical_rank": 1.0, "rank_tol1e-2": 1.0,
                             "gap_rank": 1.0, "v_sigma_min": 0.5, "gd_rank": 1.0,
                             "kept_over_tol": 5.0, "dropped_over_tol": 0.2,
                             "reff_energy": 1.0, "teacher_reff_energy": float(r_star),
                             "seconds": 2.0 if name == "a" else 4.0,
                             "z_below": 20.0 + r_star if name == "b" else np.nan,
                             "z_at": -1.0 - seed if name == "b" else np.nan,
                             "full_fit_over_floor": 1.0 + 0.01 * seed if name == "b"
                             else np.nan})
    return pd.DataFrame(rows)


def test_table4_scores_every_setting_and_names_the_misses():
    pred, scores = table4(estimates_frame())
    assert set(pred["estimator"]) == {"a", "b"} and pred["n_seeds"].eq(2).all()
    s = scores.set_index(["setting", "estimator"])
    assert list(scores["setting"])[:2] == ["e3", "e3"]  # the paper's grid first
    assert s.loc[("e3", "a"), "hits"] == 3 and s.loc[("e3", "b"), "hits"] == 4
    assert s.loc[("e3", "a"), "mae"] == pytest.approx((0.2 + 1.0) / 4)
    assert s.loc[("e3", "a"), "r_stars_missed"] == "2 (1)"
    assert s.loc[("e3", "b"), "r_stars_missed"] == ""
    assert s.loc[("e3", "b"), "seconds_per_dataset"] == 4.0
    assert s.loc[("e3", "b"), "z_below_min"] == 21.0 and s.loc[("e3", "b"), "z_at_max"] == -1.0
    assert s.loc[("e3", "b"), "full_fit_over_floor_max"] == pytest.approx(1.01)
    assert np.isnan(s.loc[("e3", "a"), "z_below_min"])
    assert len(scores) == 4


def test_open_problem_verdict_names_the_best_estimator_and_where_it_misses():
    frame = estimates_frame()
    _, scores = table4(frame)
    note = open_problem_note(scores)
    assert note.startswith("Open problem (i) answered") and "b is exact on all 8" in note
    # One miss of b on the second setting turns the verdict and says where.
    frame.loc[(frame["setting"] == "e4_size") & (frame["estimator"] == "b")
              & (frame["r_star"] == 2) & (frame["seed"] == 1), "estimate"] = 1.0
    note = open_problem_note(table4(frame)[1])
    assert note.startswith("Open problem (i) not answered")
    assert "b, is exact on 7/8" in note and "e4_size/sharp: r* 2 (1)" in note


def test_predictability_rows_carry_the_selection_and_its_margins(tmp_path):
    path = tmp_path / "d.npz"
    write_dataset(TeacherSpec("softmax_qk", T=6, d=8, r_star=2, n=600, sigma=0.05, seed=7), path)
    frame = predictability(str(path), str(tmp_path / "e.parquet"), setting="e3",
                           iterations=E4["als_iterations"], shrinkage=E4["shrinkage"],
                           eps=E4["eps"], tol=schema_defaults("spectra")["tol"],
                           heldout_fraction=E4["heldout_fraction"], z_crit=E4["z_crit"],
                           fit_iterations=E4["fit_iterations"]).set_index("estimator")
    for name in ("heldout_fit", "heldout_fit_als"):
        row = frame.loc[name]
        assert row["estimate"] == 2 and row["numerical_rank"] == 2
        assert row["z_below"] > E4["z_crit"] >= row["z_at"]
        assert 0.9 < row["full_fit_over_floor"] < 1.2  # the reference fit converged
        assert row["seconds"] >= frame.loc["v_known" if name == "heldout_fit" else
                                           "als_nuclear", "seconds"]
    assert frame.drop(index=["heldout_fit", "heldout_fit_als"])["z_at"].isna().all()
