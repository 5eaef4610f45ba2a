"""A user's odd file or option gets one line naming it and what is expected (exit 2), never a
traceback, and a user's file is never called a corrupt cache of the workflow: the faults
injected into ``estimate-rank`` and ``inspect``."""

from __future__ import annotations

import logging
import warnings

import numpy as np
import pytest
from conftest import tiny_e6_cell

from entropic_bound import cli


def one_line(caplog, argv: list[str]) -> str:
    """Run the command; assert exit 2 and exactly one ERROR record; return its message."""
    with pytest.raises(SystemExit) as stop, caplog.at_level(logging.ERROR), \
            warnings.catch_warnings():
        warnings.simplefilter("error")  # a ComplexWarning must not stand in for the error
        cli.main(argv)
    assert stop.value.code == 2
    errors = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
    assert len(errors) == 1 and "\n" not in errors[0], errors
    assert "verify --remove" not in errors[0]
    caplog.clear()
    return errors[0]


def test_estimate_rank_odd_files(tmp_path, caplog):
    empty = tmp_path / "empty.npz"
    empty.write_bytes(b"")
    assert one_line(caplog, ["estimate-rank", str(empty)]).startswith(
        f"{empty}: not a readable .npz file")
    bare = tmp_path / "bare.npy"
    np.save(bare, np.zeros((4, 3, 3)))
    assert "one bare array of shape (4, 3, 3) (.npy)" in one_line(
        caplog, ["estimate-rank", str(bare)])
    complex_task = tmp_path / "complex.npz"
    np.savez(complex_task, X=np.ones((20, 3, 4), dtype=complex), Y=np.ones((20, 3, 4)))
    assert "array X holds complex128 values; expected real numbers" in one_line(
        caplog, ["estimate-rank", str(complex_task)])


@pytest.fixture(scope="module")
def cell(tmp_path_factory):
    """A tiny trained E6 cell (weights, metrics beside them) and its corpus's meta.json."""
    return tiny_e6_cell(tmp_path_factory.mktemp("cell"))


def inspect_argv(cell, weights=None, text=None, *extra):
    return ["inspect", str(weights or cell / "c.npz"), "--text", str(text or cell / "text.txt"),
            "--meta", str(cell / "meta.json"), *extra]


def test_inspect_odd_options(cell, caplog):
    assert "--windows 0: give at least 1 window" in one_line(
        caplog, inspect_argv(cell, None, None, "--windows", "0"))
    assert "--windows -3" in one_line(caplog, inspect_argv(cell, None, None, "--windows", "-3"))
    for context in ("-5", "0"):  # 0 once meant "the cell's own" silently
        assert f"--context {context}: give at least 1 token" in one_line(
            caplog, inspect_argv(cell, None, None, "--context", context))
    assert "a directory; --text names one UTF-8 text file" in one_line(
        caplog, inspect_argv(cell, None, cell))


def test_inspect_odd_files(cell, caplog, tmp_path):
    import shutil

    from entropic_bound.plumbing.atomic import open_npz

    outside = tmp_path / "greek.txt"
    outside.write_text("the cat sat on the mat. " * 40 + "λ")
    assert "1 character(s) outside the cell's vocabulary" in one_line(
        caplog, inspect_argv(cell, None, outside))
    shutil.copy(cell / "c.metrics.parquet", tmp_path / "w.metrics.parquet")
    with open_npz(cell / "c.npz") as z:
        arrays = {k: z[k] for k in z.files}
    np.savez(tmp_path / "w.npz", **{k: a[..., :-1] if a.ndim == 2 else a
                                    for k, a in arrays.items()})
    assert "are not those of an E6 cell of d_model 16" in one_line(
        caplog, inspect_argv(cell, tmp_path / "w.npz"))
    np.savez(tmp_path / "w.npz", **{k: np.full_like(a, np.nan) for k, a in arrays.items()})
    assert "NaN or infinite weights" in one_line(caplog, inspect_argv(cell, tmp_path / "w.npz"))
    (tmp_path / "w.npz").write_bytes(b"")
    assert "w.npz: not a readable .npz file" in one_line(
        caplog, inspect_argv(cell, tmp_path / "w.npz"))
