"""Whether a Snakemake run holds a working directory: its lock files in ``.snakemake/locks``."""

from __future__ import annotations

import os
from pathlib import Path


def running(workdir: str | os.PathLike[str]) -> list[Path]:
    """Snakemake's lock files in ``workdir`` (present while a run, or a killed one, holds it)."""
    locks = Path(workdir) / ".snakemake" / "locks"
    return sorted(locks.glob("*.lock")) if locks.is_dir() else []


def refuse_if_running(workdir: str | os.PathLike[str]) -> None:
    """Exit with one line if a Snakemake run holds ``workdir``: removing files under it could
    race the run's own writes."""
    if locks := running(workdir):
        raise SystemExit(f"{workdir}: a Snakemake run holds this directory ({locks[0]}); "
                         "--remove waits for it to finish (if none is running, a killed run "
                         "left the lock: `snakemake --unlock`)")
