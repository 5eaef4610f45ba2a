"""This run's own jobs, as the store's wrapper saw them: one note per job under
``results/jobs/``, written by :mod:`entropic_bound.store.job` where the job ran.

A note holds the job's rule, the exact command line the workflow gave it (``argv``, after the
wrapper's ``--``), its inputs and outputs by name, its key and the entry that served it. The
audit, the verdict check and the machine study recompute from notes, never from a store
record: a record is data written by whoever wrote the store, a note is this checkout's workflow
speaking.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from entropic_bound.store.files import parse_json, write_outside

NOTES = "results/jobs"


def note_path(outputs: dict[str, str], root: str | os.PathLike[str] = NOTES) -> Path:
    """Where the note of the job writing ``outputs`` lies (by its first output's path)."""
    first = sorted(outputs.values())[0]
    return Path(root) / f"{hashlib.sha256(first.encode()).hexdigest()[:24]}.json"


def write_note(note: dict[str, Any], root: str | os.PathLike[str] = NOTES) -> None:
    write_outside(note_path(note["outputs"], root),
                  (json.dumps(note, indent=1, sort_keys=True) + "\n").encode())


def notes(root: str | os.PathLike[str] = NOTES, existing: bool = True) -> list[dict[str, Any]]:
    """Every note of this run whose outputs are still the files it made or fetched (with
    ``existing=False``, every note); a note of another shape than the wrapper writes is
    skipped."""
    found = []
    for path in sorted(Path(root).glob("*.json")) if Path(root).is_dir() else []:
        if not path.is_file():  # a folder or a pipe planted under that name: never read
            continue
        try:
            note = parse_json(path.read_text())
        except (OSError, ValueError):
            continue
        if (isinstance(note, dict) and isinstance(note.get("argv"), list)
                and all(isinstance(a, str) for a in note["argv"])
                and isinstance(note.get("outputs"), dict) and note["outputs"]
                and all(isinstance(k, str) and isinstance(p, str)
                        for k, p in note["outputs"].items())
                and (not existing or all(Path(p).is_file() for p in note["outputs"].values()))):
            found.append(note)
    return found
