"""Spectral measures against closed forms (protocol §1; paper eqs. 1-3)."""


import numpy as np
import pytest
from conftest import schema_defaults

from entropic_bound.data.teachers import spectrum
from entropic_bound.measures import spectra

TOL = schema_defaults("spectra")["tol"]


def test_diagonal_matrix_closed_forms():
    """sigma = (3, 2, 1, 0): p = (1/2, 1/3, 1/6), so Reff = exp(H(p)) = 2^(2/3) 3^(1/2)
    (eq. 1); energy weights (9, 4, 1)/14 give R~eff = 14 / (9^(9/14) 4^(4/14)) (eq. 2)."""
    m = np.diag([3.0, 2.0, 1.0, 0.0])
    assert spectra.reff(m) == pytest.approx(2 ** (2 / 3) * 3**0.5, rel=1e-12)
    assert spectra.reff(m) == pytest.approx(2.749459, rel=1e-6)
    assert spectra.reff_energy(m) == pytest.approx(14 / (9 ** (9 / 14) * 4 ** (4 / 14)),
                                                   rel=1e-12)
    assert spectra.rstable(m) == pytest.approx(14.0 / 9.0, rel=1e-12)
    assert spectra.numerical_rank(m, TOL) == 3


def test_flat_spectrum_gives_exact_rank_and_ordering():
    rng = np.random.default_rng(0)
    q, _ = np.linalg.qr(rng.standard_normal((10, 10)))
    m = q[:, :4] @ q[:, :4].T  # rank 4, flat
    assert spectra.reff(m) == pytest.approx(4.0, rel=1e-10)
    assert spectra.reff_energy(m) == pytest.approx(4.0, rel=1e-10)
    assert spectra.rstable(m) == pytest.approx(4.0, rel=1e-10)
    a = rng.standard_normal((7, 5))  # paper: 1 <= Rstable <= R~eff <= Reff <= rank
    assert 1 <= spectra.rstable(a) <= spectra.reff_energy(a) <= spectra.reff(a) <= 5


@pytest.mark.parametrize("r_star,expected", [(1, 1.000), (2, 1.649), (3, 2.623), (4, 3.571),
                                              (6, 5.448), (8, 7.317)])
def test_teacher_energy_ranks_of_sharp_spectrum(r_star, expected):
    """Protocol §E3 lists these energy ranks of the eq. 8 spectrum."""
    assert spectra.reff_energy(np.diag(spectrum("sharp", r_star))) == pytest.approx(
        expected, abs=5e-4)


def test_rank_deficient_matrix():
    rng = np.random.default_rng(1)
    m = rng.standard_normal((12, 3)) @ rng.standard_normal((3, 9))
    assert spectra.numerical_rank(m, TOL) == 3
    assert spectra.reff(m) <= 3 + 1e-9


def test_zero_matrix_gives_zeros_not_nan():
    out = spectra.measures(np.zeros((5, 5)), TOL)
    assert out == {"reff": 0.0, "reff_energy": 0.0, "rstable": 0.0, "numerical_rank": 0,
                   "gd_rank": 0}


def test_gavish_donoho_constant_and_rank():
    # Gavish & Donoho (2014): omega(1) = 2.858 for square matrices, unknown noise.
    assert spectra.gavish_donoho_omega(1.0) == pytest.approx(2.86, abs=1e-9)
    assert spectra.gavish_donoho_omega(0.5) == pytest.approx(
        0.56 * 0.125 - 0.95 * 0.25 + 1.82 * 0.5 + 1.43, abs=1e-12)
    rng = np.random.default_rng(2)
    u, _ = np.linalg.qr(rng.standard_normal((200, 3)))
    v, _ = np.linalg.qr(rng.standard_normal((100, 3)))
    signal = (u * np.array([30.0, 25.0, 20.0])) @ v.T
    noisy = signal + 0.05 * rng.standard_normal((200, 100))
    assert spectra.gavish_donoho_rank(noisy) == 3
    assert spectra.numerical_rank(noisy, tol=1e-3) > 3  # the relative count sees the noise


def test_mp_correction_inverts_the_forward_formula():
    r_true, m, n = 3.0, 16, 3000
    r_hat = r_true + (m - r_true) / (2 * n)
    assert spectra.mp_correct(r_hat, m, n) == pytest.approx(r_true, rel=1e-12)


def test_gap_rank_finds_the_largest_singular_value_gap():
    from entropic_bound.measures.spectra import gap_rank

    assert gap_rank(np.diag([5.0, 4.0, 3.0, 1e-3, 9e-4])) == 3
    assert gap_rank(np.diag([1.0, 1e-6, 0.0])) == 1
    assert gap_rank(np.zeros((3, 3))) == 0
