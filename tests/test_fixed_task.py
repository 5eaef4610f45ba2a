"""Fixed-operator experiments (SPEC E1, E2, E5): theory values, ladder forwards, data-only
estimators, spectra."""

import math

import numpy as np
import pytest
import torch

from entropic_bound import ladder, spectra
from entropic_bound.estimators import fixed_operator_vknown, fixed_operator_vlp
from entropic_bound.fixed_measure import eckart_young_excess, theorem5_bound
from entropic_bound.teachers import TeacherSpec, generate, softmax_rows, spectrum


def test_eckart_young_value_matches_monte_carlo_rank_r_excess():
    """E ||(A* - A*_r) X V*||_F^2 over isotropic X equals ||V*||_F^2 sum_{j>r} lambda_j^2."""
    spec = TeacherSpec("fixed_operator", T=6, d=4, r_star=3, n=10, sigma=0.05, seed=0)
    g = generate(spec)
    a, v, lam = g["operator"], g["V"], g["spectrum"]
    w, u = np.linalg.eigh(a)
    order = np.argsort(w)[::-1]
    rng = np.random.default_rng(1)
    x = rng.standard_normal((40000, 6, 4))
    for r in (1, 2):
        keep = u[:, order[:r]]
        a_r = keep @ np.diag(w[order[:r]]) @ keep.T  # best rank-r approximation
        mc = float((((a - a_r) @ x @ v) ** 2).sum(axis=(1, 2)).mean())
        assert mc == pytest.approx(eckart_young_excess(v, lam, r), rel=0.02)
        assert theorem5_bound(x, v, lam, r) <= mc  # eq. 7 is a lower bound


def direct(cls, x, p):
    """Per-sample loops in numpy, written from the formulas of SPEC E2."""
    T, d = x.shape[1:]
    out = []
    for xn in x:
        if cls == "B0":
            out.append(p["P"] @ p["Q"].T @ xn @ p["V"])
            continue
        z = xn
        if cls == "B3":
            z = (xn - xn.mean(-1, keepdims=True)) / np.sqrt(xn.var(-1, keepdims=True) + 1e-5)
            z = z * p["ln1_g"] + p["ln1_b"]
        k = p["K"] if cls == "B1c" else p["WQ"] @ p["WK"].T
        s = z @ k @ z.T / math.sqrt(d)
        m = softmax_rows(s) if cls in ("B2", "B3") else s
        if cls != "B3":
            out.append(m @ xn @ p["V"])
            continue
        h = xn + m @ z @ p["V"]
        hn = (h - h.mean(-1, keepdims=True)) / np.sqrt(h.var(-1, keepdims=True) + 1e-5)
        hn = hn * p["ln2_g"] + p["ln2_b"]
        pre = hn @ p["W1"] + p["b1"]
        gelu = 0.5 * pre * (1 + np.vectorize(math.erf)(pre / math.sqrt(2)))
        out.append(h + gelu @ p["W2"] + p["b2"])
    return np.stack(out)


@pytest.mark.parametrize("cls", ladder.CLASSES)
def test_ladder_forward_matches_direct_formula(cls):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((7, 5, 4))
    p = ladder.init_params(cls, T=5, d=4, r=2, seed=3, role=0)
    if cls == "B3":  # non-trivial LayerNorm affine and biases
        p = {k: v + 0.1 * rng.standard_normal(v.shape) for k, v in p.items()}
    got = ladder.forward(cls, torch.from_numpy(x), **{k: torch.from_numpy(v) for k, v in p.items()})
    assert np.allclose(got.numpy(), direct(cls, x, p), rtol=1e-10, atol=1e-12)


def test_data_only_estimators_recover_the_rank_of_a_noiseless_operator():
    spec = TeacherSpec("fixed_operator", T=8, d=5, r_star=3, n=300, sigma=1e-12, seed=4)
    g = generate(spec)
    a_known = fixed_operator_vknown(g["X"], g["Y"], g["V"])
    a_vlp = fixed_operator_vlp(g["X"], g["Y"])
    assert np.allclose(a_known, g["operator"], atol=1e-8)
    assert spectra.numerical_rank(a_known) == 3
    assert spectra.numerical_rank(a_vlp) == 3


@pytest.mark.parametrize("kind,expected", [("sharp", 3.571), ("power_law", 2.435),
                                           ("flat", 4.000)])
def test_three_spectra_give_the_teacher_energy_ranks_of_table5(kind, expected):
    spec = TeacherSpec("linear_qk", T=10, d=12, r_star=4, n=5, sigma=0.05, seed=0,
                       spectrum=kind)
    k = generate(spec)["operator"]
    assert spectra.reff_energy(k) == pytest.approx(expected, abs=5e-4)
