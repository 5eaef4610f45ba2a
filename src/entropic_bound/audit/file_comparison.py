"""How the audit compares a recomputed output file with a stored one
(:mod:`entropic_bound.audit.entries`): every array of an ``.npz``, every column of a parquet
table (wall-clock ``seconds`` columns left out), any other file by its bytes.

Elementwise, ``|a - b| <= atol + rtol * |b|`` (numpy's ``allclose``) with :data:`RTOL` and
:data:`ATOL`, NaNs in the same places; bit-identical where every value is. The ranks read off a
spectrum (numerical, Gavish-Donoho, largest gap; any dtype) are judged by the bands machine
rounding allows around the recomputed spectrum's threshold
(:mod:`entropic_bound.audit.rank_bands`), and the values read at a rank that moved within
its band are judged with it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from entropic_bound.audit import rank_bands
from entropic_bound.plumbing.atomic import open_npz, read_parquet

RTOL = 1e-4
ATOL = 1e-9
TIMING = re.compile(r"seconds")


def _pairs(a: np.ndarray, b: np.ndarray) -> tuple[float, float, bool, bool]:
    """(max abs diff, max rel diff, bit-identical, within tolerance) of two arrays."""
    if a.shape != b.shape:
        return np.inf, np.inf, False, False
    if a.dtype.kind not in "fciub" or b.dtype.kind not in "fciub":
        same = bool(np.array_equal(a.astype(object), b.astype(object)))
        return (0.0 if same else np.inf), (0.0 if same else np.inf), same, same
    a64, b64 = a.astype(np.complex128 if a.dtype.kind == "c" else np.float64), \
        b.astype(np.complex128 if b.dtype.kind == "c" else np.float64)
    nan_same = bool(np.array_equal(np.isnan(a64), np.isnan(b64)))
    finite = ~np.isnan(a64) & ~np.isnan(b64)
    diff = np.abs(a64[finite] - b64[finite])
    scale = np.abs(b64[finite])
    max_abs = float(diff.max()) if diff.size else 0.0
    with np.errstate(divide="ignore", invalid="ignore"):
        rel = np.where(scale > 0, diff / scale, np.where(diff > 0, np.inf, 0.0))
    max_rel = float(rel.max()) if rel.size else 0.0
    exact = nan_same and bool(np.array_equal(a64[finite], b64[finite]))
    close = nan_same and bool(np.all(diff <= ATOL + RTOL * scale))
    return max_abs, max_rel, exact, close


def _arrays(path: Path) -> dict[str, np.ndarray]:
    """The comparable arrays of one output: parquet columns (lists flattened), npz members."""
    if path.suffix == ".npz":
        with open_npz(path) as z:
            return {name: np.asarray(z[name]) for name in z.files}
    if path.suffix == ".parquet":
        frame = read_parquet(path)
        out = {}
        for column in frame.columns:
            if TIMING.search(column):
                continue
            values = frame[column].to_list()
            if values and isinstance(values[0], list | np.ndarray):
                out[column] = np.concatenate([np.asarray(v, dtype=float).ravel()
                                              for v in values]) if values else np.array([])
            else:
                out[column] = np.asarray(values)
        return out
    return {"bytes": np.frombuffer(path.read_bytes(), dtype=np.uint8)}


@dataclass
class RankReading:
    """What the rank comparison found in one output: the counts that moved within their
    bands, those that moved beyond them (``column[row]: stored vs recomputed``), and how many
    singular values sat within the rounding of their thresholds."""

    moved: int = 0
    beyond: list[str] = field(default_factory=list)
    within: int = 0


def read_ranks(a: dict[str, np.ndarray], b: dict[str, np.ndarray],
               bands: list[rank_bands.Band]) -> RankReading:
    """Judge the rank columns of recomputed ``a`` against stored ``b`` by ``bands`` (the
    recomputed spectra's): a stored rank in its band agrees and is replaced in ``b`` by ours,
    with every column of its row equal to the rank on both sides (an estimate that is the
    rank); a rank beyond its band is listed. The numerical rank's margins (singular values
    over its threshold) are compared within the band's slack, the rounding of a singular value
    over that threshold; where the rank moved, the stored value that crossed (its last kept or
    first dropped) must lie within the slack of 1. What was judged is replaced in ``b``, so
    that the elementwise comparison that follows judges the rest."""
    found = RankReading(within=sum(band.within for band in bands))
    stored_ranks = dict(b)

    def comparable(column: str) -> bool:
        return (column in b and a[column].ndim == 1 and a[column].dtype.kind in "fiub"
                and b[column].dtype.kind in "fiub" and b[column].shape == a[column].shape)

    def judge(column: str, row: int) -> None:
        b[column] = b[column].astype(float, copy=True)
        b[column][row] = a[column][row]

    others = [c for c in a if rank_bands.kind_of(c) is None and comparable(c)]
    for column in sorted(c for c in a if rank_bands.kind_of(c) and comparable(c)):
        kind = rank_bands.kind_of(column)
        ours, theirs = a[column].astype(float), b[column].astype(float)
        for row in np.flatnonzero(~(np.isnan(ours) & np.isnan(theirs)) & (ours != theirs)):
            mine, stored = ours[row], theirs[row]
            if np.isnan(mine) or np.isnan(stored) or \
                    int(stored) not in rank_bands.allowed(bands, kind, int(mine)):
                found.beyond.append(f"{column}[{row}]: stored {stored:g}, recomputed {mine:g}")
                continue
            found.moved += 1
            judge(column, row)
            for other in others:
                if a[other][row] == mine and b[other][row] == stored:
                    judge(other, row)
    if not (set(rank_bands.MARGINS) <= set(a) and comparable("numerical_rank")
            and all(comparable(m) for m in rank_bands.MARGINS)):
        return found
    for row, (mine, stored) in enumerate(zip(a["numerical_rank"],
                                             stored_ranks["numerical_rank"], strict=True)):
        if np.isnan(mine) or np.isnan(stored):
            continue
        slack = max((band.slack for band in bands
                     if band.kind == "numerical" and band.count == int(mine)), default=0.0)
        ours_m, theirs_m = (np.array([side[m][row] for m in rank_bands.MARGINS], dtype=float)
                            for side in (a, b))
        if stored == mine:
            ok = bool(np.all((np.isnan(ours_m) & np.isnan(theirs_m))
                             | (np.abs(ours_m - theirs_m) <= slack)))
        else:  # the value that crossed: the stored last kept (rank above ours), first dropped
            kept, dropped = theirs_m
            ok = bool(kept <= 1 + slack if stored > mine else dropped >= 1 - slack)
            if not ok:
                found.beyond.append(f"numerical_rank[{row}]: the stored margins "
                                    f"{kept:g}, {dropped:g} lie beyond 1 +- {slack:g}")
        if ok:
            for margin in rank_bands.MARGINS:
                judge(margin, row)
    return found


def compare(ours: Path, stored: Path, bands: list[rank_bands.Band] | None = None
            ) -> tuple[float, float, bool, bool, str, float]:
    """Compare one recomputed output with the stored one (ranks by ``bands``, the recomputed
    spectra's: :func:`read_ranks`): the largest absolute and relative differences, whether
    bit-identical, whether within the tolerance, where, and the largest relative difference
    judged (ranks within their bands replaced)."""
    a, b = _arrays(ours), _arrays(stored)
    if set(a) != set(b):
        return (np.inf, np.inf, False, False, f"columns differ: {sorted(set(a) ^ set(b))}",
                np.inf)
    judged = dict(b)  # the stored values, with ranks that moved within their bands replaced
    ranks = read_ranks(a, judged, bands or [])
    worst_abs = worst_rel = judged_rel = 0.0
    exact, close, at = True, not ranks.beyond, ""
    for name in sorted(a):
        d_abs, d_rel, same, near = _pairs(a[name], b[name])
        if d_rel > worst_rel or (d_abs > worst_abs and not at):
            at = f"{stored.name}:{name}"
        worst_abs, worst_rel = max(worst_abs, d_abs), max(worst_rel, d_rel)
        exact &= same
        if judged[name] is not b[name]:  # a rank (or a value read at it) judged by its band
            _, d_rel, _, near = _pairs(a[name], judged[name])
        judged_rel, close = max(judged_rel, d_rel), close and near
    notes = [at] if at else []
    notes += ranks.beyond[:3]
    if ranks.moved:
        notes.append(f"{ranks.moved} rank(s) read on the other side of their threshold, "
                     f"within their bands")
    if ranks.within and not exact:
        notes.append(f"{ranks.within} singular value(s) within the bands of their thresholds")
    where = "; ".join(notes)
    return worst_abs, worst_rel, exact, close, where, judged_rel
