"""Cached files: atomic output, and input that is verified when read.

Output is written beside the target, then renamed over it: a killed job never leaves a
half-written file under its final name, so a rerun (or ``--rerun-incomplete``) sees either a
complete result or nothing. The file gets the mode a plain ``open()`` would give it (0666 less
the umask, 0644 by default), not ``mkstemp``'s private 0600, so a shared results directory or a
web server can read it. Parquet is written with page checksums (CRC32 of every data page)
and read with their verification; ``.npz`` members carry zip CRC32s that numpy checks on read.
A file that fails either raises :class:`CorruptCacheError`, naming the file and the command that
rebuilds it, instead of a bare traceback (or, worse, a silently changed number).
"""

from __future__ import annotations

import errno
import hashlib
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


def _umask() -> int:
    # os.umask can only be read by setting it; set it straight back (one process, one thread
    # here: the CLI writes its outputs sequentially).
    mask = os.umask(0)
    os.umask(mask)
    return mask


class DiskFull(OSError):
    """The disk (or quota) filled while writing an output; the partial file was removed."""

    def __init__(self, target: Path):
        free = _free_bytes(target.parent)
        super().__init__(errno.ENOSPC, f"{target}: no space left on the device while writing it "
                                       f"({free / 2**20:.1f} MiB free in {target.parent}); "
                                       f"nothing partial was kept and finished outputs are "
                                       f"intact: free space and rerun the same command")


def _free_bytes(folder: Path) -> int:
    try:
        return os.statvfs(folder).f_bavail * os.statvfs(folder).f_frsize
    except OSError:
        return 0


@contextmanager
def atomic_path(target: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a temporary path in the target's directory; rename it to ``target`` on success. A
    full disk or quota is :class:`DiskFull`, one line naming the target (no chained traces)."""
    target = Path(target)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as err:
        if err.errno in (errno.ENOSPC, errno.EDQUOT):
            raise DiskFull(target) from None
        raise
    os.close(fd)
    tmp_path = Path(tmp)
    try:
        yield tmp_path
        os.chmod(tmp_path, 0o666 & ~_umask())
        os.replace(tmp_path, target)
    except OSError as err:
        if err.errno in (errno.ENOSPC, errno.EDQUOT):
            raise DiskFull(target) from None
        raise
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


def sha256_bytes(data: bytes) -> str:
    """Hex sha256 (the digest corpora record at fetch and verify before tokenizing)."""
    return hashlib.sha256(data).hexdigest()


DIGEST_KEY = b"entropic_bound.sha256"


def _content_digest(table: Any) -> bytes:
    """sha256 of a table's column names, pandas metadata and values (JSON of the Python values;
    float reprs are exact). Arrow types are left out: parquet may hand a list or string column
    back with another Arrow spelling of the same values."""
    digest = hashlib.sha256(json.dumps(table.column_names).encode())
    digest.update((table.schema.metadata or {}).get(b"pandas", b""))  # names and dtypes pandas uses
    for name in table.column_names:
        digest.update(json.dumps(table.column(name).to_pylist(), default=repr).encode())
    return digest.hexdigest().encode()


def write_parquet(target: str | os.PathLike[str], frame: Any) -> None:
    """A pandas DataFrame to parquet (pyarrow), without the index, written atomically, with a
    CRC32 on every data page and a sha256 of the whole content in the file's metadata (page CRCs
    do not cover page headers or the footer, where a flipped byte can still change a value)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pandas(frame, preserve_index=False)
    table = table.replace_schema_metadata({**(table.schema.metadata or {}),
                                           DIGEST_KEY: _content_digest(table)})
    _write_with(target, lambda tmp: pq.write_table(table, tmp, write_page_checksum=True))


REBUILD = ("run `entropic-bound verify --remove` (it checks every cached file, removes the "
           "corrupt ones and prints the snakemake --forcerun command that rebuilds exactly them "
           "and what depends on them)")


class CorruptCacheError(RuntimeError):
    """A cached intermediate failed its integrity check; the message names the file and the fix."""

    def __init__(self, path: str | os.PathLike[str], reason: str):
        super().__init__(f"{path} is corrupt ({reason}); {REBUILD}")
        self.path = str(path)


def read_parquet(path: str | os.PathLike[str]) -> Any:
    """A parquet file as a pandas DataFrame, verified: every data page's CRC32, then the
    content's sha256 against the one written beside it (:func:`write_parquet`). Any failure to
    decode an existing file is reported as corruption of that file."""
    import pyarrow.parquet as pq

    if not os.path.exists(path):
        raise FileNotFoundError(path)
    try:
        table = pq.read_table(path, page_checksum_verification=True)
        frame = table.to_pandas()
    except Exception as err:  # noqa: BLE001 - any decoding failure of an existing file
        raise CorruptCacheError(path, f"{type(err).__name__}: {err}") from err
    stored = (table.schema.metadata or {}).get(DIGEST_KEY)
    if stored is None:
        raise CorruptCacheError(path, "no content digest (damaged footer, or written outside "
                                      "entropic_bound.plumbing.atomic.write_parquet)")
    if stored != _content_digest(table):
        raise CorruptCacheError(path, "content sha256 differs from the one written with it")
    return frame


NPZ_ERRORS = (zipfile.BadZipFile, zlib.error, EOFError)


@contextmanager
def open_npz(path: str | os.PathLike[str]) -> Iterator[np.lib.npyio.NpzFile]:
    """``np.load`` of an ``.npz``; a truncated archive or a member whose CRC32 fails (numpy
    reads each member to its end, where zipfile checks it) raises CorruptCacheError."""
    try:
        with np.load(path) as z:
            yield z
    except NPZ_ERRORS as err:
        raise CorruptCacheError(path, f"{type(err).__name__}: {err}") from err


def read_verified_text(text_path: str, provenance_path: str) -> str:
    """The fetched corpus text, after checking its sha256 against the one its provenance
    recorded at fetch time (a changed byte raises CorruptCacheError naming the file)."""
    data = Path(text_path).read_bytes()
    expected = json.loads(Path(provenance_path).read_text())["text_sha256"]
    actual = sha256_bytes(data)
    if actual != expected:
        raise CorruptCacheError(text_path, f"sha256 {actual} differs from {expected} recorded in "
                                           f"{provenance_path}")
    return data.decode("utf-8")
