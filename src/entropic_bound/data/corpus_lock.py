"""The corpus lock file (``corpora.lock.json``, protocol §E6, "Corpora"): the sha256 of every
downloaded url and archive, and each corpus's pin (``corpus:<name>``: the source, its version and
the text's sha256 and size). A run reads only the pinned text and enforces every recorded
sha256.

No job writes the lock: the workflow reads it when it plans the jobs (each fetch's pin is a
param), so a job that changed it would change the plan under the run. A fetch that meets what the
lock does not hold (a corpus without a pin, an archive or url without a sha256) collects the
entries in its :class:`LockFile` and stops naming them, with the command that adds them
(``entropic-bound corpus-lock``, :func:`record_lock`): trusting a new download is the user's act,
as a re-lock is. Concurrent additions serialise on a flock beside the lock file.
"""

from __future__ import annotations

import fcntl
import json
import re
import shlex
import subprocess
from pathlib import Path

from entropic_bound.plumbing.atomic import write_json
from entropic_bound.plumbing.digests import sha256_file


class ChecksumMismatch(RuntimeError):
    """A download's sha256 differs from the pinned or locked one."""


class PinError(RuntimeError):
    """The corpus text is not the one the lock pins, or the corpus was pinned just now."""


def read_lock(lock: Path) -> dict[str, str | dict]:
    """The lock file's ``url or archive -> sha256`` entries and corpus pins ({} while there is
    none)."""
    if not lock.exists():
        return {}
    try:
        entries = json.loads(lock.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise ValueError(f"{lock}: not a valid lock file ({err}); expected a JSON object of "
                         f"url or archive -> sha256. Restore it from git, or delete it: each "
                         f"fetch then names the entries to add") from None
    if not isinstance(entries, dict):
        raise ValueError(f"{lock}: not a valid lock file; expected a JSON object of url or "
                         f"archive -> sha256, found {type(entries).__name__}")
    return entries


PIN_KEY = "corpus:{}"
PIN_FIELDS = ("source", "version", "text_sha256", "text_bytes")


class BadLockEntry(ValueError):
    """An entry of the lock file of another shape than a sha256 or a corpus pin."""


SHA256 = re.compile(r"[0-9a-f]{64}")


def is_pin(pin: object) -> bool:
    """A corpus pin: exactly ``PIN_FIELDS``, source and version printable text, the text's
    sha256 and its size in bytes."""
    return (isinstance(pin, dict) and set(pin) == set(PIN_FIELDS)
            and all(isinstance(pin[k], str) and pin[k].isprintable()
                    for k in ("source", "version"))
            and isinstance(pin["text_sha256"], str) and SHA256.fullmatch(pin["text_sha256"])
            is not None and type(pin["text_bytes"]) is int and pin["text_bytes"] >= 0)


def corpus_pin(lock: Path, name: str) -> dict | None:
    """The lock's pin of corpus ``name`` (``PIN_FIELDS``), or None where it has none."""
    key = PIN_KEY.format(name)
    pin = read_lock(lock).get(key)
    if pin is not None and not is_pin(pin):
        raise BadLockEntry(f"{lock}: entry {key!r} is not a corpus pin; expected an object "
                           f"with {', '.join(PIN_FIELDS)} (texts, a sha256, a byte count). "
                           f"Restore it from git, or delete the entry to pin the corpus anew")
    return pin


def pin_line(pin: dict) -> str:
    return (f"sha256 {pin['text_sha256'][:16]} ({pin['text_bytes']:,} bytes) from "
            f"{pin['source']} ({pin['version']})")


def relock_hint(lock: Path, name: str) -> str:
    return (f"to use another text, delete {PIN_KEY.format(name)!r} from {lock} (a re-lock: the "
            f"corpus changes, and so does every E6 job on it)")


class Unlocked(RuntimeError):
    """What a fetch read is not in the lock yet: the entries to add, named with the command."""


class LockFile:
    """The lock as one fetch reads it: its entries as they were when the fetch began, and the
    entries the fetch found missing (``missing``), which it never writes."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.entries = read_lock(self.path)
        self.missing: dict[str, str | dict] = {}

    def get(self, key: str) -> str | None:
        """The sha256 the lock records for a url or archive (None: none)."""
        value = self.entries.get(key)
        if value is not None and not (isinstance(value, str) and SHA256.fullmatch(value)):
            raise BadLockEntry(f"{self.path}: entry {key[:120]!r} is {str(value)[:40]!r}, not "
                               "a sha256 (64 lowercase hex digits); restore it from git, or "
                               "delete the entry: the fetch then names the sha256 to add")
        return value

    def add_missing(self, key: str, value: str | dict) -> None:
        self.missing[key] = value

    def __str__(self) -> str:
        return str(self.path)


def check_complete(lock: LockFile, name: str, provenance: dict, pinned: bool) -> None:
    """Raise :class:`Unlocked` where the fetch of corpus ``name`` found entries missing from
    the lock (its pin, where ``pinned`` is false; a download's sha256): one line naming them
    and the command that adds them, after which the next run verifies the text against them."""
    if not pinned:
        lock.add_missing(PIN_KEY.format(name), {k: provenance[k] for k in PIN_FIELDS})
    if lock.missing:
        added = json.dumps(lock.missing, sort_keys=True)
        what = "; ".join(pin_line(v) if isinstance(v, dict) else f"{k}: sha256 {v}"
                         for k, v in sorted(lock.missing.items()))
        raise Unlocked(f"corpus {name!r}: {lock} has no entry for "
                       f"{', '.join(sorted(lock.missing))} ({what}). A job never writes the lock; "
                       f"to trust what was fetched, add them and run again (commit {lock} to "
                       f"share them): entropic-bound corpus-lock {shlex.quote(str(lock))} --add "
                       f"{shlex.quote(added)}")


def record_lock(lock: Path, url: str, digest: str | dict) -> None:
    """Add ``url -> sha256`` (or a corpus pin) to the lock file (``entropic-bound corpus-lock``,
    never a job); concurrent additions serialise on a flock."""
    lock.parent.mkdir(parents=True, exist_ok=True)
    with open(lock.with_suffix(lock.suffix + ".flock"), "w") as guard:
        fcntl.flock(guard, fcntl.LOCK_EX)
        entries = read_lock(lock)
        entries[url] = digest
        write_json(lock, entries)


def apt_sha256(package: str, version: str) -> str | None:
    """The sha256 Debian's package index gives for ``package`` at ``version`` (None where apt
    has no such entry, or no apt)."""
    try:
        proc = subprocess.run(["apt-cache", "show", f"{package}={version}"], capture_output=True,
                              text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    found = re.findall(r"^SHA256: ([0-9a-f]{64})$", proc.stdout, re.M)
    return found[0] if proc.returncode == 0 and len(set(found)) == 1 else None


def verify_archive(archive: Path, cache: Path, lock: LockFile, registry: str | None = None,
                   registry_name: str = "") -> str:
    """The sha256 of a cached archive, checked on every read.

    Against ``registry`` (the digest the package index publishes) where given, else against
    the digest recorded in the lock file (key ``archive:<path in the cache>``); where it has
    none, the entry is collected as missing (:func:`check_complete`). A mismatch raises
    :class:`ChecksumMismatch` naming the file: a corrupt or substituted archive never becomes a
    corpus.
    """
    key = f"archive:{archive.relative_to(cache).as_posix()}"
    digest = sha256_file(archive)
    locked = lock.get(key)
    for expected, where in ((registry, f"the sha256 {registry_name} publishes"),
                            (locked, f"the sha256 recorded for it in {lock}")):
        if expected and digest != expected:
            raise ChecksumMismatch(f"{archive}: sha256 {digest} differs from {expected}, "
                                   f"{where}; the cached archive is corrupt or was replaced: "
                                   f"delete it to download it again")
    if not locked:
        lock.add_missing(key, digest)
    return digest
