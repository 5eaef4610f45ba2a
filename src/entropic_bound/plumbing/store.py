"""The store: job outputs kept by key, in the repository, so a run resumes anywhere.

The store is Snakemake's between-workflow output cache (``cache: True`` rules, the folder named
by ``$SNAKEMAKE_OUTPUT_CACHE``; workflow/rules/common.smk points it at ``config["store"]``),
keyed by content (:mod:`entropic_bound.plumbing.store_keys`, served by
:mod:`entropic_bound.plumbing.store_cache`). An entry is the files ``<entry><suffix>`` of one
job (``<entry>_weights.npz``, ``<entry>_record.json``, ...) and its seal; the files of this
folder:

* ``<entry>.sha256``, the **seal**: the sha256 of each of the entry's files (``sha256sum``
  format), written last when the entry is stored. Files without a seal are not an entry (an
  interrupted writer's): no run reads them, :func:`leftovers` lists them.
* ``<key>.alias``: the name of the entry that serves ``key`` (entries stored under Snakemake's
  provenance hashes keep their names: :func:`resolve`).
* ``realisations/<key>.json``: the digests of the outputs of a cheap job that is not stored
  (teacher arrays, tokens) as made under ``key``, so that a dry run can predict the keys below
  it before the data exist.
* ``.locks/<key>`` (not committed): the lock a run holds while it computes ``key``.

What this module adds, because Snakemake's store trusts its files as they are: :func:`check`
verifies every sealed entry before the run plans its jobs and moves a failing one, whole, to the
quarantine folder (one line each), so the run recomputes it; the links to entries that are gone
(:func:`dangling_links`) are removed; :func:`unused` and :func:`prune` find and remove what no
job of the current DAG uses.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from entropic_bound.plumbing.digests import sha256_file

SEAL = ".sha256"
ALIAS = ".alias"
REALISATIONS = "realisations"
QUARANTINE = "results/quarantine/store"  # relative to the workflow's directory
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
        if m and path.is_file() and m.group("suffix") not in (SEAL, ALIAS):
            found.setdefault(m.group("key"), []).append(path)
    return found


def read_seal(seal: Path) -> dict[str, str]:
    """File name -> sha256, from a seal (``sha256sum`` lines)."""
    listed = {}
    for line in seal.read_text().splitlines():
        digest, _, name = line.partition("  ")
        listed[name] = digest
    return listed


def _write_file(path: Path, text: str) -> None:
    """Write a store file whole (a temporary file renamed over it: a reader, or a second run
    sharing the store, sees the old file or the new one) with mode 0644, whatever the umask,
    since the store is committed as it is."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text)
    os.chmod(tmp, FILE_MODE)
    os.replace(tmp, path)


def seal_entry(store: str | os.PathLike[str], key: str) -> None:
    """Write the seal of entry ``key`` (after its files, which makes it an entry) and make
    each of its files 0644."""
    root = Path(store)
    lines = []
    for f in entries(root).get(key, []):
        os.chmod(f, FILE_MODE)
        lines.append(f"{sha256_file(f)}  {f.name}")
    _write_file(root / f"{key}{SEAL}", "\n".join(lines) + "\n")


def seal(store: str | os.PathLike[str]) -> list[str]:
    """Seal every unsealed entry (files copied in by hand: ``entropic-bound store seal``);
    returns their keys. A run seals what it stores itself."""
    root = Path(store)
    done = [key for key in entries(root) if not is_sealed(root, key)]
    for key in done:
        seal_entry(root, key)
    return done


def is_sealed(store: str | os.PathLike[str], key: str) -> bool:
    return (Path(store) / f"{key}{SEAL}").is_file()


def check_entry(store: str | os.PathLike[str], key: str) -> str | None:
    """Why sealed entry ``key`` fails its seal, or None when every file matches."""
    root = Path(store)
    return _problem(root, key, read_seal(root / f"{key}{SEAL}"))


def aliases(store: str | os.PathLike[str]) -> dict[str, str]:
    """Key -> the entry that serves it, for every alias in ``store``."""
    root = Path(store)
    return {p.name.removesuffix(ALIAS): p.read_text().strip()
            for p in (sorted(root.glob(f"*{ALIAS}")) if root.is_dir() else [])}


def write_alias(store: str | os.PathLike[str], key: str, entry: str) -> None:
    _write_file(Path(store) / f"{key}{ALIAS}", entry + "\n")


def resolve(store: str | os.PathLike[str], key: str) -> str | None:
    """The sealed entry that serves ``key``: ``key`` itself, or its alias's target; None."""
    root = Path(store)
    if is_sealed(root, key):
        return key
    alias = root / f"{key}{ALIAS}"
    if alias.is_file():
        entry = alias.read_text().strip()
        if is_sealed(root, entry):
            return entry
    return None


def read_realisation(store: str | os.PathLike[str], key: str) -> dict[str, str]:
    """Output name -> sha256 of the cheap job realised under ``key`` ({} if none)."""
    path = Path(store) / REALISATIONS / f"{key}.json"
    return json.loads(path.read_text()) if path.is_file() else {}


def write_realisation(store: str | os.PathLike[str], key: str,
                      digests: dict[str, str]) -> None:
    """Record what a cheap job made under ``key``; an existing record is kept (the first
    realisation predicts; a run never fetches by a prediction, so a machine whose job made
    other bytes only recomputes what reads them)."""
    folder = Path(store) / REALISATIONS
    path = folder / f"{key}.json"
    if path.is_file():
        return
    folder.mkdir(exist_ok=True)
    _write_file(path, json.dumps(digests, indent=1, sort_keys=True) + "\n")


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
    """Entries, aliases and realisations in ``store`` that serve no key in ``used`` (the
    current DAG's stored jobs, and the cheap jobs whose realisations its predictions read)."""
    keep = set(used)
    served = {entry for key, entry in aliases(store).items() if key in keep}
    made = sorted((Path(store) / REALISATIONS).glob("*.json"))
    return sorted([key for key in entries(store) if key not in keep | served]
                  + [f"{key}{ALIAS}" for key in aliases(store) if key not in keep]
                  + [f"{REALISATIONS}/{p.name}" for p in made if p.stem not in keep])


def leftovers(store: str | os.PathLike[str]) -> list[Path]:
    """What no run reads: Snakemake's temporary folders (``tmp*``) and unsealed files of an
    interrupted store step, seals whose entry is gone, aliases whose entry is gone."""
    root = Path(store)
    if not root.is_dir():
        return []
    found = entries(root)
    return sorted([p for p in root.glob("tmp*") if p.is_dir()]
                  + [f for key, files in found.items() if not is_sealed(root, key)
                     for f in files]
                  + [p for p in root.glob(f"*{SEAL}") if p.name.removesuffix(SEAL) not in found]
                  + [root / f"{k}{ALIAS}" for k, e in aliases(root).items()
                     if not is_sealed(root, e)])


def prune(store: str | os.PathLike[str], names: Iterable[str]) -> int:
    """Remove the entries (and aliases) ``names`` and every leftover; returns bytes freed."""
    root, freed = Path(store), 0
    for name in names:
        single = name.endswith(ALIAS) or name.startswith(f"{REALISATIONS}/")
        for path in [root / name] if single else root.glob(f"{name}[._]*"):
            freed += path.stat().st_size
            path.unlink()
    for path in leftovers(root):
        if path.is_dir():
            freed += sum(f.stat().st_size for f in path.rglob("*") if f.is_file())
            shutil.rmtree(path)
        elif path.exists():
            freed += path.stat().st_size
            path.unlink()
    return freed
