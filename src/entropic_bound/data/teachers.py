"""Synthetic teachers (paper eqs. 8-9, App. C.2; protocol §2).

A dataset is a pure function of its :class:`TeacherSpec`: the random streams come from a
``numpy.random.SeedSequence`` keyed by (seed, T, d, r*, n, spectrum), so the same spec gives
bit-identical arrays on every machine. The teacher *kind* is deliberately not part of the key:
the linear and softmax teachers of one (r*, seed) share X, K*, V* and E, so their comparison
isolates the mixing nonlinearity.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import numpy as np

from entropic_bound.data.mixers import mixer

KINDS = ("linear_qk", "softmax_qk", "fixed_operator")
SPECTRA = ("sharp", "power_law", "flat")
# Fixed-operator factors (protocol §2): "independent" A* = U diag(lambda) W^T (the paper's
# reading, trace ~ 0); "symmetric" A* = U diag(lambda) U^T (sensitivity variant,
# trace = sum lambda).
OPERATORS = ("independent", "symmetric")


def spectrum(kind: str, r_star: int) -> np.ndarray:
    """Top-r* eigenvalues of the teacher operator.

    sharp (eq. 8): lambda_i = 2 - (i-1)/(r*-1) for r* > 1, lambda_1 = 2 for r* = 1;
    power_law: lambda_i = 1/i; flat: lambda_i = 1.
    """
    if r_star < 1:
        raise ValueError(f"r_star must be >= 1, got {r_star}")
    i = np.arange(1, r_star + 1, dtype=np.float64)
    if kind == "sharp":
        return np.array([2.0]) if r_star == 1 else 2.0 - (i - 1) / (r_star - 1)
    if kind == "power_law":
        return 1.0 / i
    if kind == "flat":
        return np.ones(r_star)
    raise ValueError(f"unknown spectrum {kind!r}; expected one of {SPECTRA}")


@dataclass(frozen=True)
class TeacherSpec:
    """Everything a dataset depends on. ``n_test`` samples form the held-out set."""

    kind: str
    T: int
    d: int
    r_star: int
    n: int
    sigma: float
    seed: int
    spectrum: str = "sharp"
    n_test: int | None = None
    operator: str | None = None  # fixed_operator only: one of OPERATORS


    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown teacher kind {self.kind!r}; expected one of {KINDS}")
        if self.spectrum not in SPECTRA:
            raise ValueError(f"unknown spectrum {self.spectrum!r}; expected one of {SPECTRA}")
        fixed = self.kind == "fixed_operator"
        if fixed and self.operator not in OPERATORS:
            raise ValueError(f"fixed_operator needs operator in {OPERATORS}, got {self.operator!r}")
        if not fixed and self.operator is not None:
            raise ValueError(f"operator={self.operator!r} applies to fixed_operator only; the "
                             f"kernel K* of {self.kind} is U diag(lambda) U^T")
        dim = self.T if fixed else self.d
        if not 1 <= self.r_star <= dim:
            raise ValueError(f"r_star={self.r_star} must lie in [1, {dim}] for {self.kind}")

    @property
    def noise_floor(self) -> float:
        """sigma^2 T d: the expected loss of the Bayes predictor (eq. 5 at the floor)."""
        return self.sigma**2 * self.T * self.d

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)


def _streams(spec: TeacherSpec, count: int) -> list[np.random.Generator]:
    key = [spec.seed, spec.T, spec.d, spec.r_star, spec.n, SPECTRA.index(spec.spectrum)]
    return [np.random.default_rng(s) for s in np.random.SeedSequence(key).spawn(count)]


def orthonormal_columns(rng: np.random.Generator, rows: int, cols: int) -> np.ndarray:
    """U with orthonormal columns: QR of a Gaussian, signs fixed so the map is deterministic."""
    q, r = np.linalg.qr(rng.standard_normal((rows, cols)))
    return q * np.sign(np.diag(r))


def generate(spec: TeacherSpec) -> dict[str, np.ndarray]:
    """Draw the teacher and its data: Y = M(X) X V* + E.

    The operator is U diag(lambda) U^T (the kernel K* of the QK teachers, and the symmetric
    fixed operator) or U diag(lambda) W^T with U, W independent orthonormal factors (the
    independent fixed operator, protocol §2). W has its own stream, so adding it left every
    other array of a spec unchanged.

    Returns float64 arrays: ``operator`` (K* of shape d x d, or A* of shape T x T for the
    fixed-operator task), ``V``, ``X``, ``Y``, ``X_test``, ``Y_test``, and ``spectrum``.
    """
    rng_u, rng_v, rng_x, rng_e, rng_xt, rng_et, rng_w = _streams(spec, 7)
    lam = spectrum(spec.spectrum, spec.r_star)
    dim = spec.T if spec.kind == "fixed_operator" else spec.d
    u = orthonormal_columns(rng_u, dim, spec.r_star)
    w = orthonormal_columns(rng_w, dim, spec.r_star) if spec.operator == "independent" else u
    operator = (u * lam) @ w.T
    v = rng_v.standard_normal((spec.d, spec.d)) / math.sqrt(spec.d)
    n_test = spec.n if spec.n_test is None else spec.n_test

    def draw(n: int, rx: np.random.Generator, re: np.random.Generator):
        x = rx.standard_normal((n, spec.T, spec.d))
        y = mixer(spec.kind, x, operator) @ x @ v + spec.sigma * re.standard_normal(x.shape)
        return x, y

    x, y = draw(spec.n, rng_x, rng_e)
    x_test, y_test = draw(n_test, rng_xt, rng_et)
    return {"operator": operator, "V": v, "X": x, "Y": y, "X_test": x_test, "Y_test": y_test,
            "spectrum": lam}
