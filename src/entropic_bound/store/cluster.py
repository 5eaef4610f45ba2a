"""A cluster run that submits no stored job (``entropic-bound cluster -- OPTIONS``).

Snakemake submits every job a run needs, and a stored job's wrapper fetches in its job step:
with a full store a SLURM run made one queued submission per group only to copy files. So
first the store's plan (:func:`entropic_bound.store.plan.hits`) lists the stored jobs of the
run that the store serves, and a local Snakemake run of exactly their outputs fetches them in
the main process (``--executor local``), the wrapper in fetch-only mode
(:data:`entropic_bound.store.job.FETCH_ONLY`: a miss, which the plan did not predict, fails in
one line; nothing computes on the submitting machine). Snakemake records its metadata for each
fetched file, so a later change of a param or code reruns it as any job. Then the run itself
(``snakemake OPTIONS``, the cluster profile) submits what is left. A job made ready by a
checkpoint is never planned here: this workflow has none, and such a job would be submitted and
fetch in its job step, as before.
"""

from __future__ import annotations

import os
import subprocess
import sys

from entropic_bound.store.job import FETCH_ONLY
from entropic_bound.store.plan import hits

LOCAL = ["--executor", "local"]


def fetch_pass(snakemake_args: list[str], cores: int, workdir: str | os.PathLike[str] = "."
               ) -> int:
    """Fetch, in this process's machine, every stored job of ``snakemake <snakemake_args>``
    that the store serves; the number of jobs asked for. Exits with one line where the local
    pass fails."""
    targets = hits(snakemake_args, workdir)
    if not targets:
        return 0
    # targets first: a --config among the options takes every word after it
    cmd = [sys.executable, "-m", "snakemake", *targets, *snakemake_args, *LOCAL,
           "--cores", str(cores), "--jobs", str(cores)]
    proc = subprocess.run(cmd, cwd=workdir, env={**os.environ, FETCH_ONLY: "1"},
                          capture_output=True, text=True)
    if proc.returncode:
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-8:])
        raise SystemExit(f"cluster: the local fetch of {len(targets)} stored jobs failed "
                         f"(nothing was submitted):\n{tail}")
    # the local run's own store lines (what it fetched, computed, refused)
    for line in proc.stderr.splitlines():
        if line.startswith("store: "):
            print(f"cluster: {line}", file=sys.stderr, flush=True)
    return len(targets)
