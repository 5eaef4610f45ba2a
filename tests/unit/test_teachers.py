"""Teachers (protocol §2): determinism by seed, rank and spectrum of the operator."""

import numpy as np
import pytest

from entropic_bound.data.mixers import mixer
from entropic_bound.data.teachers import TeacherSpec, generate, spectrum


def small(kind="linear_qk", **kw):
    base = dict(kind=kind, T=6, d=8, r_star=3, n=40, sigma=0.05, seed=0)
    return TeacherSpec(**{**base, **kw})


def test_same_spec_gives_bit_identical_arrays():
    a, b = generate(small()), generate(small())
    for key in a:
        assert np.array_equal(a[key], b[key]), key
    c = generate(small(seed=1))
    assert not np.array_equal(a["X"], c["X"])


def test_kernel_rank_symmetry_and_spectrum():
    for r_star in (1, 2, 5):
        out = generate(small(r_star=r_star))
        k = out["operator"]
        assert np.allclose(k, k.T)
        eig = np.sort(np.linalg.eigvalsh(k))[::-1]
        assert np.allclose(eig[:r_star], spectrum("sharp", r_star), atol=1e-12)
        assert np.allclose(eig[r_star:], 0.0, atol=1e-12)
        assert np.linalg.matrix_rank(k) == r_star


def test_spectra_closed_forms():
    assert np.allclose(spectrum("sharp", 3), [2.0, 1.5, 1.0])
    assert np.allclose(spectrum("sharp", 1), [2.0])
    assert np.allclose(spectrum("power_law", 4), [1, 1 / 2, 1 / 3, 1 / 4])
    assert np.allclose(spectrum("flat", 2), [1, 1])


def test_targets_follow_eq9_and_share_inputs_across_kinds():
    lin, soft = generate(small("linear_qk")), generate(small("softmax_qk"))
    assert np.array_equal(lin["X"], soft["X"]) and np.array_equal(lin["V"], soft["V"])
    noise_lin = lin["Y"] - mixer("linear_qk", lin["X"], lin["operator"]) @ lin["X"] @ lin["V"]
    soft_mix = mixer("softmax_qk", soft["X"], soft["operator"])
    noise_soft = soft["Y"] - soft_mix @ soft["X"] @ soft["V"]
    assert np.allclose(noise_lin, noise_soft)
    assert noise_lin.std() == pytest.approx(0.05, rel=0.1)
    rows = mixer("softmax_qk", soft["X"], soft["operator"]).sum(-1)
    assert np.allclose(rows, 1.0)


@pytest.mark.parametrize("operator", ["independent", "symmetric"])
def test_fixed_operator_target(operator):
    out = generate(small("fixed_operator", T=8, d=5, operator=operator))
    a = out["operator"]
    assert a.shape == (8, 8) and np.linalg.matrix_rank(a) == 3
    assert np.allclose(np.linalg.svd(a, compute_uv=False)[:3], spectrum("sharp", 3))
    resid = out["Y"] - a @ out["X"] @ out["V"]
    assert resid.std() == pytest.approx(0.05, rel=0.1)


def test_independent_operator_has_independent_factors_and_shares_the_rest():
    """Protocol §2: A* = U diag(lambda) W^T. The symmetric variant is U diag(lambda) U^T with
    trace sum(lambda) = 4.5; the independent one is not symmetric and its trace is small. Only
    W is new: X, V*, E and U are the symmetric variant's, bit for bit."""
    spec = dict(kind="fixed_operator", T=12, d=10, r_star=3, n=50, sigma=0.05, seed=0)
    ind = generate(TeacherSpec(**spec, operator="independent"))
    sym = generate(TeacherSpec(**spec, operator="symmetric"))
    assert np.allclose(sym["operator"], sym["operator"].T)
    assert np.trace(sym["operator"]) == pytest.approx(4.5)
    assert not np.allclose(ind["operator"], ind["operator"].T)
    assert abs(np.trace(ind["operator"])) < 1.5
    for key in ("X", "V", "X_test"):
        assert np.array_equal(ind[key], sym[key]), key
    u_ind = np.linalg.svd(ind["operator"])[0][:, :3]
    u_sym = np.linalg.svd(sym["operator"])[0][:, :3]
    assert np.allclose(np.abs(u_ind.T @ u_sym), np.eye(3), atol=1e-8)  # same left factor


def test_operator_applies_to_the_fixed_task_only():
    with pytest.raises(ValueError, match="operator"):
        small("fixed_operator")
    with pytest.raises(ValueError, match="fixed_operator only"):
        small("linear_qk", operator="independent")


@pytest.mark.parametrize("kw,match", [({"r_star": 0}, "r_star"), ({"kind": "cubic"}, "kind"),
                                      ({"spectrum": "zipf"}, "spectrum")])
def test_bad_spec_is_rejected_with_the_key(kw, match):
    with pytest.raises(ValueError, match=match):
        small(**kw)


def test_noise_floor():
    assert TeacherSpec("linear_qk", 16, 32, 1, 10, 0.05, 0).noise_floor == pytest.approx(1.28)
