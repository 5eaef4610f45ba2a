"""``entropic-bound verify``: check every cached file under a results folder, and remove the
corrupt ones so that the next ``snakemake`` run rebuilds exactly them (a missing output is
rebuilt; its intact neighbours are kept).

Checks: every ``.parquet`` is read with page-checksum verification, every ``.npz`` member is read
to its end (zip CRC32), every corpus ``text.txt`` is hashed against its ``provenance.json``.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

from .atomic import CorruptCacheError, open_npz, read_parquet
from .corpora import read_verified_text

log = logging.getLogger("entropic_bound.verify")


def check_file(path: Path) -> None:
    """Raise CorruptCacheError if ``path`` fails its integrity check (other files pass)."""
    if path.suffix == ".parquet":
        read_parquet(path)
    elif path.suffix == ".npz":
        with open_npz(path) as z:
            for name in z.files:
                z[name]
    elif path.name == "text.txt" and (path.parent / "provenance.json").exists():
        read_verified_text(str(path), str(path.parent / "provenance.json"))


def corrupt_files(root: Path) -> Iterator[tuple[Path, str]]:
    """(path, reason) of every corrupt cached file under ``root``, in path order."""
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        try:
            check_file(path)
        except CorruptCacheError as err:
            yield path, str(err)


def verify(root: str = "results", remove: bool = False) -> list[Path]:
    """Check every file under ``root``; with ``remove``, delete the corrupt ones. Returns them."""
    found = []
    for path, reason in corrupt_files(Path(root)):
        found.append(path)
        log.error("%s", reason)
        if remove:
            path.unlink()
            log.warning("removed %s; the next snakemake run rebuilds it", path)
    log.info("%d corrupt file(s) under %s%s", len(found), root,
             " (removed)" if remove and found else "")
    return found
