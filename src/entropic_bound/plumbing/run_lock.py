"""Whether a Snakemake run holds a working directory.

Two signs: Snakemake's own lock files in ``.snakemake/locks`` (left behind by a killed run, and
removed by ``snakemake --unlock`` whether or not the run is alive), and this workflow's liveness
lock, an ``flock`` on ``.snakemake/entropic-bound.run`` that a run takes at its start
(:func:`hold`, the Snakefile's ``onstart``) and that the kernel releases when the run's process
ends, however it ends. So a run is never mistaken for dead: ``--unlock`` beside a live run
cannot start a second one.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

LIVENESS = Path(".snakemake") / "entropic-bound.run"
_held: list = []  # the open liveness file of this process's run, kept open until it exits


def running(workdir: str | os.PathLike[str]) -> list[Path]:
    """Snakemake's lock files in ``workdir`` (present while a run, or a killed one, holds it)."""
    locks = Path(workdir) / ".snakemake" / "locks"
    return sorted(locks.glob("*.lock")) if locks.is_dir() else []


def alive(workdir: str | os.PathLike[str]) -> str | None:
    """What the live run of ``workdir`` wrote into its liveness file (its pid), or None when
    no live run holds it."""
    path = Path(workdir) / LIVENESS
    if not path.is_file():
        return None
    with open(path) as fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return fh.read().strip() or "a live run"
    return None


def hold(workdir: str | os.PathLike[str] = ".") -> None:
    """Take ``workdir``'s liveness lock for this process, or exit with one line when a live run
    holds it (also after ``snakemake --unlock``, which removes only Snakemake's lock files)."""
    path = Path(workdir) / LIVENESS
    path.parent.mkdir(parents=True, exist_ok=True)
    # kept open for the run's life, so no context manager; not inherited by the jobs (PEP 446).
    # O_NOFOLLOW: a link planted at that name is refused, never followed (nor its target
    # truncated)
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
    except OSError as err:
        raise SystemExit(f"{path}: cannot hold this run's liveness lock ({err.strerror}); "
                         f"expected a regular file there: remove what is in its place") from None
    fh = os.fdopen(fd, "r+")
    try:
        fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        fh.seek(0)
        holder = fh.read().strip()
        fh.close()
        raise SystemExit(f"{Path(workdir).resolve()}: another run is alive in this directory "
                         f"({holder}); `snakemake --unlock` removes Snakemake's lock files, not "
                         f"that run. Wait for it to finish, or stop it (Ctrl-C) first") from None
    fh.seek(0)
    fh.truncate()
    fh.write(f"pid {os.getpid()}")
    fh.flush()
    _held.append(fh)


def refuse_if_running(workdir: str | os.PathLike[str]) -> None:
    """Exit with one line if a Snakemake run holds ``workdir``: removing files under it could
    race the run's own writes."""
    if holder := alive(workdir):
        raise SystemExit(f"{workdir}: a live run holds this directory ({holder}); --remove "
                         "waits for it to finish")
    if locks := running(workdir):
        raise SystemExit(f"{workdir}: a Snakemake run holds this directory ({locks[0]}); "
                         "--remove waits for it to finish (if none is running, a killed run "
                         "left the lock: `snakemake --unlock`)")
