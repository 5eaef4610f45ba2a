"""Faults at the unit level, each injected and checked against the new outcome:
verified reads of parquet and npz files (the workflow-level cases:
../workflow/test_bad_settings_and_corrupt_cells.py)."""

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


# ------------------------------------------------------------------ full disk, vocabulary


def test_a_full_disk_is_one_line_naming_the_output_and_leaves_nothing(tmp_path, monkeypatch,
                                                                       caplog):
    """A full disk printed three chained tracebacks before the clear line."""
    import errno
    import logging

    from entropic_bound import cli
    from entropic_bound.plumbing import atomic

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(atomic.np, "savez", full)
    out = tmp_path / "d.npz"
    with pytest.raises(SystemExit) as stop, caplog.at_level(logging.ERROR):
        cli.main(["make-data", "--out", str(out), "--params",
                  '{"kind": "linear_qk", "T": 4, "d": 4, "r_star": 1, "n": 8, "sigma": 0.1, '
                  '"seed": 0}'])
    assert stop.value.code == 4
    [record] = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert f"{out}: no space left on the device while writing it" in record.getMessage()
    assert "rerun the same command" in record.getMessage() and record.exc_info is None
    assert list(tmp_path.iterdir()) == []  # no partial file, no temporary left behind


def test_a_vocabulary_beyond_uint16_is_one_line_naming_the_corpus(tmp_path):
    """Over 65,536 distinct characters was an OverflowError from uint16."""
    import json

    from entropic_bound.data.tokens import tokenize_corpus
    from entropic_bound.plumbing.atomic import sha256_bytes

    text = "".join(chr(0x4E00 + i) if i < 20_000 else chr(0x20000 + i) for i in range(70_000))
    (tmp_path / "text.txt").write_text(text, encoding="utf-8")
    (tmp_path / "provenance.json").write_text(json.dumps(
        {"text_sha256": sha256_bytes(text.encode("utf-8"))}))
    with pytest.raises(ValueError, match=r"text\.txt: 70,000 distinct characters: a char-level "
                                         r"vocabulary holds at most 65,536"):
        tokenize_corpus(str(tmp_path / "text.txt"), str(tmp_path / "provenance.json"),
                        str(tmp_path / "tokens.npz"), str(tmp_path / "meta.json"),
                        max_chars=len(text), val_fraction=0.1)


# ------------------------------------------------------------------ substituted files

DATASET = {"kind": "linear_qk", "spectrum": "sharp", "T": 4, "d": 4, "r_star": 1, "n": 8,
        "sigma": 0.1, "seed": 0}


def test_a_dataset_read_as_another_is_one_line_naming_the_file_and_fields(tmp_path):
    """A valid teacher file of another dataset was accepted, and Table 3 changed."""
    from entropic_bound.data.datasets import DatasetMismatch, check_dataset, write_dataset
    from entropic_bound.data.teachers import TeacherSpec

    path = tmp_path / "data/e3/softmax_qk/sharp/r2/s1.npz"
    write_dataset(TeacherSpec(**DATASET), path)
    assert check_dataset(path, DATASET) == TeacherSpec(**DATASET)
    expected = {**DATASET, "kind": "softmax_qk", "r_star": 2, "seed": 1}
    with pytest.raises(DatasetMismatch, match=r"s1\.npz holds another dataset: kind='linear_qk' "
                                              r"\(expected 'softmax_qk'\), r_star=1 \(expected 2\)"
                                              r", seed=0 \(expected 1\).* --forcerun"):
        check_dataset(path, expected)


def test_verify_finds_a_dataset_whose_path_names_another(tmp_path):
    from entropic_bound.data.datasets import write_dataset
    from entropic_bound.data.teachers import TeacherSpec
    from entropic_bound.verify import verify

    good = tmp_path / "data/e3/linear_qk/sharp/r1/s0.npz"
    copied = tmp_path / "data/e3/softmax_qk/sharp/r2/s1.npz"
    write_dataset(TeacherSpec(**DATASET), good)
    write_dataset(TeacherSpec(**DATASET), copied)
    assert verify(str(tmp_path)) == [copied]
    assert verify(str(tmp_path), remove=True) == [copied] and not copied.exists()


def test_verify_reports_the_tables_the_claims_read_when_they_are_missing(tmp_path):
    """A forced rerun killed midway left table1 and table6 missing for good, and
    verify found nothing."""
    from entropic_bound.claims.registry import CLAIMS
    from entropic_bound.verify import verify

    tables = tmp_path / "tables"
    assert verify(str(tmp_path)) == []  # no claims table yet: nothing is missing
    names = sorted({c.table for c in CLAIMS})
    for name in [*names, "claims"]:
        write_parquet(tables / f"{name}.parquet", pd.DataFrame({"x": [1.0]}))
    assert verify(str(tmp_path)) == []
    (tables / "table1.parquet").unlink()
    (tables / "table6_stats.parquet").unlink()
    assert verify(str(tmp_path)) == [tables / "table1.parquet", tables / "table6_stats.parquet"]
