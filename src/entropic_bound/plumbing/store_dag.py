"""Which store entries the current DAG uses, asked of Snakemake itself.

A dry run of every job (``--forceall``) with ``--verbose`` makes Snakemake look each cached
job up in the store, and it logs each entry it finds ("Output file ... exists as <entry> in
the cache"). Those entries are in use; the rest of the store is what
``entropic-bound store unused`` lists. Run with the options of the run that defines the DAG
(profile, ``--config``), from the workflow's directory.
"""

from __future__ import annotations

import re
import subprocess
import sys

from entropic_bound.plumbing.store import ENTRY

FOUND = re.compile(r"exists as (\S+) in the cache")


def used_keys(snakemake_args: list[str], workdir: str = ".") -> set[str]:
    """Keys of the entries the DAG of ``snakemake <snakemake_args>`` would fetch."""
    cmd = [sys.executable, "-m", "snakemake", "-n", "--forceall", "--verbose", *snakemake_args]
    proc = subprocess.run(cmd, cwd=workdir, capture_output=True, text=True)
    if proc.returncode:
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-5:])
        raise SystemExit(f"the dry run that finds the DAG's entries failed "
                         f"({' '.join(cmd[2:])}):\n{tail}")
    keys = set()
    for m in FOUND.finditer(proc.stdout + proc.stderr):
        name = m.group(1).rsplit("/", 1)[-1]
        if entry := ENTRY.match(name):
            keys.add(entry.group("key"))
    return keys
