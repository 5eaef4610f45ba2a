"""The store: job outputs kept by provenance, in the repository, so a run resumes anywhere.

The store is Snakemake's between-workflow output cache (``cache: True`` rules, the folder named
by ``$SNAKEMAKE_OUTPUT_CACHE``; workflow/rules/common.smk points it at ``config["store"]``).
Snakemake names each entry by the job's provenance hash (sha256 over the rule's shell command,
its params, the content of its source inputs, i.e. the code it executes, and the provenance
hashes of the jobs it depends on) plus the output's suffix: ``<hash>_weights.npz``,
``<hash>_record.json``, ``<hash>.parquet``. A job whose hash is in the store is fetched
(symlinked into ``results/``) instead of run.

What this module adds, because Snakemake's store trusts its files as they are:

* **Seals.** ``<hash>.sha256`` beside each entry lists the sha256 of each of its files
  (``sha256sum`` format). :func:`seal` writes it for entries that have none (each run's start
  and end, and ``entropic-bound store seal`` before a commit) and makes every file 0644.
* **Checks.** :func:`check` verifies every sealed entry before the run plans its jobs; an entry
  whose file is missing, truncated or changed is moved, whole, to the quarantine folder
  (reported one line each), so the run recomputes it instead of reading it; the links to
  entries that are gone (:func:`dangling_links`) are removed, so Snakemake sees missing outputs.
* **Housekeeping.** :func:`unused` and :func:`prune` find and remove the entries that no job of
  the current DAG uses, and Snakemake's leftover ``tmp*`` folders of an interrupted store.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from entropic_bound.plumbing.digests import sha256_file

SEAL = ".sha256"
ENTRY = re.compile(r"^(?P<key>[0-9a-f]{64})(?P<suffix>.*)$")
FILE_MODE = 0o644


@dataclass(frozen=True)
class Problem:
    """An entry that failed its check, and why."""

    key: str
    reason: str

    def line(self, store: Path) -> str:
        return f"{store}/{self.key}*: {self.reason}"


def entries(store: str | os.PathLike[str]) -> dict[str, list[Path]]:
    """Entry key -> its files (seal excluded), for every entry in ``store``."""
    found: dict[str, list[Path]] = {}
    root = Path(store)
    if not root.is_dir():
        return found
    for path in sorted(root.iterdir()):
        m = ENTRY.match(path.name)
        if m and path.is_file() and m.group("suffix") != SEAL:
            found.setdefault(m.group("key"), []).append(path)
    return found


def read_seal(seal: Path) -> dict[str, str]:
    """File name -> sha256, from a seal (``sha256sum`` lines)."""
    listed = {}
    for line in seal.read_text().splitlines():
        digest, _, name = line.partition("  ")
        listed[name] = digest
    return listed


def seal(store: str | os.PathLike[str]) -> list[str]:
    """Seal every entry that has no seal, or has files its seal does not list; make every file
    0644. Returns the keys sealed. A file that vanishes meanwhile (a run beside this one) is
    left for the next seal."""
    done = []
    root = Path(store)
    for key, files in entries(root).items():
        path = root / f"{key}{SEAL}"
        try:
            listed = read_seal(path) if path.exists() else {}
            if listed and set(listed) >= {f.name for f in files}:
                continue
            lines = []
            for f in files:
                os.chmod(f, FILE_MODE)
                lines.append(f"{listed.get(f.name) or sha256_file(f)}  {f.name}")
        except FileNotFoundError:
            continue
        tmp = path.with_name(f".{path.name}.tmp")
        tmp.write_text("\n".join(lines) + "\n")
        os.chmod(tmp, FILE_MODE)
        os.replace(tmp, path)
        done.append(key)
    return done


def _problem(root: Path, key: str, listed: dict[str, str]) -> str | None:
    for name, digest in sorted(listed.items()):
        path = root / name
        if not path.is_file():
            return f"{name} is missing"
        actual = sha256_file(path)
        if actual != digest:
            return f"{name} has sha256 {actual[:12]}..., its seal says {digest[:12]}..."
    return None


def check(store: str | os.PathLike[str],
          quarantine: str | os.PathLike[str] | None = None) -> list[Problem]:
    """Verify every sealed entry against its seal; move each failing entry (its files and its
    seal) into ``quarantine`` (a folder outside the store) where one is given."""
    root = Path(store)
    problems = []
    for seal_path in sorted(root.glob(f"*{SEAL}")) if root.is_dir() else []:
        key = seal_path.name.removesuffix(SEAL)
        try:
            reason = _problem(root, key, read_seal(seal_path))
        except FileNotFoundError:  # removed meanwhile (prune, or a run beside this one)
            continue
        if reason is None:
            continue
        problems.append(Problem(key, reason))
        if quarantine is not None:
            set_aside(root, key, Path(quarantine))
    return problems


def set_aside(store: Path, key: str, quarantine: Path) -> None:
    """Move every file of entry ``key`` (and its seal) out of the store into ``quarantine``."""
    quarantine.mkdir(parents=True, exist_ok=True)
    for path in store.glob(f"{key}*"):
        shutil.move(path, quarantine / path.name)


def dangling_links(results: str | os.PathLike[str],
                   store: str | os.PathLike[str]) -> list[Path]:
    """Links under ``results`` into ``store`` whose entry is gone (set aside, pruned, or the
    store moved): to Snakemake a missing output, but one it cannot even stat."""
    root, top = Path(results), Path(store).resolve()
    if not root.is_dir():
        return []
    return sorted(p for p in root.rglob("*")
                  if p.is_symlink() and not p.exists()
                  and Path(os.readlink(p)).parent.resolve() == top)


def unused(store: str | os.PathLike[str], used: Iterable[str]) -> list[str]:
    """Keys of the entries in ``store`` that are not in ``used`` (the current DAG's)."""
    keep = set(used)
    return sorted(key for key in entries(store) if key not in keep)


def leftovers(store: str | os.PathLike[str]) -> list[Path]:
    """Snakemake's temporary folders (``tmp*``) left in the store by an interrupted store step,
    and seals whose entry is gone."""
    root = Path(store)
    if not root.is_dir():
        return []
    keys = set(entries(root))
    return sorted([p for p in root.glob("tmp*") if p.is_dir()]
                  + [p for p in root.glob(f"*{SEAL}") if p.name.removesuffix(SEAL) not in keys])


def prune(store: str | os.PathLike[str], keys: Iterable[str]) -> int:
    """Remove the entries ``keys`` and every leftover; returns the bytes freed."""
    root, freed = Path(store), 0
    for key in keys:
        for path in root.glob(f"{key}*"):
            freed += path.stat().st_size
            path.unlink()
    for path in leftovers(root):
        if path.is_dir():
            freed += sum(f.stat().st_size for f in path.rglob("*") if f.is_file())
            shutil.rmtree(path)
        else:
            freed += path.stat().st_size
            path.unlink()
    return freed
