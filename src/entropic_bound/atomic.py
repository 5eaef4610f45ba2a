"""Atomic file output: write beside the target, then rename over it.

A killed job never leaves a half-written file under its final name, so a rerun (or
``--rerun-incomplete``) sees either a complete result or nothing.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np


@contextmanager
def atomic_path(target: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a temporary path in the target's directory; rename it to ``target`` on success."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    tmp_path = Path(tmp)
    try:
        yield tmp_path
        os.replace(tmp_path, target)
    finally:
        tmp_path.unlink(missing_ok=True)


def _write_with(target: str | os.PathLike[str], writer: Callable[[Path], None]) -> None:
    with atomic_path(target) as tmp:
        writer(tmp)


def write_npz(target: str | os.PathLike[str], **arrays: np.ndarray) -> None:
    """``np.savez`` (uncompressed: Gaussian data does not compress) written atomically."""

    def writer(tmp: Path) -> None:
        with open(tmp, "wb") as fh:
            np.savez(fh, **arrays)

    _write_with(target, writer)


def write_json(target: str | os.PathLike[str], obj: Any) -> None:
    """Pretty, key-sorted JSON written atomically (stable bytes for identical content)."""
    _write_with(target, lambda tmp: tmp.write_text(json.dumps(obj, indent=1, sort_keys=True)))


def write_bytes(target: str | os.PathLike[str], data: bytes) -> None:
    _write_with(target, lambda tmp: tmp.write_bytes(data))


def write_text(target: str | os.PathLike[str], text: str) -> None:
    _write_with(target, lambda tmp: tmp.write_text(text, encoding="utf-8"))


def write_parquet(target: str | os.PathLike[str], frame: "Any") -> None:
    """A pandas DataFrame to parquet (pyarrow), without the index, written atomically."""
    _write_with(target, lambda tmp: frame.to_parquet(tmp, engine="pyarrow", index=False))
