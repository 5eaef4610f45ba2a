"""Ranks compared by what another machine can identify: the counts a spectrum gives at a
threshold, and the band of counts that machine rounding allows.

A count read off a spectrum s_1 >= s_2 >= ... at a threshold t is k = #{i : s_i > t}: the
numerical rank (t = tol s_1, protocol §1), its variants at other tolerances (``rank_tol*``),
numpy's ``matrix_rank`` (t = max(m, n) eps s_1) and the Gavish-Donoho rank (t = omega(beta)
median(s), Gavish & Donoho 2014, eq. 5). Another CPU's kernels compute the matrix and its SVD
with other roundings, A + E for A; by Weyl's inequality every singular value moves by at most
||E||_2, measured as at most :data:`DELTA` s_1 (docs/design.md, "Determinism"). The threshold
c s_1 or c median(s) then moves by at most c DELTA s_1 (a median of values that each move by
at most DELTA s_1 moves by at most that), so a value within m = (1 + c) DELTA s_1 of t may fall
on either side of it, and another machine may read any count in the band

    [#{s_i > t + m},  #{s_i > t - m}].

A stored count agrees with a recomputed spectrum when it lies in that band. Where the matrix
is exactly low-rank (a fitted kernel of rank r, a soft-thresholded estimate), its trailing
singular values are rounding noise near 0, Gavish-Donoho's median sits among them, and the band
spans every such value: that count is not identifiable beyond r, and the band says so.

The largest-gap rank (argmax_k s_k / s_{k+1}) is not a count at a threshold. With each value
moved by at most DELTA s_1, ratio k lies in [(s_k - e) / (s_{k+1} + e), (s_k + e) / (s_{k+1} -
e)] (e = DELTA s_1; unbounded where s_{k+1} <= e), and another machine may read any k whose
largest ratio reaches the smallest ratio of the recomputed largest gap.

The audit learns the recomputed spectra by running a job's command (the exact command of this
run's job, :mod:`entropic_bound.audit.entries`) under :func:`observed`, which wraps the count
functions of :mod:`entropic_bound.measures.spectra` and numpy's ``matrix_rank`` in that process
alone, recording each count read and its band (``python -m entropic_bound.audit.rank_bands
BANDS -- ARGS``). The job's code is unchanged, so its key is. A band is matched to an output's
column by its kind and recomputed count (:func:`allowed`); the audit reports how many singular
values sat within their bands.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

# the largest move of a singular value between two CPUs' kernels, over s_1: measured at most
# 1.5e-5 (AVX-512 against AVX2 kernels, 1,120 spectra of 30 E4 datasets outside the
# e4_fresh_seeds setting; 99th percentile 1.9e-7; docs/design.md, "Determinism"), with a
# factor of ~7 of headroom, fixed before any audited entry was compared by it
DELTA = 1e-4

# which count an output column holds, by its name
KINDS = (("gap", re.compile(r"(^|_)gap_rank$")),
         ("gd", re.compile(r"(^|_)gd_rank$")),
         ("numpy", re.compile(r"(^|_)rank_numpy$")),
         ("numerical", re.compile(r"(^|_)(numerical_rank|rank_tol.*)$")))
# columns read at a row's numerical rank: the kept and the first dropped singular value
MARGINS = ("kept_over_tol", "dropped_over_tol")


@dataclass(frozen=True)
class Band:
    """One count read off a spectrum: its kind (a :data:`KINDS` name), the count, the counts
    another machine may read (``allowed``), how many singular values (or ratios) sat within
    the rounding of the threshold (``within``) and that rounding over the threshold
    (``slack``: m / t, where the numerical rank's margins may lie around 1)."""

    kind: str
    count: int
    allowed: tuple[int, ...]
    within: int
    slack: float = 0.0


def kind_of(column: str) -> str | None:
    """The kind of count a column holds, None for any other column."""
    return next((kind for kind, pattern in KINDS if pattern.search(column)), None)


def threshold_band(kind: str, s: np.ndarray, coefficient: float, scale: float,
                   delta: float = DELTA) -> Band:
    """The :class:`Band` of the count #{s_i > t}, t = coefficient * scale (scale: s_1, or the
    median of s; the module's doc)."""
    s = np.asarray(s, dtype=np.float64)
    threshold, move = coefficient * scale, (1 + coefficient) * delta * s.max()
    low, high = int((s > threshold + move).sum()), int((s > threshold - move).sum())
    return Band(kind, int((s > threshold).sum()), tuple(range(low, high + 1)), high - low,
                move / threshold if threshold > 0 else np.inf)


def gap_band(s: np.ndarray, delta: float = DELTA) -> Band:
    """The :class:`Band` of the largest-gap rank of s (its nonzero values; the module's doc)."""
    s = np.asarray(s, dtype=np.float64)
    s = s[s > 0]
    if s.size <= 1:
        return Band("gap", int(s.size), (int(s.size),), 0)
    e = delta * s[0]
    ratios = s[:-1] / s[1:]
    lowest = (s[:-1] - e) / (s[1:] + e)
    with np.errstate(divide="ignore"):
        highest = np.where(s[1:] > e, (s[:-1] + e) / np.maximum(s[1:] - e, 0), np.inf)
    k = int(np.argmax(ratios))
    near = np.flatnonzero(highest >= lowest[k]) + 1
    return Band("gap", k + 1, tuple(int(j) for j in near), len(near) - 1)


@contextmanager
def observed(delta: float = DELTA) -> Iterator[list[Band]]:
    """Within the context, every count :mod:`entropic_bound.measures.spectra` (and numpy's
    ``matrix_rank``) reads is recorded, with its band, in the yielded list."""
    from entropic_bound.measures import spectra

    bands: list[Band] = []
    numerical, gavish_donoho, gap = (spectra._numerical_rank, spectra._gavish_donoho_rank,
                                     spectra.gap_rank)
    matrix_rank = np.linalg.matrix_rank

    def numerical_count(s: np.ndarray, tol: float) -> int:
        if s.size and s[0] > 0:
            bands.append(threshold_band("numerical", s, tol, float(s[0]), delta))
        return numerical(s, tol)

    def gavish_donoho_count(s: np.ndarray, shape: tuple[int, ...]) -> int:
        if s.size and s[0] > 0:
            beta = min(shape) / max(shape)
            bands.append(threshold_band("gd", s, spectra.gavish_donoho_omega(beta),
                                        float(np.median(s)), delta))
        return gavish_donoho(s, shape)

    def gap_count(m: np.ndarray) -> int:
        bands.append(gap_band(spectra.singular_values(m), delta))
        return gap(m)

    def numpy_count(m: np.ndarray, *args: object, **kwargs: object) -> int:
        if not args and not kwargs and np.ndim(m) == 2 and np.size(m):
            s = np.linalg.svd(m, compute_uv=False)
            bands.append(threshold_band("numpy", s, max(np.shape(m)) * np.finfo(s.dtype).eps,
                                        float(s.max()), delta))
        return int(matrix_rank(m, *args, **kwargs))

    replaced: list[tuple[object, str, Callable]] = [
        (spectra, "_numerical_rank", numerical_count),
        (spectra, "_gavish_donoho_rank", gavish_donoho_count),
        (spectra, "gap_rank", gap_count), (np.linalg, "matrix_rank", numpy_count)]
    originals = [(owner, name, getattr(owner, name)) for owner, name, _ in replaced]
    for owner, name, wrapper in replaced:
        setattr(owner, name, wrapper)
    try:
        yield bands
    finally:
        for owner, name, original in originals:
            setattr(owner, name, original)


def allowed(bands: list[Band], kind: str, count: int) -> set[int]:
    """The counts another machine may read where this run read ``count`` of ``kind``: the
    union of the bands of that kind and count (the same count read off several spectra)."""
    return {k for b in bands if b.kind == kind and b.count == count for k in b.allowed}


def write(path: str | Path, bands: list[Band]) -> None:
    Path(path).write_text(json.dumps([asdict(b) for b in bands]))


def read(path: str | Path) -> list[Band]:
    """The bands a run under :func:`observed` wrote; none where it wrote none."""
    try:
        rows = json.loads(Path(path).read_text())
    except (OSError, ValueError):
        return []
    return [Band(r["kind"], int(r["count"]), tuple(int(k) for k in r["allowed"]),
                 int(r["within"]), float(r["slack"])) for r in rows]


def main(argv: list[str] | None = None) -> None:
    """``python -m entropic_bound.audit.rank_bands BANDS -- ARGS``: ``entropic-bound ARGS``
    under :func:`observed`, its bands written to BANDS (also when it fails)."""
    from entropic_bound import cli

    argv = sys.argv[1:] if argv is None else argv
    if len(argv) < 2 or argv[1] != "--":
        raise SystemExit("usage: python -m entropic_bound.audit.rank_bands BANDS -- ARGS")
    with observed() as bands:
        try:
            cli.main(argv[2:])
        finally:
            write(argv[0], bands)


if __name__ == "__main__":
    main()
