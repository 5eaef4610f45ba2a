"""Cached files: atomic output, and input that is verified when read.

Output is written beside the target, then renamed over it: a killed job never leaves a
half-written file under its final name, so a rerun (or ``--rerun-incomplete``) sees either a
complete result or nothing. Parquet is written with page checksums (CRC32 of every data page)
and read with their verification; ``.npz`` members carry zip CRC32s that numpy checks on read.
A file that fails either raises :class:`CorruptCacheError`, naming the file and the command that
rebuilds it, instead of a bare traceback (or, worse, a silently changed number).
"""

from __future__ import annotations

import json
import os
import tempfile
import zipfile
import zlib
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
    """A pandas DataFrame to parquet (pyarrow, page checksums on), without the index, written
    atomically."""
    _write_with(target, lambda tmp: frame.to_parquet(tmp, engine="pyarrow", index=False,
                                                     write_page_checksum=True))


REBUILD = ("remove it and rerun the workflow, which rebuilds exactly the missing files: "
           "`entropic-bound verify --remove` checks every cached file and removes the corrupt ones")


class CorruptCacheError(RuntimeError):
    """A cached intermediate failed its integrity check; the message names the file and the fix."""

    def __init__(self, path: str | os.PathLike[str], reason: str):
        super().__init__(f"{path} is corrupt ({reason}); {REBUILD}")
        self.path = str(path)


def read_parquet(path: str | os.PathLike[str]) -> "Any":
    """A parquet file as a pandas DataFrame, every data page's checksum verified.

    Data values are covered by the page CRCs; a damaged footer (schema, pandas metadata) fails
    to decode, and any such failure is reported as corruption of this file.
    """
    import pyarrow.parquet as pq

    if not os.path.exists(path):
        raise FileNotFoundError(path)
    try:
        return pq.read_table(path, page_checksum_verification=True).to_pandas()
    except Exception as err:  # noqa: BLE001 - any decoding failure of an existing file
        raise CorruptCacheError(path, f"{type(err).__name__}: {err}") from err


NPZ_ERRORS = (zipfile.BadZipFile, zlib.error, EOFError)


@contextmanager
def open_npz(path: str | os.PathLike[str]) -> Iterator["np.lib.npyio.NpzFile"]:
    """``np.load`` of an ``.npz``; a truncated archive or a member whose CRC32 fails (numpy
    reads each member to its end, where zipfile checks it) raises CorruptCacheError."""
    try:
        with np.load(path) as z:
            yield z
    except NPZ_ERRORS as err:
        raise CorruptCacheError(path, f"{type(err).__name__}: {err}") from err
