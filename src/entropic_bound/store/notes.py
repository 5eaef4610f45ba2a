"""This run's own jobs, as the store's wrapper saw them: one note per job under
``results/jobs/``, written by :mod:`entropic_bound.store.job` where the job ran.

A note holds the job's rule, the exact command line the workflow gave it (``argv``, after the
wrapper's ``--``), its inputs and outputs by name, its key and the entry that served it. The
audit, the verdict check and the machine study recompute from notes, never from a store
record: a record is data written by whoever wrote the store, a note is this checkout's workflow
speaking.

So a note must prove that this user's runs wrote it: each carries ``mac``, an HMAC-SHA256 of
its other fields (sorted JSON) under a secret kept beside the signing key, outside every
repository (``notes.secret``, 32 random bytes, mode 0600, made at the first note). A note
without a valid one (planted, committed by someone else, written before notes had one) and
a note git tracks (results/ is ignored: a tracked note was force-added) are not read: one line
each where the reader asks (``store sign`` says them).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import subprocess
from pathlib import Path
from typing import Any

from entropic_bound.store.files import Refused, parse_json, shown, write_outside
from entropic_bound.store.trust import key_path

NOTES = "results/jobs"


def note_path(outputs: dict[str, str], root: str | os.PathLike[str] = NOTES) -> Path:
    """Where the note of the job writing ``outputs`` lies (by its first output's path)."""
    first = sorted(outputs.values())[0]
    return Path(root) / f"{hashlib.sha256(first.encode()).hexdigest()[:24]}.json"


SECRET = "notes.secret"


def _secret(create: bool) -> bytes | None:
    """The notes' secret beside the signing key (made where ``create``; None where absent)."""
    path = key_path().parent / SECRET
    if create and not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
            with os.fdopen(fd, "wb") as fh:
                fh.write(os.urandom(32))
        except FileExistsError:  # another job made it first
            pass
    try:
        with open(path, "rb") as fh:
            data = fh.read(33)
    except FileNotFoundError:
        return None
    if len(data) != 32:
        raise Refused(f"{path}: expected the 32 bytes of the notes' secret")
    return data


def mac(note: dict[str, Any], secret: bytes) -> str:
    """The note's HMAC-SHA256 (its fields but ``mac``, as sorted JSON) under ``secret``."""
    body = json.dumps({k: v for k, v in note.items() if k != "mac"}, sort_keys=True)
    return hmac.new(secret, body.encode(), hashlib.sha256).hexdigest()


def write_note(note: dict[str, Any], root: str | os.PathLike[str] = NOTES) -> None:
    signed = {**note, "mac": mac(note, _secret(create=True))}
    write_outside(note_path(note["outputs"], root),
                  (json.dumps(signed, indent=1, sort_keys=True) + "\n").encode())


def tracked(*paths: str | os.PathLike[str]) -> list[str]:
    """The files git tracks at or under ``paths`` (none outside a checkout). ``results/`` and
    ``logs/`` are ignored: what git tracks there was force-added, and a pull writes it over
    a run's own files (the workflow refuses to start while there is any)."""
    try:
        proc = subprocess.run(["git", "ls-files", "-z", "--", *map(str, paths)],
                              capture_output=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return []
    if proc.returncode:
        return []
    return [os.fsdecode(p) for p in proc.stdout.split(b"\0") if p]


def notes(root: str | os.PathLike[str] = NOTES, existing: bool = True,
          refused: list[str] | None = None) -> list[dict[str, Any]]:
    """Every note this user's runs wrote (the module's doc) whose outputs are still the files
    it made or fetched (with ``existing=False``, every note); a note of another shape than the
    wrapper writes is skipped. Each note refused for its origin is a line in ``refused``."""
    found = []
    paths = sorted(Path(root).glob("*.json")) if Path(root).is_dir() else []
    secret = _secret(create=False) if paths else None
    committed = {Path(p).name for p in tracked(root)} if paths else set()
    for path in paths:
        if not path.is_file():  # a folder or a pipe planted under that name: never read
            continue
        if path.name in committed:
            if refused is not None:
                refused.append(f"{shown(str(path))}: a note committed into git (results/ is "
                               "ignored): not this user's run's; not read")
            continue
        try:
            note = parse_json(path.read_text())
        except (OSError, ValueError):
            continue
        if not (isinstance(note, dict) and secret is not None and isinstance(note.get("mac"), str)
                and hmac.compare_digest(note["mac"], mac(note, secret))):
            if refused is not None:
                refused.append(f"{shown(str(path))}: a note without this user's mac (planted, "
                               "or written by another user's run): not read")
            continue
        if (isinstance(note, dict) and isinstance(note.get("argv"), list)
                and all(isinstance(a, str) for a in note["argv"])
                and isinstance(note.get("outputs"), dict) and note["outputs"]
                and all(isinstance(k, str) and isinstance(p, str)
                        for k, p in note["outputs"].items())
                and (not existing or all(Path(p).is_file() for p in note["outputs"].values()))):
            found.append({k: v for k, v in note.items() if k != "mac"})
    return found
