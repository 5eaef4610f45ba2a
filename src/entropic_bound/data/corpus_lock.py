"""The corpus lock file (``corpora.lock.json``, protocol §E6, "Corpora"): the sha256 of every
downloaded url and archive, recorded at the first read and enforced after, and each corpus's pin
(``corpus:<name>``: the source, its version and the text's sha256 and size). A run reads only the
pinned text; a corpus without a pin is pinned by its first fetch, which then stops the run
(:func:`pin_corpus`), so that no stored job is keyed by an unpinned text. Concurrent fetches
serialise their writes on a flock beside the lock file.
"""

from __future__ import annotations

import fcntl
import json
import re
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
                         f"url or archive -> sha256. Restore it from git, or delete it to "
                         f"record every checksum anew") from None
    if not isinstance(entries, dict):
        raise ValueError(f"{lock}: not a valid lock file; expected a JSON object of url or "
                         f"archive -> sha256, found {type(entries).__name__}")
    return entries


PIN_KEY = "corpus:{}"
PIN_FIELDS = ("source", "version", "text_sha256", "text_bytes")


def corpus_pin(lock: Path, name: str) -> dict | None:
    """The lock's pin of corpus ``name`` (``PIN_FIELDS``), or None where it has none."""
    key = PIN_KEY.format(name)
    pin = read_lock(lock).get(key)
    if pin is not None and not (isinstance(pin, dict) and set(PIN_FIELDS) <= pin.keys()):
        raise ValueError(f"{lock}: entry {key!r} is not a corpus pin; expected an object with "
                         f"{', '.join(PIN_FIELDS)}. Restore it from git, or delete the entry to "
                         f"pin the corpus anew")
    return pin


def pin_line(pin: dict) -> str:
    return (f"sha256 {pin['text_sha256'][:16]} ({pin['text_bytes']:,} bytes) from "
            f"{pin['source']} ({pin['version']})")


def relock_hint(lock: Path, name: str) -> str:
    return (f"to use another text, delete {PIN_KEY.format(name)!r} from {lock} (a re-lock: the "
            f"corpus changes, and so does every E6 job on it)")


def pin_corpus(lock: Path, provenance: dict) -> None:
    """Pin the fetched corpus of ``provenance`` in the lock file, then raise :class:`PinError`:
    a run that pins a corpus stops there, so that every job downstream of the text is planned
    with the pin as part of its key (the next run verifies the text against it)."""
    name = provenance["corpus"]
    pin = {k: provenance[k] for k in PIN_FIELDS}
    record_lock(lock, PIN_KEY.format(name), pin)
    raise PinError(f"corpus {name!r} had no pin; pinned it now to {pin_line(pin)} in {lock}. "
                   f"Run again: the jobs downstream are keyed by the pinned text (commit {lock} "
                   f"to share it)")


def record_lock(lock: Path, url: str, digest: str | dict) -> None:
    """Add ``url -> sha256`` (or a corpus pin) to the lock file; concurrent fetches serialise on
    a flock."""
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


def verify_archive(archive: Path, cache: Path, lock: Path, registry: str | None = None,
                   registry_name: str = "") -> str:
    """The sha256 of a cached archive, checked on every read.

    Against ``registry`` (the digest the package index publishes) where given, else against
    the digest recorded in the lock file at the archive's first read (key ``archive:<path in
    the cache>``), recording it there when absent. A mismatch raises :class:`ChecksumMismatch`
    naming the file: a corrupt or substituted archive never becomes a corpus.
    """
    key = f"archive:{archive.relative_to(cache).as_posix()}"
    digest = sha256_file(archive)
    locked = read_lock(lock).get(key)
    for expected, where in ((registry, f"the sha256 {registry_name} publishes"),
                            (locked, f"the sha256 recorded for it in {lock}")):
        if expected and digest != expected:
            raise ChecksumMismatch(f"{archive}: sha256 {digest} differs from {expected}, "
                                   f"{where}; the cached archive is corrupt or was replaced: "
                                   f"delete it to download it again")
    if not locked:
        record_lock(lock, key, digest)
    return digest
