"""The per-key lock: a job that misses the store holds ``.locks/<key>`` (``flock``) until its
outputs are sealed, so a second run sharing the store waits and then fetches what the first
stored, instead of computing it twice. The lock file is opened inside the store's own
``.locks`` folder with ``O_NOFOLLOW`` (a planted link is refused, never followed)."""

from __future__ import annotations

import fcntl
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from entropic_bound.store import files
from entropic_bound.store.layout import LOCKS, is_key


@contextmanager
def key_lock(store: str | os.PathLike[str], key: str) -> Iterator[None]:
    """Hold the lock of ``key`` in ``store`` for the body (waiting, with one line, while
    another run holds it)."""
    if not is_key(key):
        raise files.Refused(f"{key[:80]!r} is not a key")
    with files.folder(Path(store), create=True) as top:
        locks = files.subfolder(top, LOCKS, create=True)
        try:
            try:
                fd = os.open(key, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644,
                             dir_fd=locks)
            except OSError as err:
                if isinstance(err, FileNotFoundError):
                    raise
                raise files.Refused(f"{LOCKS}/{key}: is a link; expected a lock file") from err
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
