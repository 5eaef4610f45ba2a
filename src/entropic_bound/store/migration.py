"""``entropic-bound store migrate``: adopt an earlier commit's entries under the working
tree's keys, for a change that moves keys but no result (a key definition, code that computes
nothing the entries hold). Trains nothing: an entry is adopted only where its seal holds and
its record ran exactly the command the working tree's job runs. The aliases and realisations
it writes are signed with this user's key, which must be listed in trusted-keys.txt for others
to use them."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from entropic_bound.store.keyring import trusted
from entropic_bound.store.keys import file_digest
from entropic_bound.store.layout import Store
from entropic_bound.store.plan import Plan, ledger
from entropic_bound.store.records import record_of
from entropic_bound.store.trust import (
    TRUSTED_KEYS,
    realisation_content,
    sign,
    signer_if_any,
)


def entries_at(source: str, store: Store, snakemake_args: list[str]) -> dict[str, str]:
    """First output -> the entry that served its stored job at commit ``source``: a plan of
    that commit's workflow and library (a git worktree, its ``src`` first on the path) over
    this store."""
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "tree"
        subprocess.run(["git", "worktree", "add", "--detach", "-q", str(tree), source],
                       check=True)
        try:
            linked = tree / "store"
            if linked.is_dir():
                shutil.rmtree(linked)
            linked.symlink_to(store.path.resolve())
            env = {"PYTHONPATH": os.pathsep.join([str(tree / "src"),
                                                  os.environ.get("PYTHONPATH", "")])}
            jobs = ledger(snakemake_args, tree, env)
            plan = Plan(jobs, store.path, tree)
            found = {min(j["manifest"]["outputs"].values()): plan.entry(j)
                     for j in plan.stored_jobs()}
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], check=True)
    return {output: entry for output, entry in found.items() if entry}


def migrate(store: Store, source: str, snakemake_args: list[str]) -> None:
    """Alias each stored job's key in the working tree to the entry that served it at
    ``source`` (the module's doc); in rounds, since a job's key reads its upstream entry's
    seal. A key that reads a realised job's outputs (tokens) needs their realisation under
    that job's new key: written from the files where a run of the working tree made them."""
    before = entries_at(source, store, snakemake_args)
    keys = trusted()
    signer = signer_if_any(keys)
    if keys is not None and (signer is None or signer.name not in keys):
        print(f"note: your key {signer.name if signer else '(none)'} is not listed in "
              f"{TRUSTED_KEYS}: the aliases it signs are used by you alone")
    adopted, realised, refused = 0, 0, {}
    while True:
        plan = Plan(ledger(snakemake_args), store.path)
        progress = 0
        for job in plan.jobs:
            m, key = job["manifest"], plan.key(job)
            if (m["keep"] == "realisation" and key and not store.realisation(key)
                    and all(Path(p).is_file() for p in m["outputs"].values())):
                made = {n: file_digest(p) for n, p in m["outputs"].items()}
                store.write_realisation(key, made)
                if signer is not None:  # what was written, never a re-read of the store
                    sign(store, signer, "realisation", key, realisation_content(made))
                realised += 1
                progress += 1
        for job in plan.stored_jobs():
            output, key = min(job["manifest"]["outputs"].values()), plan.key(job)
            if plan.entry(job) or not key or output not in before or output in refused:
                continue
            entry = before[output]
            reason = store.check_entry(entry)
            if reason is None and record_of(store, entry, keys).get("argv") != job["argv"]:
                reason = "its record ran another command than the job's"
            if reason is None:
                store.write_alias(key, entry)
                if signer is not None:
                    sign(store, signer, "alias", key, entry.encode())
                adopted += 1
                progress += 1
            else:
                refused[output] = f"{store}/{entry}: {reason}"
        if not progress:
            break
    for output, line in sorted(refused.items()):
        print(f"not migrated: {output}: {line}")
    unknown = [j for j in plan.stored_jobs() if plan.key(j) is None]
    print(f"{adopted} entries adopted under the working tree's keys (from {source}), "
          f"{realised} realisations written from files, {len(refused)} refused; "
          f"{len(unknown)} jobs whose keys wait for cheap upstream outputs no run of this tree "
          f"has made (make them, e.g. snakemake --until <their rule>, then migrate again)")
