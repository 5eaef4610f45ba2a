"""Ranks read off a spectrum compared by the band that machine rounding allows
(entropic_bound.audit.rank_bands and the audit's rank comparison)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from entropic_bound.audit import entries as audit
from entropic_bound.audit import rank_bands
from entropic_bound.measures import spectra
from entropic_bound.plumbing.atomic import write_parquet

DELTA = rank_bands.DELTA


def test_a_threshold_band_holds_the_values_within_the_rounding_of_the_threshold():
    # tol 1e-3 of s_1 = 1: the threshold is 1e-3, and a value moves by (1 + tol) DELTA s_1
    near = 1e-3 + 0.5 * DELTA  # within the rounding: either side on another machine
    far = 1e-3 + 3 * DELTA  # beyond it: kept on every machine
    band = rank_bands.threshold_band("numerical", np.array([1.0, far, near, 1e-6]), 1e-3, 1.0)
    assert band.count == 3 and band.allowed == (2, 3) and band.within == 1
    assert band.slack == pytest.approx((1 + 1e-3) * DELTA / 1e-3)
    clear = rank_bands.threshold_band("numerical", np.array([1.0, far, 1e-6]), 1e-3, 1.0)
    assert clear.allowed == (2,) and clear.within == 0


def test_an_exactly_low_rank_matrix_has_no_identifiable_gavish_donoho_rank_beyond_its_rank():
    """A fitted kernel of rank 2: its trailing singular values are rounding noise, the
    Gavish-Donoho median sits among them, and the band spans all of them (measured across
    CPUs: such counts moved by 1-2); the signal's two values are kept on every machine."""
    rng = np.random.default_rng(0)
    m = rng.standard_normal((32, 2)) @ rng.standard_normal((2, 32))
    with rank_bands.observed() as bands:
        spectra.measures(m, 1e-3)
    gd = next(b for b in bands if b.kind == "gd")
    assert min(gd.allowed) == 2 and max(gd.allowed) == 32
    numerical = next(b for b in bands if b.kind == "numerical")
    assert numerical.allowed == (2,)  # tol 1e-3 of s_1 is far above the noise


def test_the_largest_gap_band_admits_ties_within_rounding_only():
    s = np.array([10.0, 5.0, 5.0 * (1 - 1e-9), 2.5 * (1 - 1e-9), 1.0])  # gaps 2, 1, 2, 2.5
    assert rank_bands.gap_band(s).allowed == (4,)
    tied = np.array([8.0, 4.0, 4.0, 2.0 * (1 + 1e-7), 1.0])  # gaps 2, 1, 2, 2 within rounding
    band = rank_bands.gap_band(tied)
    assert band.count in (1, 3, 4) and set(band.allowed) == {1, 3, 4}


def test_observation_restores_the_library_and_is_written_and_read(tmp_path):
    original = spectra._numerical_rank
    with rank_bands.observed() as bands:
        assert spectra.numerical_rank(np.diag([1.0, 0.5, 1e-5]), 1e-3) == 2
        assert np.linalg.matrix_rank(np.diag([1.0, 0.0])) == 1
    assert spectra._numerical_rank is original
    assert [b.kind for b in bands] == ["numerical", "numpy"]
    rank_bands.write(tmp_path / "b.json", bands)
    assert rank_bands.read(tmp_path / "b.json") == bands
    assert rank_bands.read(tmp_path / "missing.json") == []


def _tables(tmp_path, ours: dict, stored: dict):
    write_parquet(tmp_path / "ours.parquet", pd.DataFrame(ours))
    write_parquet(tmp_path / "stored.parquet", pd.DataFrame(stored))
    return tmp_path / "ours.parquet", tmp_path / "stored.parquet"


def test_a_stored_rank_within_its_band_agrees_and_beyond_it_differs(tmp_path):
    """E4's estimate d456e50a0db4 under AVX2 kernels: Gavish-Donoho counts of a low-rank
    kernel read 7 and 8 (float64 columns; the former rule 'integer ranks within 1' never
    applied); a count past its band still differs, whatever the dtype."""
    bands = [rank_bands.Band("gd", 7, tuple(range(1, 33)), 25),
             rank_bands.Band("gd", 1, (1,), 0),
             rank_bands.Band("numerical", 30, (30, 31), 1, 0.1)]
    base = {"gd_rank": [7.0, 1.0], "estimate": [7.0, 1.04], "reff": [1.0, 1.04]}
    ours, stored = _tables(tmp_path, base, {**base, "gd_rank": [8.0, 1.0],
                                            "estimate": [8.0, 1.04]})
    _, rel, exact, close, where, judged = audit.compare(ours, stored, bands)
    assert not exact and close and judged == 0.0 and rel > 0.1
    assert "1 rank(s) read on the other side of their threshold" in where
    # the estimate that is the rank moved with it; a real change of another column does not
    _, stored = _tables(tmp_path, base, {**base, "gd_rank": [8.0, 1.0], "estimate": [8.0, 1.04],
                                         "reff": [1.1, 1.04]})
    assert not audit.compare(ours, stored, bands)[3]
    _, stored = _tables(tmp_path, base, {**base, "gd_rank": [7.0, 3.0]})  # beyond (1,)
    _, _, _, close, where, _ = audit.compare(ours, stored, bands)
    assert not close and "gd_rank[1]: stored 3, recomputed 1" in where
    assert not audit.compare(ours, stored, [])[3]  # no band learned: a moved rank differs


def test_the_numerical_ranks_margins_are_judged_within_the_bands_slack(tmp_path):
    bands = [rank_bands.Band("numerical", 2, (2,), 0, 0.1),
             rank_bands.Band("numerical", 30, (30, 31), 1, 0.1)]
    base = {"numerical_rank": [2.0, 30.0], "kept_over_tol": [16.2, 1.04],
            "dropped_over_tol": [9.1e-14, 0.97]}
    noise = {**base, "dropped_over_tol": [1.0e-13, 0.97]}  # rounding noise of a rank-2 kernel
    ours, stored = _tables(tmp_path, base, noise)
    assert audit.compare(ours, stored, bands)[3]
    # rank 31 stored: its last kept value is the one that crossed, within 1 + slack
    moved = {**base, "numerical_rank": [2.0, 31.0], "kept_over_tol": [16.2, 1.02],
             "dropped_over_tol": [9.1e-14, 0.9]}
    _, stored = _tables(tmp_path, base, moved)
    assert audit.compare(ours, stored, bands)[3]
    far = {**moved, "kept_over_tol": [16.2, 1.5]}  # a crossing value far from the threshold
    _, stored = _tables(tmp_path, base, far)
    _, _, _, close, where, _ = audit.compare(ours, stored, bands)
    assert not close and "stored margins" in where
    off = {**base, "kept_over_tol": [17.0, 1.04]}  # a margin beyond the slack: a real change
    _, stored = _tables(tmp_path, base, off)
    assert not audit.compare(ours, stored, bands)[3]
