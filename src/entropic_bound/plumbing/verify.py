"""``entropic-bound verify``: check every cached file under a results folder, remove the corrupt
ones, and print the command that rebuilds exactly them: ``snakemake --forcerun <files>``. A plain
rerun is not enough, because Snakemake treats a missing intermediate whose downstream outputs
exist as a deleted temporary file and rebuilds nothing; ``--forcerun`` re-creates the named
files and everything that depends on them, and keeps the intact rest.

Checks: every ``.parquet`` is read with page-checksum verification, every ``.npz`` member is read
to its end (zip CRC32), every corpus ``text.txt`` is hashed against its ``provenance.json``.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

from entropic_bound.plumbing.atomic import (
    CorruptCacheError,
    open_npz,
    read_parquet,
    read_verified_text,
)

log = logging.getLogger(__name__)


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
    if found:
        log.info("rebuild them and what depends on them with your usual snakemake command plus: "
                 "--forcerun %s", " ".join(map(str, found)))
    return found
