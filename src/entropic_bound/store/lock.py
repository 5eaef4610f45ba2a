"""The per-key lock: a job that misses the store holds ``.locks/<key>`` (``flock``) until its
outputs are sealed, so a second run sharing the store waits and then fetches what the first
stored, instead of computing it twice. The lock file is opened inside the store's own
``.locks`` folder with ``O_NOFOLLOW``; a link or pipe planted there (or a link, file or pipe as
the folder) is removed with one line, never followed; a folder as a lock file is moved aside."""

from __future__ import annotations

import fcntl
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from entropic_bound.store import files
from entropic_bound.store.layout import LOCKS, is_key, move_aside

WHAT = {"link": "a link", "file": "a file", "other": "a pipe or device"}  # files.kind's


@contextmanager
def key_lock(store: str | os.PathLike[str], key: str,
             notices: list[str] | None = None) -> Iterator[None]:
    """Hold the lock of ``key`` in ``store`` for the body (waiting, with one line, while
    another run holds it); a planted link removed is said, and appended to ``notices``."""

    def say(line: str) -> None:
        print(f"store: {line}", file=sys.stderr, flush=True)
        if notices is not None:
            notices.append(line)

    if not is_key(key):
        raise files.Refused(f"{key[:80]!r} is not a key")
    with files.folder(Path(store), create=True) as top:
        planted = files.kind(top, LOCKS)
        if planted in ("link", "file", "other"):  # planted: the name goes, never a target
            say(f"{store}/{LOCKS}: {WHAT[planted]}, removed (locks are made here)")
            os.unlink(LOCKS, dir_fd=top)
        locks = files.subfolder(top, LOCKS, create=True)
        try:
            held = files.kind(locks, key)
            if held == "folder":  # no unlink removes it
                say(f"{store}/{LOCKS}/{key}: a folder, moved aside to "
                    f"{move_aside(locks, key)}")
            elif held not in (None, "file"):
                say(f"{store}/{LOCKS}/{key}: {WHAT[held]}, removed (a lock file is made here)")
                os.unlink(key, dir_fd=locks)
            fd = os.open(key, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644,
                         dir_fd=locks)
        finally:
            os.close(locks)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print(f"store: waiting for another run that computes key {key[:12]}...",
                  file=sys.stderr, flush=True)
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the flock
