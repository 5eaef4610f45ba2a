"""``entropic-bound verify``: check every cached file under a results folder, report the corrupt,
substituted and missing ones, remove the first two, and print the command that rebuilds exactly
them: ``snakemake --forcerun <files>``. A plain rerun is not enough, because Snakemake treats a
missing intermediate whose downstream outputs exist as a deleted temporary file and rebuilds
nothing; ``--forcerun`` re-creates the named files and everything that depends on them, and
keeps the intact rest.

Checks: every ``.parquet`` is read with page-checksum verification, every ``.npz`` member is read
to its end (zip CRC32), every corpus ``text.txt`` is hashed against its ``provenance.json``; a
dataset file (``data/...npz``) must hold the dataset its path names (the spec stored inside it
against the path's teacher, spectrum, r*, operator and seed: a copied file fails); and once the
claims table exists, every table a claim reads must exist beside it. The store's entries are
checked against their seals (``Store.check`` of :mod:`entropic_bound.store`); ``--remove`` sets a
failing one aside to ``results/quarantine/store``, so the next run recomputes it. A file that
vanishes while it is read (a run beside this one replacing it) is skipped, not an error.
"""

from __future__ import annotations

import json
import logging
import os
import re
from collections.abc import Iterator
from pathlib import Path

from entropic_bound.plumbing.atomic import (
    CorruptCacheError,
    open_npz,
    read_parquet,
    read_verified_text,
)

log = logging.getLogger(__name__)

# The workflow's dataset paths (workflow/rules/grid.smk and fixed.smk) and the spec fields each
# part of them names.
DATASET_PATHS = (
    re.compile(r"data/[^/]+/(?P<kind>[a-z_]+_qk)/(?P<spectrum>[a-z_]+)/r(?P<r_star>\d+)/"
               r"s(?P<seed>\d+)\.npz$"),
    re.compile(r"data/[^/]+/(?P<operator>[a-z]+)/s(?P<seed>\d+)\.npz$"),
)


def path_mismatch(path: Path, spec: dict) -> str | None:
    """Where the spec stored in a dataset file differs from what its path names (None if it
    agrees, or the path is not a dataset's)."""
    for pattern in DATASET_PATHS:
        if m := pattern.search(path.as_posix()):
            named = {k: int(v) if v.isdigit() else v for k, v in m.groupdict().items()}
            diff = [f"{k}={spec.get(k)!r} where the path says {v!r}"
                    for k, v in named.items() if spec.get(k) != v]
            return ", ".join(diff) or None
    return None


def check_file(path: Path) -> None:
    """Raise CorruptCacheError if ``path`` fails its integrity check (other files pass)."""
    if path.suffix == ".parquet":
        read_parquet(path)
    elif path.suffix == ".npz":
        with open_npz(path) as z:
            for name in z.files:
                z[name]
            if "spec" in z.files and (diff := path_mismatch(path, json.loads(str(z["spec"])))):
                raise CorruptCacheError(path, f"it holds another dataset: {diff}")
    elif path.name == "text.txt" and (path.parent / "provenance.json").exists():
        read_verified_text(str(path), str(path.parent / "provenance.json"))


def corrupt_files(root: Path) -> Iterator[tuple[Path, str]]:
    """(path, reason) of every corrupt cached file under ``root``, in path order (a file
    removed meanwhile is skipped). The quarantine is not the cache (what the store set aside
    there is anyone's bytes: never judged or removed here), and a link is never followed."""
    from entropic_bound.store import QUARANTINE

    aside = os.path.abspath(Path(QUARANTINE).parent)
    for path in sorted(p for p in root.rglob("*") if p.is_file() and not p.is_symlink()
                       and not os.path.abspath(p).startswith(aside + os.sep)):
        try:
            check_file(path)
        except FileNotFoundError:
            continue
        except CorruptCacheError as err:
            if path.exists():
                yield path, str(err)
        except (OSError, ValueError, KeyError, TypeError) as err:  # no reader expected it
            if path.exists():
                yield path, f"{path}: unreadable ({type(err).__name__}: {err})"


def missing_tables(root: Path) -> list[Path]:
    """The tables the claims read that are missing beside ``tables/claims.parquet`` (none while
    no claims table exists: a run that has not got that far is not missing anything)."""
    from entropic_bound.claims.registry import CLAIMS

    tables = root / "tables"
    if not (tables / "claims.parquet").exists():
        return []
    return [path for path in sorted({tables / f"{c.table}.parquet" for c in CLAIMS})
            if not path.exists()]


def verify_store(store_dir: str | None, remove: bool) -> list[str]:
    """Check the store's sealed entries; with ``remove``, set the failing ones aside. Returns
    the failing entries (a run recomputes them; results hold copies, which stay as they were)."""
    from entropic_bound.store import QUARANTINE, Store

    if store_dir is None or not Path(store_dir).is_dir():
        return []
    store = Store(store_dir)
    listing = store.listing()
    for line in listing.unexpected:
        log.error("store %s/%s", store_dir, line)
    problems = store.check(QUARANTINE if remove else None)
    for problem in problems:
        log.error("store entry %s%s", problem.line(store_dir),
                  f" (set aside to {QUARANTINE})" if remove else "")
    log.info("%d store entries checked in %s, %d failed", len(listing.seals), store_dir,
             len(problems))
    return [f"{store_dir}/{p.key}" for p in problems]


def verify(root: str = "results", remove: bool = False,
           store_dir: str | None = "store") -> list[Path]:
    """Check every file under ``root`` and every entry of ``store_dir``; with ``remove``,
    delete the corrupt files (a file linked from the store: the link, and its entry is set
    aside). Returns the corrupt files and entries and the missing tables."""
    from entropic_bound.plumbing.run_lock import refuse_if_running

    if remove:
        refuse_if_running(Path(root).resolve().parent)
    entries = verify_store(store_dir, remove)
    found = []
    for path, reason in corrupt_files(Path(root)):
        found.append(path)
        log.error("%s", reason)
        if remove:
            path.unlink(missing_ok=True)
            log.warning("removed %s; the next snakemake run rebuilds it", path)
    missing = missing_tables(Path(root))
    for path in missing:
        log.error("%s is missing (a claim reads it)", path)
    log.info("%d corrupt file(s) under %s%s, %d missing", len(found), root,
             " (removed)" if remove and found else "", len(missing))
    if found or missing:
        log.info("rebuild them and what depends on them with your usual snakemake command plus: "
                 "--forcerun %s", " ".join(map(str, [*found, *missing])))
    return [*map(Path, entries), *found, *missing]
