"""Issue 10's faults at the unit level, each injected and checked against the new outcome:
verified reads of parquet and npz files (the workflow-level cases: ../workflow/test_faults.py)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from conftest import flip_value_byte

from entropic_bound.plumbing.atomic import (
    CorruptCacheError,
    open_npz,
    read_parquet,
    write_npz,
    write_parquet,
)


def test_a_flipped_parquet_value_is_an_error_not_a_new_number(tmp_path):
    path = tmp_path / "s0.metrics.parquet"
    values = np.random.default_rng(0).uniform(0.1, 1.0, 40)
    write_parquet(path, pd.DataFrame({"excess": values}))
    assert flip_value_byte(path) != values[0]  # unverified, the flip is a new number
    with pytest.raises(CorruptCacheError, match=r"s0.metrics.parquet is corrupt.*verify --remove"):
        read_parquet(path)


def test_every_effective_byte_flip_is_caught(tmp_path):
    """Over every byte of a small table: a flip either leaves what pandas reads unchanged or
    raises CorruptCacheError (page CRCs plus the content digest), never a silent change."""
    path = tmp_path / "t.parquet"
    write_parquet(path, pd.DataFrame({"excess": np.linspace(0.1, 1.0, 20), "k": ["a"] * 20,
                                      "curve": [[1.0, 2.0]] * 20}))
    raw, back = path.read_bytes(), read_parquet(path)
    silent = []
    for at in range(4, len(raw) - 8):
        flipped = bytearray(raw)
        flipped[at] ^= 0x40
        path.write_bytes(bytes(flipped))
        try:
            if not read_parquet(path).equals(back):
                silent.append(at)
        except CorruptCacheError:
            pass
    assert silent == []


def test_a_truncated_or_flipped_npz_is_one_clear_error(tmp_path):
    good = tmp_path / "s0.npz"
    write_npz(good, X=np.arange(2000.0))
    data = good.read_bytes()
    (tmp_path / "cut.npz").write_bytes(data[: len(data) // 2])
    flipped = bytearray(data)
    flipped[len(data) // 2] ^= 1
    (tmp_path / "flip.npz").write_bytes(bytes(flipped))
    for name in ("cut.npz", "flip.npz"):
        with (pytest.raises(CorruptCacheError, match=f"{name} is corrupt"),
              open_npz(tmp_path / name) as z):
            z["X"]
