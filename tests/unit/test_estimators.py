"""Data-only estimators of SPEC E4 on small teachers with known answers."""

import numpy as np
import pytest
from conftest import schema_defaults

from entropic_bound.data.teachers import TeacherSpec, generate
from entropic_bound.measures import spectra
from entropic_bound.measures.estimators import (
    als_kernel,
    bilinear_lstsq,
    kernel_from_mixers,
    recovered_mixers,
)

TOL = schema_defaults("spectra")["tol"]
E4 = schema_defaults("e4")


def noiseless(kind, r_star=2, n=400):
    return generate(TeacherSpec(kind, T=5, d=8, r_star=r_star, n=n, sigma=1e-12, seed=2))


def test_v_known_linear_recovers_the_kernel_and_its_rank():
    g = noiseless("linear_qk")
    k = kernel_from_mixers("linear_qk", g["X"], recovered_mixers(g["X"], g["Y"], g["V"]),
                           E4["eps"])
    rel = np.linalg.norm(k - g["operator"]) / np.linalg.norm(g["operator"])
    assert rel < 1e-6
    assert spectra.numerical_rank(k, TOL) == 2


def test_v_known_softmax_log_inversion_is_exact_without_noise():
    g = noiseless("softmax_qk", r_star=3)
    m_hat = recovered_mixers(g["X"], g["Y"], g["V"])
    assert m_hat.min() > 1e-12  # nothing is clipped at this eps: the inversion is exact
    k = kernel_from_mixers("softmax_qk", g["X"], m_hat, eps=1e-12)
    # Row centring removes only the softmax normaliser, so K* itself is identified.
    assert np.allclose(k, g["operator"], atol=1e-5)
    assert spectra.numerical_rank(k, TOL) == 3


def test_weighted_solver_with_unit_weights_equals_the_unweighted_one():
    rng = np.random.default_rng(0)
    x, z = rng.standard_normal((30, 4, 3)), rng.standard_normal((30, 5, 3))
    t = rng.standard_normal((30, 4, 5))
    for center in (False, True):
        plain = bilinear_lstsq(x, z, t, center_rows=center, chunk=7)
        unit = bilinear_lstsq(x, z, t, w=np.ones_like(t), center_rows=center, chunk=7)
        assert np.allclose(plain, unit, atol=1e-10)


def test_als_objective_decreases_monotonically():
    g = generate(TeacherSpec("linear_qk", T=5, d=6, r_star=2, n=300, sigma=0.05, seed=1))
    k, _, history = als_kernel("linear_qk", g["X"], g["Y"], iterations=15, shrinkage=0.0,
                               eps=E4["eps"])
    assert all(b <= a * (1 + 1e-9) for a, b in zip(history, history[1:])), history
    floor = 0.05**2 * 5 * 6
    assert history[-1] < 1.5 * floor
    assert spectra.reff_energy(k) == pytest.approx(spectra.reff_energy(g["operator"]), rel=0.05)
